/// Picks which thread takes each step, over as many executions of a scenario as it wants.
///
/// Its lifecycle, as ``Execution/run(_:)`` and ``explore(_:scheduler:options:maxSchedules:shouldStop:)``
/// drive it (shuttle's scheduler protocol):
///
/// 1. ``startExecution()`` before each execution. False ends the search: the scheduler
///    has no execution left to try.
/// 2. For every step, ``nextThread(runnable:previous:step:)`` with the threads that can
///    move (ascending by number; 0 is main), the thread that took the step before, and the
///    step's number counted from 1. It returns one of `runnable`, or nil to abandon the
///    execution (a search that sees it can only repeat an earlier one). A replay that
///    cannot follow returns the thread it was told to use, and the run stops with a
///    mismatch.
/// 3. After every step, ``stepTaken(by:footprint:)`` with what the step touched, for
///    strategies that reason about which steps commute (DPOR).
///
/// A scheduler is deterministic for its inputs, so every execution can be replayed from its
/// ``Schedule``. Write one to plug a strategy of your own into ``explore(_:scheduler:options:maxSchedules:shouldStop:)``.
public protocol Scheduler {
  /// Prepares the next execution; false when there is none left.
  mutating func startExecution() -> Bool
  /// The thread that takes step `step`, or nil to abandon this execution.
  mutating func nextThread(runnable: [Int], previous: Int?, step: Int) -> Int?
  /// What the step `thread` just took touched.
  mutating func stepTaken(by thread: Int, footprint: Footprint)
  /// Whether ``stepTaken(by:footprint:)`` reads the footprint. An explorer runs a scheduler
  /// that does not without recording footprints, which saves work at every step.
  var readsFootprints: Bool { get }
  /// Whether running out of executions means every class of interleavings was run, so an
  /// exploration that ends that way is complete. False unless the strategy proves it.
  var isExhaustive: Bool { get }
  /// About how much of its search is done, from 0 to 1, for a scheduler that can tell.
  var progress: Double? { get }
  /// Whether its executions are samples (random, PCT) rather than a search: a sampler that
  /// ran every execution asked for has done what it set out to do.
  var samples: Bool { get }
  /// How many first steps the execution just started repeats from the one before it, for a
  /// search that goes back to an earlier choice; nil for a scheduler that cannot resume.
  /// A driver that kept a copy of the run after `k` of those steps may carry on from the
  /// copy, after ``resume(afterSteps:)``.
  var sharedSteps: Int? { get }
  /// Skips the first `k` steps of the execution just started, `k` at most ``sharedSteps``:
  /// the driver carries on from a copy of the run made after them.
  mutating func resume(afterSteps k: Int)
}

extension Scheduler {
  /// Ignores what steps touched: only strategies that reorder conflicting steps need it.
  public mutating func stepTaken(by thread: Int, footprint: Footprint) {}
  /// A scheduler reads footprints unless it says otherwise.
  public var readsFootprints: Bool { true }
  /// Not exhaustive: a scheduler has to claim that itself.
  public var isExhaustive: Bool { false }
  /// No estimate.
  public var progress: Double? { nil }
  /// A scheduler searches unless it says otherwise.
  public var samples: Bool { false }
  /// Every execution starts from the beginning.
  public var sharedSteps: Int? { nil }
  /// Never asked: ``sharedSteps`` is nil.
  public mutating func resume(afterSteps k: Int) {}
}

/// A scheduler whose executions are independent of one another: execution `n` can be made
/// from its number alone, so an exploration runs them on several cores at once and gets
/// the same result as on one.
public protocol SeededScheduler: Scheduler, Sendable {
  /// This scheduler, about to start execution number `n`, counted from 0.
  func startingAt(execution n: Int) -> Self
}

extension SeededScheduler {
  /// Independent executions are samples.
  public var samples: Bool { true }
}

/// What one step touched: contexts, the store, queues, shared vars.
///
/// Two steps of different threads commute unless they touch the same thing and one of
/// them writes it; only such pairs need to be tried in both orders.
public struct Footprint: Sendable {
  let accesses: [Access]
  /// Whether the step crashed a run that stops at its first crash: then no other thread
  /// takes another step, so every thread that could have gone instead must be tried.
  var endsRun = false

  /// Whether the two steps do not commute.
  public func conflicts(with other: Footprint) -> Bool {
    accesses.contains { a in other.accesses.contains { a.conflicts(with: $0) } }
  }

  /// Whether the step touched nothing another thread could see.
  public var isEmpty: Bool { accesses.isEmpty }
}
