import ContextSimCore
import ContextSimReports

/// What exploring a candidate fix shows: a proof, a counterexample, or nothing either way.
///
/// A proof is claimed only when the search covered every class of interleavings (DPOR with
/// no bound, run to its end, no run cut short by a limit). A search the budget stopped
/// proves nothing, and says so, however clean the schedules it ran.
public struct FixProof: Sendable {
  /// ``Verdict/passed`` when no interleaving breaks a rule (every one of ``schedulesRun``
  /// classes ran clean); ``Verdict/failed`` with the ``counterexample``;
  /// ``Verdict/incomplete(_:)`` when the search stopped before it covered every
  /// interleaving and found nothing: no claim.
  public let verdict: Verdict
  /// The schedules the search ran: every class of interleavings, when it passed.
  public let schedulesRun: Int
  /// An interleaving that breaks a rule, and the run it gives, when the fix failed.
  public let counterexample: (schedule: Schedule, trace: Trace)?

  /// Explores `scenario` with DPOR, unbounded, within `maxSchedules`.
  ///
  /// A violation found is real even when the search was cut short, so a counterexample
  /// wins over an unfinished search: the one with the fewest preemptions, then the fewest
  /// steps, as `ctxsim explore` prints it.
  public init(
    _ scenario: Scenario, options: SimulationOptions, maxSchedules: Int = defaultScheduleBudget
  ) {
    let exploration = explore(
      scenario, strategy: .dpor(preemptionBound: nil), options: options,
      maxSchedules: maxSchedules)
    let failing = exploration.outcomes.filter { !$0.signature.isEmpty }
    if let first = failing.min(by: {
      ($0.preemptions ?? .max, $0.shortest.threads.count)
        < ($1.preemptions ?? .max, $1.shortest.threads.count)
    }) {
      var replay = ReplayScheduler(first.shortest)
      verdict = .failed
      counterexample = (
        first.shortest, simulate(scenario, options: options, scheduler: &replay)
      )
    } else {
      verdict = exploration.isComplete ? .passed : .incomplete(exploration.stop)
      counterexample = nil
    }
    schedulesRun = exploration.schedulesRun
  }
}
