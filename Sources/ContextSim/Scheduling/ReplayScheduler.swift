/// Replays a recorded schedule; once it runs out, continues as the default schedule does.
public struct ReplayScheduler: Scheduler {
  private let schedule: Schedule
  private var fallback = RunToCompletionScheduler()

  public init(_ schedule: Schedule) {
    self.schedule = schedule
  }

  /// Every execution replays the same schedule.
  public mutating func startExecution() -> Bool { true }

  public mutating func nextThread(runnable: [Int], previous: Int?, step: Int) -> Int? {
    if step <= schedule.threads.count { return schedule.threads[step - 1] }
    return fallback.nextThread(runnable: runnable, previous: previous, step: step)
  }
}
