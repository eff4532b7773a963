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
