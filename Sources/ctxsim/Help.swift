/// The help texts, one per topic.
enum Help {
  static let version = "ctxsim 0.1.0"

  static let usage = """
    ctxsim: Core Data's concurrency rules, simulated on any machine.

    Usage:
      ctxsim run FILE [options]      run one scenario and report every violation
      ctxsim check PATH...           check scenarios against their declared "expect"
      ctxsim help [run|check]        show help for a command
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

    The default schedule lets the thread that moved last keep going until its block ends
    or it blocks, then the lowest-numbered runnable thread; threads are numbered from 0
    (main) in the order they start.

    """ + ExitStatus.table + "\n"

  static let check = """
    Usage: ctxsim check PATH... [--color auto|always|never] [--max-steps N]

    Runs each scenario (files, or every .json under a folder) on the default schedule and
    compares its violations with the scenario's "expect": each declared violation must
    appear, and nothing else may. Prints one line per scenario.

    Exit status: 0 when every scenario holds, 1 when one does not, 65 when a scenario
    file is invalid, 66 when a path is missing or a folder holds no scenarios.

    """

  static func text(for topic: String?) -> String? {
    switch topic {
    case nil: usage
    case "run": run
    case "check": check
    default: nil
    }
  }
}
