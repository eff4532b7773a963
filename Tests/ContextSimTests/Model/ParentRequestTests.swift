import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// A child context's fetch, save, fault and lookups run on its parent's queue, as a
/// `performAndWait` from the child's thread (semantics-2 §1).
@Suite("A child's requests run on its parent's queue")
struct ParentRequestTests {
  private func outcomes(_ json: String, flag: Bool = true) throws -> Set<[ViolationKind]> {
    let e = explore(
      try scenario(json), strategy: .dpor(preemptionBound: nil),
      options: SimulationOptions(concurrencyDebug: flag), maxSchedules: 10_000)
    #expect(e.isComplete)
    return Set(e.outcomes.map { $0.signature.map(\.kind) })
  }

  private func parentRequests(_ trace: Trace) -> [String] {
    trace.events.compactMap { event in
      guard case .asksParent(let parent, let queue, let blocks) = event.effect else { return nil }
      return "\(event.site.thread) asks \(parent) on \(queue)\(blocks ? ", blocked" : "")"
    }
  }

  @Test(
    "A private child's save in perform waits for its main-queue parent; main waiting for the child deadlocks"
  )
  func saveIntoMainParent() throws {
    let found = try outcomes(
      #"""
      {"title": "jsq-68", "model": {"Note": {"attributes": {"title": "string"}}},
       "contexts": {"child": {"queue": "private", "parent": "viewContext"}},
       "main": [
         {"perform": "child", "do": [
           {"insert": "Note", "into": "child"}, {"save": "child"}]},
         {"performAndWait": "child", "do": [{"count": "Note", "in": "child"}]}]}
      """#)
    #expect(found == [[.deadlock]])
  }

  @Test("The same save runs once main is free, when main does not wait for the child")
  func saveWaitsThenRuns() throws {
    let trace = run(
      try scenario(
        #"""
        {"title": "waits", "model": {"Note": {"attributes": {"title": "string"}}},
         "contexts": {"child": {"queue": "private", "parent": "viewContext"}},
         "main": [
           {"perform": "child", "do": [
             {"insert": "Note", "into": "child"}, {"save": "child"}]},
           {"print": "main goes on"}]}
        """#))
    #expect(trace.violations.isEmpty)
    // Run to completion, main's launch work ends first, so the save finds main free.
    #expect(parentRequests(trace) == ["child asks viewContext on main"])
    #expect(
      trace.events.contains {
        if case .savedToParent = $0.effect { true } else { false }
      })
  }

  @Test("Work in child.performAndWait from main runs its parent requests inline: no deadlock")
  func inlineOnMain() throws {
    let json = #"""
      {"title": "inline", "model": {"Note": {"attributes": {"title": "string"}}},
       "contexts": {"child": {"queue": "private", "parent": "viewContext"}},
       "main": [
         {"performAndWait": "child", "do": [
           {"insert": "Note", "into": "child"}, {"save": "child"},
           {"fetch": "Note", "in": "child", "as": "notes"}]}]}
      """#
    #expect(try outcomes(json) == [[]])
    #expect(parentRequests(run(try scenario(json))) == [])
  }

  @Test("A grandchild's fetch climbs one queue at a time, to the root")
  func grandchildNests() throws {
    let trace = run(
      try scenario(
        #"""
        {"title": "nest", "model": {"Note": {"attributes": {"title": "string"}}},
         "contexts": {"middle": {"queue": "private"},
                      "leaf": {"queue": "private", "parent": "middle"},
                      "top": {"queue": "private", "parent": "leaf"}},
         "main": [{"perform": "top", "do": [{"fetch": "Note", "in": "top", "as": "notes"}]}]}
        """#))
    #expect(trace.violations.isEmpty)
    #expect(parentRequests(trace) == ["top asks leaf on leaf", "top asks middle on middle"])
  }

  @Test("A fault fired in a child climbs only to the first ancestor that holds the object")
  func faultStopsAtHolder() throws {
    let trace = run(
      try scenario(
        #"""
        {"title": "fault", "model": {"Note": {"attributes": {"title": "string"}}},
         "store": {"Note": [{"id": "n", "title": "a"}]},
         "contexts": {"middle": {"queue": "private"},
                      "leaf": {"queue": "private", "parent": "middle"}},
         "main": [{"perform": "middle", "do": [
           {"fetch": "Note", "in": "middle", "first": true, "as": "held"},
           {"get": "held.title"},
           {"objectID": "held", "as": "id"},
           {"perform": "leaf", "do": [
             {"object": "$id", "in": "leaf", "as": "fault"},
             {"get": "fault.title", "as": "title"}]}]}]}
        """#))
    #expect(trace.violations.isEmpty)
    #expect(parentRequests(trace) == ["leaf asks middle on middle", "leaf asks middle on middle"])
  }

  @Test("With the flag, a child touched off its queue traps and sends nothing up")
  func trapFirst() throws {
    let trace = run(
      try scenario(
        #"""
        {"title": "trap", "model": {"Note": {"attributes": {"title": "string"}}},
         "contexts": {"root": {"queue": "private"}, "child": {"queue": "private", "parent": "root"}},
         "main": [{"fetch": "Note", "in": "child", "as": "notes"}]}
        """#))
    #expect(trace.violations.map(\.kind) == [.wrongQueueContext])
    #expect(parentRequests(trace) == [])
  }

  @Test("A parent's queue busy with its own block makes the child wait, not trap")
  func parentBusy() throws {
    let found = try outcomes(
      #"""
      {"title": "busy", "model": {"Note": {"attributes": {"title": "string"}}},
       "contexts": {"root": {"queue": "private"}, "child": {"queue": "private", "parent": "root"}},
       "main": [
         {"perform": "root", "do": [{"count": "Note", "in": "root"}, {"count": "Note", "in": "root"}]},
         {"perform": "child", "do": [{"fetch": "Note", "in": "child", "as": "notes"}]}]}
      """#)
    #expect(found == [[]])
  }
}
