/// Iterative context bounding (Musuvathi and Qadeer, PLDI 2007, as in CHESS): DPOR within a
/// preemption bound of 0, then 1, 2, … until `maxSchedules` schedules in all or the time
/// limit, each search's outcomes merged into `exploration`.
///
/// Most concurrency bugs need few preemptions, so when the complete search does not fit,
/// every schedule with at most k preemptions is a stronger answer than as many random
/// samples: the largest k whose search finished is a proof within that bound, and the
/// unfinished search after it still adds what it found. The bound 0 gets half the budget:
/// when even it cannot finish there is no proof to be had, and PCT (depth 3) is the better
/// use of the rest, as it was the whole fallback before.
///
/// - Returns: the proof, or the PCT schedules run when there is none.
func boundPreemptions(
  _ scenario: Scenario, options: SimulationOptions, into exploration: inout Exploration,
  maxSchedules: Int, seed: UInt64, shouldStop: () -> Bool
) -> ScenarioCheck.Fallback {
  var left = maxSchedules
  var proof: ScenarioCheck.Fallback?
  var bound = 0
  while left > 0 {
    let share = bound == 0 ? (left + 1) / 2 : left
    let search = explore(
      scenario, strategy: .dpor(preemptionBound: bound), options: options, maxSchedules: share,
      shrinking: false, shouldStop: shouldStop)
    exploration.merge(search)
    left -= search.schedulesRun
    // A run limit decides the verdict whatever else runs.
    guard search.searchFinished, search.limit == nil else { break }
    proof = .bounded(preemptions: bound, schedules: search.schedulesRun)
    bound += 1
  }
  if let proof { return proof }
  let sampled = explore(
    scenario, strategy: .pct(seed: seed, depth: 3), options: options, maxSchedules: left,
    shrinking: false, shouldStop: shouldStop)
  exploration.merge(sampled)
  return .pct(schedules: sampled.schedulesRun)
}
