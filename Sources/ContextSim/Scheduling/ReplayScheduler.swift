/// Replays a recorded schedule; once it runs out, continues as the default schedule does.
public struct ReplayScheduler: Scheduler {
  private let schedule: Schedule
  private var fallback = RunToCompletionScheduler()

  /// A scheduler that follows `schedule` step by step.
  public init(_ schedule: Schedule) {
    self.schedule = schedule
  }

  /// Every execution replays the same schedule.
  public mutating func startExecution() -> Bool { true }

  /// The recorded thread while the schedule lasts, even one that cannot run (the run then
  /// stops with a mismatch); the default schedule's choice after it.
  public mutating func nextThread(runnable: [Int], previous: Int?, step: Int) -> Int? {
    if step <= schedule.threads.count { return schedule.threads[step - 1] }
    return fallback.nextThread(runnable: runnable, previous: previous, step: step)
  }
}
