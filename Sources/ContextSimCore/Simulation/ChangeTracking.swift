/// Change tracking: what each context has changed since it last processed its pending
/// changes (`processPendingChanges`, at a block's end, a save's start and a merge's end), and
/// the fetched results controllers that take those changes in (semantics-2 §4).
struct ChangeTracking: Sendable {
  /// Each context's changes not yet announced, by the context's index.
  var unprocessed: [Int: Simulation.PendingChanges] = [:]
  /// The fetched results controllers the app made, by index.
  var controllers: [Simulation.FetchedResultsController] = []
}
