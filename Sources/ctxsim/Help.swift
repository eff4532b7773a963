/// The help texts, one per topic.
enum Help {
  static let version = "ctxsim 0.1.0"

  static let usage = """
    ctxsim: Core Data's concurrency rules, simulated on any machine.

    Usage:
      ctxsim run FILE [options]      run one scenario and report every violation
      ctxsim explore FILE [options]  run many interleavings; replay the ones that fail
      ctxsim check PATH... [options] explore scenarios and hold them to their "expect"
      ctxsim lesson [N] [options]    list the lessons, or step through one full screen
      ctxsim help [run|explore|check|lesson]
      ctxsim --version

    A scenario is a JSON file scripting what an app's queues do with Core Data;
    see docs/scenario-format.md. Start with:
      ctxsim run scenarios/wrong-thread.json

    """ + ExitStatus.table + "\n"

  static let run = """
    Usage: ctxsim run FILE [options]

    Runs the scenario on one schedule, printing one line per step that touches Core Data
    and a short trap report for each violation. A teaching run reports every violation
    and carries on; the exit status is the one the real app would have.

    Options:
      --no-concurrency-debug   run without -com.apple.CoreData.ConcurrencyDebug 1
      --concurrency-debug      run with it, whatever the scenario says
      --stop-at-first          end at the first crash, as the real app would
      --verbose                add a simulated backtrace to each violation
      --all-steps              also show dispatch steps, object IDs and loops
      --schedule STRING        replay a schedule printed by an earlier run (0x4,1x2,0)
      --seed N                 run a seeded random schedule instead of the default one
      --format text|json       text for people (default), or one JSON document
      --color auto|always|never
                               colour on a terminal by default; never with NO_COLOR set
      --max-steps N            stop a run after N steps (default 100000)
      --max-threads N          stop a run at N threads, or N queues (default 512)
      --max-file-size BYTES    refuse larger scenario files (default 16 MiB)
      --max-depth N            refuse JSON nested deeper (default 128)
      --html FILE              also write the run's timeline as one HTML page

    The default schedule lets the thread that moved last keep going until its block ends
    or it blocks, then the lowest-numbered runnable thread; threads are numbered from 0
    (main) in the order they start.

    """ + ExitStatus.table + "\n"

  static let explore = """
    Usage: ctxsim explore FILE [options]

    Runs many schedules of one scenario and prints how many ran, the distinct outcomes
    with how many schedules reached each, and for each failing outcome the shortest
    schedule found (fewest preemptions, then fewest steps), as the command that replays it.

    Options:
      --strategy dpor|pct|random|exhaustive
                               dpor (default): every class of interleavings once, with
                               partial-order reduction; pct: probabilistic concurrency
                               testing; random: uniform choices; exhaustive: every
                               interleaving, no reduction
      --seed N                 seed for pct and random (default 0)
      --depth D                pct's bug depth (default 3)
      --preemption-bound B     dpor explores only schedules with at most B preemptions
      --max-schedules N        stop after N schedules (default 10000)
      --time-limit S           stop after S seconds
      --no-concurrency-debug   explore the app without the flag: corruption instead of traps
      --concurrency-debug      with the flag, whatever the scenario says
      --jobs N                 cores for pct and random (default: all); same results on any
      --format text|json
      --max-steps N            stop a schedule after N steps (default 100000)
      --max-threads N          stop a run at N threads, or N queues (default 512)
      --max-file-size BYTES    refuse larger scenario files (default 16 MiB)
      --max-depth N            refuse JSON nested deeper (default 128)

    The report goes to standard output and is the same for the same options and seed;
    the time taken and schedules per second go to standard error.
    Exit status: 0 when no schedule failed, 1 when one did; 64, 65, 66 as for run.

    """

  static let check = """
    Usage: ctxsim check PATH... [options]

    Explores each scenario (files, or every .json under a folder) and compares the
    violations with the scenario's "expect": each declared violation must appear, in every
    schedule or in some ("in": "every"|"some"), and nothing else may. By default the
    exploration is exhaustive with partial-order reduction; when a scenario has more
    classes of interleavings than the budget, check says so and runs PCT instead.

    Options:
      --strategy dpor|pct|random|exhaustive   explore this way instead
      --max-schedules N        the budget per scenario (default 10000)
      --time-limit S           stop exploring a scenario after S seconds
      --seed N                 seed for pct and random (default 0)
      --junit FILE             also write JUnit XML, one test case per scenario
      --format text|json       one line per scenario (default), or one JSON document
      --jobs N                 scenarios checked at once (default: all cores)
      --color auto|always|never
      --max-steps N            stop a schedule after N steps (default 100000)
      --max-threads N          stop a run at N threads, or N queues (default 512)
      --max-file-size BYTES    refuse larger scenario files (default 16 MiB)
      --max-depth N            refuse JSON nested deeper (default 128)

    Exit status: 0 when every scenario holds, 1 when one does not, 65 when a scenario
    file is invalid, 66 when a path is missing or a folder holds no scenarios.

    """

  static let lesson = """
    Usage: ctxsim lesson [N|NAME|FILE] [options]

    With no lesson, lists the lessons in Lessons/. With one (its number, part of its
    name, or a path), steps through it full screen: the narration, the step just taken
    as its line of Swift, a lane per thread, a pane per context, and the violation when
    one happens. When standard output is not a terminal, prints the transcript instead.

    Keys: n or space next, b back, r restart, v next violation, s "you are the
    scheduler" (pick the thread wherever more than one could run; reach the crash to
    win), 0-9 pick a thread, e export the timeline as HTML, h help, q quit.

    Options:
      --transcript             print the lesson as plain text, step after step
      --play                   start in "you are the scheduler" mode
      --html FILE              write the lesson's timeline as one HTML page
      --check                  check every lesson (or the one named) against its
                               scenario: labels exist, the schedule fits, the crash
                               it names can happen
      --lessons DIR            lessons folder (default Lessons)
      --color auto|always|never

    Exit status: 0, or 1 when --check finds a problem, 64 for a bad command line,
    65 when a lesson or its scenario is invalid, 66 when it is missing.

    """

  static func text(for topic: String?) -> String? {
    switch topic {
    case nil: usage
    case "run": run
    case "check": check
    case "explore": explore
    case "lesson", "lessons": lesson
    default: nil
    }
  }
}
