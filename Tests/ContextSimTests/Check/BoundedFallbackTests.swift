import Testing

@testable import ContextSim

/// The preemption bound a check should prove within `budget`, found apart from `check`:
/// each bounded search run on its own, from bound 0 up, with what is left of the budget
/// (bound 0 with half of it), until one does not finish; the last that did, and its schedules.
private func expectedProof(_ scenario: Scenario, budget: Int) -> (Int, Int)? {
  var left = budget
  var proof: (Int, Int)?
  for bound in 0... {
    let share = bound == 0 ? (left + 1) / 2 : left
    let search = explore(
      scenario, strategy: .dpor(preemptionBound: bound), maxSchedules: share, shrinking: false)
    guard search.searchFinished else { return proof }
    left -= search.schedulesRun
    proof = (bound, search.schedulesRun)
  }
  return proof
}

/// The complete search as `check` runs it for a design declared buggy: given up when hopeless.
private func completeSearchGivingUp(_ scenario: Scenario, budget: Int) -> Exploration {
  var explorer = Explorer(
    scenario: scenario, scheduler: DPORScheduler(), strategy: .dpor(preemptionBound: nil),
    options: SimulationOptions(scenario))
  return explorer.explore(
    maxSchedules: budget, shrinking: false, givesUp: true, shouldStop: { false })
}

@Suite("The bounded fallback: DPOR within a preemption bound when the complete search does not fit")
struct BoundedFallbackTests {
  @Test(
    "A clean design too large for the budget is bounded at the largest bound whose search fits",
    arguments: [40, 300])
  func cleanDesignIsBounded(budget: Int) throws {
    let scenario = try repositoryScenario("photo-downloader-fixed")
    let (preemptions, schedules) = try #require(expectedProof(scenario, budget: budget))
    // 1,000 states do not cover its 1,521: the stateful search gives way to DPOR.
    let result = check(scenario, maxSchedules: budget, maxStates: 1_000)
    guard case .bounded(preemptions, schedules) = result.verdict else {
      Issue.record("expected bounded within \(preemptions) preemptions, got \(result.verdict)")
      return
    }
    #expect(result.fallback == .bounded(preemptions: preemptions, schedules: schedules))
    #expect(!result.passed && !result.exploration.isComplete)
    // The complete search's budget, then the same again over the bounded searches.
    #expect(result.exploration.schedulesRun == 2 * budget)
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
    let (bound, schedules) = try #require(expectedProof(scenario, budget: 1_000))
    #expect(result.fallback == .bounded(preemptions: bound, schedules: schedules))
    #expect(result.exploration.schedulesRun == 250 + 1_000)
  }

  @Test("A design declared clean keeps the whole budget for its complete search")
  func cleanDesignNotGivenUp() throws {
    let scenario = try repositoryScenario("photo-downloader-fixed")
    let result = check(scenario, maxSchedules: 1_000, maxStates: 1_000)
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
    guard case .failed(let findings) = result.verdict else {
      Issue.record("expected a failed verdict, got \(result.verdict)")
      return
    }
    #expect(!findings.isEmpty)
    for case .unexpected(_, _, let replay) in findings { #expect(replay != nil) }
  }

  @Test("A budget too small for the search without preemptions leaves PCT the rest: incomplete")
  func noProofFallsBackToPCT() throws {
    let scenario = try repositoryScenario("photo-downloader-fixed")
    // Bound 0 has 4 classes; half of 6 schedules is 3.
    let result = check(scenario, maxSchedules: 6)
    guard case .incomplete(.maxSchedules(6)?) = result.verdict else {
      Issue.record("expected incomplete by the budget, got \(result.verdict)")
      return
    }
    #expect(result.fallback == .pct(schedules: 3))
    #expect(result.exploration.schedulesRun == 12)
    #expect(result.description.contains("then pct: 3; too many interleavings"))
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
