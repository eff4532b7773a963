import Foundation
import Testing

@testable import ctxsim

/// A model and store most bad-input cases share; each case writes its own steps.
private let head = #""title": "t", "model": {"Note": {"attributes": {"title": "string"}}}"#

/// One class of bad input: the scenario, the first line of the error, the exit status.
struct BadInput: CustomTestStringConvertible, Sendable {
  var name: String
  var text: String
  var error: String
  var status: Int32 = 65

  var testDescription: String { name }
}

private let badInputs: [BadInput] = [
  BadInput(
    name: "invalid JSON",
    text: #"{\#(head), "main": [], }"#,
    error: "bad.json:1:84: error: a trailing comma before '}'"),
  BadInput(
    name: "a JSON value of the wrong type",
    text: #"{"title": 7, "main": []}"#,
    error: #"bad.json:1:11: error: "title" must be a string, not an integer (at title)"#),
  BadInput(
    name: "a missing required key",
    text: #"{"model": {}, "main": []}"#,
    error: #"bad.json:1:1: error: the scenario has no "title""#),
  BadInput(
    name: "two verb keys in one step",
    text: #"{\#(head), "main": [{"fetch": "Note", "count": "Note", "in": "viewContext"}]}"#,
    error:
      #"bad.json:1:99: error: a step has one verb, but this one has "fetch" and "count" (at main[0])"#
  ),
  BadInput(
    name: "an unknown verb",
    text: #"{\#(head), "main": [{"fecth": "Note", "in": "viewContext"}]}"#,
    error:
      #"bad.json:1:82: error: unknown verb "fecth" (at main[0])\#n  fix: did you mean "fetch"?"#),
  BadInput(
    name: "an unknown verb naming a Core Data API that is not modelled",
    text: #"{\#(head), "main": [{"undo": "viewContext"}]}"#,
    error:
      #"bad.json:1:82: error: unknown verb "undo": UndoManager is not modelled; see docs/model.md (at main[0])\#n  fix: write "rollback" to drop the context's unsaved changes"#
  ),
  BadInput(
    name: "an unknown key",
    text: #"{\#(head), "main": [{"fetch": "Note", "in": "viewContext", "az": "n"}]}"#,
    error:
      #"bad.json:1:120: error: unknown key "az" in a "fetch" step (at main[0])\#n  fix: did you mean "as"?"#
  ),
  BadInput(
    name: "an unknown entity",
    text: #"{\#(head), "main": [{"fetch": "Notes", "in": "viewContext"}]}"#,
    error:
      #"bad.json:1:91: error: unknown entity "Notes" (at main[0])\#n  fix: did you mean "Note"?"#),
  BadInput(
    name: "an unknown attribute",
    text:
      #"{\#(head), "main": [{"fetch": "Note", "in": "viewContext", "first": true, "as": "n"}, {"get": "n.titel"}]}"#,
    error:
      #"bad.json:1:155: error: Note has no attribute "titel" (at main[1])\#n  fix: did you mean "title"?"#
  ),
  BadInput(
    name: "an unknown relationship",
    text: """
      {"title": "t", "model": {"Album": {"attributes": {"title": "string"}, "relationships": {"photos": {"to": "Album", "many": true}}}},
       "main": [{"fetch": "Album", "in": "viewContext", "first": true, "as": "a"}, {"get": "a.photoz"}]}
      """,
    error:
      #"bad.json:2:86: error: Album has no attribute or relationship "photoz" (at main[1])\#n  fix: did you mean "photos"?"#
  ),
  BadInput(
    name: "an unknown context",
    text: #"{\#(head), "main": [{"fetch": "Note", "in": "viewContxt"}]}"#,
    error:
      #"bad.json:1:105: error: unknown context "viewContxt" (at main[0])\#n  fix: did you mean "viewContext"?"#
  ),
  BadInput(
    name: "an unknown queue",
    text: #"{\#(head), "main": [{"async": "globl", "do": []}]}"#,
    error:
      #"bad.json:1:91: error: unknown queue "globl" (at main[0])\#n  fix: did you mean "global"?"#),
  BadInput(
    name: "an unknown variable",
    text: #"{\#(head), "main": [{"get": "note.title"}]}"#,
    error: #"bad.json:1:89: error: unknown variable "$note" (at main[0])"#),
  BadInput(
    name: "a relationship to an unknown entity",
    text:
      #"{"title": "t", "model": {"Note": {"attributes": {}, "relationships": {"folder": {"to": "Folder"}}}}, "main": []}"#,
    error:
      #"bad.json:1:81: error: the relationship "folder" points at an unknown entity "Folder" (at model.Note.relationships.folder)"#
  ),
  BadInput(
    name: "a relationship with a mismatched inverse",
    text: """
      {"title": "t", "model": {
        "Album": {"attributes": {}, "relationships": {"photos": {"to": "Photo", "many": true, "inverse": "album"}}},
        "Photo": {"attributes": {}, "relationships": {"album": {"to": "Album", "inverse": "pictures"}}}},
       "main": []}
      """,
    error:
      #"bad.json:2:59: error: the inverse of Album.photos is Photo.album, but that one points at Album.pictures (at model.Album.relationships.photos)"#
  ),
  BadInput(
    name: "a cycle of context parents",
    text:
      #"{\#(head), "contexts": {"a": {"queue": "private", "parent": "b"}, "b": {"queue": "private", "parent": "a"}}, "main": []}"#,
    error:
      #"bad.json:1:121: error: the parents of "a" go round in a cycle: a → b → a (at contexts.a)"#),
  BadInput(
    name: "a value of the wrong attribute type",
    text: #"{\#(head), "store": {"Note": [{"id": "n1", "title": 5}]}, "main": []}"#,
    error:
      #"bad.json:1:113: error: "title" is a string attribute, but this value is an integer (at store.Note[0])"#
  ),
  BadInput(
    name: "an expect naming a label no step carries",
    text:
      #"{\#(head), "main": [{"print": "x", "label": "a"}], "expect": {"violations": [{"kind": "wrongQueueContext", "at": "b"}]}}"#,
    error: #"bad.json:1:174: error: no step has the label "b" (at expect.violations[0])"#),
  BadInput(
    name: "duplicate labels",
    text: #"{\#(head), "main": [{"print": "x", "label": "a"}, {"print": "y", "label": "a"}]}"#,
    error: #"bad.json:1:135: error: the label "a" is already used at 1:105 (at main[1])"#),
]

@Suite("Bad input: one clear error with its place and a fix, never a crash")
struct BadInputTests {
  @Test("Each class of bad scenario is reported with its place, exit 65", arguments: badInputs)
  func badScenario(_ input: BadInput) {
    let run = ctxsim("run", "bad.json", files: ["bad.json": input.text])
    #expect(run.status == input.status)
    #expect(run.out.isEmpty)
    #expect(run.err.hasPrefix(input.error + (input.error.contains("\n") ? "\n" : "")), "\(run.err)")
    #expect(run.err.contains("\n  fix: "))
  }

  @Test("Bytes that are not UTF-8 name the first bad byte, exit 65")
  func notUTF8() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("ctxsim-latin1.json")
      .path
    try Data([0x7B, 0xFF, 0x7D]).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let run = ctxsim("run", path)
    #expect(run.status == 65)
    #expect(
      run.err.hasPrefix("\(path):1:2: error: the file is not UTF-8 text (byte 0xFF)\n  fix: "))
  }

  @Test("A missing file, a folder, an unreadable file and a folder without scenarios: exit 66")
  func noInput() {
    #expect(ctxsim("run", "nope.json").err.hasPrefix("nope.json: error: no such file\n  fix: "))
    #expect(ctxsim("run", "nope.json").status == 66)
    let folder = ctxsim("run", "scenarios")
    #expect(folder.status == 66)
    #expect(
      folder.err.hasPrefix("scenarios: error: this is a folder, not a scenario file\n  fix: "))
    let empty = ctxsim("check", "Sources")
    #expect(empty.status == 66)
    #expect(empty.err == "Sources: error: no scenario files (*.json) in this folder\n")
    var err = ""
    let console = Console(
      write: { _ in }, writeError: { err += $0 }, isTerminal: false, environment: [:],
      readFile: { _ in .unreadable })
    #expect(Ctxsim.main(["run", "locked.json"], console: console) == 66)
    #expect(err.hasPrefix("locked.json: error: the file cannot be read\n  fix: "))
  }

  @Test("Several errors in one file are all reported, in file order")
  func severalErrors() {
    let text = #"{\#(head), "main": [{"fecth": "Note"}, {"fetch": "Notes", "in": "viewContxt"}]}"#
    let run = ctxsim("run", "bad.json", files: ["bad.json": text])
    #expect(run.status == 65)
    let lines = run.err.split(separator: "\n").filter { $0.hasPrefix("bad.json:") }
    #expect(lines.count == 3)
    #expect(run.err.hasSuffix("3 errors in bad.json.\n"))
  }
}

@Suite("Limits: a clear message and exit 75, never a hang")
struct LimitTests {
  /// Starts a thread for each of `n` elements, on the global queue.
  private func threads(_ n: Int) -> String {
    let list = (0..<n).map(String.init).joined(separator: ", ")
    return
      #"{\#(head), "main": [{"forEach": [\#(list)], "as": "i", "do": [{"async": "global", "do": [{"print": "x"}]}]}]}"#
  }

  @Test("Steps: a run that does not end stops at --max-steps")
  func steps() {
    let run = ctxsim("run", "scenarios/photo-downloader.json", "--max-steps", "10")
    #expect(run.status == 75)
    #expect(run.out.contains("Stopped after 10 steps, the step limit"))
  }

  @Test("Threads: a loop that dispatches without end stops at --max-threads")
  func threadLimit() {
    let run = ctxsim("run", "many.json", "--max-threads", "20", files: ["many.json": threads(50)])
    #expect(run.status == 75)
    #expect(run.out.contains("Stopped at 20 threads, the thread limit"))
    #expect(ctxsim("run", "many.json", files: ["many.json": threads(50)]).status == 0)
  }

  @Test("Queues: a loop that makes a context each time stops at the limit")
  func queueLimit() {
    let list = (0..<30).map(String.init).joined(separator: ", ")
    let text =
      #"{\#(head), "main": [{"forEach": [\#(list)], "as": "i", "do": [{"newContext": "scratch", "queue": "private"}]}]}"#
    let run = ctxsim("run", "many.json", "--max-threads", "10", files: ["many.json": text])
    #expect(run.status == 75, "\(run.err)")
    #expect(run.out.contains("Stopped at 10 queues, the queue limit"))
  }

  @Test("File size: a file over --max-file-size is refused before it is read")
  func fileSize() {
    let run = ctxsim("run", "scenarios/wrong-thread.json", "--max-file-size", "100")
    #expect(run.status == 75)
    #expect(run.err.hasPrefix("scenarios/wrong-thread.json: error: the file is "))
    #expect(run.err.contains("--max-file-size"))
  }

  @Test("Nesting: JSON deeper than --max-depth is refused at the place it goes too deep")
  func depth() {
    let run = ctxsim("run", "scenarios/wrong-thread.json", "--max-depth", "3")
    #expect(run.status == 65)
    #expect(
      run.err.hasPrefix(
        "scenarios/wrong-thread.json:5:29: error: lists and objects nest deeper than 3 levels"))
    #expect(run.err.contains("(--max-nesting raises it)"))
  }

  @Test("Exploration: --max-schedules bounds the schedules, --time-limit the time")
  func exploration() {
    let counted = ctxsim("explore", "scenarios/never-on-my-machine.json", "--max-schedules", "4")
    #expect(
      counted.out.hasPrefix("Explored scenarios/never-on-my-machine.json with dpor: 4 schedules"))
    // Failing schedules are a definite answer, however far the search got.
    #expect(counted.status == 1)
    let timed = ctxsim(
      "explore", "scenarios/photo-downloader-fixed.json", "--time-limit", "0.05")
    #expect(timed.out.contains("stopped by the time limit (--time-limit raises it)"))
    #expect(timed.status == 75)
  }

  @Test(
    "Every number option of run, explore, check and draft, typed at its largest, gets an answer")
  func everyNumberAtItsLargest() {
    let largest = [
      "<n>": String(Int.max), "<b>": String(Int.max), "<d>": String(Int.max),
      "<bytes>": String(Int.max), "<seconds>": "1e300",
    ]
    let swift = "Examples/Draft/ImageImporter.swift"
    for name in ["run", "explore", "check", "draft"] {
      let command = ArgumentParser.subcommands.first { $0.name == name }!
      let numbers = command.options.filter { largest[$0.valueName ?? ""] != nil }
      #expect(numbers.count >= 2, "\(name) has number options")
      for option in numbers {
        var runs: [[String]] = [[swift]]
        if name != "draft" { runs.append(["scenarios/never-on-my-machine.json"]) }
        if name == "explore" {
          runs += ["random", "pct", "exhaustive", "stateful"].map {
            ["scenarios/never-on-my-machine.json", "--strategy", $0]
          }
        }
        for var arguments in runs {
          arguments = [name] + arguments + [option.names.last!, largest[option.valueName!]!]
          if name == "explore" || name == "check", option.valueName != "<seconds>" {
            arguments += ["--time-limit", "0.2"]
          }
          let run = ctxsim(arguments: arguments)
          // A usage error (64) for an option the strategy does not take is an answer too, as
          // are a file the command does not read (65) and the simulated app's own crash
          // (133, 134, 139) on the schedule a seed picks.
          #expect(
            [0, 1, 64, 65, 75, 133, 134, 139].contains(run.status), "\(arguments): \(run.err)")
        }
      }
    }
    let items = ctxsim("draft", swift, "--items", "1001")
    #expect(items.status == 64)
    #expect(items.err.hasPrefix("ctxsim: error: `--items` takes a whole number from 1 to 1000"))
  }

  @Test("A --schedule longer than ten million steps is refused before it is built")
  func scheduleLength() {
    let long = Array(repeating: "0x9000000", count: 3).joined(separator: ",")
    let run = ctxsim("run", "scenarios/wrong-thread.json", "--schedule", long)
    #expect(run.status == 64)
    #expect(run.err.contains("is not a schedule"))
  }

  @Test("A limit on the command line must be a whole number above 0")
  func badLimit() {
    let run = ctxsim("run", "scenarios/wrong-thread.json", "--max-threads", "0")
    #expect(run.status == 64)
    #expect(
      run.err.hasPrefix("ctxsim: error: `--max-threads` takes a whole number above 0, not `0`"))
  }
}
