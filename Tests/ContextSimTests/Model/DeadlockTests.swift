import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

@Suite("Deadlocks")
struct DeadlockTests {
  private func outcomes(_ json: String) throws -> [[ViolationKind]] {
    let s = try scenario(json)
    let e = explore(
      s, strategy: .dpor(preemptionBound: nil), options: SimulationOptions(concurrencyDebug: true),
      maxSchedules: 10_000)
    #expect(e.isComplete)
    return e.outcomes.map { $0.signature.map(\.kind) }
  }

  @Test("Two contexts waiting on each other through performAndWait deadlock in some interleavings")
  func crossedPerformAndWait() throws {
    let found = try outcomes(
      #"""
      {"title": "crossed", "contexts": {"a": {"queue": "private"}, "b": {"queue": "private"}},
       "main": [
         {"perform": "a", "do": [{"performAndWait": "b", "do": [{"print": "a then b"}]}]},
         {"perform": "b", "do": [{"performAndWait": "a", "do": [{"print": "b then a"}]}]}]}
      """#)
    #expect(found.contains([.deadlock]))
    #expect(found.contains([]))
  }

  @Test(
    "The main thread waiting on a context whose running block waits for main deadlocks in every interleaving"
  )
  func mainWaitsForContextThatWaitsForMain() throws {
    let found = try outcomes(
      #"""
      {"title": "main", "contexts": {"bg": {"queue": "private"}},
       "main": [
         {"perform": "bg", "do": [{"sync": "main", "do": [{"print": "needs main"}]}]},
         {"performAndWait": "bg", "do": [{"print": "main waits"}]}]}
      """#)
    #expect(found == [[.deadlock]])
  }

  @Test("Every thread blocked is named with the queue it waits for and who holds it")
  func report() throws {
    let trace = run(
      try scenario(
        #"""
        {"title": "main", "contexts": {"bg": {"queue": "private"}},
         "main": [
           {"perform": "bg", "do": [{"sync": "main", "do": []}]},
           {"print": "x"},
           {"performAndWait": "bg", "do": []}]}
        """#))
    let violation = try #require(trace.violations.first)
    guard case .deadlock(let blocked) = violation.detail else {
      Issue.record("not a deadlock: \(violation.kind)")
      return
    }
    #expect(blocked.map(\.thread) == ["main", "bg"])
    #expect(blocked.map(\.waitsFor) == ["bg", "main"])
    #expect(blocked.map(\.heldBy) == ["bg", "main"])
  }
}
