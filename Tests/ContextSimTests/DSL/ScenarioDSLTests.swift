import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

@Suite("Scenarios written in Swift")
struct ScenarioDSLTests {
  @Test("wrong-thread.json written in Swift runs exactly as the file does")
  func wrongThread() throws {
    let scenario = try Scenario(
      "One queue per context: the four-line demo",
      about:
        "A note is fetched on the background context's own queue, then the main thread reaches into that context and reads the note directly: two traps. Finally the background queue hands over only the note's object ID, and the main thread looks the note up in viewContext, which is the right way across queues.",
      model: ["Note": ["attributes": ["title": "string"]]],
      store: ["Note": [["id": "note-1", "title": "Buy milk"]]],
      contexts: ["background": ["queue": "private"]],
      expect: [
        Expected(.wrongQueueContext, at: "context-from-main"),
        Expected(.wrongQueueObject, at: "object-on-main"),
      ],
      file: "scenarios/wrong-thread.json"
    ) {
      PerformAndWait("background") {
        Fetch("Note", in: "background", first: true, as: "note")
          .label("fetch-on-its-queue")
          .note(
            "Inside performAndWait the main thread runs on background's queue, so this is legal.")
      }
      Count("Note", in: "background", as: "count")
        .label("context-from-main")
        .note("Rule 2 broken: the main thread touches a private context outside perform.")
      Get("note.title", as: "title")
        .label("object-on-main")
        .note("Rule 3 broken: the note belongs to background, and main reads it.")
      Perform("background") {
        GetObjectID("note", as: "noteID")
          .note("An object ID is a plain value, safe on any queue.")
        Async("main") {
          ExistingObject("$noteID", in: "viewContext", as: "mainNote")
            .label("hand-over-by-id")
            .note("Main builds its own copy of the note in viewContext, which main owns.")
        }
      }
    }
    try expectTwins(scenario, "wrong-thread")
    #expect(check(scenario).passed)
  }

  @Test("A mistake in a Swift-built scenario is reported at the Swift line that wrote it")
  func errorsAtTheSwiftLine() {
    let line = #line + 7
    do {
      _ = try Scenario(
        "typo", model: ["Note": ["attributes": ["title": "string"]]],
        contexts: ["background": ["queue": "private"]]
      ) {
        Print("first")
        Fetch("Note", in: "backgroud")
      }
      Issue.record("a scenario with an unknown context was built")
    } catch {
      let message = error.description
      #expect(
        message.hasPrefix(
          "ContextSimTests/ScenarioDSLTests.swift:\(line):14: error: unknown context \"backgroud\" (at main[1])"
        ), "\(message)")
      #expect(message.contains("did you mean \"background\"?"))
    }
  }

  @Test("InsertObject names the object with or without $, as Get and Delete do")
  func insertObjectWithoutDollar() throws {
    func build(_ object: String) throws -> Scenario {
      try Scenario(
        "insert an existing object", model: ["Note": ["attributes": ["title": "string"]]],
        store: ["Note": [["id": "note-1", "title": "Buy milk"]]],
        contexts: ["background": ["queue": "private"]]
      ) {
        Fetch("Note", in: "viewContext", first: true, as: "note")
        PerformAndWait("background") { InsertObject(object, into: "background") }
      }
    }
    for scenario in [try build("note"), try build("$note")] {
      guard case .insertObject(let variable, let context) = scenario.allSteps.last?.action else {
        Issue.record("not an insert of an existing object: \(scenario.allSteps.last?.swift ?? "")")
        continue
      }
      #expect((variable, context) == ("note", "background"))
    }
  }
}
