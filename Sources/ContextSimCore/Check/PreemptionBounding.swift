/// The fallback of a design declared buggy: DPOR within a preemption bound of 0, then 1, 2,
/// … (iterative context bounding, Musuvathi and Qadeer, PLDI 2007, as in CHESS) until
/// `maxSchedules` schedules in all or the time limit, each search's outcomes merged into
/// `exploration`.
///
/// Most concurrency bugs need few preemptions, so when the complete search does not fit, the
/// schedules with few preemptions are where the declared violations are likeliest to show.
/// It proves nothing: DPOR within a bound can miss a class the bound allows
/// (docs/exploration.md, "Known gap"), and a design declared buggy needs no proof. The bound 0
/// gets half the budget: when even it cannot finish, PCT (depth 3) is the better use of the
/// rest.
///
/// - Returns: the largest bound searched to its end, or the PCT schedules run when none was.
func boundPreemptions(
  _ scenario: Scenario, options: SimulationOptions, into exploration: inout Exploration,
  maxSchedules: Int, seed: UInt64, workers: Int, shouldStop: () -> Bool
) -> ScenarioCheck.Fallback {
  var left = maxSchedules
  var reached: ScenarioCheck.Fallback?
  var bound = 0
  while left > 0 {
    let share = bound == 0 ? (left + 1) / 2 : left
    var split = SplitSearch(scenario: scenario, options: options, preemptionBound: bound)
    let search = split.explore(maxSchedules: share, workers: workers, shouldStop: shouldStop)
    exploration.merge(search)
    left -= search.schedulesRun
    // A run limit decides the verdict whatever else runs.
    guard search.searchFinished, search.limit == nil else { break }
    reached = .bounded(preemptions: bound, schedules: search.schedulesRun)
    bound += 1
  }
  return reached
    ?? samplePCT(
      scenario, options: options, into: &exploration, maxSchedules: left, seed: seed,
      shouldStop: shouldStop)
}

/// The bounded proof of a design declared clean: the stateful search within a preemption
/// bound of 0, then 1, 2, … (iterative context bounding), each keeping at most `maxStates`
/// states, until one does not finish in them or the time limit.
///
/// The proof rests on the stateful search, not on DPOR, because only the stateful search
/// within a bound visits every state a run within it reaches (SoundnessTests holds it to
/// every such schedule). DPOR within a bound can miss a class the bound allows
/// (docs/exploration.md, "Known gap"). A violation a search finds is real and goes into
/// `exploration`; clean runs add nothing to what check reports. A bound that cut nothing
/// was a complete search, and replaces `exploration` as the proof.
///
/// - Returns: the proof, nil for a complete one, or the PCT schedules run when not even the
///   search without preemptions finished.
func proveWithinBounds(
  _ scenario: Scenario, options: SimulationOptions, into exploration: inout Exploration,
  maxStates: Int, maxSchedules: Int, seed: UInt64, shouldStop: () -> Bool
) -> ScenarioCheck.Fallback? {
  var proof: ScenarioCheck.Fallback?
  for bound in 0... {
    let search = explore(
      scenario, strategy: .stateful(maxStates: maxStates, preemptionBound: bound),
      options: options, shrinking: false, shouldStop: shouldStop)
    if search.isComplete {
      exploration = search
      return nil
    }
    if search.failingSchedules > 0 || search.limit != nil { exploration.merge(search) }
    guard search.searchFinished, search.failingSchedules == 0, search.limit == nil else { break }
    proof = .statefulBounded(preemptions: bound, states: search.statesVisited ?? 0)
  }
  return proof
    ?? samplePCT(
      scenario, options: options, into: &exploration, maxSchedules: maxSchedules, seed: seed,
      shouldStop: shouldStop)
}

/// What is left when no bounded search finished: `maxSchedules` PCT schedules (depth 3),
/// merged into `exploration`, as the whole fallback was before bounded searches.
private func samplePCT(
  _ scenario: Scenario, options: SimulationOptions, into exploration: inout Exploration,
  maxSchedules: Int, seed: UInt64, shouldStop: () -> Bool
) -> ScenarioCheck.Fallback {
  let sampled = explore(
    scenario, strategy: .pct(seed: seed, depth: 3), options: options, maxSchedules: maxSchedules,
    shrinking: false, shouldStop: shouldStop)
  exploration.merge(sampled)
  return .pct(schedules: sampled.schedulesRun)
}
