/// The default schedule: nothing interleaves unless it must.
///
/// The thread that took the last step keeps going while it can, so a block runs to its end
/// before another thread moves; when it cannot (its block ended, or it waits for a queue),
/// the lowest-numbered runnable thread goes next. This is the run where "it works on my
/// machine": the tidy interleaving a quiet device usually gives.
public struct RunToCompletionScheduler: Scheduler {
  /// How many choices it has made. The count also gives each scheduler storage of its own:
  /// an empty struct passed `inout` gets a placeholder address shared by every instance,
  /// which ThreadSanitizer reports as a race when runs on several threads each use one.
  public private(set) var choices = 0

  /// The default schedule, before its first choice.
  public init() {}

  /// Every execution is the same one.
  public mutating func startExecution() -> Bool { true }

  /// The thread that ran last if it still can, else the lowest-numbered runnable thread.
  public mutating func nextThread(runnable: [Int], previous: Int?, step: Int) -> Int? {
    choices += 1
    if let previous, runnable.contains(previous) { return previous }
    return runnable[0]
  }
}
