import ContextSim

/// How one option is written on the command line and shown in help.
///
/// `--seed <n>` with the help "Run a seeded random schedule." and no default renders as
/// `  --seed <n>              Run a seeded random schedule.`
struct OptionHelp: Equatable {
  /// The names help shows, short first: `["-h", "--help"]`.
  var names: [String]
  /// Older spellings still accepted but not shown, so existing scripts keep working.
  var hiddenAliases: [String] = []
  /// The value's name as help shows it, `<n>`; nil for a flag.
  var valueName: String?
  /// One sentence.
  var abstract: String
  /// The values allowed, when they are few enough to list.
  var values: [String]?
  /// The value used when the option is absent, as help shows it.
  var defaultValue: String?

  /// Every spelling the parser accepts.
  var spellings: [String] { names + hiddenAliases }

  /// The left column of help: `-h, --help` or `--seed <n>`.
  var label: String {
    names.joined(separator: ", ") + (valueName.map { " " + $0 } ?? "")
  }
}

/// A positional argument, for help.
struct ArgumentHelp: Equatable {
  /// `<file>`, or `<path> ...` for several.
  var label: String
  var abstract: String
  /// Whether the command runs without it; usage then shows it in brackets.
  var optional = false
}

/// One row of a command's option table: how it is written and what it does to the command's
/// options. The parser and the help both read the same rows, so they cannot disagree.
struct Option<Draft> {
  enum Action {
    case flag((inout Draft) -> Void)
    /// Parses the value; the second argument is the name as typed, for messages.
    case value((inout Draft, String, String) throws(UsageError) -> Void)
  }

  var help: OptionHelp
  var action: Action

  /// The option under a second name shown beside the first: `-o, --output`.
  func also(_ name: String) -> Option {
    var option = self
    option.help.names.append(name)
    return option
  }

  /// An option without a value, such as `--verbose`.
  static func flag(
    _ name: String, _ abstract: String, set: @escaping (inout Draft) -> Void
  ) -> Option {
    Option(help: OptionHelp(names: [name], abstract: abstract), action: .flag(set))
  }

  /// An option with a value of a given kind, stored by `set`.
  static func value<Value>(
    _ name: String, _ kind: ValueKind<Value>, _ abstract: String,
    default defaultValue: String? = nil, aliases: [String] = [],
    set: @escaping (inout Draft, Value) -> Void
  ) -> Option {
    Option(
      help: OptionHelp(
        names: [name], hiddenAliases: aliases, valueName: kind.name, abstract: abstract,
        values: kind.values, defaultValue: defaultValue),
      action: .value { (draft, text, typed) throws(UsageError) in
        set(&draft, try kind.parse(text, typed))
      })
  }

  /// The same option working on a larger draft that holds this one's.
  func pulled<Outer>(back path: WritableKeyPath<Outer, Draft>) -> Option<Outer> {
    switch action {
    case .flag(let set):
      Option<Outer>(help: help, action: .flag { set(&$0[keyPath: path]) })
    case .value(let set):
      Option<Outer>(
        help: help,
        action: .value { (outer, text, typed) throws(UsageError) in
          try set(&outer[keyPath: path], text, typed)
        })
    }
  }
}

/// A command's grammar: its positionals and its option table, and how they become a
/// ``Command``.
///
/// Parsing is in two stages, as in swift-argument-parser: first each word is an option,
/// looked up in the table and applied to a draft of the options, or a positional; then
/// `positionals` and `finish` check what was given as a whole and build the typed command.
///
/// `run a.json --seed=4 --verbose` → draft `RunOptions(file: "a.json", seed: 4,
/// verbose: true)` → `.run(…)`.
struct Subcommand<Draft> {
  var name: String
  /// Other names the command answers to, not shown in help.
  var aliases: [String] = []
  var help: CommandHelp
  var arguments: [ArgumentHelp]
  var options: [Option<Draft>]
  var start: Draft
  /// Checks the words left over once the options are taken out.
  var positionals: (inout Draft, [String]) throws(UsageError) -> Void
  /// Checks the options against each other, and builds the command.
  var finish: (Draft) throws(UsageError) -> Command

  func parse(_ words: [String]) throws(UsageError) -> Command {
    do throws(UsageError) {
      var draft = start
      var positionals: [String] = []
      var i = 0
      while i < words.count {
        let word = words[i]
        i += 1
        if word == "--" {
          positionals += words[i...]
          break
        }
        guard word.hasPrefix("-"), word != "-" else {
          positionals.append(word)
          continue
        }
        var typed = word
        var attached: String?
        if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
          typed = String(word[..<equals])
          attached = String(word[word.index(after: equals)...])
        }
        guard let option = options.first(where: { $0.help.spellings.contains(typed) }) else {
          throw unknown(typed)
        }
        switch option.action {
        case .flag(let set):
          if attached != nil { throw UsageError(message: "`\(typed)` takes no value") }
          set(&draft)
        case .value(let set):
          guard let value = attached ?? (i < words.count ? words[i] : nil) else {
            let form = "\(typed) \(option.help.valueName ?? "")"
            throw UsageError(message: "`\(typed)` needs a value, as in `\(form)`")
          }
          if attached == nil { i += 1 }
          try set(&draft, value, typed)
        }
      }
      try self.positionals(&draft, positionals)
      return try finish(draft)
    } catch {
      throw UsageError(message: error.message, command: error.command ?? name)
    }
  }

  /// An unknown option, with the nearest one the command has.
  private func unknown(_ typed: String) -> UsageError {
    let known = options.flatMap(\.help.names).filter { $0.hasPrefix("--") } + ["--help"]
    let long = typed.hasPrefix("--") ? typed : "-" + typed
    let hint = nearestName(to: long, in: known).map { " Did you mean `\($0)`?" } ?? ""
    return UsageError(message: "unknown option `\(typed)`.\(hint)")
  }

  /// The same command without its draft type, for the command list and help.
  var erased: AnySubcommand {
    AnySubcommand(
      name: name, aliases: aliases, help: help, arguments: arguments, options: options.map(\.help),
      parse: parse)
  }
}

/// A command as the command list and help see it.
struct AnySubcommand {
  var name: String
  var aliases: [String]
  var help: CommandHelp
  var arguments: [ArgumentHelp]
  var options: [OptionHelp]
  var parse: ([String]) throws(UsageError) -> Command
}

/// How an option's value is written in help and read from the command line.
///
/// `.positive("<n>")` shows as `--jobs <n>` and turns `4` into 4, and `0` into the error
/// "`--jobs` takes a whole number above 0, not `0`".
struct ValueKind<Value> {
  /// The value's name in help: `<n>`.
  var name: String
  /// The values allowed, when they are few enough to list.
  var values: [String]?
  /// Reads the text; the second argument is the option's name as typed, for messages.
  var parse: (String, String) throws(UsageError) -> Value
}

extension ValueKind where Value == Int {
  static func positive(_ name: String) -> Self {
    Self(name: name) { (text, option) throws(UsageError) in
      guard let n = Int(text), n > 0 else {
        throw UsageError(message: "`\(option)` takes a whole number above 0, not `\(text)`")
      }
      return n
    }
  }

  /// A whole number from 1 to `most`: for a value that sizes what is built, so that a
  /// number typed too large is refused rather than filling memory.
  static func positive(_ name: String, atMost most: Int) -> Self {
    Self(name: name) { (text, option) throws(UsageError) in
      guard let n = Int(text), (1...most).contains(n) else {
        throw UsageError(
          message: "`\(option)` takes a whole number from 1 to \(most), not `\(text)`")
      }
      return n
    }
  }

  static func count(_ name: String) -> Self {
    Self(name: name) { (text, option) throws(UsageError) in
      guard let n = Int(text), n >= 0 else {
        throw UsageError(message: "`\(option)` takes a whole number from 0 up, not `\(text)`")
      }
      return n
    }
  }
}

extension ValueKind where Value == UInt64 {
  static var seed: Self {
    Self(name: "<n>") { (text, option) throws(UsageError) in
      guard let seed = UInt64(text) else {
        throw UsageError(message: "`\(option)` takes a whole number from 0 up, not `\(text)`")
      }
      return seed
    }
  }
}

extension ValueKind where Value == Double {
  static var seconds: Self {
    Self(name: "<seconds>") { (text, option) throws(UsageError) in
      guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
        throw UsageError(message: "`\(option)` takes seconds above 0, not `\(text)`")
      }
      return seconds
    }
  }
}

extension ValueKind where Value == String {
  /// A file or folder: `<file>`, `<dir>`.
  static func path(_ name: String) -> Self {
    Self(name: name) { (text, option) throws(UsageError) in
      guard !text.isEmpty else { throw UsageError(message: "`\(option)` needs a path") }
      return text
    }
  }
}

extension ValueKind where Value == Schedule {
  static var schedule: Self {
    Self(name: "<schedule>") { (text, option) throws(UsageError) in
      guard let schedule = Schedule(parsing: text) else {
        throw UsageError(
          message: "`\(option) \(text)` is not a schedule; it looks like 0x4,1x2,0 "
            + "(thread numbers, with xN for N steps in a row)")
      }
      return schedule
    }
  }
}

extension ValueKind where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
  /// One of an enumeration's raw values, all listed in help.
  static func choice(_ name: String) -> Self {
    let names = Value.allCases.map(\.rawValue)
    return Self(name: name, values: names) { (text, option) throws(UsageError) in
      if let parsed = Value(rawValue: text) { return parsed }
      throw UsageError(
        message: "`\(option)` takes one of \(names.joined(separator: ", ")), not `\(text)`")
    }
  }
}
