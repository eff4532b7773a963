import ContextSim

// Each command's option table: the only place an option's name, value, help and meaning
// are written. `ArgumentParser` parses with these rows and `Help` renders them.

extension ArgumentParser {
  static var runCommand: Subcommand<RunOptions> {
    Subcommand(
      name: "run", help: Help.run,
      arguments: [ArgumentHelp(label: "<file>", abstract: "The scenario file; - reads stdin.")],
      options: [
        .value("--schedule", .schedule, "Replay a schedule a run printed, such as 0x5,1x2,0.") {
          $0.schedule = $1
        },
        .value("--seed", .seed, "Run a seeded random schedule instead.") { $0.seed = $1 },
        .flag("--stop-at-first", "End at the first crash, as the app would.") {
          $0.stopAtFirst = true
        },
        .flag("--verbose", "Add a simulated backtrace to each violation.") { $0.verbose = true },
        .flag("--all-steps", "Also show dispatches, object IDs and loops.") { $0.allSteps = true },
        .value("--html", .path("<file>"), "Also write the timeline as HTML.") { $0.html = $1 },
      ] + Option.concurrencyDebug(\.concurrencyDebug) + Limits.options(\.limits)
        + DraftSettings.options(\.draft) + [
          .format("Text for people, or one JSON document.") { $0.format = $1 },
          .colour { $0.colour = $1 },
        ],
      start: RunOptions(),
      positionals: oneScenario(
        "run", tooMany: "`ctxsim run` takes one scenario file; use `ctxsim check` for several"
      ) {
        $0.file = $1
        $0.moreFiles = $2
      },
      finish: { (options) throws(UsageError) in
        if options.schedule != nil && options.seed != nil {
          throw UsageError(message: "use `--schedule` or `--seed`, not both")
        }
        return .run(options)
      })
  }

  static var exploreCommand: Subcommand<ExploreDraft> {
    Subcommand(
      name: "explore", help: Help.explore,
      arguments: [ArgumentHelp(label: "<file>", abstract: "The scenario file; - reads stdin.")],
      options: StrategyChoice.options(\.strategy, default: .dpor) + [
        .maxSchedules("Stop after n schedules.", default: ExploreOptions().maxSchedules) {
          $0.options.maxSchedules = $1
        },
        .timeLimit("Stop after this many seconds, at a cost to reproducibility.") {
          $0.options.timeLimit = $1
        },
        .jobs("Cores for pct and random; any number gives the same report.") {
          $0.options.jobs = $1
        },
      ] + Option.concurrencyDebug(\.options.concurrencyDebug) + Limits.options(\.options.limits)
        + DraftSettings.options(\.options.draft)
        + [
          .format("Text for people, or one JSON document.") { $0.options.format = $1 },
          .colour { $0.options.colour = $1 },
        ],
      start: ExploreDraft(),
      positionals: oneScenario("explore", tooMany: "`ctxsim explore` takes one scenario file") {
        $0.options.file = $1
        $0.options.moreFiles = $2
      },
      finish: { (draft) throws(UsageError) in
        var options = draft.options
        var choice = draft.strategy
        choice.name = choice.name ?? .dpor
        try choice.validate()
        options.strategy = choice.strategy ?? .dpor(preemptionBound: nil)
        return .explore(options)
      })
  }

  static var checkCommand: Subcommand<CheckDraft> {
    Subcommand(
      name: "check", help: Help.check,
      arguments: [
        ArgumentHelp(label: "<path> ...", abstract: "Scenario files, or folders of them.")
      ],
      options: StrategyChoice.options(\.strategy, default: nil) + [
        .maxSchedules("The budget of schedules per scenario.", default: CheckOptions.defaultBudget)
        { $0.options.maxSchedules = $1 },
        .timeLimit("Stop exploring a scenario after this many seconds.") {
          $0.options.timeLimit = $1
        },
        .jobs(
          "Cores, for scenarios at once and for a scenario's dpor; any number gives the same report."
        ) { $0.options.jobs = $1 },
        .value("--junit", .path("<file>"), "Also write a JUnit XML report.") {
          $0.options.junit = $1
        },
        .value(
          "--accept-bounded", .count("<k>"),
          "Count BOUNDED at k or more preemptions as held: exit 0, a JUnit pass.",
          default: "none"
        ) { $0.options.acceptBounded = $1 },
      ] + Limits.options(\.options.limits) + [
        .format("One line per scenario, or one JSON document.") { $0.options.format = $1 },
        .colour { $0.options.colour = $1 },
      ],
      start: CheckDraft(),
      positionals: { (draft, words) throws(UsageError) in
        guard !words.isEmpty else {
          throw UsageError(message: "`ctxsim check` needs scenario files or folders")
        }
        draft.options.paths = words
      },
      finish: { (draft) throws(UsageError) in
        var options = draft.options
        try draft.strategy.validate()
        options.seed = draft.strategy.seed
        options.maxStates = draft.strategy.maxStates
        options.strategy = draft.strategy.strategy
        if options.strategy != nil && options.acceptBounded != nil {
          throw UsageError(
            message: "`--accept-bounded` accepts the fallback's bounded proof, and `--strategy` "
              + "runs that strategy only, with no fallback")
        }
        return .check(options)
      })
  }

  /// Takes exactly one word left over, the scenario file, and stores it with `set`.
  /// One scenario file, or the Swift of one module (`A.swift B.swift`, folders too, as
  /// `scan` names them in its replay commands), drafted as one.
  private static func oneScenario<Draft>(
    _ command: String, tooMany: String, set: @escaping (inout Draft, String, [String]) -> Void
  ) -> (inout Draft, [String]) throws(UsageError) -> Void {
    { (draft, words) throws(UsageError) in
      guard let first = words.first else {
        throw UsageError(message: "`ctxsim \(command)` needs a scenario file")
      }
      guard words.count == 1 || !words.contains(where: { $0.hasSuffix(".json") }) else {
        throw UsageError(message: tooMany + "; several .swift files are drafted as one module")
      }
      set(&draft, first, Array(words.dropFirst()))
    }
  }

  static var lessonCommand: Subcommand<LessonOptions> {
    Subcommand(
      name: "lesson", aliases: ["lessons"], help: Help.lesson,
      arguments: [
        ArgumentHelp(
          label: "<lesson>", abstract: "A lesson's number, part of its name, or its path.",
          optional: true)
      ],
      options: [
        .flag("--transcript", "Print the lesson as plain text.") { $0.transcript = true },
        .flag("--play", "Start in \"you are the scheduler\" mode.") { $0.play = true },
        .value(
          "--export-dir", .path("<dir>"), "Where the e key writes the timeline.",
          default: "$TMPDIR, or /tmp"
        ) {
          $0.exportDirectory = $1
        },
        .value("--html", .path("<file>"), "Only write the timeline as HTML.") { $0.html = $1 },
        .flag("--check", "Check the lessons, or the one named.") { $0.check = true },
        .value(
          "--lessons", .path("<dir>"), "The lessons folder; when not here, the one beside ctxsim.",
          default: LessonOptions().directory
        ) {
          $0.directory = $1
        },
        .colour { $0.colour = $1 },
      ],
      start: LessonOptions(),
      positionals: { (options, words) throws(UsageError) in
        guard words.count <= 1 else {
          throw UsageError(message: "`ctxsim lesson` takes one lesson at a time")
        }
        options.lesson = words.first
      },
      finish: { (options) throws(UsageError) in
        if options.lesson == nil && (options.transcript || options.play || options.html != nil) {
          throw UsageError(
            message: "name a lesson, such as `ctxsim lesson 1`; `ctxsim lesson` lists them")
        }
        return .lesson(options)
      })
  }
}

extension ArgumentParser {
  static var exerciseCommand: Subcommand<ExerciseDraft> {
    Subcommand(
      name: "exercise", aliases: ["exercises"], help: Help.exercise,
      arguments: [
        ArgumentHelp(
          label: "<exercise>", abstract: "An exercise's number, part of its name, or its brief.",
          optional: true)
      ],
      options: [
        .value("--grade", .path("<file>"), "Grade your attempt at the exercise.") {
          $0.grade = $1
        },
        .value(
          "--to", .path("<file>"), "Write the starting scenario here.", default: "exercise-N.json"
        ) { $0.options.to = $1 },
        .flag("--force", "Overwrite that file if it exists.") { $0.options.force = true },
        .flag("--solution", "Print the model solution; try the exercise first.") {
          $0.solution = true
        },
        .flag("--check", "Check the exercises, or the one named.") { $0.check = true },
        .value(
          "--exercises", .path("<dir>"),
          "The exercises folder; when not here, the one beside ctxsim.",
          default: ExerciseOptions().directory
        ) { $0.options.directory = $1 },
        .maxSchedules(
          "The budget of schedules for --grade and --check.", default: CheckOptions.defaultBudget
        ) { $0.options.maxSchedules = $1 },
        .timeLimit("Stop grading an attempt after this many seconds.") {
          $0.options.timeLimit = $1
        },
      ] + Limits.options(\.options.limits) + [
        .format("With --grade: text, or one JSON document.") { $0.options.format = $1 },
        .colour { $0.options.colour = $1 },
      ],
      start: ExerciseDraft(),
      positionals: { (draft, words) throws(UsageError) in
        guard words.count <= 1 else {
          throw UsageError(message: "`ctxsim exercise` takes one exercise at a time")
        }
        draft.options.exercise = words.first
      },
      finish: { (draft) throws(UsageError) in try draft.command() })
  }
}

/// `exercise`'s options while they are parsed: `--grade`, `--solution` and `--check` are
/// one choice, made once all are read.
struct ExerciseDraft {
  var options = ExerciseOptions()
  var grade: String?
  var solution = false
  var check = false

  func command() throws(UsageError) -> Command {
    var options = options
    let modes = [grade != nil, solution, check].filter { $0 }.count
    if modes > 1 {
      throw UsageError(message: "use one of `--grade`, `--solution` and `--check`")
    }
    if let grade {
      options.mode = .grade(grade)
    } else if solution {
      options.mode = .solution
    } else if check {
      options.mode = .check
    }
    let named = options.exercise != nil
    if !named && (grade != nil || solution || options.to != nil || options.force) {
      throw UsageError(
        message: "name an exercise, such as `ctxsim exercise 1`; `ctxsim exercise` lists them")
    }
    if options.mode != .brief && (options.to != nil || options.force) {
      throw UsageError(
        message: "`--to` and `--force` go with starting an exercise: `ctxsim exercise 1 --to FILE`"
      )
    }
    if options.format == .json && grade == nil {
      throw UsageError(message: "`--format json` goes with `--grade`")
    }
    return .exercise(options)
  }
}

extension ArgumentParser {
  static var gameCommand: Subcommand<GameOptions> {
    Subcommand(
      name: "game", aliases: ["levels"], help: Help.game,
      arguments: [
        ArgumentHelp(
          label: "<level>", abstract: "A level's number, part of its name, or its path.",
          optional: true)
      ],
      options: [
        .flag("--check", "Check the levels, or the one named.") { $0.check = true },
        .flag("--reset", "Forget which levels are done, and the failed tries.") {
          $0.reset = true
        },
        .value(
          "--levels", .path("<dir>"), "The levels folder; when not here, the one beside ctxsim.",
          default: GameOptions().directory
        ) {
          $0.directory = $1
        },
        .colour { $0.colour = $1 },
      ],
      start: GameOptions(),
      positionals: { (options, words) throws(UsageError) in
        guard words.count <= 1 else {
          throw UsageError(message: "`ctxsim game` plays one level at a time")
        }
        options.level = words.first
      },
      finish: { (options) throws(UsageError) in
        if options.reset && (options.level != nil || options.check) {
          throw UsageError(message: "`--reset` forgets all progress; use it alone")
        }
        return .game(options)
      })
  }
}

/// `explore`'s options while they are parsed: the strategy is built once all are read.
struct ExploreDraft {
  var options = ExploreOptions()
  var strategy = StrategyChoice()
}

/// `check`'s options while they are parsed.
struct CheckDraft {
  var options = CheckOptions()
  var strategy = StrategyChoice()
}

/// The exploration strategies by the names the command line uses.
enum StrategyName: String, CaseIterable {
  case dpor, pct, random, exhaustive, stateful
}

/// The options that together pick an exploration strategy.
struct StrategyChoice {
  var name: StrategyName?
  var seed: UInt64 = 0
  var depth = 3
  var preemptionBound: Int?
  /// `--max-states`; nil when not given, so check keeps its own bound for its first search.
  var maxStates: Int?

  /// The strategy named, with its parameters; nil when none was named.
  var strategy: ExplorationStrategy? {
    name.map {
      switch $0 {
      case .random: .random(seed: seed)
      case .pct: .pct(seed: seed, depth: depth)
      case .exhaustive: .exhaustive
      case .dpor: .dpor(preemptionBound: preemptionBound)
      case .stateful:
        .stateful(maxStates: maxStates ?? defaultStateBudget, preemptionBound: preemptionBound)
      }
    }
  }

  /// Refuses a bound the chosen strategy would silently ignore: a search said to be within
  /// one preemption, or to keep so many states, must be.
  ///
  /// With no strategy named (`check`'s own plan), the fallback picks its bounds itself and
  /// only the first, stateful search takes `--max-states`.
  func validate() throws(UsageError) {
    if preemptionBound != nil, name != .dpor, name != .stateful {
      throw UsageError(
        message: name == nil
          ? "`--preemption-bound` needs `--strategy dpor` or `--strategy stateful`: without a "
            + "strategy, check raises the bound itself when the complete search does not fit"
          : "`--preemption-bound` bounds dpor and stateful only, not `--strategy \(name!)`")
    }
    if maxStates != nil, name != nil, name != .stateful {
      throw UsageError(
        message: "`--max-states` bounds the stateful search only, not `--strategy \(name!)`")
    }
  }

  /// `--strategy` and its parameters; `name` is the strategy when none is named.
  static func options<Draft>(
    _ path: WritableKeyPath<Draft, StrategyChoice>, default name: StrategyName?
  ) -> [Option<Draft>] {
    let strategy =
      name == nil
      ? "Explore this way only, not dpor with a fallback to pct."
      : "How to choose schedules; see docs/exploration.md."
    let options: [Option<StrategyChoice>] = [
      .value("--strategy", .choice("<strategy>"), strategy, default: name?.rawValue) {
        $0.name = $1
      },
      .value("--seed", .seed, "The seed for pct and random.", default: "\(StrategyChoice().seed)") {
        $0.seed = $1
      },
      .value("--depth", .positive("<d>"), "PCT's bug depth.", default: "\(StrategyChoice().depth)")
      { $0.depth = $1 },
      .value(
        "--preemption-bound", .count("<b>"), "At most b preemptions, with dpor or stateful.",
        default: "none"
      ) {
        $0.preemptionBound = $1
      },
      name == nil
        ? .value(
          "--max-states", .positive("<n>"), "States the stateful search of a clean design keeps.",
          default: "10 per schedule"
        ) { $0.maxStates = $1 }
        : .value(
          "--max-states", .positive("<n>"), "States stateful keeps, about 25 bytes each.",
          default: "\(defaultStateBudget)"
        ) { $0.maxStates = $1 },
    ]
    return options.map { $0.pulled(back: path) }
  }
}

extension Limits {
  /// The bounds `run`, `explore` and `check` share.
  static func options<Draft>(_ path: WritableKeyPath<Draft, Limits>) -> [Option<Draft>] {
    /// A limit whose default is the one `Limits()` holds.
    func limit(
      _ name: String, _ value: String, _ abstract: String, _ field: WritableKeyPath<Limits, Int>,
      aliases: [String] = []
    ) -> Option<Limits> {
      .value(
        name, .positive(value), abstract, default: String(Limits()[keyPath: field]),
        aliases: aliases
      ) { $0[keyPath: field] = $1 }
    }
    let options = [
      limit("--max-steps", "<n>", "Stop a run, or one schedule, after n steps.", \.steps),
      limit("--max-threads", "<n>", "Stop a run at n threads, or at n queues.", \.threads),
      limit("--max-file-size", "<bytes>", "Refuse larger scenario files unread.", \.fileBytes),
      limit(
        "--max-nesting", "<n>", "Refuse JSON nested deeper than n.", \.depth,
        aliases: ["--max-depth"]),
    ]
    return options.map { $0.pulled(back: path) }
  }
}

extension Option {
  static func colour(set: @escaping (inout Draft, ColourChoice) -> Void) -> Option {
    .value("--color", .choice("<color>"), "When to use colour.", default: "auto", set: set)
  }

  /// `--max-file-size` for the commands that read Swift.
  static func swiftFileSize(set: @escaping (inout Draft, Int) -> Void) -> Option {
    .value(
      "--max-file-size", .positive("<bytes>"), "Refuse larger Swift files unread.",
      default: String(Limits.defaultFileBytes), set: set)
  }

  static func format(
    _ abstract: String, set: @escaping (inout Draft, OutputFormat) -> Void
  ) -> Option {
    .value("--format", .choice("<format>"), abstract, default: "text", set: set)
  }

  static func timeLimit(_ abstract: String, set: @escaping (inout Draft, Double) -> Void) -> Option
  {
    .value("--time-limit", .seconds, abstract, default: "none", set: set)
  }

  static func maxSchedules(
    _ abstract: String, default budget: Int, set: @escaping (inout Draft, Int) -> Void
  ) -> Option {
    .value("--max-schedules", .positive("<n>"), abstract, default: String(budget), set: set)
  }

  /// More jobs than cores would only start threads that wait for a core: they are taken
  /// as all cores, which is also what the timing line then reports.
  static func jobs(_ abstract: String, set: @escaping (inout Draft, Int) -> Void) -> Option {
    .value("--jobs", .positive("<n>"), abstract, default: "all cores") {
      set(&$0, min($1, ExploreOptions.defaultJobs))
    }
  }

  /// `--concurrency-debug` and `--no-concurrency-debug`, overriding the scenario's own.
  static func concurrencyDebug(_ path: WritableKeyPath<Draft, Bool?>) -> [Option] {
    [
      .flag(
        "--concurrency-debug",
        "Run with -com.apple.CoreData.ConcurrencyDebug 1, whatever the scenario says."
      ) { $0[keyPath: path] = true },
      .flag("--no-concurrency-debug", "Run without it: corruption instead of traps.") {
        $0[keyPath: path] = false
      },
    ]
  }
}

extension ArgumentParser {
  static var draftCommand: Subcommand<DraftOptions> {
    Subcommand(
      name: "draft", aliases: [], help: Help.draft,
      arguments: [ArgumentHelp(label: "<file.swift>…", abstract: "The app's Swift files.")],
      options: DraftSettings.options(\.settings) + [
        .value("-o", .path("<file>"), "Write the scenario here, not to standard output.") {
          $0.output = $1
        }.also("--output"),
        .swiftFileSize { $0.fileBytes = $1 },
        .colour { $0.colour = $1 },
      ],
      start: DraftOptions(),
      positionals: { (options, words) throws(UsageError) in
        options.files += words
      },
      finish: { (options) throws(UsageError) in
        guard !options.files.isEmpty else {
          throw UsageError(message: "`ctxsim draft` needs at least one .swift file")
        }
        return .draft(options)
      })
  }
}

extension ArgumentParser {
  static var scanCommand: Subcommand<ScanOptions> {
    Subcommand(
      name: "scan", aliases: [], help: Help.scan,
      arguments: [
        ArgumentHelp(label: "<path>…", abstract: "The module's Swift files, or its folder.")
      ],
      options: [
        .value("--model", .path("<model>"), "The app's .xcdatamodeld, if not in the folder.") {
          $0.settings.model = $1
        },
        .maxSchedules("The budget of schedules per run.", default: 2_000) {
          $0.maxSchedules = $1
        },
        .value(
          "--max-pairs", .positive("<n>"), "Run at most this many pairs of entry points.",
          default: "100"
        ) { $0.maxPairs = $1 },
        .timeLimit("Stop after this many seconds; what is left is not run.") {
          $0.timeLimit = $1
        },
        .value(
          "--format", .choice("<format>"), "Text, JSON, JUnit XML or SARIF 2.1.0.",
          default: "text"
        ) { $0.format = $1 },
        .swiftFileSize { $0.fileBytes = $1 },
        .colour { $0.colour = $1 },
      ],
      start: ScanOptions(),
      positionals: { (options, words) throws(UsageError) in
        options.paths += words
      },
      finish: { (options) throws(UsageError) in
        guard !options.paths.isEmpty else {
          throw UsageError(message: "`ctxsim scan` needs .swift files or a folder of them")
        }
        return .scan(options)
      })
  }
}

extension DraftSettings {
  /// `--call`, `--model` and `--items`, for every command that drafts.
  static func options<Draft>(_ path: WritableKeyPath<Draft, DraftSettings>) -> [Option<Draft>] {
    let options: [Option<DraftSettings>] = [
      .value("--call", .path("<expr>"), "Call this, as Swift; repeat for more calls.") {
        $0.calls.append($1)
      },
      .value("--model", .path("<path>"), "The app's .xcdatamodeld; else inferred from use.") {
        $0.model = $1
      },
      .value(
        "--items", .positive("<n>", atMost: 1_000),
        "Sample values per collection argument, and rows per fetched entity.", default: "4"
      ) { $0.items = $1 },
      .value(
        "--fail-item", .positive("<n>"),
        "An injected dependency fails for the n-th sample item, as a test's fake does."
      ) { $0.failingItem = $1 },
      .value(
        "--path", .positive("<n>"),
        "Only the n-th path through conditions on values ctxsim cannot decide."
      ) { $0.path = $1 },
    ]
    return options.map { $0.pulled(back: path) }
  }
}
