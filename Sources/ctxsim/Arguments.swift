import ContextSim
import Foundation

/// A command line that cannot be understood, with what to type instead.
struct UsageError: Error, Equatable {
  var message: String
  /// The command whose usage line to show with the error.
  var command: String?
}

/// What the user asked for, typed and checked.
enum Command: Equatable {
  case help(topic: String?)
  case version
  case run(RunOptions)
  case check(CheckOptions)
  case explore(ExploreOptions)
  case lesson(LessonOptions)
  case exercise(ExerciseOptions)
  case game(GameOptions)
  case draft(DraftOptions)
  case scan(ScanOptions)
  case completion(Completion.Shell)
}

/// `ctxsim scan Sources/MyApp/`: every entry point drafted and explored, alone and in pairs.
struct ScanOptions: Equatable {
  enum Format: String, CaseIterable {
    case text, json, junit, sarif
  }
  var paths: [String] = []
  var settings = DraftSettings()
  var maxSchedules = 2_000
  var maxPairs = 100
  var timeLimit: Double?
  var format = Format.text
  var fileBytes = Limits.defaultFileBytes
  var colour = ColourChoice.auto
}

/// `ctxsim draft FILE.swift…`: Swift in, a scenario out.
struct DraftOptions: Equatable {
  var files: [String] = []
  var settings = DraftSettings()
  var output: String?
  var fileBytes = Limits.defaultFileBytes
  /// Accepted as every command accepts it; a draft has no colour.
  var colour = ColourChoice.auto
}

enum OutputFormat: String, CaseIterable {
  case text, json
}

/// How Swift is drafted, for `draft` and for `run` and `explore` given a `.swift` file.
struct DraftSettings: Equatable {
  var calls: [String] = []
  var items = 4
  /// An `.xcdatamodeld` (or `.xcdatamodel`) whose current version is the draft's model.
  var model: String?
  /// The sample item an injected dependency fails for.
  var failingItem: Int?
  /// Whether the draft declares the design clean (`"expect": {"violations": []}`): what
  /// `check` holds a Swift file to.
  var declaresClean = false
  /// Only this path (from 1) through the conditions on values ctxsim cannot decide.
  var path: Int?

  /// The options that draft the same way again, for a replay command; quoted for a shell.
  var flags: [String] {
    calls.map { "--call '\($0.replacingOccurrences(of: "'", with: "'\\''"))'" }
      + (model.map { ["--model", $0] } ?? []) + (items == 4 ? [] : ["--items", "\(items)"])
      + (failingItem.map { ["--fail-item", "\($0)"] } ?? [])
      + (path.map { ["--path", "\($0)"] } ?? [])
  }
}

struct RunOptions: Equatable {
  var file = ""
  /// More Swift files to draft with `file`, as one module.
  var moreFiles: [String] = []
  var draft = DraftSettings()
  var schedule: Schedule?
  var seed: UInt64?
  /// Overrides the scenario's own `concurrencyDebug` when set.
  var concurrencyDebug: Bool?
  var stopAtFirst = false
  var verbose = false
  var allSteps = false
  var format = OutputFormat.text
  var colour = ColourChoice.auto
  var limits = Limits()
  /// Also write the run's timeline as one HTML file here.
  var html: String?
}

/// The bounds on one scenario's input and run, each overridable on the command line.
struct Limits: Equatable {
  var steps = SimulationOptions.defaultMaximumSteps
  var threads = SimulationOptions.defaultMaximumThreads
  var fileBytes = Limits.defaultFileBytes
  var depth = JSONReader.defaultMaximumDepth

  static let defaultFileBytes = 16 << 20

  func simulation(concurrencyDebug: Bool, stopAtFirstCrash: Bool = false) -> SimulationOptions {
    SimulationOptions(
      concurrencyDebug: concurrencyDebug, stopAtFirstCrash: stopAtFirstCrash,
      maximumSteps: steps, maximumThreads: threads)
  }
}

struct LessonOptions: Equatable {
  /// A lesson's number, part of its name, or its path; nil lists the lessons.
  var lesson: String?
  var directory = "Lessons"
  var check = false
  var transcript = false
  /// Start in "you are the scheduler" mode.
  var play = false
  var html: String?
  var colour = ColourChoice.auto
  /// Where the stepper's `e` key writes the timeline; nil: the temporary folder.
  var exportDirectory: String?
}

struct GameOptions: Equatable {
  /// A level's number, part of its name, or its path; nil lists the levels.
  var level: String?
  var directory = "Lessons/Levels"
  var check = false
  /// Forget the progress kept between sessions.
  var reset = false
  var colour = ColourChoice.auto
}

struct ExerciseOptions: Equatable {
  /// What the command does with the exercise named, or with all of them.
  enum Mode: Equatable {
    /// With no exercise, list them; with one, print its brief and write its scenario.
    case brief
    /// Grade the attempt in this file.
    case grade(String)
    /// Print the model solution.
    case solution
    /// Check the exercises: each starting scenario fails, each solution passes.
    case check
  }

  /// An exercise's number, part of its name, or its brief's path; nil for all of them.
  var exercise: String?
  var mode = Mode.brief
  var directory = "Lessons/Exercises"
  /// Where to write the starting scenario; nil: `exercise-N.json` in the working directory.
  var to: String?
  var force = false
  var format = OutputFormat.text
  var colour = ColourChoice.auto
  var limits = Limits()
  var maxSchedules = CheckOptions.defaultBudget
  var timeLimit: Double?
}

struct CheckOptions: Equatable {
  var paths: [String] = []
  var colour = ColourChoice.auto
  var limits = Limits()
  /// nil: exhaustive with reduction, falling back to a preemption bound (or PCT) when the
  /// space is too large.
  var strategy: ExplorationStrategy?
  /// Accept a bounded proof with at least this many preemptions as holding, for the exit
  /// status and JUnit; nil accepts none.
  var acceptBounded: Int?
  var maxSchedules = CheckOptions.defaultBudget
  /// The states the stateful search of a design declared clean keeps; nil for check's own.
  var maxStates: Int?
  /// Seconds per scenario; nil: the budget of schedules alone bounds it.
  var timeLimit: Double?
  var seed: UInt64 = 0
  var junit: String?
  var format = OutputFormat.text
  var jobs = ExploreOptions.defaultJobs

  /// Schedules per scenario: the exhaustive search's budget, and the fallback's.
  static let defaultBudget = 10_000
}

struct ExploreOptions: Equatable {
  var file = ""
  /// More Swift files to draft with `file`, as one module.
  var moreFiles: [String] = []
  var draft = DraftSettings()
  var strategy = ExplorationStrategy.dpor(preemptionBound: nil)
  var maxSchedules = 10_000
  var timeLimit: Double?
  var concurrencyDebug: Bool?
  var limits = Limits()
  var format = OutputFormat.text
  var colour = ColourChoice.auto
  var jobs = ExploreOptions.defaultJobs

  static var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
}

/// Parses argv: the command's name, then its words against the command's option table.
enum ArgumentParser {
  /// Every command, in the order help lists them.
  static var subcommands: [AnySubcommand] {
    [
      runCommand.erased, exploreCommand.erased, checkCommand.erased, lessonCommand.erased,
      exerciseCommand.erased, gameCommand.erased, draftCommand.erased, scanCommand.erased,
    ]
  }

  static func parse(_ arguments: [String]) throws(UsageError) -> Command {
    guard let first = arguments.first else { return .help(topic: nil) }
    let rest = Array(arguments.dropFirst())
    switch first {
    case "-h", "--help", "help":
      // `ctxsim help --help` is help on help: the overview, which lists `help`.
      return .help(topic: rest.first.flatMap { ["-h", "--help"].contains($0) ? nil : $0 })
    case "--version", "version": return .version
    default: break
    }
    if first == "--generate-completion-script" || first.hasPrefix("--generate-completion-script=") {
      let named = first.contains("=") ? String(first.split(separator: "=")[1]) : rest.first
      guard let named, let shell = Completion.Shell(rawValue: named) else {
        throw UsageError(
          message: "`--generate-completion-script` takes one of bash, zsh, fish", command: nil)
      }
      return .completion(shell)
    }
    guard let command = subcommand(named: first) else {
      let names = subcommands.map(\.name) + ["help"]
      let suggestion = nearestName(to: first, in: names).map { " Did you mean `ctxsim \($0)`?" }
      throw UsageError(message: "unknown command `\(first)`.\(suggestion ?? "")", command: nil)
    }
    if asksForHelp(rest) { return .help(topic: command.name) }
    return try command.parse(rest)
  }

  /// A command by its name or an alias such as `lessons`.
  static func subcommand(named name: String) -> AnySubcommand? {
    subcommands.first { $0.name == name || $0.aliases.contains(name) }
  }

  /// Whether `-h` or `--help` comes before any `--`.
  private static func asksForHelp(_ words: [String]) -> Bool {
    words.prefix { $0 != "--" }.contains { $0 == "-h" || $0 == "--help" }
  }
}
