import Foundation
import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// One test per class of decoding error: each names the place and says how to fix it.
@Suite("Scenario decoding errors")
struct ScenarioDecoderTests {
  private let model = #""model": {"Note": {"attributes": {"title": "string", "rank": "integer"}}}"#

  /// The single error a file gives; records an issue if there is not exactly one.
  private func only(_ json: String) -> ScenarioError? {
    let found = errors(json)
    #expect(found.count == 1, "expected one error, got \(found.map(\.description))")
    return found.first
  }

  @Test("A list under \"when\" runs the step only if every condition holds")
  func whenList() throws {
    let trace = run(
      try notes(
        #"""
        [{"fetch": "Note", "in": "viewContext", "first": true, "as": "n"},
         {"get": "n.title", "as": "t"},
         {"print": "both", "when": [{"value": "t", "notEquals": null}, {"value": "t", "equals": "Buy milk"}]},
         {"print": "one", "when": [{"value": "t", "notEquals": null}, {"value": "t", "equals": "x"}]}]
        """#))
    #expect(trace.lines.filter { $0.hasPrefix("print") } == ["print: both"])
    let empty = errors(
      #"{"title": "t", "main": [{"let": "x", "value": 1}, {"print": "p", "when": []}]}"#)
    #expect(empty.map(\.message) == [#""when" lists no test"#])
  }

  @Test("An empty list given to a name that holds objects keeps it a list of those objects")
  func emptyListKeepsObjects() throws {
    let steps = #"""
      [{"fetch": "Note", "in": "viewContext", "as": "found"},
       {"let": "rows", "value": "$found"},
       {"let": "rows", "value": [], "when": {"value": "found", "equals": null}},
       {"forEach": "$rows", "as": "row", "do": [{"get": "row.title", "as": "t"}]}]
      """#
    #expect(run(try notes(steps)).violations.isEmpty)
    // A name bound to an empty list first is a plain value: its elements are no objects.
    let plain = errors(
      #"""
      {"title": "t", "model": {"Note": {"attributes": {"title": "string"}}},
       "main": [{"let": "rows", "value": []},
                {"forEach": "$rows", "as": "row", "do": [{"get": "row.title", "as": "t"}]}]}
      """#)
    #expect(plain.map(\.message) == [#""row" holds a plain value, not a managed object"#])
  }

  @Test("let of another variable holds what that one holds: an object stays an object")
  func letCopiesObject() throws {
    let trace = run(
      try notes(
        #"""
        [{"fetch": "Note", "in": "viewContext", "first": true, "as": "n"},
         {"let": "copy", "value": "$n"},
         {"get": "copy.title", "as": "t"},
         {"print": "$t"}]
        """#))
    #expect(trace.violations.isEmpty)
    #expect(trace.lines.contains("print: Buy milk"))
  }

  @Test(
    "A context whose newContext a when skipped is not run on: the run is not clean, ctxsim goes on")
  func unmadeContext() throws {
    let scenario = try notes(
      #"""
      [{"let": "ready", "value": false},
       {"newContext": "child", "queue": "private", "when": {"value": "ready", "equals": true}},
       {"save": "child", "label": "save-child"},
       {"print": "after"}]
      """#)
    let trace = run(scenario)
    #expect(trace.violations.isEmpty)
    #expect(trace.isUnmodelled)
    // The step not taken is listed, as a notModelled step's line is.
    #expect(trace.unmodelledLines(in: scenario).map(\.place) == ["save-child"])
    #expect(trace.lines.contains("print: after"))
  }

  @Test("Malformed JSON gives the file, line and column")
  func malformedJSON() {
    let error = only("{\n  \"title\": \"x\",\n  \"main\": [,]\n}")
    #expect(error?.file == "test.json")
    #expect(error?.location == SourceLocation(line: 3, column: 12))
    #expect(
      error?.description.hasPrefix("test.json:3:12: error: a value is missing before ','") == true)
  }

  @Test("A missing title or main is named")
  func missingRequiredKeys() {
    let found = errors("{}")
    #expect(
      found.map(\.message) == ["the scenario has no \"title\"", "the scenario has no \"main\""])
  }

  @Test("A value of the wrong JSON type says which type it wanted")
  func wrongType() {
    let error = only(#"{"title": "t", "concurrencyDebug": "yes", "main": []}"#)
    #expect(error?.message == "\"concurrencyDebug\" must be true or false, not a string")
    #expect(error?.location == SourceLocation(line: 1, column: 36))
  }

  @Test("An unknown top-level key suggests the nearest known one")
  func unknownTopLevelKey() {
    let error = only(#"{"title": "t", "main": [], "contxts": {}}"#)
    #expect(error?.message == "unknown key \"contxts\" in the scenario")
    #expect(error?.fix == "did you mean \"contexts\"?")
  }

  @Test("An unknown verb suggests the nearest verb, with the step path")
  func unknownVerb() {
    let error = only(
      #"{"title": "t", "main": [{"print": "a"}, {"perfrom": "viewContext", "do": []}]}"#)
    #expect(error?.message == "unknown verb \"perfrom\"")
    #expect(error?.fix == "did you mean \"perform\"?")
    #expect(error?.path == "main[1]")
  }

  @Test("An unknown verb naming a Core Data API ctxsim does not model says so, with what to write")
  func notModelledVerb() {
    let step = { (verb: String) in
      only(#"{"title": "t", "main": [{"\#(verb)": "viewContext", "label": "x"}]}"#)
    }
    let undo = step("undo")
    #expect(
      undo?.message == #"unknown verb "undo": UndoManager is not modelled; see docs/model.md"#)
    #expect(undo?.fix == #"write "rollback" to drop the context's unsaved changes"#)
    #expect(undo?.path == "main[0]")
    // Matched case-insensitively, whole or by a beginning the table lists.
    #expect(
      step("CloudKitExport")?.message
        == #"unknown verb "CloudKitExport": NSPersistentCloudKitContainer is not modelled; see docs/model.md"#
    )
    let swiftData = step("modelcontext")
    #expect(
      swiftData?.message.hasSuffix("SwiftData's ModelContext is not modelled; see docs/model.md")
        == true)
    #expect(swiftData?.fix == UnmodelledAPIs.noReplacement)
    // An ordinary typo still gets the nearest verb.
    #expect(step("rset")?.message == #"unknown verb "rset""#)
    #expect(step("rset")?.fix == #"did you mean "reset"?"#)
  }

  @Test("docs/model.md lists every API of the not-modelled table")
  func notModelledDocumented() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let doc = try String(
      contentsOf: root.appendingPathComponent("docs/model.md"), encoding: .utf8)
    for api in UnmodelledAPIs.apis {
      let listed = doc.contains("| \(api.name) |") || doc.contains("| `\(api.name)` |")
      #expect(listed, "docs/model.md does not list \(api.name)")
    }
  }

  @Test("No API of the not-modelled table shares a name or a beginning with a verb")
  func notModelledAreNotVerbs() {
    for verb in Verbs.names {
      #expect(
        UnmodelledAPIs.api(named: verb) == nil, "\(verb) is a verb now: take it out of the table")
    }
  }

  @Test("Two verbs in one step are refused")
  func twoVerbs() {
    let error = only(
      "{\"title\": \"t\", \(model), \"main\": [{\"fetch\": \"Note\", \"count\": \"Note\", \"in\": \"viewContext\"}]}"
    )
    #expect(error?.message == "a step has one verb, but this one has \"fetch\" and \"count\"")
  }

  @Test("An unknown key in a step suggests the verb's own keys; a missing required key is named")
  func unknownStepKey() {
    let found = errors(
      "{\"title\": \"t\", \(model), \"main\": [{\"fetch\": \"Note\", \"inn\": \"viewContext\"}]}")
    #expect(
      found.map(\.message) == [
        "this \"fetch\" step has no \"in\"", "unknown key \"inn\" in a \"fetch\" step",
      ])
    #expect(found.last?.fix == "did you mean \"in\"?")
  }

  @Test("Errors deep in blocks carry the full step path")
  func nestedPath() {
    let error = only(
      #"{"title": "t", "main": [{"print": "x"}, {"async": "global", "do": [{"perform": "viewContext", "do": [{"print": "$nope"}]}]}]}"#
    )
    #expect(error?.path == "main[1].async.do[0].perform.do[0]")
    #expect(error?.message == "unknown variable \"$nope\"")
  }

  @Test("Unknown entity, attribute, context and queue names are each reported with a suggestion")
  func unknownNames() {
    let found = errors(
      """
      {"title": "t", \(model), "main": [
        {"fetch": "Notes", "in": "viewContext"},
        {"insert": "Note", "into": "viewContext", "values": {"titel": "x"}},
        {"count": "Note", "in": "backgroud"},
        {"async": "gobal", "do": []}
      ]}
      """)
    #expect(
      found.map(\.message) == [
        "unknown entity \"Notes\"", "Note has no attribute \"titel\"",
        "unknown context \"backgroud\"", "unknown queue \"gobal\"",
      ])
    #expect(
      found.map(\.fix) == [
        "did you mean \"Note\"?", "did you mean \"title\"?",
        "declare it in \"contexts\" with \"queue\": \"private\", or use viewContext",
        "did you mean \"global\"?",
      ])
    #expect(found.map { $0.location?.line } == [2, 3, 4, 5])
  }

  @Test("A variable bound inside an async block is not visible after it")
  func asyncScope() {
    let error = only(
      "{\"title\": \"t\", \(model), \"main\": [{\"async\": \"global\", \"do\": [{\"read\": \"x\", \"as\": \"n\"}]}, {\"print\": \"$n\"}], \"vars\": {\"x\": 1}}"
    )
    #expect(error?.message == "unknown variable \"$n\"")
    #expect(error?.path == "main[1]")
  }

  @Test("A variable bound inside an async block is named as such, not matched to another name")
  func asyncScopeFix() {
    let error = only(
      #"{"title": "t", "vars": {"x": 1}, "main": [{"read": "x", "as": "m"}, {"async": "global", "do": [{"read": "x", "as": "n"}]}, {"print": "$n"}]}"#
    )
    #expect(error?.message == "unknown variable \"$n\"")
    #expect(
      error?.fix
        == "it is bound inside the block at 1:69; pass it out through a var or look it up by ID")
  }

  @Test("A label on a step that failed is not reported again where expect or inject names it")
  func labelOfFailedStep() {
    let found = errors(
      #"""
      {"title": "t", "main": [
        {"perfrom": "viewContext", "label": "a", "do": []},
        {"perform": "nope", "do": [{"print": "x", "label": "b"}]}],
       "expect": {"violations": [{"kind": "deadlock", "at": "a"}, {"kind": "deadlock", "at": "b"}]},
       "inject": [{"at": "b", "error": 134030}]}
      """#)
    #expect(found.map(\.message) == ["unknown verb \"perfrom\"", "unknown context \"nope\""])
  }

  @Test("A variable bound inside performAndWait is visible after it, as an outer var would be")
  func synchronousScope() {
    #expect(
      errors(
        "{\"title\": \"t\", \(model), \"contexts\": {\"bg\": {\"queue\": \"private\"}}, \"main\": [{\"performAndWait\": \"bg\", \"do\": [{\"fetch\": \"Note\", \"in\": \"bg\", \"first\": true, \"as\": \"n\"}]}, {\"get\": \"n.title\"}]}"
      ).isEmpty)
  }

  @Test("Reading a key of a plain value or of a list is refused")
  func keyOfNonObject() {
    let found = errors(
      "{\"title\": \"t\", \(model), \"main\": [{\"count\": \"Note\", \"in\": \"viewContext\", \"as\": \"n\"}, {\"get\": \"n.title\"}, {\"fetch\": \"Note\", \"in\": \"viewContext\", \"as\": \"all\"}, {\"get\": \"all.title\"}]}"
    )
    #expect(
      found.map(\.message) == [
        "\"n\" holds a plain value, not a managed object", "\"all\" is a list of objects",
      ])
  }

  @Test("A literal of the wrong attribute type is refused")
  func wrongAttributeType() {
    let error = only(
      "{\"title\": \"t\", \(model), \"main\": [{\"insert\": \"Note\", \"into\": \"viewContext\", \"values\": {\"rank\": \"high\"}}]}"
    )
    #expect(error?.message == "\"rank\" is an integer attribute, but this value is a string")
  }

  @Test("Duplicate labels are refused, pointing at the first use")
  func duplicateLabels() {
    let error = only(
      #"{"title": "t", "main": [{"print": "a", "label": "x"}, {"print": "b", "label": "x"}]}"#)
    #expect(error?.message == "the label \"x\" is already used at 1:49")
  }

  @Test("An expectation naming a label no step carries is refused")
  func expectUnknownLabel() {
    let error = only(
      #"{"title": "t", "main": [{"print": "a", "label": "hello"}], "expect": {"violations": [{"kind": "deadlock", "at": "helo"}]}}"#
    )
    #expect(error?.message == "no step has the label \"helo\"")
    #expect(error?.fix == "did you mean \"hello\"?")
  }

  @Test("An unknown violation kind suggests the nearest kind")
  func unknownKind() {
    let error = only(
      #"{"title": "t", "main": [], "expect": {"violations": [{"kind": "dataRaces"}]}}"#)
    #expect(error?.fix == "did you mean \"dataRace\"?")
  }

  @Test("Every verb of format v1 decodes: none is refused")
  func everyVerbRuns() {
    let found = errors(
      #"""
      {"title": "t", "model": {"N": {"attributes": {"t": "string"}}}, "vars": {"v": 0},
       "contexts": {"bg": {"queue": "private"}},
       "main": [
         {"task": "main", "do": [{"perform": "bg", "await": true, "schedule": "enqueued", "do": [{"count": "N", "in": "bg"}]}]},
         {"newContext": "c", "queue": "private"}, {"newBackgroundContext": "b"},
         {"insert": "N", "into": "viewContext", "as": "n"}, {"delete": "n"}, {"refresh": "n", "merge": true},
         {"reset": "viewContext"}, {"rollback": "viewContext"},
         {"batchUpdate": "N", "in": "viewContext", "where": {}, "set": {"t": "x"}, "mergeInto": ["viewContext"]},
         {"read": "v"}, {"write": "v", "value": 1}]}
      """#)
    #expect(found.isEmpty, "\(found)")
  }

  @Test("await and task groups are refused outside a Swift task")
  func awaitOutsideTask() {
    let found = errors(
      #"""
      {"title": "t", "contexts": {"bg": {"queue": "private"}},
       "main": [{"perform": "bg", "await": true, "do": []},
                {"taskGroup": [1], "as": "x", "child": [], "then": []},
                {"async": "global", "do": [{"perform": "bg", "await": true, "do": []}]}]}
      """#)
    #expect(
      found.map(\.message) == [
        "await is only allowed inside a Swift task",
        "a task group is only allowed inside a Swift task",
        "await is only allowed inside a Swift task",
      ])
  }

  @Test("A relationship to an unknown entity, or with a mismatched inverse, is refused")
  func relationships() {
    let found = errors(
      #"""
      {"title": "t", "main": [], "model": {
        "Album": {"relationships": {"photos": {"to": "Photo", "many": true, "inverse": "album"}}},
        "Photo": {"relationships": {"album": {"to": "Album", "inverse": "pictures"}, "owner": {"to": "Persn"}}}
      }}
      """#)
    #expect(
      found.map(\.message) == [
        "the inverse of Album.photos is Photo.album, but that one points at Album.pictures",
        "the inverse \"pictures\" is not a relationship of Album",
        "the relationship \"owner\" points at an unknown entity \"Persn\"",
      ])
  }

  @Test("A sub-entity has its parent's properties, and an inverse may point back at the parent")
  func subEntities() throws {
    let json = #"""
      {"title": "t", "model": {
        "Metric": {"attributes": {"name": "string"},
                   "relationships": {"session": {"to": "Session", "inverse": "metrics"}}},
        "IntMetric": {"parent": "Metric", "attributes": {"value": "integer"}},
        "Session": {"relationships": {"metrics": {"to": "Metric", "many": true, "inverse": "session"}}}
      },
       "store": {"Session": [{"id": "s"}]},
       "main": [{"fetch": "Session", "in": "viewContext", "as": "found", "first": true},
                {"insert": "IntMetric", "into": "viewContext", "as": "m"},
                {"set": "m.session", "to": "$found"},
                {"get": "found.metrics", "as": "metrics"}]}
      """#
    #expect(errors(json).isEmpty, "\(errors(json))")
    let scenario = try ScenarioDecoder.decode(Array(json.utf8), file: "t")
    let metric = try #require(scenario.entity(named: "IntMetric"))
    #expect(metric.parent == "Metric")
    #expect(metric.attributes.map(\.name) == ["name", "value"])
    #expect(metric.relationship(named: "session")?.inverse == "metrics")
    // Setting the sub-entity's relationship changes the other side, as Core Data's inverse does.
    let trace = run(scenario)
    #expect(trace.violations.isEmpty)
    let read = trace.events.compactMap { event -> Value? in
      guard case .read(_, "metrics", let value, _) = event.effect else { return nil }
      return value
    }
    guard case .list(let items)? = read.first else {
      Issue.record("no read of session.metrics: \(read)")
      return
    }
    #expect(items.count == 1)
  }

  @Test("A parent entity not in the model is refused with a suggestion")
  func unknownParentEntity() {
    let error = only(
      #"{"title": "t", "main": [], "model": {"Metric": {}, "IntMetric": {"parent": "Metirc"}}}"#)
    #expect(error?.message == "IntMetric's parent entity \"Metirc\" is not in the model")
    #expect(error?.fix == "did you mean \"Metric\"?")
    #expect(error?.path == "model.IntMetric.parent")
  }

  @Test("A context named like a dispatch queue, and async onto a context, are refused")
  func queueAndContextNames() {
    let found = errors(
      #"{"title": "t", "contexts": {"bg": {"queue": "private"}, "global": {"queue": "private"}}, "main": [{"async": "bg", "do": []}]}"#
    )
    #expect(
      found.map(\.message) == [
        "a context cannot be called \"global\"",
        "\"bg\" is a context; its private queue is reached with perform, not dispatched to",
      ])
  }

  @Test("Several errors in one file are all reported, in file order")
  func severalErrors() {
    let found = errors(
      "{\"title\": \"t\", \(model), \"main\": [{\"fetch\": \"Nte\", \"in\": \"viewContxt\"}, {\"frob\": 1}]}"
    )
    #expect(found.count == 3)
    #expect(
      found.map { $0.location?.column ?? 0 } == found.map { $0.location?.column ?? 0 }.sorted())
  }
}
