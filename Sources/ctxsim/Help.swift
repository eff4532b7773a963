import ContextSim

/// A command's help apart from its arguments and options, which its option table gives.
struct CommandHelp {
  /// One line, shown after OVERVIEW and in the list of commands.
  var abstract: String
  /// Paragraphs that say what the command does and how to read its output.
  var discussion: String
  /// Commands that run as printed from the repository's root, each with what it shows.
  var examples: [(comment: String, command: String)]
  /// The statuses this command can exit with, and what each means for it.
  var exitStatuses: [(status: Int32, meaning: String)]
}

/// The help texts: each command's prose and exit statuses, and the top-level help.
///
/// The sections are swift-argument-parser's: OVERVIEW, USAGE, ARGUMENTS, OPTIONS,
/// SUBCOMMANDS, then EXAMPLES and EXIT STATUS; Help+Layout.swift lays them out.
enum Help {
  static let version = "ctxsim 0.1.0"

  /// The help for `ctxsim`, or for one command by name; nil for an unknown topic.
  static func text(for topic: String?) -> String? {
    guard let topic else { return usage }
    return ArgumentParser.subcommand(named: topic).map(text(for:))
  }

  // MARK: The commands' prose

  static let run = CommandHelp(
    abstract: "Run one scenario and report every violation.",
    discussion: """
      Runs the scenario on one schedule, printing one line per step that touches Core Data \
      and a short trap report for each violation. A teaching run reports every violation \
      and carries on; the exit status is the one the real app would have.

      The default schedule lets the thread that moved last keep going until its block ends \
      or it blocks, then the lowest-numbered runnable thread; threads are numbered from 0 \
      (main) in the order they start. The last line printed is the schedule taken.
      """,
    examples: [
      (
        "The first scenario; it traps twice and exits 133", "ctxsim run scenarios/wrong-thread.json"
      ),
      (
        "Replay the schedule a run printed",
        "ctxsim run scenarios/wrong-thread.json --schedule 0x5,1x2,0"
      ),
      (
        "The same app without the flag: corruption instead of traps",
        "ctxsim run scenarios/wrong-thread.json --no-concurrency-debug"
      ),
      (
        "A timeline to open in a browser",
        "ctxsim run scenarios/photo-downloader.json --html /tmp/timeline.html"
      ),
    ],
    exitStatuses: statuses(
      success: "the run was clean",
      violations: "violations that do not crash the app, such as a caught error",
      unmodelled: "no violation, but the run passed lines of drafted Swift ctxsim could not "
        + "model: not clean", crashes: true,
      invalidInput: "the scenario has errors, or --schedule does not fit it",
      noInput: "the file is missing or unreadable",
      limit: "--max-steps, --max-threads or --max-file-size stopped the run"))

  static let explore = CommandHelp(
    abstract: "Run many interleavings; replay the ones that fail.",
    discussion: """
      Runs many schedules of one scenario and prints how many ran, the distinct outcomes \
      with how many schedules reached each, and for each failing outcome the shortest \
      schedule found (fewest preemptions, then fewest steps), as the command that replays it.

      The report goes to standard output and is the same for the same options and seed; \
      the time taken and schedules per second go to standard error, where a search still \
      going after three seconds says so while it runs, if that is a terminal. \
      docs/exploration.md describes the strategies and their bounds.
      """,
    examples: [
      (
        "Every class of interleavings of a race that one run misses",
        "ctxsim explore scenarios/checked-too-early.json"
      ),
      (
        "Probabilistic concurrency testing, seeded",
        "ctxsim explore scenarios/never-on-my-machine.json --strategy pct --seed 7"
      ),
      (
        "At most one preemption per schedule",
        "ctxsim explore scenarios/photo-downloader.json --preemption-bound 1"
      ),
    ],
    exitStatuses: statuses(
      success: "no schedule failed, and none was cut short", violations: "a schedule failed",
      unmodelled: "no schedule failed, but some passed lines of drafted Swift ctxsim could "
        + "not model: not clean",
      invalidInput: "the scenario has errors, or nests deeper than --max-nesting",
      noInput: "the file is missing or unreadable",
      limit: "--max-steps or --max-threads cut a schedule short; --time-limit stopped the "
        + "search; --max-schedules or --preemption-bound stopped dpor or exhaustive before "
        + "it covered every interleaving; or the file is larger than --max-file-size"))

  static let check = CommandHelp(
    abstract: "Explore scenarios and hold them to their \"expect\".",
    discussion: """
      Explores each scenario (files, or every .json under a folder; a .swift file is \
      drafted and held to a clean design) and compares the \
      violations with the scenario's "expect": each declared violation must appear, in every \
      schedule or in some ("in": "every"|"some"), and nothing else may. A design declared \
      clean is first searched state by state, keeping at most --max-states states (by \
      default 10 per schedule of the budget); where that finishes it proves the design. \
      Otherwise the exploration is exhaustive with partial-order reduction. When a scenario has more \
      classes of interleavings than the budget, check says so and searches within 0, 1, 2, \
      ... preemptions in turn: a design declared clean state by state, within --max-states \
      each; a design declared buggy with dpor, within a second budget of schedules, which \
      starts as soon as a quarter of the first shows the complete search under 1% done. A design declared \
      clean is then BOUNDED: clean for every schedule with at most k preemptions, k the \
      largest bound whose search finished. That is not a pass, since a bug that needs more \
      preemptions is not excluded. When not even 0 preemptions fit, PCT runs instead and the \
      check is INCOMPLETE. See docs/exploration.md.
      """,
    examples: [
      ("Every scenario in the folder", "ctxsim check scenarios/"),
      ("With a JUnit report for CI", "ctxsim check scenarios/ --junit /tmp/ctxsim-junit.xml"),
      (
        "One scenario, with a smaller budget",
        "ctxsim check scenarios/photo-downloader-fixed.json --max-schedules 500"
      ),
      (
        "Accept a proof within 2 preemptions when the complete one does not fit",
        "ctxsim check scenarios/ --accept-bounded 2"
      ),
    ],
    exitStatuses: statuses(
      success: "every scenario held, or is BOUNDED at --accept-bounded k or more",
      violations: "a scenario did not hold, or has no \"expect\"",
      unmodelled: "every scenario held but some are UNMODELLED: their runs passed lines of "
        + "drafted Swift ctxsim could not model",
      invalidInput: "a scenario has errors, is over --max-file-size or nests too deep",
      noInput: "a path is missing, or a folder holds no scenarios",
      limit: "--max-steps or --max-threads cut a schedule short, or --max-schedules or "
        + "--time-limit stopped the search for a design declared clean before it covered "
        + "every interleaving (BOUNDED or INCOMPLETE; --accept-bounded k lets a proof within "
        + "k or more preemptions hold)"))

  static let lesson = CommandHelp(
    abstract: "List the lessons, or step through one full screen.",
    discussion: """
      With no lesson, lists the lessons in Lessons/. With one, steps through it full \
      screen: the narration, the step just taken as its line of Swift, a lane per thread, a \
      pane per context, and the violation when one happens. When standard output is not a \
      terminal, prints the transcript instead.

      Keys: n or space next, b back, r restart, v next violation, s "you are the \
      scheduler" (pick the thread wherever more than one could run; reach the crash to \
      win), 0-9 pick a thread, e export the timeline as HTML (into --export-dir), h help, \
      q quit.
      """,
    examples: [
      ("List the lessons", "ctxsim lesson"),
      ("Step through the first", "ctxsim lesson 1"),
      ("Start as the scheduler", "ctxsim lesson 9 --play"),
      ("A lesson as plain text, for a handout", "ctxsim lesson 3 --transcript"),
      ("Check every lesson against its scenario", "ctxsim lesson --check"),
    ],
    exitStatuses: statuses(
      success: "the lesson ran, or every lesson checked passed",
      violations: "--check found a problem", invalidInput: "a lesson or its scenario has errors",
      noInput: "a lesson, its scenario or the lessons folder is missing",
      limit: "a lesson's scenario is larger than 16 MiB"))

  static let exercise = CommandHelp(
    abstract: "Fix a broken scenario, and have the fix graded.",
    discussion: """
      With no exercise, lists the exercises in Lessons/Exercises/. With one, prints its \
      brief (what the app must do, what is broken, how it is graded) and writes its \
      starting scenario to exercise-N.json in the working directory, or to --to; an \
      existing file is left as it is unless --force is given.

      --grade FILE explores every interleaving of your attempt (dpor) and passes it only \
      when, in every schedule, no rule is broken and the app still does its work: the \
      store ends with the rows the exercise needs, and viewContext sees them. Each failed \
      criterion comes with its evidence, a schedule to replay and a hint. The model, the \
      store at launch and ConcurrencyDebug must stay as the exercise gives them.

      --solution prints the model solution, which is never shown otherwise.
      """,
    examples: [
      ("List the exercises", "ctxsim exercise"),
      ("Start the first: its brief, and exercise-1.json to edit", "ctxsim exercise 1"),
      ("Grade your attempt", "ctxsim exercise 1 --grade exercise-1.json"),
      ("The model solution, once you have tried", "ctxsim exercise 1 --solution"),
      ("Check every exercise against its solution", "ctxsim exercise --check"),
    ],
    exitStatuses: statuses(
      success: "the attempt passed; the brief was printed; every exercise checked passed",
      violations: "the attempt failed a criterion, or --check found a problem",
      invalidInput: "the attempt, a brief or its scenarios have errors",
      noInput: "the exercise, the attempt or the exercises folder is missing, or the "
        + "starting scenario cannot be written",
      limit: "--max-steps or --max-threads cut a schedule short, or --max-schedules or "
        + "--time-limit stopped the search before it covered every interleaving: not graded"))

  static let scan = CommandHelp(
    abstract: "Scan a module: its entry points, alone and in pairs.",
    discussion: """
      Reads the module's Swift (files, or a folder and the .xcdatamodeld in it), finds the \
      types that touch Core Data, and drafts and explores each of their non-private methods \
      called from the main thread, from a background queue, and with each other method at \
      once from two background queues. Prints the findings worst first, each with the \
      app's line, the violation, the run that shows it and a command that replays it, \
      then the lines it could not model for each entry point. A scan with lines not \
      modelled is never clean. docs/draft.md says what is recognised.
      """,
    examples: [
      ("Scan a module", "ctxsim scan Examples/Draft/NotesApp"),
      (
        "For a code-scanning view",
        "ctxsim scan Examples/Draft/NotesApp --format sarif > ctxsim.sarif"
      ),
    ],
    exitStatuses: [
      (ExitStatus.success, "clean: every run of every entry point, fully modelled and explored"),
      (ExitStatus.violations, "findings"),
      (ExitStatus.unmodelled, "no findings, but runs passed lines ctxsim could not model"),
      (ExitStatus.usage, "usage error: unknown option, bad option value, no path"),
      (
        ExitStatus.invalidInput,
        "a file is not UTF-8 text, --model cannot be read, or a draft does not run"
      ),
      (
        ExitStatus.noInput,
        "a file is missing or unreadable, or no type in the files touches Core Data"
      ),
      (ExitStatus.limitReached, "no findings, but a search was cut short or pairs were not run"),
    ])

  static let draft = CommandHelp(
    abstract: "Draft a scenario from an app's own Swift.",
    discussion: """
      Reads the Swift files, finds the classes that use Core Data, and prints a scenario \
      that calls each non-private method on the main thread in source order (or the calls \
      given with --call), with stand-ins for the arguments: sample values for a \
      collection, the screen's object from viewContext for a managed object, an injected \
      dependency that answers at once. Each step's label is its file and line, and it \
      carries the Swift it stands for; a line the draft does not model stays as a step \
      that prints "not modelled". docs/draft.md says what is recognised.
      """,
    examples: [
      (
        "Draft a class that saves from many threads",
        "ctxsim draft Examples/Draft/ImageImporter.swift"
      ),
      (
        "Draft one call",
        "ctxsim draft Examples/Draft/ImageImporter.swift --call 'markAllViewed()'"
      ),
    ],
    exitStatuses: [
      (ExitStatus.success, "the scenario was drafted"),
      (ExitStatus.usage, "usage error: unknown option, bad option value, no file"),
      (
        ExitStatus.invalidInput,
        "a file is not UTF-8 text, --model cannot be read, or the draft does not run as it is"
      ),
      (ExitStatus.noInput, "a file is missing or unreadable, or -o cannot be written"),
      (ExitStatus.limitReached, "a file is over --max-file-size"),
    ])

  static let game = CommandHelp(
    abstract: "Play the scheduler game: levels won by your choices.",
    discussion: """
      With no level, lists the levels in Lessons/Levels/ with a mark on each one done and \
      the next one pointed out. With one, plays it full screen: you pick the thread that \
      runs at every point where more than one could, to reach the level's goal (a trap, a \
      race, a deadlock, corruption without the flag, or getting through unharmed), or you \
      pick the candidate fix that holds, which ctxsim then explores in every interleaving. \
      A failed try reveals a hint. When standard output is not a terminal, prints the \
      level's briefing instead.

      Progress is kept in $XDG_STATE_HOME/ctxsim/game.json, or \
      ~/.local/state/ctxsim/game.json; --reset forgets it.

      Keys: Enter start, 0-9 run a thread, 1-9 pick a fix, n next, b back, r try again, \
      v next violation of a counterexample, h help, q quit. After a win, Enter plays the \
      next level.
      """,
    examples: [
      ("List the levels and what is done", "ctxsim game"),
      ("Play the first level", "ctxsim game 1"),
      ("Check every level", "ctxsim game --check"),
      ("Start again from nothing", "ctxsim game --reset"),
    ],
    exitStatuses: statuses(
      success: "the level was played, the levels listed, or every level checked passed",
      violations: "--check found a problem",
      invalidInput: "a level or one of its scenarios has errors",
      noInput: "a level, its scenario or the levels folder is missing",
      limit: "a level's scenario is larger than 16 MiB"))

  private static let crashes: [(status: Int32, meaning: String)] = [
    (
      Termination.concurrencyTrap.exitStatus,
      "the app would trap: ConcurrencyDebug (SIGTRAP), or a failed try!"
    ),
    (
      Termination.uncaughtException.exitStatus,
      "the app would abort: an uncaught Objective-C exception (SIGABRT)"
    ),
    (
      Termination.watchdog.exitStatus,
      "the main thread deadlocked: the watchdog would kill the app (SIGKILL)"
    ),
    (
      Termination.badAccess.exitStatus,
      "without the flag, a corrupted context crashed the app (SIGSEGV)"
    ),
  ]

  /// A command's exit statuses in the order help lists them: 0 and 1, the app's crashes
  /// for a command that runs one, then ctxsim's own.
  private static func statuses(
    success: String, violations: String, unmodelled: String? = nil, crashes: Bool = false,
    invalidInput: String, noInput: String, limit: String? = nil
  ) -> [(status: Int32, meaning: String)] {
    [(ExitStatus.success, success), (ExitStatus.violations, violations)]
      + (unmodelled.map { [(ExitStatus.unmodelled, $0)] } ?? [])
      + (crashes ? Help.crashes : [])
      + [
        (ExitStatus.usage, "usage error: unknown command or option, bad option value"),
        (ExitStatus.invalidInput, invalidInput), (ExitStatus.noInput, noInput),
      ] + (limit.map { [(ExitStatus.limitReached, $0)] } ?? [])
  }

  // MARK: ctxsim --help

  static var usage: String {
    let commands =
      ArgumentParser.subcommands.map { row($0.name, $0.help.abstract) }.joined()
      + row("help", "Show help for a subcommand.") + row("version", "Show the version.")
    let statuses = statuses(
      success: "the run was clean; no explored schedule failed; every check held",
      violations: "violations that do not crash the app; a failing schedule; a check that "
        + "did not hold",
      unmodelled: "unmodelled: no violation, but the run passed lines of drafted Swift "
        + "ctxsim could not model, so it cannot say clean", crashes: true,
      invalidInput: "invalid input: a scenario with errors, or a schedule that does not fit",
      noInput: "no input: a missing file, or a folder with no scenarios",
      limit: "a limit stopped a run or cut a search short; raise it and retry")
    return section("OVERVIEW", "Core Data's concurrency rules, simulated on any machine.")
      + paragraphs(
        "A scenario is a JSON file scripting what an app's queues do with Core Data; see "
          + "docs/scenario-format.md. Lessons, levels and exercises are found from any "
          + "directory: here, in $CTXSIM_HOME, or beside the ctxsim executable.")
      + section("USAGE", "ctxsim <subcommand> [<options>]")
      + section(
        "OPTIONS", nil,
        row("--version", "Show the version.")
          + row("--generate-completion-script <shell>", "Print bash, zsh or fish completion.")
          + row("-h, --help", "Show help information."))
      + section(
        "SUBCOMMANDS", nil, commands + "\n  See 'ctxsim help <subcommand>' for detailed help.\n")
      + section(
        "EXAMPLES", nil,
        examples([
          ("The first scenario", "ctxsim run scenarios/wrong-thread.json"),
          ("The options of one command", "ctxsim help explore"),
        ]))
      + section("EXIT STATUS", nil, exitStatuses(statuses))
  }
}
