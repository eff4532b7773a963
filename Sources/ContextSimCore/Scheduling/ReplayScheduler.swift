/// Replays a recorded schedule; once it runs out, continues as the default schedule does.
public struct ReplayScheduler: Scheduler {
  private let schedule: Schedule
  private let lastStep: Int?
  private var fallback = RunToCompletionScheduler()

  /// A scheduler that follows `schedule` step by step, and abandons the run after
  /// `stoppingAfter` steps if given: the lesson stepper's view of a point in a run.
  public init(_ schedule: Schedule, stoppingAfter lastStep: Int? = nil) {
    self.schedule = schedule
    self.lastStep = lastStep
  }

  /// Every execution replays the same schedule.
  public mutating func startExecution() -> Bool { true }

  /// The recorded thread while the schedule lasts, even one that cannot run (the run then
  /// stops with a mismatch); the default schedule's choice after it.
  public mutating func nextThread(runnable: [Int], previous: Int?, step: Int) -> Int? {
    if let lastStep, step > lastStep { return nil }
    if step <= schedule.threads.count { return schedule.threads[step - 1] }
    return fallback.nextThread(runnable: runnable, previous: previous, step: step)
  }
}
