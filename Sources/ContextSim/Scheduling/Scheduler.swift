/// Picks which thread takes the next step of a run.
///
/// The simulation calls ``nextThread(runnable:previous:step:)`` once per step, with the
/// threads that can move (ascending by number), the thread that took the step before, and
/// the step's number counted from 1. It must return one of `runnable`; a replay that
/// cannot returns the thread it was told to use, and the simulation stops with a mismatch.
/// A scheduler is used for one run and is deterministic for its inputs.
public protocol Scheduler {
  mutating func nextThread(runnable: [Int], previous: Int?, step: Int) -> Int
}

/// The default schedule: nothing interleaves unless it must.
///
/// The thread that took the last step keeps going while it can, so a block runs to its end
/// before another thread moves; when it cannot (its block ended, or it waits for a queue),
/// the lowest-numbered runnable thread goes next. This is the run where "it works on my
/// machine": the tidy interleaving a quiet device usually gives.
public struct RunToCompletionScheduler: Scheduler {
  public init() {}

  public mutating func nextThread(runnable: [Int], previous: Int?, step: Int) -> Int {
    if let previous, runnable.contains(previous) { return previous }
    return runnable[0]
  }
}

/// A seeded random schedule: at every step, any runnable thread with equal chance.
public struct RandomScheduler: Scheduler {
  private var generator: SplitMix64

  public init(seed: UInt64) {
    generator = SplitMix64(seed: seed)
  }

  public mutating func nextThread(runnable: [Int], previous: Int?, step: Int) -> Int {
    runnable[Int(generator.next() % UInt64(runnable.count))]
  }
}

/// Replays a recorded schedule; once it runs out, continues as the default schedule does.
public struct ReplayScheduler: Scheduler {
  private let schedule: Schedule
  private var fallback = RunToCompletionScheduler()

  public init(_ schedule: Schedule) {
    self.schedule = schedule
  }

  public mutating func nextThread(runnable: [Int], previous: Int?, step: Int) -> Int {
    if step <= schedule.threads.count { return schedule.threads[step - 1] }
    return fallback.nextThread(runnable: runnable, previous: previous, step: step)
  }
}

/// A small, fast, well-mixed generator whose sequence is fixed for a seed on every platform.
///
/// Swift's `SystemRandomNumberGenerator` cannot be seeded, and seeded runs must replay.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  public init(seed: UInt64) {
    state = seed
  }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
