/// How to choose the schedules an exploration runs.
public enum ExplorationStrategy: Sendable, Equatable {
  /// Every schedule picks uniformly among runnable threads at every step; schedule `i`
  /// uses a seed made from `seed` and `i`, so runs are the same however they are spread
  /// over cores.
  case random(seed: UInt64)
  /// Probabilistic concurrency testing with bug depth `depth`.
  case pct(seed: UInt64, depth: Int)
  /// Exhaustive search with dynamic partial-order reduction and sleep sets: one schedule
  /// for each class of equivalent interleavings. A preemption bound limits how often a
  /// thread that could go on is switched away from.
  case dpor(preemptionBound: Int?)
  /// Exhaustive search without reduction: every interleaving. For measuring the reduction.
  case exhaustive
  /// Search over every state a run can reach, within a bound on the states kept
  /// (``defaultStateBudget``): complete where the classes of interleavings are too many.
  /// A preemption bound keeps only schedules that preempt at most that many times.
  case stateful(maxStates: Int, preemptionBound: Int? = nil)

  /// The strategy's name on the command line.
  public var name: String {
    switch self {
    case .random: "random"
    case .pct: "pct"
    case .dpor: "dpor"
    case .exhaustive: "exhaustive"
    case .stateful: "stateful"
    }
  }

}

/// One violation as outcomes compare them: its kind and the scenario steps involved.
public struct ViolationSignature: Sendable, Hashable, Comparable {
  /// The rule broken.
  public var kind: ViolationKind
  /// The scenario step, by its index in ``Scenario/allSteps``; for a race, the earlier of its two.
  public var stepIndex: Int
  /// The other step of a two-step violation (a data race), or -1.
  public var otherStepIndex: Int

  init(_ violation: Violation) {
    kind = violation.kind
    stepIndex = violation.site.stepIndex
    if case .dataRace(_, _, let previous) = violation.detail {
      // A race is the same race whichever of its two accesses ran first.
      otherStepIndex = max(previous.stepIndex, stepIndex)
      stepIndex = min(previous.stepIndex, stepIndex)
    } else {
      otherStepIndex = -1
    }
  }

  /// By step, then kind, then the other step: the order reports list them in.
  public static func < (a: Self, b: Self) -> Bool {
    (a.stepIndex, a.kind.rawValue, a.otherStepIndex) < (
      b.stepIndex, b.kind.rawValue, b.otherStepIndex
    )
  }
}

/// An error a `catch` body handled, as outcomes compare it: its code and its step.
public struct HandledErrorSignature: Sendable, Hashable, Comparable {
  /// The Cocoa error code.
  public var code: Int
  /// The scenario step that threw, by its index in ``Scenario/allSteps``.
  public var stepIndex: Int

  init(_ handled: HandledError) {
    code = handled.error.code
    stepIndex = handled.site.stepIndex
  }

  /// By step, then code.
  public static func < (a: Self, b: Self) -> Bool {
    (a.stepIndex, a.code) < (b.stepIndex, b.code)
  }
}

/// What a set of schedules ended in: the same violations and handled errors, at the same
/// steps, and the same limit if one cut the runs short; when runs keep their end state
/// (``SimulationOptions/capturesEndState``), the same one, which ``example`` carries.
public struct Outcome: Sendable {
  /// The violations every schedule of this outcome showed; empty for a clean outcome.
  public var signature: [ViolationSignature]
  /// The errors `catch` bodies handled in these schedules; a clean outcome may have some.
  public var handled: [HandledErrorSignature] = []
  /// The `notModelled` steps these schedules passed, by index in ``Scenario/allSteps``,
  /// ascending: lines of the app's Swift not modelled, so the outcome is never clean.
  public var unmodelled: [Int] = []
  /// The run limit that stopped these schedules before they ended, if one did. Such runs
  /// say nothing about what the rest of the run would have done, so they are never clean.
  public var limit: Limit?
  /// How many schedules reached it.
  public var schedules: Int
  /// The shortest schedule found that reaches it, shrunk when exploration ends.
  public var shortest: Schedule
  /// That schedule's run, with its violations.
  public var example: Trace
  /// How often that schedule switches away from a thread that could go on, once shrunk.
  public var preemptions: Int?

  /// Whether these schedules ran to their end without a violation, and modelled every line
  /// they passed.
  public var isClean: Bool { signature.isEmpty && limit == nil && unmodelled.isEmpty }

  /// Whether these schedules showed no violation but passed lines not modelled.
  public var isUnmodelled: Bool { signature.isEmpty && limit == nil && !unmodelled.isEmpty }

  /// Whether two outcomes are the same one: the same violations, handled errors, limit and,
  /// when runs keep it, end state. Two searches of one scenario reach the same outcomes.
  func isSame(as other: Outcome) -> Bool {
    signature == other.signature && handled == other.handled && unmodelled == other.unmodelled
      && limit == other.limit && example.endState == other.example.endState
  }

  /// Whether this outcome's example is the better one to show: fewer preemptions when both
  /// were counted (both shrunk), then fewer steps. A tie is not better, so the first kept
  /// stays and merging stays deterministic.
  func hasBetterExample(than other: Outcome) -> Bool {
    if let mine = preemptions, let theirs = other.preemptions, mine != theirs {
      return mine < theirs
    }
    return shortest.threads.count < other.shortest.threads.count
  }

  /// The order reports list outcomes in: clean first, then by how many schedules reached
  /// them, then by their violations, an outcome a limit cut short last.
  static func reportOrder(_ a: Outcome, _ b: Outcome) -> Bool {
    if a.isClean != b.isClean { return a.isClean }
    if a.schedules != b.schedules { return a.schedules > b.schedules }
    if a.signature != b.signature { return a.signature.lexicographicallyPrecedes(b.signature) }
    return a.limit == nil && b.limit != nil
  }
}

/// What an exploration found, with the figures that say how far it got.
public struct Exploration: Sendable {
  /// What kept an exploration from being complete: its budget, its time, or the scheduler's
  /// own bound.
  public enum Stop: Sendable, Equatable {
    /// It ran its budget of schedules.
    case maxSchedules(Int)
    /// `shouldStop` said so, as a time limit does.
    case timeLimit
    /// The scheduler covered every class of interleavings within a bound of its own (a
    /// preemption bound), and none beyond it.
    case searchBound
    /// A stateful search kept this many states, its bound, before it was done.
    case maxStates(Int)
    /// `check` gave up a search of this budget a quarter of the way in, when the search's
    /// own estimate had it under 1% done: at that pace it needs 25 times the budget, which
    /// is better spent within a preemption bound (``ExplorationStrategy/dpor(preemptionBound:)``).
    case hopeless(maxSchedules: Int)
  }

  /// The strategy used, or nil for a scheduler of the caller's own.
  public var strategy: ExplorationStrategy?
  /// Its name in reports: `dpor`, `pct`, or the type of a caller's scheduler.
  public var strategyName: String
  /// Whether the scheduler running out of executions means every class ran (unbounded DPOR
  /// and plain exhaustive search).
  public var isExhaustive: Bool
  /// Whether the scheduler searches rather than samples: random and PCT sample.
  public var isSystematic: Bool
  /// Complete schedules run. A stateful search counts the runs it finished: one for each
  /// distinct state a run can end in.
  public var schedulesRun = 0
  /// States a stateful search kept, the ones its memory and `maxStates` count: those where
  /// runs branch or end or the bound cut a step, and every fourth step's. It visits every
  /// state a run can reach, but remembers only these. nil for a search over schedules.
  public var statesVisited: Int?
  /// The strings a stateful search took as interchangeable, counting states that differ
  /// only by a swap of them once: a task group's or loop's elements that nothing else names.
  public var interchangeableValues: [String] = []
  /// Distinct schedules among them; nil once there were too many to keep counting, or once
  /// searches that may have run the same schedule were merged (``merge(_:)``).
  public var distinctSchedules: Int? = 0
  /// Schedules with at least one violation.
  public var failingSchedules = 0
  /// Partial runs the reduction cut short because they could only repeat a class of
  /// interleavings already explored.
  public var prunedRuns = 0
  /// Schedules a run limit (steps, threads, queues) stopped before they ended.
  public var limitedSchedules = 0
  /// Whether a systematic search ran out of alternatives before any bound stopped it.
  public var searchFinished = false
  /// Why exploration stopped before it was complete, if it did.
  public var stop: Stop?
  /// For a systematic search a bound stopped: about how much of it was done, 0 to 1.
  public var searchProgress: Double?
  /// Outcomes, clean first, then by how many schedules reached them.
  public var outcomes: [Outcome] = []
  /// How many steps schedules took: a histogram, so memory stays flat.
  public var stepCounts: [Int: Int] = [:]

  /// An empty result, before any schedule has run.
  public init(
    strategy: ExplorationStrategy?, strategyName: String, isExhaustive: Bool, isSystematic: Bool
  ) {
    self.strategy = strategy
    self.strategyName = strategyName
    self.isExhaustive = isExhaustive
    self.isSystematic = isSystematic
  }

  /// Whether a systematic strategy covered every class of interleavings, each to its end.
  /// A run a limit cut short leaves its continuations unexplored, so it makes the search
  /// incomplete even when the search ran out of alternatives.
  public var isComplete: Bool { searchFinished && isExhaustive && limitedSchedules == 0 }

  /// Adds what another search of the same scenario, with the same options, found.
  ///
  /// One verdict can rest on several searches: `check` merges the complete search that ran
  /// out of budget with the searches within each preemption bound that followed it, since
  /// every violation any of them found is real. The figures add up; an outcome both reached
  /// adds its schedules and keeps the better example (fewer preemptions, then fewer steps,
  /// then this one's); outcomes are sorted again for reports. What this search was stays this exploration's:
  /// its strategy, whether it finished, and why it stopped.
  public mutating func merge(_ other: Exploration) {
    schedulesRun += other.schedulesRun
    distinctSchedules = nil
    failingSchedules += other.failingSchedules
    prunedRuns += other.prunedRuns
    limitedSchedules += other.limitedSchedules
    stepCounts.merge(other.stepCounts, uniquingKeysWith: +)
    for outcome in other.outcomes {
      guard let i = outcomes.firstIndex(where: { $0.isSame(as: outcome) }) else {
        outcomes.append(outcome)
        continue
      }
      outcomes[i].schedules += outcome.schedules
      if outcome.hasBetterExample(than: outcomes[i]) {
        outcomes[i].shortest = outcome.shortest
        outcomes[i].example = outcome.example
        outcomes[i].preemptions = outcome.preemptions
      }
    }
    outcomes.sort(by: Outcome.reportOrder)
  }

  /// The first outcome whose schedules a run limit cut short, if any.
  public var limitedOutcome: Outcome? { outcomes.first { $0.limit != nil } }

  /// The run limit that cut schedules short, if one did: that outcome's.
  public var limit: Limit? { limitedOutcome?.limit }

  /// What the exploration shows, strongest finding first.
  ///
  /// A limit comes first, as it does for one run: what lies past it is unknown. A
  /// systematic search that a bound stopped, or that covered only what a preemption bound
  /// allows, and any search the time limit stopped, is incomplete, never clean. Random and
  /// PCT searches that ran every schedule asked for without a failure are clean as far as
  /// they looked; only a complete systematic search proves a scenario clean
  /// (``isComplete``).
  public var verdict: Verdict {
    if let limit { return .limited(limit) }
    if failingSchedules > 0 { return .failed }
    if outcomes.contains(where: \.isUnmodelled) { return .unmodelled }
    if let stop, isSystematic || stop == .timeLimit { return .incomplete(stop) }
    return .passed
  }

  /// The lines not modelled that any schedule passed, by index in ``Scenario/allSteps``.
  public var unmodelledSteps: [Int] { Set(outcomes.flatMap(\.unmodelled)).sorted() }

  /// The fewest, middle and most steps a schedule took.
  public var stepRange: (min: Int, median: Int, max: Int) {
    let sorted = stepCounts.sorted { $0.key < $1.key }
    guard let first = sorted.first, let last = sorted.last else { return (0, 0, 0) }
    var seen = 0
    let middle = (schedulesRun + 1) / 2
    for (steps, count) in sorted {
      seen += count
      if seen >= middle { return (first.key, steps, last.key) }
    }
    return (first.key, last.key, last.key)
  }
}
