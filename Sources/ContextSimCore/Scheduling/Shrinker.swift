/// Makes a failing schedule easier to read before it is printed: fewest preemptions first,
/// then fewest steps, keeping the same outcome.
///
/// It removes one preemption at a time: at a point where the schedule switched away from a
/// thread that could go on, it lets that thread go on instead and follows the old schedule
/// wherever it still can. A candidate that reaches the same outcome with fewer preemptions,
/// or as many and fewer steps, replaces the schedule; shrinking stops when no preemption
/// can go, or after a fixed number of attempts.
struct Shrinker {
  let scenario: Scenario
  let options: SimulationOptions
  static let maximumAttempts = 200

  func shrink(_ outcome: Outcome) -> (Trace, preemptions: Int?) {
    var best = run(following: outcome.shortest.threads, switchAt: nil)
    guard reaches(outcome, best.trace) else { return (outcome.example, nil) }
    var attempts = 0
    var improved = true
    while improved && attempts < Self.maximumAttempts {
      improved = false
      for point in best.preemptionPoints {
        attempts += 1
        let candidate = run(following: best.trace.schedule.threads, switchAt: point)
        if reaches(outcome, candidate.trace) && candidate.isSmaller(than: best) {
          best = candidate
          improved = true
          break
        }
        if attempts >= Self.maximumAttempts { break }
      }
    }
    return (best.trace, best.preemptionPoints.count)
  }

  /// Whether a run ends in the outcome: the same violations and handled errors, the same
  /// limit if any, and the same end state when runs keep one.
  private func reaches(_ outcome: Outcome, _ trace: Trace) -> Bool {
    var limit: Limit?
    if case .limit(let l)? = trace.stop { limit = l }
    return limit == outcome.limit && trace.endState == outcome.example.endState
      && Set(trace.violations.map(ViolationSignature.init)).sorted() == outcome.signature
      && Set(trace.handledErrors.map(HandledErrorSignature.init)).sorted() == outcome.handled
  }

  /// A run that follows `threads`, except that at step `switchAt` the thread that ran
  /// before keeps running.
  private func run(following threads: [Int], switchAt: Int?) -> Attempt {
    var scheduler = FollowingScheduler(threads: threads, keepAt: switchAt)
    let trace = simulate(scenario, options: options, scheduler: &scheduler)
    return Attempt(trace: trace, preemptionPoints: scheduler.preemptionPoints)
  }

  private struct Attempt {
    var trace: Trace
    /// Steps (from 1) where the schedule switched away from a thread that could go on.
    var preemptionPoints: [Int]

    func isSmaller(than other: Attempt) -> Bool {
      (preemptionPoints.count, trace.schedule.threads.count)
        < (other.preemptionPoints.count, other.trace.schedule.threads.count)
    }
  }
}

/// Follows a list of threads where it can; elsewhere keeps the last thread running, as the
/// default schedule does. Counts the preemptions it makes.
struct FollowingScheduler: Scheduler {
  let threads: [Int]
  let keepAt: Int?
  private(set) var preemptionPoints: [Int] = []

  init(threads: [Int], keepAt: Int?) {
    self.threads = threads
    self.keepAt = keepAt
  }

  mutating func startExecution() -> Bool { true }

  mutating func nextThread(runnable: [Int], previous: Int?, step: Int) -> Int? {
    var chosen: Int
    if step == keepAt, let previous, runnable.contains(previous) {
      chosen = previous
    } else if step <= threads.count, runnable.contains(threads[step - 1]) {
      chosen = threads[step - 1]
    } else if let previous, runnable.contains(previous) {
      chosen = previous
    } else {
      chosen = runnable[0]
    }
    if let previous, runnable.contains(previous), chosen != previous {
      preemptionPoints.append(step)
    }
    return chosen
  }
}
