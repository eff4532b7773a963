import Foundation
import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// A split search explores with `workers` cores, jobs of `share` schedules a round.
private func split(
  _ s: Scenario, bound: Int? = nil, share: Int = 64, maxSchedules: Int = 4_000, workers: Int = 2
) -> Exploration {
  var search = SplitSearch(
    scenario: s, options: SimulationOptions(s), preemptionBound: bound, share: share)
  return search.explore(maxSchedules: maxSchedules, workers: workers, shouldStop: { false })
}

@Suite("DPOR split across cores")
struct SplitSearchTests {
  @Test("The same report on one core as on four, the budget cutting it short or not")
  func sameOnAnyNumberOfCores() throws {
    let s = try scenarioAt("scenarios/photo-downloader.json")
    for (bound, budget) in [(1, 300), (nil, 500), (0, 4_000)] as [(Int?, Int)] {
      let runs = [1, 2, 4].map {
        split(s, bound: bound, share: 8, maxSchedules: budget, workers: $0)
      }
      for run in runs.dropFirst() {
        #expect(run.schedulesRun == runs[0].schedulesRun)
        #expect(run.prunedRuns == runs[0].prunedRuns)
        #expect(run.stop == runs[0].stop)
        #expect(run.searchProgress == runs[0].searchProgress)
        #expect(
          run.outcomes.map { "\($0.signature) \($0.schedules) \($0.shortest.threads)" }
            == runs[0].outcomes.map { "\($0.signature) \($0.schedules) \($0.shortest.threads)" })
      }
    }
  }

  @Test("A budget the size of the search leaves it complete; one schedule less does not")
  func budgetOfExactlyTheSearch() throws {
    let s = try scenarioAt("scenarios/mark-seen-save-on-main.json")
    let whole = split(s, share: 2)
    #expect(whole.isComplete)
    #expect(whole.schedulesRun > 2, "too small to split")
    let exact = split(s, share: 2, maxSchedules: whole.schedulesRun)
    #expect(exact.isComplete)
    #expect(exact.stop == nil)
    let short = split(s, share: 2, maxSchedules: whole.schedulesRun - 1)
    #expect(!short.isComplete)
    #expect(short.stop == .maxSchedules(whole.schedulesRun - 1))
    #expect((short.searchProgress ?? 1) < 1)
  }

  @Test("A split search covers the classes DPOR on one core covers, in as many schedules")
  func sameClassesAsOneCore() throws {
    let s = try scenarioAt("scenarios/mark-seen.json")
    let one = explore(s, strategy: .dpor(preemptionBound: nil), shrinking: false)
    let jobs = split(s, share: 1)
    #expect(one.isComplete && jobs.isComplete)
    #expect(jobs.schedulesRun == one.schedulesRun)
    #expect(outcomeSet(jobs) == outcomeSet(one))
  }

  @Test("Chunks are delivered in order, state is made once per worker, and false stops them")
  func chunks() {
    let made = Counter()
    var delivered: [Int] = []
    concurrentChunks(
      40, workers: 2, state: { made.add() },
      { _, c in c },
      deliver: { c in
        delivered.append(c)
        return true
      })
    #expect(delivered == Array(0..<40))
    #expect((1...2).contains(made.value))

    delivered = []
    concurrentChunks(
      40, workers: 2, state: { () }, { _, c in c },
      deliver: { c in
        delivered.append(c)
        return delivered.count < 10
      })
    #expect(delivered == Array(0..<10))
  }

  @Test("The caller runs every chunk when no core is spare, and none when one is")
  func callerRunsNoChunk() {
    let caller = pthread_self()
    let ranOnCaller = Counter()
    var delivered = 0
    concurrentChunks(
      40, workers: 2, state: { () },
      { _, c in
        if pthread_equal(pthread_self(), caller) != 0 { ranOnCaller.add() }
        usleep(500)  // long enough that a second thread, if there is one, takes chunks too
        return c
      },
      deliver: { _ in
        delivered += 1
        return true
      })
    #expect(delivered == 40)
    // Tests running at the same time may hold the spare core.
    #expect([0, 40].contains(ranOnCaller.value))
  }

  @Test("A map inside another map's body gets every result, in order")
  func nestedMaps() {
    let results = concurrentMap(5, workers: 2) { i in
      concurrentMap(4, workers: 2) { j in i * 10 + j }
    }
    #expect(results == (0..<5).map { i in (0..<4).map { i * 10 + $0 } })
  }
}

/// A count that several threads add to.
private final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  var value: Int { lock.withLock { count } }
  func add() { lock.withLock { count += 1 } }
}
