/// Runs a scenario on one schedule and returns everything that happened.
///
/// The run is a pure function of its inputs: the same scenario, options and scheduler
/// decisions give the same trace, which is what makes replay and golden tests work.
public func simulate(
  _ scenario: Scenario, options: SimulationOptions, scheduler: inout some Scheduler
) -> Trace {
  var simulation = Simulation(scenario: scenario, options: options)
  simulation.run(&scheduler)
  return simulation.trace
}

// The stepping API every scheduler drives: which threads can move, and one step by one of them.
extension Simulation {
  mutating func run(_ scheduler: inout some Scheduler) {
    var previous: Int?
    while let runnable = runnableThreads() {
      let step = trace.schedule.threads.count + 1
      let chosen = scheduler.nextThread(runnable: runnable, previous: previous, step: step)
      guard runnable.contains(chosen) else {
        trace.stop = .scheduleMismatch(step: step, thread: chosen, runnable: runnable)
        return
      }
      take(chosen)
      previous = chosen
    }
  }

  /// The threads that can take the next step, or nil when the run is over.
  ///
  /// A run is over when no thread can move (a deadlock, if some are blocked), at the step
  /// limit, or at the first crash under `stopAtFirstCrash`; the trace says which.
  mutating func runnableThreads() -> [Int]? {
    if options.stopAtFirstCrash && trace.firstCrash != nil {
      trace.stop = .crashed
      return nil
    }
    if case .limit? = trace.stop { return nil }
    let runnable = threads.indices.filter { canRun($0) }
    if runnable.isEmpty {
      reportDeadlock()
      return nil
    }
    if trace.schedule.threads.count >= options.maximumSteps {
      trace.stop = .limit(.steps(options.maximumSteps))
      return nil
    }
    return runnable
  }

  /// Lets a runnable thread take one step, and returns what the step touched.
  @discardableResult
  mutating func take(_ t: Int) -> [Access] {
    stepAccesses.removeAll(keepingCapacity: true)
    trace.schedule.threads.append(t)
    advance(t, step: trace.schedule.threads.count)
    return stepAccesses
  }
}
