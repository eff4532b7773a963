/// Runs many executions of one scenario under one scheduler and gathers their outcomes.
///
/// Call ``runNext()`` until it returns false (the scheduler has no execution left) or a
/// bound is reached, then ``finish(shrinking:)``. Every strategy goes through here: DPOR and
/// plain exhaustive search, random, PCT, and schedulers of a user's own.
public struct Explorer<S: Scheduler> {
  let scenario: Scenario
  let options: SimulationOptions
  private(set) var scheduler: S
  private var outcomeIndex: [OutcomeKey: Int] = [:]
  private var seen: Set<UInt64> = []
  /// The run before its first step, made once and copied for every execution.
  private let start: Execution
  /// Copies of the current execution at some of its choice points, for a search that
  /// resumes (``Scheduler/sharedSteps``).
  private var checkpoints: Checkpoints?
  /// Whether `shouldStop` ended the search in the middle of a stretch of abandoned runs.
  private var interrupted = false
  /// A chunk run apart (``runApart(_:)``) keeps its schedules' hashes, in order, for the
  /// explorer it is merged into to count; nil elsewhere.
  private var scheduleHashes: [UInt64]?
  /// What the executions so far showed; ``finish(shrinking:)`` returns it ready for reports.
  public private(set) var result: Exploration

  /// - Parameter strategy: the strategy `scheduler` carries out, or nil for one of your own.
  public init(
    scenario: Scenario, scheduler: S, strategy: ExplorationStrategy?, options: SimulationOptions
  ) {
    var quiet = options
    quiet.recordsEvents = false
    quiet.recordsFootprints = scheduler.readsFootprints
    self.init(
      scenario: scenario, scheduler: scheduler, strategy: strategy,
      start: Execution(scenario, options: quiet))
  }

  /// An explorer whose runs start from `start`, a run of `scenario` before its first step
  /// that records no events: many explorers of one search can share it.
  init(scenario: Scenario, scheduler: S, strategy: ExplorationStrategy?, start: Execution) {
    self.scenario = scenario
    self.options = start.simulation.options
    self.scheduler = scheduler
    self.start = start
    result = Exploration(
      strategy: strategy, strategyName: strategy?.name ?? String(describing: S.self),
      isExhaustive: scheduler.isExhaustive, isSystematic: !scheduler.samples)
  }

  /// Runs one more execution. Returns false when the scheduler has none left.
  public mutating func runNext() -> Bool {
    runNext(shouldStop: { false })
  }

  /// Runs one more execution; false when the scheduler has none left, or when `shouldStop`
  /// said so during a long stretch of abandoned runs (``interrupted``).
  mutating func runNext(shouldStop: () -> Bool) -> Bool {
    guard let trace = nextExecution(shouldStop: shouldStop) else { return false }
    record(trace)
    return true
  }

  /// The next execution the scheduler runs to its end, or nil once it has none left. A
  /// search may abandon many runs in a row; `shouldStop` is asked after every 64 of them, so
  /// a time limit holds there too. It is asked between executions, so a search it stopped
  /// can go on.
  private mutating func nextExecution(shouldStop: () -> Bool = { false }) -> Trace? {
    var abandoned = 0
    while true {
      if abandoned > 0, abandoned % 64 == 0, shouldStop() {
        interrupted = true
        return nil
      }
      guard scheduler.startExecution() else { break }
      var execution = start
      // Only a search that can resume keeps copies (checkpoints stays nil otherwise).
      if let shared = scheduler.sharedSteps {
        if checkpoints == nil { checkpoints = Checkpoints() }
        if let copy = checkpoints?.latest(sharing: shared) {
          scheduler.resume(afterSteps: copy.stepsTaken)
          execution = copy
        }
      }
      if execution.run(&scheduler, keeping: &checkpoints) { return execution.trace }
      // The scheduler abandoned a run that could only repeat one already explored.
      result.prunedRuns += 1
      abandoned += 1
    }
    result.searchFinished = true
    if !result.isExhaustive { result.stop = .searchBound }
    return nil
  }

  /// Records that the budget ended the exploration, unless a systematic search had in
  /// fact run its last schedule: it asks for one more, so a budget exactly the size of the
  /// search does not leave it incomplete. Random and PCT never run out.
  mutating func reachedBudget(_ maxSchedules: Int) {
    if result.isSystematic, hasRunOut() { return }
    stopped(.maxSchedules(maxSchedules))
  }

  /// Whether the scheduler has no execution left. One it has is run and not recorded, so
  /// this is for the end of a search only.
  mutating func hasRunOut() -> Bool { nextExecution() == nil }

  /// Runs up to `count` more executions, and returns how many ran and whether the scheduler
  /// has none left. It also stops, to go on later, once about `maxAbandoned` runs were
  /// abandoned in stretches of 64 or more: a share of a search that prunes most of its runs
  /// still ends.
  mutating func run(_ count: Int, maxAbandoned: Int) -> (ran: Int, finished: Bool) {
    var ran = 0
    var stretches = 0
    while ran < count {
      guard
        runNext(shouldStop: {
          stretches += 1
          return stretches * 64 >= maxAbandoned
        })
      else {
        defer { interrupted = false }
        return (ran, !interrupted)
      }
      ran += 1
    }
    return (ran, false)
  }

  /// Records how a stateful search, which drives runs itself, ended: finished, or `stop`;
  /// `bounded` when a preemption bound kept some step from being taken.
  mutating func searched(states: Int, stop: Exploration.Stop?, bounded: Bool) {
    result.statesVisited = states
    result.interchangeableValues = InterchangeableValues.of(scenario, under: options).values
    result.isExhaustive = !bounded
    result.searchFinished = stop == nil
    result.stop = stop ?? (bounded ? .searchBound : nil)
  }

  /// Records that a bound ended the exploration before the scheduler did.
  mutating func stopped(_ reason: Exploration.Stop) {
    result.stop = reason
    result.searchProgress = scheduler.progress
  }

  /// Adds one execution's run to the result.
  mutating func record(_ trace: Trace) {
    result.schedulesRun += 1
    result.stepCounts[trace.schedule.threads.count, default: 0] += 1
    if !trace.violations.isEmpty { result.failingSchedules += 1 }
    var limit: Limit?
    if case .limit(let l)? = trace.stop {
      limit = l
      result.limitedSchedules += 1
    }
    if scheduleHashes != nil {
      scheduleHashes!.append(Self.hash(trace.schedule))
    } else {
      countDistinct(Self.hash(trace.schedule))
    }
    add(
      OutcomeKey(
        signature: Self.distinctSorted(trace.violations.map(ViolationSignature.init)),
        handled: Self.distinctSorted(trace.handledErrors.map(HandledErrorSignature.init)),
        unmodelled: trace.unmodelled.map(\.stepIndex).sorted(),
        limit: limit, endState: trace.endState),
      schedules: 1, shortest: trace.schedule, example: trace)
  }

  /// The items without repeats, in order; most runs have none or one, which need no set.
  private static func distinctSorted<T: Hashable & Comparable>(_ items: [T]) -> [T] {
    items.count < 2 ? items : Set(items).sorted()
  }

  /// Counts a schedule towards the distinct ones, until there are too many to keep.
  private mutating func countDistinct(_ hash: UInt64) {
    guard result.distinctSchedules != nil else { return }
    if seen.count >= distinctScheduleLimit {
      result.distinctSchedules = nil
      seen = []
    } else if seen.insert(hash).inserted {
      result.distinctSchedules! += 1
    }
  }

  /// Adds `schedules` runs with one outcome; the first of the shortest stays its example.
  private mutating func add(
    _ key: OutcomeKey, schedules: Int, shortest: Schedule, example: Trace
  ) {
    if let i = outcomeIndex[key] {
      result.outcomes[i].schedules += schedules
      if shortest.threads.count < result.outcomes[i].shortest.threads.count {
        result.outcomes[i].shortest = shortest
        result.outcomes[i].example = example
      }
    } else {
      outcomeIndex[key] = result.outcomes.count
      result.outcomes.append(
        Outcome(
          signature: key.signature, handled: key.handled, unmodelled: key.unmodelled,
          limit: key.limit, schedules: schedules, shortest: shortest, example: example))
    }
  }

  /// Runs executions `range` on their own, as one chunk of a search on several cores: what
  /// they showed, and their schedules' hashes in order, for ``merge(_:)``.
  func runApart(_ range: Range<Int>) -> RunsApart where S: SeededScheduler {
    var part = Explorer(scenario: scenario, scheduler: scheduler, strategy: nil, start: start)
    part.scheduleHashes = []
    for n in range {
      var one = scheduler.startingAt(execution: n)
      var execution = start
      _ = one.startExecution()
      execution.run(&one)
      part.record(execution.trace)
    }
    return RunsApart(result: part.result, scheduleHashes: part.scheduleHashes ?? [])
  }

  /// Adds runs recorded apart, as if each had been recorded here in turn: the runs
  /// before them were merged or recorded already.
  mutating func merge(_ runs: RunsApart) {
    result.schedulesRun += runs.result.schedulesRun
    result.stepCounts.merge(runs.result.stepCounts, uniquingKeysWith: +)
    result.failingSchedules += runs.result.failingSchedules
    result.limitedSchedules += runs.result.limitedSchedules
    for hash in runs.scheduleHashes { countDistinct(hash) }
    for outcome in runs.result.outcomes {
      add(
        OutcomeKey(
          signature: outcome.signature, handled: outcome.handled,
          unmodelled: outcome.unmodelled, limit: outcome.limit, endState: outcome.example.endState),
        schedules: outcome.schedules, shortest: outcome.shortest, example: outcome.example)
    }
  }

  /// What makes two schedules the same outcome. With
  /// ``SimulationOptions/capturesEndState`` on, runs that leave different rows behind are
  /// different outcomes too, so each end state keeps an example and a schedule.
  private struct OutcomeKey: Hashable {
    var signature: [ViolationSignature]
    var handled: [HandledErrorSignature]
    var unmodelled: [Int]
    var limit: Limit?
    var endState: EndState?
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
    result.outcomes.sort(by: Outcome.reportOrder)
    return result
  }
}

extension Explorer where S == DPORScheduler {
  /// Gives away every untried choice on the path, deepest first, for a split search
  /// (``DPORScheduler/splitOff()``).
  mutating func splitOff() -> [(node: Int, threads: [Int])] { scheduler.splitOff() }
}

/// `n / d` rounded up, without the `n + d - 1` that overflows for a budget of `Int.max`.
func dividedRoundingUp(_ n: Int, by d: Int) -> Int {
  n / d + (n % d == 0 ? 0 : 1)
}

/// How many distinct schedules are counted before counting stops, to keep memory flat.
package let distinctScheduleLimit = 100_000

/// Explores a scenario with a scheduler of any kind, within bounds.
///
/// - Parameters:
///   - options: how runs are modelled; by default as the scenario says.
///   - maxSchedules: stop after this many complete schedules.
///   - shouldStop: asked between schedules; true ends exploration (a time limit).
public func explore(
  _ scenario: Scenario, scheduler: some Scheduler, options: SimulationOptions? = nil,
  maxSchedules: Int = defaultScheduleBudget, shrinking: Bool = true,
  shouldStop: () -> Bool = { false }
) -> Exploration {
  var explorer = Explorer(
    scenario: scenario, scheduler: scheduler, strategy: nil,
    options: options ?? SimulationOptions(scenario))
  return explorer.explore(maxSchedules: maxSchedules, shrinking: shrinking, shouldStop: shouldStop)
}

extension Explorer {
  /// Runs executions one after another until the scheduler has none left or a bound stops it.
  ///
  /// With `givesUp`, a search that a quarter into a budget of at least 1,000 schedules
  /// estimates itself under 1% done stops there (``Exploration/Stop/hopeless(maxSchedules:)``).
  /// ``DPORScheduler/progress`` underestimates a depth-first search's progress, but not by
  /// the 25 times a search that would finish within the budget needs to be given up; fewer
  /// than 250 schedules are too few to judge by.
  mutating func explore(
    maxSchedules: Int, shrinking: Bool, givesUp: Bool = false, shouldStop: () -> Bool
  ) -> Exploration {
    let review = givesUp && maxSchedules >= 1_000 ? dividedRoundingUp(maxSchedules, by: 4) : nil
    while result.schedulesRun < maxSchedules {
      if shouldStop() {
        stopped(.timeLimit)
        return finish(shrinking: shrinking)
      }
      guard runNext(shouldStop: shouldStop) else {
        if interrupted { stopped(.timeLimit) }
        return finish(shrinking: shrinking)
      }
      if result.schedulesRun == review, let progress = scheduler.progress, progress < 0.01 {
        stopped(.hopeless(maxSchedules: maxSchedules))
        return finish(shrinking: shrinking)
      }
    }
    reachedBudget(maxSchedules)
    return finish(shrinking: shrinking)
  }
}

extension Explorer where S: SeededScheduler {
  /// Runs executions on several cores, in chunks of ``chunkSize``. Execution `n` is the same
  /// whichever core runs it, and the chunks are merged in order, so the result is the one a
  /// single core would give. `shouldStop` is asked on this thread, after each chunk merged.
  mutating func explore(
    maxSchedules: Int, workers: Int, shrinking: Bool, shouldStop: () -> Bool
  ) -> Exploration {
    guard workers > 1 else {
      return explore(maxSchedules: maxSchedules, shrinking: shrinking, shouldStop: shouldStop)
    }
    if shouldStop() {
      stopped(.timeLimit)
      return finish(shrinking: shrinking)
    }
    let first = result.schedulesRun
    let size = Self.chunkSize
    let chunks = dividedRoundingUp(maxSchedules - first, by: size)
    let (scenario, options, scheduler) = (self.scenario, self.options, self.scheduler)
    var timedOut = false
    concurrentChunks(
      chunks, workers: workers,
      // Each core starts its runs from a copy of its own, of a scenario of its own.
      state: {
        Explorer(
          scenario: scenario.separateCopy(), scheduler: scheduler, strategy: nil, options: options)
      },
      { explorer, c in
        let lower = first + c * size
        return explorer.runApart(lower..<lower + min(size, maxSchedules - lower))
      },
      deliver: { runs in
        merge(runs)
        timedOut = result.schedulesRun < maxSchedules && shouldStop()
        return !timedOut
      })
    stopped(timedOut ? .timeLimit : .maxSchedules(maxSchedules))
    return finish(shrinking: shrinking)
  }

  /// Executions per chunk: enough that handing one out and merging it costs little, few
  /// enough that a time limit is noticed within milliseconds.
  static var chunkSize: Int { 64 }
}

/// Runs recorded apart, on another core: what they showed, and their schedules' hashes in
/// order, so the explorer they are merged into counts distinct schedules as it would have.
struct RunsApart: Sendable {
  var result: Exploration
  var scheduleHashes: [UInt64]
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
  func run<S: Scheduler>(_ scheduler: S) -> Exploration {
    var explorer = Explorer(
      scenario: scenario, scheduler: scheduler, strategy: strategy, options: options)
    return explorer.explore(
      maxSchedules: maxSchedules, shrinking: shrinking, shouldStop: shouldStop)
  }
  func sample<S: SeededScheduler>(_ scheduler: S) -> Exploration {
    var explorer = Explorer(
      scenario: scenario, scheduler: scheduler, strategy: strategy, options: options)
    return explorer.explore(
      maxSchedules: maxSchedules, workers: workers, shrinking: shrinking, shouldStop: shouldStop)
  }
  switch strategy {
  case .dpor(let bound): return run(DPORScheduler(preemptionBound: bound))
  case .exhaustive: return run(DPORScheduler.exhaustive)
  case .stateful(let maxStates, let bound):
    return StatefulSearch(
      scenario: scenario, options: options, maxStates: maxStates, preemptionBound: bound
    ).explore(shrinking: shrinking, shouldStop: shouldStop)
  case .random(let seed): return sample(RandomScheduler.exploring(seed: seed))
  case .pct(let seed, let depth):
    return sample(
      PCTScheduler.exploring(
        seed: seed, depth: depth, steps: PCTScheduler.typicalSteps(of: scenario, options: options)
      ))
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
