import Foundation
import Testing

@testable import ctxsim

/// The words that make a command valid before any option is added.
private func positionals(of command: String) -> [String] {
  switch command {
  case "check": ["scenarios"]
  case "lesson", "exercise": ["1"]
  case "game": []
  default: ["scenarios/wrong-thread.json"]
  }
}

/// A value for an option that differs from its default.
private func sample(for option: OptionHelp) -> String? {
  if let values = option.values { return values.last }
  // More jobs than cores are all cores, the default: only 1 is another number of jobs.
  if option.names.contains("--jobs") { return "1" }
  switch option.valueName {
  case nil: return nil
  case "<schedule>": return "0x2,1"
  case "<seconds>": return "2.5"
  case "<file>": return "/tmp/ctxsim-sample.html"
  case "<dir>": return "/tmp/ctxsim-sample"
  case "<b>": return "0"
  default: return "7"
  }
}

private func parse(_ words: [String]) throws(UsageError) -> Command {
  try ArgumentParser.parse(words)
}

/// Every `--name` a text mentions.
private func optionNames(in text: String) -> Set<String> {
  var names: Set<String> = []
  var rest = Substring(text)
  while let range = rest.range(of: "--") {
    let name = rest[range.lowerBound...].prefix { $0 == "-" || $0.isLetter || $0.isNumber }
    if name.count > 2 { names.insert(String(name)) }
    rest = rest[range.upperBound...]
  }
  return names
}

private let commandNames = ArgumentParser.subcommands.map(\.name)

@Suite("The command line: one option table per command gives both parsing and help")
struct CommandLineTests {
  @Test("Every option of every command parses, in each spelling, and changes what is asked for")
  func everyOptionParses() {
    for command in ArgumentParser.subcommands {
      let base = [command.name] + positionals(of: command.name)
      // On one core, one job is the default: --jobs can change nothing there.
      for option in command.options
      where !(option.names.contains("--jobs") && ExploreOptions.defaultJobs == 1) {
        for spelling in option.spellings {
          let words = [spelling] + (sample(for: option).map { [$0] } ?? [])
          // Options that tune one strategy change nothing under another, and exercise's
          // output format is for a grade, which other options of its conflict with.
          let contexts =
            command.name == "exercise"
            ? [[], ["--grade", "a.json"]]
            : [[], ["--strategy", "pct"], ["--strategy", "dpor"], ["--strategy", "stateful"]].filter
            {
              command.options.contains { $0.names == ["--strategy"] } || $0.isEmpty
            }
          var errors: [String] = []
          let changed = contexts.contains { context in
            do throws(UsageError) {
              return try parse(base + context + words) != parse(base + context)
            } catch {
              errors.append(error.message)
              return false
            }
          }
          #expect(
            changed,
            "`ctxsim \(command.name) \(words.joined(separator: " "))` does nothing \(errors)")
        }
      }
    }
  }

  @Test(
    "Every option the hand-written parser took is still accepted by the same command",
    arguments: [
      (
        "run",
        [
          "--schedule", "--seed", "--format", "--color", "--html", "--no-concurrency-debug",
          "--concurrency-debug", "--stop-at-first", "--verbose", "--all-steps",
        ]
      ),
      (
        "explore",
        [
          "--strategy", "--seed", "--max-schedules", "--time-limit", "--depth",
          "--preemption-bound", "--jobs", "--format", "--no-concurrency-debug",
          "--concurrency-debug",
        ]
      ),
      (
        "check",
        [
          "--color", "--strategy", "--max-schedules", "--seed", "--junit", "--format", "--jobs",
          "--depth", "--preemption-bound", "--time-limit",
        ]
      ),
      ("lesson", ["--html", "--lessons", "--color", "--check", "--transcript", "--play"]),
    ])
  func oldSpellings(command: String, spellings: [String]) throws {
    let limits = ["--max-steps", "--max-threads", "--max-file-size", "--max-depth"]
    let accepted = try #require(ArgumentParser.subcommand(named: command)).options
      .flatMap(\.spellings)
    for spelling in spellings + (command == "lesson" ? [] : limits) {
      #expect(accepted.contains(spelling), "ctxsim \(command) no longer takes \(spelling)")
    }
  }

  @Test("A value given as --name=value means the same as --name value")
  func attachedValues() throws {
    let spaced = try parse(["run", "a.json", "--seed", "4", "--max-steps", "9"])
    let attached = try parse(["run", "a.json", "--seed=4", "--max-steps=9"])
    #expect(spaced == attached)
  }

  @Test(
    "Each command's help shows every option in its table and mentions no other",
    arguments: commandNames)
  func helpMatchesTable(name: String) throws {
    let command = try #require(ArgumentParser.subcommand(named: name))
    let help = try #require(Help.text(for: name))
    for option in command.options {
      #expect(help.contains("  \(option.label) "), "\(name) help lacks \(option.label)")
      for alias in option.hiddenAliases {
        #expect(!help.contains(alias), "\(name) help shows the hidden alias \(alias)")
      }
    }
    let parsed = Set(command.options.flatMap(\.spellings) + ["--help"])
    let unparsed = optionNames(in: help).subtracting(parsed)
    #expect(unparsed.isEmpty, "\(name) help mentions \(unparsed.sorted()), which it does not parse")
  }

  @Test(
    "The top-level help lists every command, and mentions only --help, --version and completion")
  func topLevelHelp() throws {
    let help = try #require(Help.text(for: nil))
    for name in commandNames + ["help", "version"] {
      #expect(help.contains("\n  \(name) "), "ctxsim --help does not list \(name)")
    }
    #expect(optionNames(in: help) == ["--help", "--version", "--generate-completion-script"])
  }

  @Test(
    "Help has swift-argument-parser's headings, fits 80 columns, and has the command's exit statuses",
    arguments: [nil] + commandNames)
  func helpLayout(name: String?) throws {
    let help = try #require(Help.text(for: name))
    let headings =
      ["OVERVIEW:", "USAGE:", name == nil ? "SUBCOMMANDS:" : "ARGUMENTS:", "OPTIONS:"]
      + ["EXAMPLES:", "EXIT STATUS:"]
    let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
    for heading in headings {
      #expect(lines.contains { $0.hasPrefix(heading) }, "no \(heading) in \(name ?? "ctxsim")")
    }
    #expect(help.contains("  -h, --help "))
    for line in lines { #expect(line.count <= 80, "too long: \(line)") }
    let table = help.components(separatedBy: "EXIT STATUS:\n").last ?? ""
    // A draft finds no violations: it has no status 1.
    for status in ["0 ", "1 ", "64", "65", "66"] where !(name == "draft" && status == "1 ") {
      #expect(table.contains("  \(status)"), "\(name ?? "ctxsim") help lacks exit status \(status)")
    }
    // Every command has a limit that can stop it with 75.
    #expect(table.contains("  75 "))
    #expect(table.contains("  133 ") == (name == nil || name == "run"))
  }

  @Test("Every example in help parses, and names files that exist", arguments: commandNames)
  func examplesRun(name: String) throws {
    let command = try #require(ArgumentParser.subcommand(named: name))
    #expect(!command.help.examples.isEmpty)
    for example in command.help.examples {
      let words = example.command.split(separator: " ").map(String.init)
      #expect(words.first == "ctxsim")
      let parsed = try parse(Array(words.dropFirst()))
      #expect(parsed != .help(topic: nil))
      for word in words where word.hasPrefix("scenarios/") || word.hasPrefix("Examples/") {
        #expect(FileManager.default.fileExists(atPath: packageRoot + "/" + word), "\(word)")
      }
    }
  }

  @Test("-h and --help after any command, anywhere before --, print that command's help")
  func helpAfterCommand() throws {
    for name in commandNames + ["lessons"] {
      let expected = try #require(Help.text(for: name))
      for words in [[name, "-h"], [name, "--help"], ["help", name], [name, "x.json", "--help"]] {
        let run = ctxsim(arguments: words)
        #expect(run.status == 0)
        #expect(run.out == expected, "\(words)")
        #expect(run.err.isEmpty)
      }
    }
    #expect(ctxsim("-h").out == Help.text(for: nil))
    // After --, every word is a file name.
    #expect(ctxsim("run", "--", "--help").err.hasPrefix("--help: error: no such file"))
  }

  @Test("--max-nesting is the JSON nesting limit; --max-depth still works, unlisted")
  func maxNestingAlias() throws {
    let renamed = try parse(["run", "a.json", "--max-nesting", "3"])
    #expect(try parse(["run", "a.json", "--max-depth", "3"]) == renamed)
    #expect(try parse(["run", "a.json", "--max-depth=3"]) == renamed)
    guard case .run(let options) = renamed else {
      Issue.record("not a run: \(renamed)")
      return
    }
    #expect(options.limits.depth == 3)
    let run = ctxsim("run", "scenarios/wrong-thread.json", "--max-nesting", "3")
    #expect(run.status == 65)
    #expect(run.err.contains("nest deeper than 3 levels"))
    for name in ["run", "explore", "check"] {
      #expect(Help.text(for: name)?.contains("--max-nesting <n>") == true)
      #expect(Help.text(for: name)?.contains("--max-depth") == false)
    }
  }

  @Test("--color is accepted by every command", arguments: commandNames)
  func colourOnEveryCommand(name: String) throws {
    let parsed = try parse([name] + positionals(of: name) + ["--color", "always"])
    let colour: ColourChoice? =
      switch parsed {
      case .run(let options): options.colour
      case .explore(let options): options.colour
      case .check(let options): options.colour
      case .lesson(let options): options.colour
      case .exercise(let options): options.colour
      case .game(let options): options.colour
      case .draft(let options): options.colour
      case .scan(let options): options.colour
      default: nil
      }
    #expect(colour == .always)
  }

  @Test("--color always colours check's verdicts; --color never leaves them plain")
  func colourOnCheck() {
    let path = "scenarios/async-perform-fixed.json"
    #expect(ctxsim("check", path, "--color", "always").out.contains("\u{1B}["))
    #expect(!ctxsim("check", path, "--color", "never", terminal: true).out.contains("\u{1B}["))
  }

  @Test(
    "A mistyped option is named with the nearest one, exit 64",
    arguments: [
      (
        ["run", "a.json", "--max-nestng", "3"],
        "unknown option `--max-nestng`. Did you mean `--max-nesting`?"
      ),
      (["explore", "a.json", "-seed", "3"], "unknown option `-seed`. Did you mean `--seed`?"),
      (
        ["check", "scenarios", "--junt", "r.xml"],
        "unknown option `--junt`. Did you mean `--junit`?"
      ),
      (
        ["lesson", "1", "--trnscript"], "unknown option `--trnscript`. Did you mean `--transcript`?"
      ),
      (
        ["lesson", "1", "--exportdir", "/tmp"],
        "unknown option `--exportdir`. Did you mean `--export-dir`?"
      ),
      (["lesson", "1", "--play=yes"], "`--play` takes no value"),
      (["explore", "a.json", "--seed"], "`--seed` needs a value, as in `--seed <n>`"),
      (
        ["explore", "a.json", "--strategy", "bfs"],
        "`--strategy` takes one of dpor, pct, random, exhaustive, stateful, not `bfs`"
      ),
    ])
  func mistypedOption(words: [String], message: String) {
    let run = ctxsim(arguments: words)
    #expect(run.status == 64)
    #expect(
      run.err == "ctxsim: error: \(message)\nRun `ctxsim \(words[0]) --help` for its options.\n")
    #expect(run.out.isEmpty)
  }

  @Test("`help --help` is the overview; `--output` is `-o`'s long name")
  func helpOnHelpAndOutput() throws {
    let help = ctxsim("help", "--help")
    #expect(help.status == 0)
    #expect(help.out == Help.usage)
    #expect(help.out.contains("  version "))
    let short = try parse(["draft", "a.swift", "-o", "x.json"])
    let long = try parse(["draft", "a.swift", "--output", "x.json"])
    #expect(short == long)
    #expect(try parse(["draft", "a.swift", "--output=x.json"]) == short)
  }

  @Test("Each command's help is the reviewed one", arguments: [nil] + commandNames)
  func helpSnapshot(name: String?) throws {
    expectSnapshot(try #require(Help.text(for: name)), "help/\(name ?? "ctxsim").txt")
  }
}

@Suite("The lesson stepper's e key writes outside the working tree")
struct LessonExportTests {
  private func path(_ options: LessonOptions, environment: [String: String]) -> String {
    let console = Console(
      write: { _ in }, writeError: { _ in }, isTerminal: false, environment: environment,
      readFile: { _ in .missing })
    return LessonCommand(options: options, console: console)
      .exportPath(for: "Lessons/01-one-queue-per-context.md")
  }

  @Test("By default into $TMPDIR, or /tmp without it")
  func temporaryFolder() {
    #expect(
      path(LessonOptions(), environment: ["TMPDIR": "/var/tmp/"])
        == "/var/tmp/01-one-queue-per-context.html")
    #expect(path(LessonOptions(), environment: [:]) == "/tmp/01-one-queue-per-context.html")
    #expect(
      path(LessonOptions(), environment: ["TMPDIR": ""]) == "/tmp/01-one-queue-per-context.html")
  }

  @Test("--export-dir names the folder")
  func namedFolder() throws {
    guard
      case .lesson(let options) = try ArgumentParser.parse(["lesson", "1", "--export-dir", "out"])
    else {
      Issue.record("not a lesson command")
      return
    }
    #expect(options.exportDirectory == "out")
    #expect(path(options, environment: ["TMPDIR": "/tmp"]) == "out/01-one-queue-per-context.html")
  }
}
