import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

@Suite("mergeChanges(fromRemoteContextSave:into:)")
struct RemoteMergeTests {
  private func outcomes(_ scenario: Scenario) -> [[ViolationKind]] {
    let e = explore(
      scenario, strategy: .dpor(preemptionBound: nil),
      options: SimulationOptions(concurrencyDebug: true), maxSchedules: 10_000)
    #expect(e.isComplete)
    return e.outcomes.map { $0.signature.map(\.kind) }
  }

  @Test("Merging a batch delete's IDs deletes the objects a context holds")
  func mergesDeletions() throws {
    let trace = run(
      try notes(
        #"""
        [{"fetch": "Note", "in": "viewContext", "as": "shown"},
         {"batchDelete": "Note", "in": "viewContext", "where": {"title": "Buy milk"}, "as": "ids"},
         {"mergeRemoteChanges": {"deleted": "$ids"}, "into": ["viewContext"]},
         {"forEach": "$shown", "as": "note", "do": [{"get": "note.isDeleted"}]}]
        """#))
    #expect(trace.violations.isEmpty)
    #expect(
      trace.lines.suffix(3) == [
        "merged a remote context's save into viewContext: deleted note-1",
        "read note-1.isDeleted: true", "read note-2.isDeleted: false",
      ])
  }

  @Test("From a background queue, the merge into viewContext waits for the main queue")
  func waitsForMain() throws {
    let trace = run(
      try notes(
        #"""
        [{"perform": "background", "do": [
          {"batchDelete": "Note", "in": "background", "as": "ids"},
          {"async": "main", "do": [{"print": "the screen's turn"}]},
          {"mergeRemoteChanges": {"deleted": "$ids"}, "into": ["viewContext"]}]}]
        """#))
    #expect(trace.violations.isEmpty)
    #expect(
      trace.lines.suffix(3) == [
        "merging into viewContext: blocks until main is free", "print: the screen's turn",
        "merged a remote context's save into viewContext: nothing it holds changed",
      ])
    let merge = try #require(trace.events.first { $0.effect.name == "merged" })
    #expect(merge.site.thread == "background")
    #expect(merge.site.queue == "main")
  }

  @Test("It never traps: the caller takes each context's queue instead")
  func neverTraps() throws {
    let trace = run(
      try notes(
        #"""
        [{"batchDelete": "Note", "in": "viewContext", "as": "ids"},
         {"mergeRemoteChanges": {"deleted": "$ids"}, "into": ["background"]},
         {"batchUpdate": "Note", "in": "viewContext", "set": {"title": "x"}, "mergeInto": ["background"]}]
        """#))
    #expect(trace.violations.isEmpty)
  }

  @Test("Roots merge before children, whatever order the call lists them in")
  func rootsFirst() throws {
    let trace = run(
      try notes(
        #"""
        [{"batchDelete": "Note", "in": "viewContext", "as": "ids"},
         {"mergeRemoteChanges": {"deleted": "$ids"}, "into": ["editor", "background", "viewContext"]}]
        """#,
        contexts:
          #"{"background": {"queue": "private"}, "editor": {"queue": "main", "parent": "viewContext"}}"#
      ))
    #expect(
      trace.events.compactMap { event -> String? in
        guard case .merged(let into, _, _, _, _, _) = event.effect else { return nil }
        return into
      } == ["background", "viewContext", "editor"])
  }

  @Test("Each context's queue is given back before the next is taken, so no lock-order deadlock")
  func oneQueueAtATime() throws {
    // Holding viewContext's main queue while waiting for other's would deadlock with a
    // block on other that waits for main; Core Data's performAndWait per context does not.
    let found = outcomes(
      try notes(
        #"""
        [{"perform": "other", "do": [{"sync": "main", "do": [{"print": "needs main"}]}]},
         {"perform": "background", "do": [
           {"mergeRemoteChanges": {"deleted": []}, "into": ["viewContext", "other"]}]}]
        """#,
        contexts: #"{"background": {"queue": "private"}, "other": {"queue": "private"}}"#))
    #expect(found == [[]])
  }

  @Test("Main waiting for a context whose block merges into viewContext deadlocks")
  func deadlock() throws {
    let found = outcomes(
      try notes(
        #"""
        [{"perform": "background", "do": [
           {"batchDelete": "Note", "in": "background", "as": "ids"},
           {"mergeRemoteChanges": {"deleted": "$ids"}, "into": ["viewContext"]}]},
         {"performAndWait": "background", "do": [{"count": "Note", "in": "background"}]}]
        """#))
    // performAndWait waits behind the block perform enqueued first, whatever the schedule.
    #expect(found == [[.deadlock]])
  }

  @Test("A batch update's mergeInto waits for the receiving context's queue as well")
  func batchUpdateWaits() throws {
    let trace = run(
      try notes(
        #"""
        [{"perform": "background", "do": [
          {"async": "main", "do": [{"print": "the screen's turn"}]},
          {"batchUpdate": "Note", "in": "background", "set": {"pinned": true}, "mergeInto": ["viewContext"]}]}]
        """#))
    #expect(
      trace.lines.suffix(3) == [
        "merging into viewContext: blocks until main is free", "print: the screen's turn",
        "merged the batch update's save into viewContext: nothing it holds changed",
      ])
  }

  @Test("A child's batch update gives its parent's queue back before the merge takes it")
  func childBatchUpdate() throws {
    let trace = run(
      try notes(
        #"""
        [{"perform": "child", "do": [
          {"batchUpdate": "Note", "in": "child", "set": {"pinned": true}, "mergeInto": ["viewContext", "child"]}]}]
        """#,
        contexts: #"{"child": {"queue": "private", "parent": "viewContext"}}"#))
    #expect(trace.violations.isEmpty)
    let steps = trace.events.filter {
      ["asksParent", "mergesOnQueue", "merged"].contains($0.effect.name)
    }
    #expect(steps.map(\.effect.name) == ["asksParent", "mergesOnQueue", "merged", "merged"])
    // The request and the merge into viewContext are separate scheduler steps.
    #expect(steps[0].site.step < steps[1].site.step)
  }
}
