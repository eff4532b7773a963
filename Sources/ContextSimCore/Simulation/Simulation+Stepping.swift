/// One run of a scenario, step by step: the stepping API every scheduler drives.
///
/// Ask ``runnableThreads()`` which threads can move, let one of them take a step with
/// ``step(_:)``, and repeat until it returns nil; ``trace`` holds everything so far. A
/// run is a pure function of the scenario, the options and the threads chosen.
///
///     var execution = Execution(scenario)
///     while let runnable = execution.runnableThreads() { execution.step(runnable[0]) }
///     print(execution.trace.violations)
public struct Execution: Sendable {
  var simulation: Simulation
  /// Whether the run has ended; asking again must not report its deadlock twice.
  private var isOver = false

  /// A run at its start: the main thread about to launch; options default to the scenario's.
  public init(_ scenario: Scenario, options: SimulationOptions? = nil) {
    simulation = Simulation(scenario: scenario, options: options ?? SimulationOptions(scenario))
  }

  /// Everything the run did so far.
  public var trace: Trace { simulation.trace }

  /// Steps taken so far.
  public var stepsTaken: Int { simulation.trace.schedule.threads.count }

  /// What the world looks like now: threads, queues held, contexts and their objects.
  public var world: WorldSnapshot { simulation.snapshot() }

  /// The threads that can take the next step, ascending; nil once the run is over.
  ///
  /// A run is over when no thread can move (a deadlock, if some are blocked), at a limit,
  /// or at the first crash under `stopAtFirstCrash`; ``trace`` says which.
  public mutating func runnableThreads() -> [Int]? {
    guard !isOver else { return nil }
    let runnable = simulation.runnableThreads()
    isOver = runnable == nil
    if isOver && simulation.options.capturesEndState {
      simulation.trace.endState = simulation.endState()
    }
    return runnable
  }

  /// Lets thread `t`, one of ``runnableThreads()``, take one step; returns what it touched.
  @discardableResult
  public mutating func step(_ t: Int) -> Footprint {
    // Finding the first crash scans the violations: only a run that stops there asks.
    guard simulation.options.stopAtFirstCrash else {
      return Footprint(accesses: simulation.take(t))
    }
    let crashedBefore = simulation.trace.firstCrash != nil
    let accesses = simulation.take(t)
    let endsRun = !crashedBefore && simulation.trace.firstCrash != nil
    return Footprint(
      accesses: accesses + [Access(resource: .runGoesOn, isWrite: endsRun)], endsRun: endsRun)
  }

  /// Runs to the end with `scheduler` choosing every thread, after the scheduler's
  /// ``Scheduler/startExecution()``. Returns false if the scheduler abandoned the run.
  @discardableResult
  public mutating func run(_ scheduler: inout some Scheduler) -> Bool {
    var none: Checkpoints?
    return run(&scheduler, keeping: &none)
  }

  /// ``run(_:)``, from wherever this run is, keeping a copy of the run at each point where
  /// more than one thread could move: what a search resumes from.
  mutating func run(_ scheduler: inout some Scheduler, keeping checkpoints: inout Checkpoints?)
    -> Bool
  {
    var previous = simulation.trace.schedule.threads.last
    while let runnable = runnableThreads() {
      if runnable.count > 1 { checkpoints?.keep(self) }
      let number = stepsTaken + 1
      guard let chosen = scheduler.nextThread(runnable: runnable, previous: previous, step: number)
      else { return false }
      guard runnable.contains(chosen) else {
        simulation.trace.stop = .scheduleMismatch(step: number, thread: chosen, runnable: runnable)
        return true
      }
      scheduler.stepTaken(by: chosen, footprint: step(chosen))
      previous = chosen
    }
    return true
  }
}

/// Runs a scenario on one schedule and returns everything that happened.
///
/// The run is a pure function of its inputs: the same scenario, options and scheduler
/// decisions give the same trace, which is what makes replay and golden tests work.
public func simulate(
  _ scenario: Scenario, options: SimulationOptions? = nil, scheduler: inout some Scheduler
) -> Trace {
  var execution = Execution(scenario, options: options)
  _ = scheduler.startExecution()
  execution.run(&scheduler)
  return execution.trace
}

extension Simulation {
  /// The threads that can take the next step, or nil when the run is over.
  mutating func runnableThreads() -> [Int]? {
    if options.stopAtFirstCrash && trace.firstCrash != nil {
      trace.stop = .crashed
      return nil
    }
    if case .limit? = trace.stop { return nil }
    // The last step's list, overwritten in place: its caller is done with it by now, so the
    // storage is reused rather than allocated at every step. Emptying it first cost more
    // than the whole check: `removeAll(keepingCapacity:)` takes the general path.
    var count = 0
    for t in runtime.threads.indices where canRun(t) {
      if count < now.runnable.count {
        now.runnable[count] = t
      } else {
        now.runnable.append(t)
      }
      count += 1
    }
    while now.runnable.count > count { now.runnable.removeLast() }
    let runnable = now.runnable
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
    now.accesses.removeAllKeepingCapacity()
    trace.schedule.threads.append(t)
    if trace.schedule.threads.count == 1 { makeRoomForRun() }
    advance(t, step: trace.schedule.threads.count)
    return now.accesses
  }
}
