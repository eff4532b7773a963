import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// Every strategy an exploration or a check can use.
private let strategies: [ExplorationStrategy] = [
  .dpor(preemptionBound: nil), .dpor(preemptionBound: 1), .exhaustive, .random(seed: 7),
  .pct(seed: 7, depth: 2), .stateful(maxStates: 1_000),
]

/// A run limit, a scenario that reaches it in every schedule, and options that set it.
struct LimitCase: CustomTestStringConvertible, Sendable {
  var limit: Limit
  var main: String
  var options: SimulationOptions
  var testDescription: String { limit.name + " limit" }

  static let all = [
    LimitCase(
      limit: .steps(3),
      main:
        #"[{"async": "global", "do": [{"print": "a"}, {"print": "b"}]}, {"print": "c"}, {"print": "d"}]"#,
      options: SimulationOptions(concurrencyDebug: true, maximumSteps: 3)),
    LimitCase(
      limit: .threads(2),
      main:
        #"[{"forEach": [1, 2, 3], "as": "i", "do": [{"async": "global", "do": [{"print": "x"}]}]}]"#,
      options: SimulationOptions(concurrencyDebug: true, maximumThreads: 2)),
    LimitCase(
      limit: .queues(4),
      main:
        #"[{"forEach": [1, 2, 3, 4], "as": "i", "do": [{"newContext": "scratch", "queue": "private"}]}]"#,
      options: SimulationOptions(concurrencyDebug: true, maximumThreads: 4)),
  ]

  func scenario() throws -> Scenario {
    try notes(main, extra: #", "expect": {"violations": []}"#)
  }
}

/// Two threads take turns on a serial queue: no violation, but several classes of
/// interleavings, so a budget of two schedules cannot cover them.
private func turns() throws -> Scenario {
  let block =
    #"{"async": "global", "do": [{"sync": "lock", "do": [{"write": "n", "value": 1}]}, {"sync": "lock", "do": [{"read": "n"}]}]}"#
  return try notes(
    "[\(block), \(block)]",
    extra: #", "vars": {"n": 0}, "queues": {"lock": "serial"}, "expect": {"violations": []}"#)
}

@Suite("No false clean: a search cut short is never reported clean")
struct NoFalseCleanTests {
  @Test(
    "A run limit makes an outcome of its own, never clean, and the search incomplete",
    arguments: LimitCase.all, strategies)
  func runLimit(_ limitCase: LimitCase, strategy: ExplorationStrategy) throws {
    let e = explore(
      try limitCase.scenario(), strategy: strategy, options: limitCase.options, maxSchedules: 20)
    #expect(e.verdict == .limited(limitCase.limit))
    #expect(!e.isComplete)
    #expect(e.limitedSchedules == e.schedulesRun)
    #expect(e.outcomes.allSatisfy { !$0.isClean && $0.limit == limitCase.limit })
  }

  @Test(
    "A check whose runs hit a limit is limited, with a schedule that reaches it",
    arguments: LimitCase.all, [nil] + strategies.map(Optional.some))
  func checkLimited(_ limitCase: LimitCase, strategy: ExplorationStrategy?) throws {
    let scenario = try limitCase.scenario()
    let result = check(
      scenario, options: limitCase.options, strategy: strategy, maxSchedules: 20)
    guard case .limited(let limit) = result.verdict, let replay = result.replay else {
      Issue.record("expected a limited verdict, got \(result.verdict)")
      return
    }
    #expect(limit == limitCase.limit)
    #expect(!result.passed)
    var scheduler = ReplayScheduler(replay)
    #expect(
      simulate(scenario, options: limitCase.options, scheduler: &scheduler).stop
        == .limit(limitCase.limit))
  }

  @Test(
    "A budget that stops a systematic search leaves it incomplete, not clean",
    arguments: [ExplorationStrategy.dpor(preemptionBound: nil), .exhaustive])
  func budget(_ strategy: ExplorationStrategy) throws {
    let full = explore(
      try turns(), strategy: strategy, options: SimulationOptions(concurrencyDebug: true),
      maxSchedules: 1_000)
    #expect(full.verdict == .passed && full.isComplete && full.schedulesRun > 2)
    let cut = explore(
      try turns(), strategy: strategy, options: SimulationOptions(concurrencyDebug: true),
      maxSchedules: 2)
    #expect(cut.verdict == .incomplete(.maxSchedules(2)))
    #expect(!cut.isComplete)
  }

  @Test(
    "Random and PCT that run every schedule asked for are clean, but never complete",
    arguments: [ExplorationStrategy.random(seed: 3), .pct(seed: 3, depth: 2)])
  func sampled(_ strategy: ExplorationStrategy) throws {
    let e = explore(
      try turns(), strategy: strategy, options: SimulationOptions(concurrencyDebug: true),
      maxSchedules: 5)
    #expect(e.verdict == .passed)
    #expect(!e.isComplete)
  }

  @Test("A time limit leaves any search incomplete", arguments: strategies)
  func timeLimit(_ strategy: ExplorationStrategy) throws {
    let e = explore(
      try turns(), strategy: strategy, options: SimulationOptions(concurrencyDebug: true),
      maxSchedules: 1_000, shouldStop: { true })
    #expect(e.verdict == .incomplete(.timeLimit))
    #expect(!e.isComplete)
  }

  @Test(
    "A design declared clean is incomplete, not passed, unless every interleaving ran",
    arguments: [nil] + strategies.map(Optional.some))
  func checkIncomplete(_ strategy: ExplorationStrategy?) throws {
    // The stateful searches' budget is in states: 2 cannot cover this design's.
    var small = strategy
    if case .stateful? = strategy { small = .stateful(maxStates: 2) }
    let cut = check(try turns(), strategy: small, maxSchedules: 2, maxStates: 2)
    guard case .incomplete = cut.verdict else {
      Issue.record("expected an incomplete verdict, got \(cut.verdict)")
      return
    }
    #expect(!cut.passed)
    let timed = check(try turns(), strategy: strategy, shouldStop: { true })
    guard case .incomplete(.timeLimit?) = timed.verdict else {
      Issue.record("expected incomplete by the time limit, got \(timed.verdict)")
      return
    }
  }

  @Test("The same design passes once the whole search fits the budget")
  func checkPasses() throws {
    let result = check(try turns())
    #expect(result.passed && result.exploration.isComplete && !result.fellBack)
  }
}
