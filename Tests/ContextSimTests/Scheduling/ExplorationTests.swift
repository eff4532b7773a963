import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

@Suite("Exploring interleavings")
struct ExplorationTests {
  /// A search that abandons its first 1,000 runs, as DPOR within a bound can, then ends.
  private struct Abandoning: Scheduler {
    var started = 0
    mutating func startExecution() -> Bool {
      started += 1
      return started <= 1_000
    }
    func nextThread(runnable: [Int], previous: Int?, step: Int) -> Int? { nil }
    var isExhaustive: Bool { true }
  }

  @Test("A time limit holds in a long stretch of abandoned runs, not only between schedules")
  func timeLimitAmongAbandonedRuns() throws {
    let s = try scenario(#"{"title": "t", "main": [{"print": "hi"}]}"#)
    var asked = 0
    let e = explore(
      s, scheduler: Abandoning(),
      shouldStop: {
        asked += 1
        return asked > 1
      })
    #expect(e.stop == .timeLimit)
    #expect(!e.searchFinished)
    #expect(e.prunedRuns < 1_000)
  }

  /// Small scenarios whose interleavings can all be enumerated.
  static let tiny: [String] = [
    // Two writers of one var, one reader: every order matters.
    #"{"title": "w", "vars": {"x": 0}, "main": [{"async": "global", "do": [{"write": "x", "value": 1}]}, {"async": "global", "do": [{"write": "x", "value": 2}]}, {"read": "x"}]}"#,
    // Independent vars: one class however the steps interleave.
    #"{"title": "i", "vars": {"a": 0, "b": 0}, "main": [{"async": "global", "do": [{"write": "a", "value": 1}, {"write": "a", "value": 2}]}, {"async": "global", "do": [{"write": "b", "value": 1}, {"write": "b", "value": 2}]}]}"#,
    // Two contexts, one shared var at the end.
    #"{"title": "c", "model": {"N": {"attributes": {"t": "string"}}}, "vars": {"x": 0}, "contexts": {"a": {"queue": "private"}, "b": {"queue": "private"}}, "main": [{"perform": "a", "do": [{"insert": "N", "into": "a"}, {"count": "N", "in": "a"}, {"write": "x", "value": 1}]}, {"perform": "b", "do": [{"insert": "N", "into": "b"}, {"count": "N", "in": "b"}, {"read": "x"}]}]}"#,
    // Off-queue use of viewContext without the flag: corruption in some orders.
    #"{"title": "o", "concurrencyDebug": false, "model": {"N": {"attributes": {"t": "string"}}}, "main": [{"async": "global", "do": [{"count": "N", "in": "viewContext"}, {"print": "x"}]}, {"count": "N", "in": "viewContext"}, {"print": "y"}]}"#,
    // A serial queue and a global block racing on a var, with a sync.
    #"{"title": "s", "vars": {"x": 0}, "queues": {"q": "serial"}, "main": [{"async": "q", "do": [{"write": "x", "value": 1}]}, {"async": "global", "do": [{"sync": "q", "do": [{"read": "x"}]}, {"write": "x", "value": 3}]}, {"read": "x"}]}"#,
  ]

  private func explored(_ json: String, _ strategy: ExplorationStrategy, max: Int = 100_000) throws
    -> Exploration
  {
    let s = try scenario(json)
    return explore(
      s, strategy: strategy, options: SimulationOptions(concurrencyDebug: s.concurrencyDebug),
      maxSchedules: max)
  }

  private func signatures(_ e: Exploration) -> Set<[ViolationSignature]> {
    Set(e.outcomes.map(\.signature))
  }

  @Test(
    "Reduction finds every outcome plain exhaustive search finds, in fewer schedules",
    arguments: tiny)
  func reductionKeepsOutcomes(json: String) throws {
    let full = try explored(json, .exhaustive)
    let reduced = try explored(json, .dpor(preemptionBound: nil))
    #expect(full.isComplete && reduced.isComplete)
    #expect(signatures(reduced) == signatures(full))
    #expect(reduced.schedulesRun <= full.schedulesRun)
  }

  @Test("Reduction runs one schedule per class of equivalent interleavings", arguments: tiny)
  func oneSchedulePerClass(json: String) throws {
    let s = try scenario(json)
    let options = SimulationOptions(concurrencyDebug: s.concurrencyDebug, recordsEvents: false)
    var classes: Set<[Int]> = []
    var full = DPORScheduler.exhaustive
    while full.startExecution() {
      var execution = Execution(s, options: options)
      let ran = execution.run(&full)
      #expect(ran, "exhaustive search abandons no run")
      classes.insert(DPORScheduler.classKey(of: full.currentExecution))
    }
    var reduced = DPORScheduler()
    var complete: [[Int]] = []
    while reduced.startExecution() {
      var execution = Execution(s, options: options)
      if execution.run(&reduced) {
        complete.append(DPORScheduler.classKey(of: reduced.currentExecution))
      }
    }
    #expect(complete.count == classes.count)
    #expect(Set(complete) == classes)
  }

  @Test("A search that ignored a dependent pair would miss an outcome: the check can fail")
  func brokenReductionIsCaught() throws {
    // Dropping every reversal leaves only the default schedule.
    let s = try scenario(Self.tiny[0])
    let full = try explored(Self.tiny[0], .exhaustive)
    var scheduler = RunToCompletionScheduler()
    let onlyDefault = simulate(
      s, options: SimulationOptions(concurrencyDebug: true), scheduler: &scheduler)
    #expect(signatures(full).count > 1)
    #expect(
      !signatures(full).isSubset(of: [
        Set(onlyDefault.violations.map(ViolationSignature.init)).sorted()
      ]))
  }

  @Test(
    "Every explored schedule replays byte for byte",
    arguments: [
      ExplorationStrategy.dpor(preemptionBound: nil), .random(seed: 3), .pct(seed: 3, depth: 2),
    ])
  func replay(strategy: ExplorationStrategy) throws {
    let s = try scenario(Self.tiny[4])
    let options = SimulationOptions(concurrencyDebug: true)
    let explored = explore(
      s, strategy: strategy, options: options, maxSchedules: 30, shrinking: false)
    for outcome in explored.outcomes {
      var replay = ReplayScheduler(outcome.shortest)
      let again = simulate(s, options: options, scheduler: &replay)
      #expect(again.schedule == outcome.shortest)
      #expect(Set(again.violations.map(ViolationSignature.init)).sorted() == outcome.signature)
    }
  }

  @Test("Every schedule a systematic search runs replays to the same run", arguments: tiny)
  func replayEverySchedule(json: String) throws {
    let s = try scenario(json)
    let options = SimulationOptions(concurrencyDebug: s.concurrencyDebug)
    for var search in [DPORScheduler(), .exhaustive] {
      while search.startExecution() {
        var execution = Execution(s, options: options)
        guard execution.run(&search) else { continue }
        let trace = execution.trace
        var replay = ReplayScheduler(trace.schedule)
        let again = simulate(s, options: options, scheduler: &replay)
        #expect(again.schedule == trace.schedule)
        #expect(
          again.violations.map(ViolationSignature.init)
            == trace.violations.map(ViolationSignature.init))
        #expect(again.events.count == trace.events.count)
      }
    }
  }

  @Test("Random and PCT explorations are the same for the same seed, and on several cores")
  func deterministic() throws {
    let s = try scenario(Self.tiny[4])
    let options = SimulationOptions(concurrencyDebug: true)
    for strategy in [ExplorationStrategy.random(seed: 9), .pct(seed: 9, depth: 3)] {
      func run(_ workers: Int) -> Exploration {
        explore(
          s, strategy: strategy, options: options, maxSchedules: 1_000, workers: workers,
          shrinking: false)
      }
      let one = run(1)
      #expect(one.outcomes.count > 1)
      for other in [run(1), run(2), run(4)] {
        #expect(other.schedulesRun == 1_000)
        #expect(other.outcomes.map(\.signature) == one.outcomes.map(\.signature))
        #expect(other.outcomes.map(\.schedules) == one.outcomes.map(\.schedules))
        #expect(other.outcomes.map(\.shortest) == one.outcomes.map(\.shortest))
        #expect(other.distinctSchedules == one.distinctSchedules)
        #expect(other.stepCounts == one.stepCounts)
        #expect(other.failingSchedules == one.failingSchedules)
        #expect(other.stop == one.stop)
      }
    }
  }

  @Test("A time limit stops random runs on several cores between chunks, and says so")
  func timeLimitOnSeveralCores() throws {
    let s = try scenario(Self.tiny[4])
    var asked = 0
    let stopped = explore(
      s, strategy: .random(seed: 9), maxSchedules: 10_000, workers: 2, shrinking: false,
      shouldStop: {
        asked += 1
        return asked > 3
      })
    #expect(stopped.stop == .timeLimit)
    #expect(stopped.schedulesRun < 10_000)
    #expect(stopped.schedulesRun % 64 == 0)
    #expect(stopped.outcomes.map(\.schedules).reduce(0, +) == stopped.schedulesRun)

    // The largest budget there is: counting its chunks must not overflow.
    asked = 0
    let unbounded = explore(
      s, strategy: .random(seed: 9), maxSchedules: .max, workers: 2, shrinking: false,
      shouldStop: {
        asked += 1
        return asked > 3
      })
    #expect(unbounded.stop == .timeLimit)
    #expect(unbounded.schedulesRun > 0)
  }

  @Test("A preemption bound of 0 runs only schedules that never switch away from a runnable thread")
  func preemptionBound() throws {
    let bounded = try explored(Self.tiny[0], .dpor(preemptionBound: 0))
    let unbounded = try explored(Self.tiny[0], .dpor(preemptionBound: nil))
    #expect(bounded.schedulesRun < unbounded.schedulesRun)
    #expect(bounded.schedulesRun >= 1)
  }

  @Test("Shrinking keeps the outcome and never adds preemptions or steps")
  func shrinking() throws {
    let s = try scenario(Self.tiny[3])
    let options = SimulationOptions(concurrencyDebug: false, recordsEvents: false)
    var explorer = Explorer(
      scenario: s, scheduler: RandomScheduler.exploring(seed: 1), strategy: .random(seed: 1),
      options: options)
    for _ in 0..<50 { _ = explorer.runNext() }
    let raw = explorer.result.outcomes
    let shrunk = explorer.finish().outcomes
    for outcome in shrunk where !outcome.isClean {
      let before = try #require(raw.first { $0.signature == outcome.signature })
      #expect(
        outcome.shortest.threads.count <= before.shortest.threads.count
          || preemptions(s, outcome.shortest) < preemptions(s, before.shortest))
      var replay = ReplayScheduler(outcome.shortest)
      let again = simulate(s, options: options, scheduler: &replay)
      #expect(Set(again.violations.map(ViolationSignature.init)).sorted() == outcome.signature)
    }
  }

  @Test(
    "Merging two searches adds their figures and keeps each outcome once, with the shorter example",
    arguments: tiny)
  func merging(json: String) throws {
    let s = try scenario(json)
    let options = SimulationOptions(concurrencyDebug: s.concurrencyDebug)
    let dpor = explore(s, options: options, shrinking: false)
    let pct = explore(
      s, strategy: .pct(seed: 5, depth: 2), options: options, maxSchedules: 30, shrinking: false)
    var merged = dpor
    merged.merge(pct)
    #expect(merged.schedulesRun == dpor.schedulesRun + pct.schedulesRun)
    #expect(merged.failingSchedules == dpor.failingSchedules + pct.failingSchedules)
    #expect(merged.stepCounts.values.reduce(0, +) == merged.schedulesRun)
    #expect(merged.distinctSchedules == nil)
    #expect(merged.isComplete == dpor.isComplete && merged.strategy == dpor.strategy)
    #expect(Set(merged.outcomes.map(\.signature)) == signatures(dpor).union(signatures(pct)))
    #expect(merged.outcomes.count == Set(merged.outcomes.map(\.signature)).count)
    for outcome in merged.outcomes {
      let both = (dpor.outcomes + pct.outcomes).filter { $0.signature == outcome.signature }
      #expect(outcome.schedules == both.map(\.schedules).reduce(0, +))
      #expect(outcome.shortest.threads.count == both.map(\.shortest.threads.count).min())
    }
    #expect(
      merged.outcomes.map(\.signature)
        == merged.outcomes.sorted(by: Outcome.reportOrder).map(\.signature))
  }

  private func preemptions(_ s: Scenario, _ schedule: Schedule) -> Int {
    var scheduler = FollowingScheduler(threads: schedule.threads, keepAt: nil)
    _ = simulate(s, options: SimulationOptions(concurrencyDebug: false), scheduler: &scheduler)
    return scheduler.preemptionPoints.count
  }
}
