import Dispatch

/// Runs many schedules of one scenario and gathers the outcomes they end in.
///
/// Call ``runNext()`` until it returns false or a bound is reached, then ``finish()``.
/// Random and PCT schedules are independent of one another, so ``explore(_:strategy:options:maxSchedules:workers:shouldStop:)``
/// runs them on several cores; the result is the same as on one core.
public struct Explorer {
  let scenario: Scenario
  let options: SimulationOptions
  private var search: DPORSearch?
  let runner: SeededRunner
  private var outcomeIndex: [OutcomeKey: Int] = [:]
  private var seen: Set<UInt64> = []
  private var nextIndex = 0
  public private(set) var result: Exploration

  /// How many distinct schedules are counted before counting stops, to keep memory flat.
  static let distinctLimit = 100_000

  public init(scenario: Scenario, strategy: ExplorationStrategy, options: SimulationOptions) {
    self.scenario = scenario
    var quiet = options
    quiet.recordsEvents = false
    self.options = quiet
    result = Exploration(strategy: strategy)
    switch strategy {
    case .dpor(let bound): search = DPORSearch(reduces: true, preemptionBound: bound)
    case .exhaustive: search = DPORSearch(reduces: false, preemptionBound: nil)
    case .random, .pct: search = nil
    }
    var scheduler = RunToCompletionScheduler()
    let steps = simulate(scenario, options: quiet, scheduler: &scheduler).schedule.threads.count
    runner = SeededRunner(
      scenario: scenario, options: quiet, strategy: strategy, typicalSteps: steps)
  }

  /// Runs one more schedule. Returns false when a systematic search has run them all.
  public mutating func runNext() -> Bool {
    if search != nil {
      while true {
        guard let (trace, pruned) = search!.next(scenario, options: options) else {
          result.searchFinished = true
          return false
        }
        if pruned {
          result.prunedRuns += 1
          continue
        }
        record(trace)
        return true
      }
    }
    record(run(index: nextIndex))
    return true
  }

  /// The run of random or PCT schedule number `index`.
  func run(index: Int) -> Trace {
    runner.run(index: index)
  }

  /// Adds one schedule's run to the result.
  mutating func record(_ trace: Trace) {
    nextIndex += 1
    result.schedulesRun += 1
    let steps = trace.schedule.threads.count
    result.stepCounts[steps, default: 0] += 1
    if !trace.violations.isEmpty { result.failingSchedules += 1 }
    var limit: Limit?
    if case .limit(let l)? = trace.stop {
      limit = l
      result.limitedSchedules += 1
    }
    if result.distinctSchedules != nil {
      if seen.count >= Self.distinctLimit {
        result.distinctSchedules = nil
        seen = []
      } else if seen.insert(Self.hash(trace.schedule)).inserted {
        result.distinctSchedules! += 1
      }
    }
    let key = OutcomeKey(
      signature: Set(trace.violations.map(ViolationSignature.init)).sorted(), limit: limit)
    if let i = outcomeIndex[key] {
      result.outcomes[i].schedules += 1
      if steps < result.outcomes[i].shortest.threads.count {
        result.outcomes[i].shortest = trace.schedule
        result.outcomes[i].example = trace
      }
    } else {
      outcomeIndex[key] = result.outcomes.count
      result.outcomes.append(
        Outcome(
          signature: key.signature, limit: limit, schedules: 1, shortest: trace.schedule,
          example: trace))
    }
  }

  /// What makes two schedules the same outcome.
  private struct OutcomeKey: Hashable {
    var signature: [ViolationSignature]
    var limit: Limit?
  }

  /// FNV-1a over a schedule's threads: distinct schedules without keeping them.
  static func hash(_ schedule: Schedule) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for t in schedule.threads {
      hash = (hash ^ UInt64(truncatingIfNeeded: t)) &* 0x100_0000_01b3
    }
    return hash
  }

  /// Shrinks each failing outcome's schedule and orders the outcomes for reports.
  public mutating func finish(shrinking: Bool = true) -> Exploration {
    if shrinking {
      result = shrinkFailingOutcomes(of: result, scenario: scenario, options: options)
    }
    result.outcomes.sort { a, b in
      if a.isClean != b.isClean { return a.isClean }
      if a.schedules != b.schedules { return a.schedules > b.schedules }
      if a.signature != b.signature { return a.signature.lexicographicallyPrecedes(b.signature) }
      return a.limit == nil && b.limit != nil
    }
    return result
  }
}

/// Explores a scenario within bounds, on as many cores as `workers` allows.
///
/// With the defaults it searches every class of interleavings (DPOR) within
/// ``defaultScheduleBudget`` schedules, modelling the app as the scenario says, and shrinks
/// each failing outcome's schedule. ``Exploration/verdict`` says what the search shows.
///
/// - Parameters:
///   - options: how runs are modelled; by default as the scenario says.
///   - maxSchedules: stop after this many complete schedules.
///   - workers: cores for random and PCT schedules; a systematic search uses one.
///   - shouldStop: asked between batches; true ends exploration (a time limit).
public func explore(
  _ scenario: Scenario, strategy: ExplorationStrategy = .dpor(preemptionBound: nil),
  options: SimulationOptions? = nil, maxSchedules: Int = defaultScheduleBudget, workers: Int = 1,
  shrinking: Bool = true, shouldStop: () -> Bool = { false }
) -> Exploration {
  let options = options ?? SimulationOptions(scenario)
  var explorer = Explorer(scenario: scenario, strategy: strategy, options: options)
  if strategy.isSystematic || workers <= 1 {
    while explorer.result.schedulesRun < maxSchedules {
      if shouldStop() {
        explorer.stopped(.timeLimit)
        return explorer.finish(shrinking: shrinking)
      }
      guard explorer.runNext() else { return explorer.finish(shrinking: shrinking) }
    }
  } else {
    let batch = workers * 32
    while explorer.result.schedulesRun < maxSchedules {
      if shouldStop() {
        explorer.stopped(.timeLimit)
        return explorer.finish(shrinking: shrinking)
      }
      let start = explorer.result.schedulesRun
      let count = min(batch, maxSchedules - start)
      let runner = explorer.runner
      for trace in concurrentMap(count, workers: workers, { runner.run(index: start + $0) }) {
        explorer.record(trace)
      }
    }
  }
  if !explorer.result.searchFinished { explorer.stopped(.maxSchedules(maxSchedules)) }
  return explorer.finish(shrinking: shrinking)
}

extension Explorer {
  mutating func stopped(_ reason: Exploration.Stop) {
    result.stop = reason
    result.searchProgress = search?.progress
  }
}

/// Runs random or PCT schedule number `index`, whose seed comes from the exploration's
/// seed and the number alone, so any core can run any schedule.
struct SeededRunner: Sendable {
  let scenario: Scenario
  let options: SimulationOptions
  let strategy: ExplorationStrategy
  /// Steps of the default schedule: PCT's estimate of a run's length.
  let typicalSteps: Int

  func run(index: Int) -> Trace {
    var mixer = SplitMix64(seed: UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15)
    switch strategy {
    case .random(let base):
      var scheduler = RandomScheduler(seed: base ^ mixer.next())
      return simulate(scenario, options: options, scheduler: &scheduler)
    case .pct(let base, let depth):
      var scheduler = PCTScheduler(seed: base ^ mixer.next(), depth: depth, steps: typicalSteps)
      return simulate(scenario, options: options, scheduler: &scheduler)
    case .dpor, .exhaustive:
      preconditionFailure("systematic strategies run through their search")
    }
  }
}

/// Shrinks the schedule of each failing outcome: fewest preemptions, then fewest steps.
public func shrinkFailingOutcomes(
  of exploration: Exploration, scenario: Scenario, options: SimulationOptions
) -> Exploration {
  var result = exploration
  var quiet = options
  quiet.recordsEvents = false
  let shrinker = Shrinker(scenario: scenario, options: quiet)
  for i in result.outcomes.indices
  where !result.outcomes[i].isClean && result.outcomes[i].preemptions == nil {
    let (shrunk, preemptions) = shrinker.shrink(result.outcomes[i])
    result.outcomes[i].shortest = shrunk.schedule
    result.outcomes[i].example = shrunk
    result.outcomes[i].preemptions = preemptions
  }
  return result
}
