import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// The bound DPOR searches to its end within `budget` for a design declared buggy, found
/// apart from `check`: each bounded search run on its own, from bound 0 up, with what is
/// left of the budget (bound 0 with half of it), until one does not finish; the last that
/// did, and its schedules.
private func expectedDPORBound(_ scenario: Scenario, budget: Int) -> (Int, Int)? {
  var left = budget
  var bound: (Int, Int)?
  for preemptions in 0... {
    let share = preemptions == 0 ? (left + 1) / 2 : left
    let search = explore(
      scenario, strategy: .dpor(preemptionBound: preemptions), maxSchedules: share,
      shrinking: false)
    guard search.searchFinished else { return bound }
    left -= search.schedulesRun
    bound = (preemptions, search.schedulesRun)
  }
  return bound
}

/// The bound a check should prove a design declared clean within, found apart from `check`:
/// the stateful search within each bound from 0 up, keeping at most `maxStates` states, until
/// one does not finish; the last that did, and its states.
private func expectedProof(_ scenario: Scenario, maxStates: Int) -> (Int, Int)? {
  var proof: (Int, Int)?
  for bound in 0... {
    let search = explore(
      scenario, strategy: .stateful(maxStates: maxStates, preemptionBound: bound),
      shrinking: false)
    guard search.searchFinished, !search.isComplete else { return proof }
    proof = (bound, search.statesVisited ?? 0)
  }
  return proof
}

/// Four importers, each inserting and saving on its own private context: clean, with 93,538
/// states for the complete stateful search to keep, 189 within no preemption, 1,693 within
/// one and 7,683 within two.
private func fourImporters() throws -> Scenario {
  try repositoryScenario("four-importers", in: "Tests/ContextSimTests/Fixtures")
}

/// The complete search as `check` runs it for a design declared buggy: given up when hopeless.
private func completeSearchGivingUp(_ scenario: Scenario, budget: Int) -> Exploration {
  var explorer = Explorer(
    scenario: scenario, scheduler: DPORScheduler(), strategy: .dpor(preemptionBound: nil),
    options: SimulationOptions(scenario))
  return explorer.explore(
    maxSchedules: budget, shrinking: false, givesUp: true, shouldStop: { false })
}

@Suite("The bounded fallback: bounded searches when the complete search does not fit")
struct BoundedFallbackTests {
  @Test(
    "A clean design too large for the budget is proven within the largest bound that fits",
    arguments: [(50, 0), (1_000, 2)])
  func cleanDesignIsBounded(budget: Int, bound: Int) throws {
    let scenario = try fourImporters()
    let maxStates = checkStateBudget(budget)
    let (preemptions, states) = try #require(expectedProof(scenario, maxStates: maxStates))
    #expect(preemptions == bound)
    let result = check(scenario, maxSchedules: budget)
    guard case .bounded(preemptions, states) = result.verdict else {
      Issue.record("expected bounded within \(preemptions) preemptions, got \(result.verdict)")
      return
    }
    #expect(result.fallback == .statefulBounded(preemptions: preemptions, states: states))
    #expect(!result.passed && !result.exploration.isComplete)
    // Only DPOR's schedules: the clean runs of the stateful searches add nothing.
    #expect(result.exploration.schedulesRun == budget)
    #expect(result.description.hasPrefix("BOUNDED "))
    #expect(!result.description.contains("passed") && !result.description.contains("all of"))
  }

  @Test("A design declared buggy gives up a hopeless complete search a quarter into its budget")
  func hopelessSearchGivenUp() throws {
    let scenario = try repositoryScenario("photo-downloader")
    let complete = completeSearchGivingUp(scenario, budget: 1_000)
    #expect(complete.stop == .hopeless(maxSchedules: 1_000))
    #expect(complete.schedulesRun == 250)
    #expect((complete.searchProgress ?? 1) < 0.01)
    // check spends the quarter, then the fallback's whole budget.
    let result = check(scenario, maxSchedules: 1_000)
    #expect(result.passed, "\(result)")
    let (bound, schedules) = try #require(expectedDPORBound(scenario, budget: 1_000))
    #expect(result.fallback == .bounded(preemptions: bound, schedules: schedules))
    #expect(result.exploration.schedulesRun == 250 + 1_000)
  }

  @Test("A design declared clean keeps the whole budget for its complete search")
  func cleanDesignNotGivenUp() throws {
    let scenario = try repositoryScenario("photo-downloader-fixed")
    let result = check(scenario, maxSchedules: 1_000, maxStates: 400)
    #expect(result.exploration.schedulesRun == 2 * 1_000)
  }

  @Test("A complete search that fits its budget is not given up: the fixed downloader's 6,720")
  func fittingSearchNotGivenUp() throws {
    let scenario = try repositoryScenario("photo-downloader-fixed")
    let complete = completeSearchGivingUp(scenario, budget: 6_720)
    #expect(complete.isComplete)
    #expect(complete.schedulesRun == 6_720)
  }

  @Test("The verdict rests on every search's outcomes together, merged")
  func outcomesMerged() throws {
    let scenario = try repositoryScenario("photo-downloader")
    let result = check(scenario, maxSchedules: 300)
    #expect(result.passed, "\(result)")
    #expect(result.fallback == .bounded(preemptions: 0, schedules: 28))
    let complete = explore(scenario, maxSchedules: 300, shrinking: false)
    let bound0 = explore(scenario, strategy: .dpor(preemptionBound: 0), shrinking: false)
    let bound1 = explore(
      scenario, strategy: .dpor(preemptionBound: 1), maxSchedules: 300 - 28, shrinking: false)
    #expect(!bound1.searchFinished)
    let searches = [complete, bound0, bound1]
    #expect(result.exploration.schedulesRun == searches.map(\.schedulesRun).reduce(0, +))
    #expect(result.exploration.failingSchedules == searches.map(\.failingSchedules).reduce(0, +))
    let signatures = Set(searches.flatMap { $0.outcomes.map(\.signature) })
    #expect(Set(result.exploration.outcomes.map(\.signature)) == signatures)
    #expect(result.exploration.outcomes.count == signatures.count)
  }

  @Test("A design declared clean that is not still fails, with the schedule that shows it")
  func buggyDesignFails() throws {
    var claimsClean = try repositoryScenario("photo-downloader")
    claimsClean.expectation = Expectation(violations: [])
    let result = check(claimsClean, maxSchedules: 50)
    #expect(result.fellBack)
    #expect(result.verdict == .failed)
    #expect(!result.findings.isEmpty)
    for case .unexpected(_, _, let replay) in result.findings { #expect(replay != nil) }
  }

  @Test("A budget too small for the search without preemptions leaves PCT the rest: incomplete")
  func noProofFallsBackToPCT() throws {
    let scenario = try repositoryScenario("photo-downloader-fixed")
    // 120 states cover neither the 515 its search keeps nor the 1,124 within no preemption.
    let result = check(scenario, maxSchedules: 6)
    guard case .incomplete(.maxSchedules(6)?) = result.verdict else {
      Issue.record("expected incomplete by the budget, got \(result.verdict)")
      return
    }
    #expect(result.fallback == .pct(schedules: 6))
    #expect(result.exploration.schedulesRun == 12)
    #expect(result.description.contains("then pct: 6; too many interleavings"))
  }

  @Test("A strategy given is the only one run: no fallback")
  func strategyGivenHasNoFallback() throws {
    let scenario = try repositoryScenario("photo-downloader-fixed")
    let result = check(scenario, strategy: .dpor(preemptionBound: nil), maxSchedules: 300)
    #expect(result.fallback == nil)
    guard case .incomplete(.maxSchedules(300)?) = result.verdict else {
      Issue.record("expected incomplete by the budget, got \(result.verdict)")
      return
    }
  }

  @Test("The same scenario and budget give the same check, down to the report")
  func deterministic() throws {
    let scenario = try repositoryScenario("photo-downloader")
    let first = check(scenario, maxSchedules: 200)
    let second = check(scenario, maxSchedules: 200)
    let report = CheckReport()
    let rows = [first, second].map { CheckResult(file: $0.file, outcome: .checked($0)) }
    #expect(first.description == second.description)
    #expect(report.document([rows[0]]) == report.document([rows[1]]))
    #expect(
      first.exploration.outcomes.map(\.shortest) == second.exploration.outcomes.map(\.shortest))
  }
}
