import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// The verb table the families declare, and the raw form a builder other than JSON can fill.
@Suite("Verb families")
struct VerbFamilyTests {
  @Test("Each verb is declared once, with the keys format v1 gives it, in that order")
  func verbTable() {
    // With ctxsim's additions: `let`, `taskGroup`, and a fetch's `sortBy` and `limit`.
    let v1: [String: [String]] = [
      "async": ["do"], "sync": ["do"], "whenIdle": ["do"], "perform": ["do", "await", "schedule"],
      "performAndWait": ["do"], "task": ["do"], "taskGroup": ["as", "child", "then"],
      "let": ["value"],
      "insert": ["into", "as", "values"],
      "fetch": ["in", "where", "sortBy", "limit", "as", "first", "try"],
      "count": ["in", "where", "as", "try"], "get": ["as"], "set": ["to"], "save": ["try"],
      "objectID": ["as"], "existingObject": ["in", "as", "try"], "object": ["in", "as"],
      "read": ["as"], "write": ["value"], "forEach": ["as", "do"], "print": [], "expect": [],
      "newContext": RawContextOptions.keys,
      // ctxsim's addition: the options an app sets on a background context before use.
      "newBackgroundContext": [
        "mergePolicy", "automaticallyMergesChangesFromParent", "shouldDeleteInaccessibleFaults",
        "name", "transactionAuthor",
      ],
      "delete": [],
      "refresh": ["merge"], "reset": [], "rollback": [], "refreshAllObjects": [],
      "obtainPermanentIDs": ["try"],
      "batchUpdate": ["in", "where", "set", "mergeInto"],
      // ctxsim's additions: the other batch requests, and the merge that brings their
      // results into contexts.
      "batchDelete": ["in", "where", "as", "try"], "batchInsert": ["in", "objects", "as", "try"],
      "mergeRemoteChanges": ["into"],
      // ctxsim's additions: notification observers and the merges they make.
      "observe": ["object", "queue", "as", "token", "do"], "removeObserver": [],
      "mergeChanges": ["into"],
      "fetchedResultsController": ["entity", "in", "where", "sortBy", "delegate"],
      "performFetch": ["try"],
      // ctxsim's addition: persistent history, fetched after a token.
      "fetchHistory": ["after", "as", "try"],
      // ctxsim's addition: a line of the app's Swift a draft could not model.
      "notModelled": ["at"],
    ]
    #expect(Verbs.names == v1.keys.sorted())
    for (verb, keys) in v1 {
      #expect(Verbs.table[verb]?.keys == keys, "\(verb)")
    }
  }

  @Test("The steps of a block whose header is refused are not searched for more errors")
  func shapeProblemsWaitForValidation() {
    let found = errors(
      #"{"title": "t", "main": [{"perform": "nope", "do": [{"fecth": 1}, {"print": 2}]}]}"#)
    #expect(found.map(\.message) == ["unknown context \"nope\""])
  }

  @Test("A raw step built in Swift, not read from JSON, is validated the same way")
  func rawStepWithoutJSON() {
    let place = SourceLocation(line: 12, column: 5)
    func save(_ context: String, at path: String) -> RawStep {
      let arguments = ContextVerbs(
        verb: .save, context: .present(Located(value: context, location: place)),
        tryMode: .absent)
      return RawStep(path: path, location: place, verb: ("save", arguments))
    }
    var decoder = ScenarioDecoder(file: "Demo.swift")
    var scope = StepScope()
    let steps = decoder.validateSteps(
      .present(
        Located(
          value: [save("viewContext", at: "main[0]"), save("bg", at: "main[1]")], location: place)),
      scope: &scope, enclosingLabels: [])
    #expect(steps.map(\.swift) == ["try viewContext.save()"])
    #expect(
      decoder.errors.map(\.description) == [
        "Demo.swift:12:5: error: unknown context \"bg\" (at main[1])\n"
          + "  fix: declare it in \"contexts\" with \"queue\": \"private\", or use viewContext"
      ])
  }
}
