import ContextSim

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
  var maximumSteps = SimulationOptions.defaultMaximumSteps
}

struct CheckOptions: Equatable {
  var paths: [String] = []
  var colour = ColourChoice.auto
  var maximumSteps = SimulationOptions.defaultMaximumSteps
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
    case "explore", "lesson":
      throw UsageError(
        message: "`ctxsim \(first)` is not available yet in this version", command: nil)
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
      arguments, valued: ["--schedule", "--seed", "--format", "--color", "--max-steps"],
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
      case "--seed":
        guard let seed = UInt64(value!) else {
          throw UsageError(
            message: "`--seed` takes a whole number from 0 up, not `\(value!)`", command: "run")
        }
        options.seed = seed
      case "--format": options.format = try choice(value!, for: name, command: "run")
      case "--color": options.colour = try choice(value!, for: name, command: "run")
      case "--max-steps": options.maximumSteps = try positive(value!, for: name, command: "run")
      case "--no-concurrency-debug": options.concurrencyDebug = false
      case "--concurrency-debug": options.concurrencyDebug = true
      case "--stop-at-first": options.stopAtFirst = true
      case "--verbose": options.verbose = true
      case "--all-steps": options.allSteps = true
      default: break
      }
    }
    if options.schedule != nil && options.seed != nil {
      throw UsageError(message: "use `--schedule` or `--seed`, not both", command: "run")
    }
    return options
  }

  private static func parseCheck(_ arguments: [String]) throws(UsageError) -> CheckOptions {
    let words = try split(
      arguments, valued: ["--color", "--max-steps"], flags: [], command: "check")
    var options = CheckOptions(paths: words.positionals)
    guard !options.paths.isEmpty else {
      throw UsageError(message: "`ctxsim check` needs scenario files or folders", command: "check")
    }
    for (name, value) in words.options {
      switch name {
      case "--color": options.colour = try choice(value!, for: name, command: "check")
      case "--max-steps": options.maximumSteps = try positive(value!, for: name, command: "check")
      default: break
      }
    }
    return options
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
    nearestName(to: word, in: ["run", "check", "help"])
  }
}
