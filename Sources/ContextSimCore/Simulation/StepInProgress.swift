/// The step a run is taking, which `Simulation` sets afresh when a step starts: none of it
/// outlives the step (the stateful search's fingerprint leaves it out for that reason).
struct StepInProgress: Sendable {
  /// The thread taking it.
  var thread = 0
  /// Its number in the run, the scenario step it runs, and the queue its thread was running
  /// when it began. Reports build their ``Site`` from these when they need one.
  var number = 0
  var index = 0
  var queue = 0
  /// A site that reports use instead, for a deadlock, which no single step causes.
  var siteOverride: Site?
  /// One trap per step: the first touch that fails the check traps, as the real one would.
  var trapped = false
  /// What it touched, for partial-order reduction.
  var accesses: [Access] = []
  /// The storage ``Simulation/runnableThreads()`` fills at every step.
  var runnable: [Int] = []
}
