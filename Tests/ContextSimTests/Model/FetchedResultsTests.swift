import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// processPendingChanges, objects-did-change, and fetched results controllers
/// (semantics-2 §2.6, §4).
@Suite("Pending changes and fetched results controllers")
struct FetchedResultsTests {
  private func traced(_ main: String, contexts: String = #"{"bg": {"queue": "private"}}"#)
    throws -> Trace
  {
    run(
      try scenario(
        #"""
        {"title": "frc", "model": {"Note": {"attributes": {"title": "string"}}},
         "store": {"Note": [{"id": "n1", "title": "b"}]},
         "contexts": \#(contexts), "main": \#(main)}
        """#))
  }

  private func printed(_ trace: Trace) -> [String] {
    trace.events.compactMap { event in
      if case .printed(let text) = event.effect { text } else { nil }
    }
  }

  private func listed(_ trace: Trace) -> [[String]] {
    trace.events.compactMap { event in
      if case .listed(_, let objects) = event.effect { objects.map(\.description) } else { nil }
    }
  }

  @Test("Changes are announced at the end of a perform block, not after performAndWait")
  func announcedAtBlockEnd() throws {
    let trace = try traced(
      #"""
      [{"observe": "objectsDidChange", "object": "bg", "as": "n", "do": [
         {"get": "n.insertedObjects", "as": "ins"}, {"get": "n.updatedObjects", "as": "upd"},
         {"print": "inserted $ins, updated $upd"}]},
       {"performAndWait": "bg", "do": [
         {"insert": "Note", "into": "bg", "as": "gone"}, {"delete": "gone"},
         {"insert": "Note", "into": "bg", "values": {"title": "a"}}]},
       {"print": "after performAndWait"},
       {"perform": "bg", "do": [
         {"fetch": "Note", "in": "bg", "where": {"title": "b"}, "first": true, "as": "old"},
         {"set": "old.title", "to": "c"}]}]
      """#)
    #expect(trace.violations.isEmpty)
    #expect(
      printed(trace) == [
        "after performAndWait", "inserted [Note Note/t2], updated [Note n1]",
      ])
  }

  @Test("A controller with a delegate follows its own context's changes, sorted")
  func followsOwnContext() throws {
    let trace = try traced(
      #"""
      [{"fetchedResultsController": "list", "entity": "Note", "in": "viewContext",
        "where": {"title": {"!=": "x"}}, "sortBy": [{"key": "title"}],
        "delegate": [{"get": "list.numberOfObjects", "as": "n"}, {"print": "rows: $n"}]},
       {"performFetch": "list"},
       {"insert": "Note", "into": "viewContext", "values": {"title": "a"}},
       {"insert": "Note", "into": "viewContext", "values": {"title": "x"}}]
      """#)
    #expect(trace.violations.isEmpty)
    // Announced at the end of the main thread's pass, where the delegate runs.
    #expect(listed(trace) == [["Note/t1", "n1"]])
    #expect(printed(trace) == ["rows: 2"])
  }

  @Test("Without a delegate a controller tracks nothing")
  func noDelegateNoTracking() throws {
    let trace = try traced(
      #"""
      [{"fetchedResultsController": "list", "entity": "Note", "in": "viewContext"},
       {"performFetch": "list"},
       {"insert": "Note", "into": "viewContext"},
       {"async": "main", "do": [{"get": "list.numberOfObjects", "as": "n"}, {"print": "$n"}]}]
      """#)
    #expect(printed(trace) == ["1"])
  }

  @Test("performFetch waits for its context's queue and never traps; on a child it asks the parent")
  func performFetchBlocks() throws {
    let trace = try traced(
      #"""
      [{"fetchedResultsController": "list", "entity": "Note", "in": "child"},
       {"perform": "bg", "do": [{"print": "bg busy"}]},
       {"performFetch": "list"}]
      """#,
      contexts: #"{"bg": {"queue": "private"}, "child": {"queue": "private", "parent": "bg"}}"#)
    #expect(trace.violations.isEmpty)
    #expect(
      trace.events.contains {
        if case .asksParent(let parent, _, _) = $0.effect { parent == "bg" } else { false }
      })
  }
}
