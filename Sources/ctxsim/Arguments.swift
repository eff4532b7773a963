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
}

enum OutputFormat: String, CaseIterable {
  case text, json
}

struct RunOptions: Equatable {
  var file = ""
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
  static let names: Set = ["--max-steps", "--max-threads", "--max-file-size", "--max-depth"]

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
}

struct CheckOptions: Equatable {
  var paths: [String] = []
  var colour = ColourChoice.auto
  var limits = Limits()
  /// nil: exhaustive with reduction, falling back to PCT when the space is too large.
  var strategy: ExplorationStrategy?
  var maxSchedules = CheckOptions.defaultBudget
  /// Seconds per scenario; nil: the budget of schedules alone bounds it.
  var timeLimit: Double?
  var seed: UInt64 = 0
  var junit: String?
  var format = OutputFormat.text
  var jobs = ExploreOptions.defaultJobs

  /// Schedules per scenario: the exhaustive search's budget, and the PCT fallback's.
  static let defaultBudget = 10_000
}

struct ExploreOptions: Equatable {
  var file = ""
  var strategy = ExplorationStrategy.dpor(preemptionBound: nil)
  var maxSchedules = 10_000
  var timeLimit: Double?
  var concurrencyDebug: Bool?
  var limits = Limits()
  var format = OutputFormat.text
  var jobs = ExploreOptions.defaultJobs

  static var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
}

/// Parses argv in two stages: words into options and positionals, then into a ``Command``.
enum ArgumentParser {
  static func parse(_ arguments: [String]) throws(UsageError) -> Command {
    guard let first = arguments.first else { return .help(topic: nil) }
    let rest = Array(arguments.dropFirst())
    switch first {
    case "-h", "--help", "help": return .help(topic: rest.first)
    case "--version", "version": return .version
    case "run":
      if rest.contains("--help") || rest.contains("-h") { return .help(topic: "run") }
      return .run(try parseRun(rest))
    case "check":
      if rest.contains("--help") || rest.contains("-h") { return .help(topic: "check") }
      return .check(try parseCheck(rest))
    case "explore":
      if rest.contains("--help") || rest.contains("-h") { return .help(topic: "explore") }
      return .explore(try parseExplore(rest))
    case "lesson", "lessons":
      if rest.contains("--help") || rest.contains("-h") { return .help(topic: "lesson") }
      return .lesson(try parseLesson(rest))
    default:
      let suggestion = nearestCommand(first).map { " Did you mean `ctxsim \($0)`?" } ?? ""
      throw UsageError(message: "unknown command `\(first)`.\(suggestion)", command: nil)
    }
  }

  /// Options and positionals, before their meaning is known.
  private struct Words {
    var options: [(name: String, value: String?)] = []
    var positionals: [String] = []
  }

  private static func split(
    _ arguments: [String], valued: Set<String>, flags: Set<String>, command: String
  ) throws(UsageError) -> Words {
    var words = Words()
    var i = 0
    while i < arguments.count {
      let word = arguments[i]
      i += 1
      guard word.hasPrefix("--"), word.count > 2 else {
        if word.hasPrefix("-") && word.count > 1 {
          throw UsageError(message: "unknown option `\(word)`", command: command)
        }
        words.positionals.append(word)
        continue
      }
      var name = word
      var value: String?
      if let equals = word.firstIndex(of: "=") {
        name = String(word[..<equals])
        value = String(word[word.index(after: equals)...])
      }
      if valued.contains(name) {
        if value == nil {
          guard i < arguments.count else {
            throw UsageError(message: "`\(name)` needs a value", command: command)
          }
          value = arguments[i]
          i += 1
        }
      } else if flags.contains(name) {
        if value != nil {
          throw UsageError(message: "`\(name)` takes no value", command: command)
        }
      } else {
        let known = Array(valued.union(flags)).sorted()
        let hint = nearestName(to: name, in: known).map { " Did you mean `\($0)`?" } ?? ""
        throw UsageError(message: "unknown option `\(name)`.\(hint)", command: command)
      }
      words.options.append((name, value))
    }
    return words
  }

  private static func parseRun(_ arguments: [String]) throws(UsageError) -> RunOptions {
    let words = try split(
      arguments,
      valued: Limits.names.union(["--schedule", "--seed", "--format", "--color", "--html"]),
      flags: [
        "--no-concurrency-debug", "--concurrency-debug", "--stop-at-first", "--verbose",
        "--all-steps",
      ], command: "run")
    var options = RunOptions()
    guard words.positionals.count == 1 else {
      throw UsageError(
        message: words.positionals.isEmpty
          ? "`ctxsim run` needs a scenario file"
          : "`ctxsim run` takes one scenario file; use `ctxsim check` for several",
        command: "run")
    }
    options.file = words.positionals[0]
    for (name, value) in words.options {
      switch name {
      case "--schedule":
        guard let schedule = Schedule(parsing: value!) else {
          throw UsageError(
            message: "`--schedule \(value!)` is not a schedule; it looks like 0x4,1x2,0 "
              + "(thread numbers, with xN for N steps in a row)", command: "run")
        }
        options.schedule = schedule
      case "--seed": options.seed = try seed(value!, command: "run")
      case "--format": options.format = try choice(value!, for: name, command: "run")
      case "--color": options.colour = try choice(value!, for: name, command: "run")
      case "--html": options.html = value!
      case "--no-concurrency-debug": options.concurrencyDebug = false
      case "--concurrency-debug": options.concurrencyDebug = true
      case "--stop-at-first": options.stopAtFirst = true
      case "--verbose": options.verbose = true
      case "--all-steps": options.allSteps = true
      default: try limit(name, value, into: &options.limits, command: "run")
      }
    }
    if options.schedule != nil && options.seed != nil {
      throw UsageError(message: "use `--schedule` or `--seed`, not both", command: "run")
    }
    return options
  }

  private static func parseLesson(_ arguments: [String]) throws(UsageError) -> LessonOptions {
    let words = try split(
      arguments, valued: ["--html", "--lessons", "--color"],
      flags: ["--check", "--transcript", "--play"], command: "lesson")
    guard words.positionals.count <= 1 else {
      throw UsageError(message: "`ctxsim lesson` takes one lesson at a time", command: "lesson")
    }
    var options = LessonOptions(lesson: words.positionals.first)
    for (name, value) in words.options {
      switch name {
      case "--html": options.html = value!
      case "--lessons": options.directory = value!
      case "--color": options.colour = try choice(value!, for: name, command: "lesson")
      case "--check": options.check = true
      case "--transcript": options.transcript = true
      case "--play": options.play = true
      default: break
      }
    }
    if options.lesson == nil && (options.transcript || options.play || options.html != nil) {
      throw UsageError(
        message: "name a lesson, such as `ctxsim lesson 1`; `ctxsim lesson` lists them",
        command: "lesson")
    }
    return options
  }

  private static func parseCheck(_ arguments: [String]) throws(UsageError) -> CheckOptions {
    let words = try split(
      arguments,
      valued: Limits.names.union([
        "--color", "--strategy", "--max-schedules", "--seed", "--junit", "--format",
        "--jobs", "--depth", "--preemption-bound", "--time-limit",
      ]), flags: [], command: "check")
    var options = CheckOptions(paths: words.positionals)
    guard !options.paths.isEmpty else {
      throw UsageError(message: "`ctxsim check` needs scenario files or folders", command: "check")
    }
    var strategy: String?
    var depth = 3
    var bound: Int?
    for (name, value) in words.options {
      switch name {
      case "--color": options.colour = try choice(value!, for: name, command: "check")
      case "--strategy": strategy = try strategyName(value!, command: "check")
      case "--max-schedules":
        options.maxSchedules = try positive(value!, for: name, command: "check")
      case "--seed": options.seed = try seed(value!, command: "check")
      case "--junit": options.junit = value!
      case "--format": options.format = try choice(value!, for: name, command: "check")
      case "--jobs": options.jobs = try positive(value!, for: name, command: "check")
      case "--depth": depth = try positive(value!, for: name, command: "check")
      case "--preemption-bound": bound = try count(value!, for: name, command: "check")
      case "--time-limit": options.timeLimit = try seconds(value!, command: "check")
      default: try limit(name, value, into: &options.limits, command: "check")
      }
    }
    options.strategy = strategy.map {
      makeStrategy($0, seed: options.seed, depth: depth, bound: bound)
    }
    return options
  }

  private static func parseExplore(_ arguments: [String]) throws(UsageError) -> ExploreOptions {
    let words = try split(
      arguments,
      valued: Limits.names.union([
        "--strategy", "--seed", "--max-schedules", "--time-limit", "--depth", "--preemption-bound",
        "--jobs", "--format",
      ]), flags: ["--no-concurrency-debug", "--concurrency-debug"], command: "explore")
    var options = ExploreOptions()
    guard words.positionals.count == 1 else {
      throw UsageError(
        message: words.positionals.isEmpty
          ? "`ctxsim explore` needs a scenario file" : "`ctxsim explore` takes one scenario file",
        command: "explore")
    }
    options.file = words.positionals[0]
    var strategy = "dpor"
    var seedValue: UInt64 = 0
    var depth = 3
    var bound: Int?
    for (name, value) in words.options {
      switch name {
      case "--strategy": strategy = try strategyName(value!, command: "explore")
      case "--seed": seedValue = try seed(value!, command: "explore")
      case "--max-schedules":
        options.maxSchedules = try positive(value!, for: name, command: "explore")
      case "--time-limit": options.timeLimit = try seconds(value!, command: "explore")
      case "--depth": depth = try positive(value!, for: name, command: "explore")
      case "--preemption-bound": bound = try count(value!, for: name, command: "explore")
      case "--jobs": options.jobs = try positive(value!, for: name, command: "explore")
      case "--format": options.format = try choice(value!, for: name, command: "explore")
      case "--no-concurrency-debug": options.concurrencyDebug = false
      case "--concurrency-debug": options.concurrencyDebug = true
      default: try limit(name, value, into: &options.limits, command: "explore")
      }
    }
    options.strategy = makeStrategy(strategy, seed: seedValue, depth: depth, bound: bound)
    return options
  }

  private static let strategies = ["random", "pct", "dpor", "exhaustive"]

  private static func strategyName(_ value: String, command: String) throws(UsageError) -> String {
    guard strategies.contains(value) else {
      throw UsageError(
        message: "`--strategy` takes one of \(strategies.joined(separator: ", ")), not `\(value)`",
        command: command)
    }
    return value
  }

  private static func makeStrategy(
    _ name: String, seed: UInt64, depth: Int, bound: Int?
  ) -> ExplorationStrategy {
    switch name {
    case "random": .random(seed: seed)
    case "pct": .pct(seed: seed, depth: depth)
    case "exhaustive": .exhaustive
    default: .dpor(preemptionBound: bound)
    }
  }

  /// The options shared by every command that runs a scenario: its limits.
  private static func limit(
    _ name: String, _ value: String?, into limits: inout Limits, command: String
  ) throws(UsageError) {
    guard let value else { return }
    switch name {
    case "--max-steps": limits.steps = try positive(value, for: name, command: command)
    case "--max-threads": limits.threads = try positive(value, for: name, command: command)
    case "--max-file-size": limits.fileBytes = try positive(value, for: name, command: command)
    case "--max-depth": limits.depth = try positive(value, for: name, command: command)
    default: break
    }
  }

  private static func seconds(_ value: String, command: String) throws(UsageError) -> Double {
    guard let seconds = Double(value), seconds > 0, seconds.isFinite else {
      throw UsageError(
        message: "`--time-limit` takes seconds above 0, not `\(value)`", command: command)
    }
    return seconds
  }

  private static func seed(_ value: String, command: String) throws(UsageError) -> UInt64 {
    guard let seed = UInt64(value) else {
      throw UsageError(
        message: "`--seed` takes a whole number from 0 up, not `\(value)`", command: command)
    }
    return seed
  }

  private static func count(
    _ value: String, for name: String, command: String
  ) throws(UsageError) -> Int {
    guard let n = Int(value), n >= 0 else {
      throw UsageError(
        message: "`\(name)` takes a whole number from 0 up, not `\(value)`", command: command)
    }
    return n
  }

  private static func choice<T: RawRepresentable & CaseIterable>(
    _ value: String, for name: String, command: String
  ) throws(UsageError) -> T where T.RawValue == String {
    if let parsed = T(rawValue: value) { return parsed }
    let names = T.allCases.map(\.rawValue).joined(separator: ", ")
    throw UsageError(message: "`\(name)` takes one of \(names), not `\(value)`", command: command)
  }

  private static func positive(_ value: String, for name: String, command: String)
    throws(UsageError) -> Int
  {
    guard let n = Int(value), n > 0 else {
      throw UsageError(
        message: "`\(name)` takes a whole number above 0, not `\(value)`", command: command)
    }
    return n
  }

  private static func nearestCommand(_ word: String) -> String? {
    nearestName(to: word, in: ["run", "check", "explore", "lesson", "help"])
  }
}
