/// The strings a scenario treats alike: a task group's or `forEach`'s elements that nothing
/// else names, so that once the group or loop has started, swapping two of them in a state
/// changes nothing ahead but the same swap.
///
/// The fixed photo downloader saves one photo per URL in whatever order the downloads
/// finish. Two runs that saved `2.jpg` then `3.jpg`, and `3.jpg` then `2.jpg`, end with
/// the same rows under each other's URLs; the stateful search names such values by where
/// they first appear in a state (Simulation+Fingerprint.swift) and visits the two states
/// once. That is symmetry reduction (Emerson and Sistla, 1996) over data, and it holds only
/// while every step treats the values alike, so a scenario has interchangeable values only
/// when all of this is true:
/// - each value is a string written once in the whole file, as an element of a task
///   group's or a `forEach`'s literal list, so no step but the one that starts the group or
///   loop names it, and no state before that holds it;
/// - that group or loop runs at most once in a run: it is in no loop, observer, delegate
///   or task group body, so no step makes the values again once a state holds them;
/// - nothing orders strings: no `<`, `<=`, `>`, `>=` in a predicate and no `sortBy`, since
///   an order tells `1.jpg` from `2.jpg` where equality does not;
/// - no step catches an error: a caught error's text could quote a value;
/// - no fetched results controller: its request is compared as text.
/// The file is read by reflection, every string wherever it sits, so a verb added later
/// cannot hide a use of a value from the count.
struct InterchangeableValues: Sendable {
  /// Each value's slot, from 0.
  let slots: [String: Int]

  /// A scenario with no interchangeable values: every value is itself.
  static let none = InterchangeableValues(slots: [:])

  /// These values, whatever the scenario does with them: for tests that show why the
  /// conditions above are needed.
  init(slots: [String: Int]) {
    self.slots = slots
  }

  var isEmpty: Bool { slots.isEmpty }

  /// The values a search under `options` may swap: none when runs keep their end states
  /// (grading), since two end states with the values swapped are then two outcomes.
  static func of(_ scenario: Scenario, under options: SimulationOptions) -> Self {
    options.capturesEndState ? .none : scenario.interchangeable
  }

  /// The values in the order the file writes them.
  var values: [String] { slots.sorted { $0.value < $1.value }.map(\.key) }

  init(_ scenario: Scenario) {
    var candidates: [String] = []
    Self.collectElements(of: scenario.main, repeating: false, into: &candidates)
    guard candidates.count > 1 else {
      slots = [:]
      return
    }
    var scan = Scan()
    for part: Any in [
      scenario.main, scenario.entities, scenario.storeRows, scenario.contexts, scenario.queues,
      scenario.vars.map { [$0.name: $0.value] }, scenario.expectation as Any,
      scenario.injections,
    ] {
      scan.visit(part)
    }
    guard !scan.ordersOrCatches else {
      slots = [:]
      return
    }
    let once = candidates.filter { scan.counts[$0] == 1 }
    let numbered = once.enumerated().map { ($1, $0) }
    slots = once.count > 1 ? Dictionary(uniqueKeysWithValues: numbered) : [:]
  }

  /// The string elements of task groups and loops that run at most once.
  private static func collectElements(
    of steps: [Step], repeating: Bool, into candidates: inout [String]
  ) {
    for step in steps {
      switch step.action {
      case .taskGroup(let sequence, _, _, _), .forEach(let sequence, _, _):
        if !repeating { candidates += strings(in: sequence) }
        collectElements(of: step.body, repeating: true, into: &candidates)
      case .observe, .fetchedResultsController:
        collectElements(of: step.body, repeating: true, into: &candidates)
      case .async, .whenIdle, .sync, .perform, .performAndWait, .task, .performAwait, .letValue,
        .insert,
        .fetch, .count, .get, .set, .save, .objectID, .newContext, .insertObject, .delete, .refresh,
        .reset, .refreshAllObjects, .obtainPermanentIDs, .rollback, .batchUpdate, .batchDelete,
        .batchInsert, .mergeRemoteChanges, .existingObject, .object, .contextProperty,
        .setContextProperty, .objectState, .removeObserver, .mergeChanges, .notificationProperty,
        .performFetch, .controllerProperty, .fetchHistory, .transactionProperty, .read, .write,
        .print, .expect, .notModelled:
        collectElements(of: step.body, repeating: repeating, into: &candidates)
      }
    }
  }

  private static func strings(in sequence: Expression) -> [String] {
    switch sequence {
    case .literal(.list(let items)):
      items.compactMap { if case .string(let s) = $0 { s } else { nil } }
    case .list(let items):
      items.compactMap { if case .literal(.string(let s)) = $0 { s } else { nil } }
    default: []
    }
  }

  /// Every string a scenario holds, counted, and whether anything orders or catches.
  private struct Scan {
    var counts: [String: Int] = [:]
    var ordersOrCatches = false

    mutating func visit(_ subject: Any) {
      if let s = subject as? String {
        counts[s, default: 0] += 1
        return
      }
      if let op = subject as? ComparisonOperator, op.isOrdering { ordersOrCatches = true }
      if subject is SortDescriptor { ordersOrCatches = true }
      if let step = subject as? Step {
        if step.handler != nil { ordersOrCatches = true }
        if case .fetchedResultsController = step.action { ordersOrCatches = true }
      }
      for child in Mirror(reflecting: subject).children { visit(child.value) }
    }
  }
}
