import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// Context properties and object state, each guarded as Core Data guards it
/// (semantics-2 §3.1): checked getters trap, plain reads never do, thread-safe accessors
/// block on the context's queue.
@Suite("Context and object state")
struct ContextStateTests {
  private let model = #""model": {"Note": {"attributes": {"title": "string"}}}"#

  private func traced(_ main: String, contexts: String = #"{"bg": {"queue": "private"}}"#)
    throws -> Trace
  {
    run(try scenario(#"{"title": "state", \#(model), "contexts": \#(contexts), "main": \#(main)}"#))
  }

  private func reads(_ trace: Trace) -> [String] {
    trace.events.compactMap { event in
      guard case .property(let owner, let name, let value, let isSet) = event.effect else {
        return nil
      }
      return "\(owner).\(name)\(isSet ? " = " : ": ")\(value.swiftDescription)"
    }
  }

  @Test("Checked getters trap off the queue; plain reads never do")
  func guards() throws {
    for property in ContextProperty.allCases where property.getter != .blocking {
      let trace = try traced(#"[{"get": "bg.\#(property.rawValue)"}]"#)
      let expected: [ViolationKind] = property.getter == .checked ? [.wrongQueueContext] : []
      #expect(trace.violations.map(\.kind) == expected, "\(property)")
    }
  }

  @Test("A context read from parent into a variable is the one steps naming it use")
  func contextFromParent() throws {
    let trace = try traced(
      #"""
      [{"get": "child.parent", "as": "p"},
       {"insert": "Note", "into": "p", "values": {"title": "a"}}, {"save": "p"}]
      """#, contexts: #"{"child": {"queue": "private", "parent": "viewContext"}}"#)
    #expect(trace.violations.isEmpty)
    let saves = trace.events.compactMap { event -> String? in
      guard case .saved(let context, let inserted, _, _) = event.effect else { return nil }
      return "\(context): \(inserted.map(\.description))"
    }
    #expect(saves == [#"viewContext: ["Note/p1"]"#])
  }

  @Test("hasChanges and the change sets follow inserts, edits and deletes until the save")
  func changeSets() throws {
    let trace = try traced(
      #"""
      [{"performAndWait": "bg", "do": [
        {"get": "bg.hasChanges"},
        {"insert": "Note", "into": "bg", "as": "note", "values": {"title": "a"}},
        {"get": "bg.hasChanges"}, {"get": "bg.insertedObjects"},
        {"get": "note.isInserted"}, {"get": "note.changedValues"},
        {"save": "bg"},
        {"get": "bg.hasChanges"}, {"get": "note.isInserted"},
        {"set": "note.title", "to": "x"}, {"get": "note.isUpdated"},
        {"delete": "note"}, {"get": "note.isDeleted"}, {"get": "bg.deletedObjects"}]}]
      """#)
    #expect(trace.violations.isEmpty)
    #expect(
      reads(trace) == [
        "bg.hasChanges: false", "bg.hasChanges: true", #"bg.insertedObjects: ["Note Note/t1"]"#,
        "Note/t1.isInserted: true", #"Note/t1.changedValues: ["title"]"#, "bg.hasChanges: false",
        "Note/p1.isInserted: false", "Note/p1.isUpdated: true", "Note/p1.isDeleted: true",
        #"bg.deletedObjects: ["Note Note/p1"]"#,
      ])
  }

  @Test(
    "name and the setters wait for the context's queue: main waiting on a busy bg blocks, never traps"
  )
  func blockingAccessors() throws {
    let trace = try traced(
      #"""
      [{"set": "bg.mergePolicy", "to": "overwrite"}, {"get": "bg.mergePolicy"},
       {"set": "bg.name", "to": "saver"}, {"get": "bg.name", "as": "name"}]
      """#)
    #expect(trace.violations.map(\.kind) == [.wrongQueueContext])
    #expect(trace.violations.first?.site.stepIndex == 1)
    #expect(
      reads(trace) == [
        #"bg.mergePolicy = "overwrite""#, #"bg.mergePolicy: "overwrite""#, #"bg.name = "saver""#,
        #"bg.name: "saver""#,
      ])
    let deadlock = explore(
      try scenario(
        #"""
        {"title": "setter", \#(model), "contexts": {"bg": {"queue": "private"}},
         "main": [{"perform": "bg", "do": [{"sync": "main", "do": []}]},
                  {"set": "bg.name", "to": "x"}]}
        """#), strategy: .dpor(preemptionBound: nil),
      options: SimulationOptions(concurrencyDebug: true), maxSchedules: 1_000)
    #expect(deadlock.outcomes.contains { $0.signature.map(\.kind) == [.deadlock] })
  }

  @Test("undoManager: set off the queue it waits, read off the queue it traps; nil until set")
  func undoManager() throws {
    let trace = try traced(
      #"""
      [{"performAndWait": "bg", "do": [{"get": "bg.undoManager"}]},
       {"set": "bg.undoManager", "to": "UndoManager"},
       {"performAndWait": "bg", "do": [{"get": "bg.undoManager"}]},
       {"set": "bg.undoManager", "to": null},
       {"get": "bg.undoManager"}]
      """#)
    #expect(trace.violations.map(\.kind) == [.wrongQueueContext])
    #expect(trace.violations.first?.site.stepIndex == 6)  // the last step, nested ones counted
    #expect(
      reads(trace).prefix(3) == [
        "bg.undoManager: nil", #"bg.undoManager = "UndoManager""#,
        #"bg.undoManager: "UndoManager""#,
      ])
  }

  @Test("A set merge policy is the one the next save resolves conflicts with")
  func setPolicyIsUsed() throws {
    let trace = try traced(
      #"""
      [{"newBackgroundContext": "writer", "mergePolicy": "mergeByPropertyObjectTrump"},
       {"performAndWait": "writer", "do": [{"get": "writer.mergePolicy"}]}]
      """#)
    #expect(reads(trace) == [#"writer.mergePolicy: "mergeByPropertyObjectTrump""#])
  }

  @Test("After a reset an object's context is nil, and its ID stays readable anywhere")
  func afterReset() throws {
    let trace = try traced(
      #"""
      [{"insert": "Note", "into": "viewContext", "as": "note"},
       {"save": "viewContext"},
       {"reset": "viewContext"},
       {"async": "global", "do": [
         {"get": "note.managedObjectContext"}, {"get": "note.objectID"}]}]
      """#)
    #expect(trace.violations.isEmpty)
    #expect(
      reads(trace) == [
        "Note/p1.managedObjectContext: nil", "Note/p1.objectID: Note/p1",
      ])
  }

  @Test("A deleted object keeps its context until the delete is saved, then has none")
  func afterDeleteSaved() throws {
    let trace = try traced(
      #"""
      [{"insert": "Note", "into": "viewContext", "as": "note"},
       {"save": "viewContext"},
       {"delete": "note"},
       {"get": "note.managedObjectContext"},
       {"save": "viewContext"},
       {"get": "note.managedObjectContext"}]
      """#)
    #expect(trace.violations.isEmpty)
    #expect(
      reads(trace) == [
        #"Note/p1.managedObjectContext: "viewContext""#, "Note/p1.managedObjectContext: nil",
      ])
  }

  @Test("An attribute named like a state property is read as the attribute; state is read-only")
  func attributeWins() {
    #expect(
      errors(
        #"""
        {"title": "t", \#(model), "main": [
          {"insert": "Note", "into": "viewContext", "as": "n"}, {"set": "n.isDeleted", "to": true}]}
        """#
      ).map(\.message) == [#""isDeleted" is read-only"#])
    #expect(
      errors(#"{"title": "t", \#(model), "main": [{"get": "viewContext.nmae"}]}"#).map(\.fix)
        == [#"did you mean "name"?"#])
  }
}
