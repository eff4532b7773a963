/// Nested contexts: the requests a child context sends its parent.
///
/// A child's fetch, count, save, fault, lookup of an ID it does not hold, permanent-ID
/// request, reset and batch request all run on the parent's queue: Core Data's private
/// `_perform(parent, block)` is a `performAndWait` on the parent issued by the thread working
/// in the child, run inline only when that thread already holds the parent's queue, as the
/// main thread holds a main-queue parent (semantics-2 §1.1–§1.2). So a child's thread blocks
/// until its parent's queue is free, and a main thread waiting for a child whose block
/// saves into a main-queue parent deadlocks (§1.5). Grandchildren nest: the request climbs
/// one queue at a time. A parent never waits for a child (§1.3).
///
/// The context's own thread-safe accessors (`name`, `transactionAuthor`, and the setters)
/// take the same path onto the context itself: a `performAndWait` that never traps but
/// can block (§3.1).
extension Simulation {
  /// How far up the parent chain a request climbs.
  enum ParentReach {
    /// Only the parent answers: a save pushes one level; a lookup or reset registers there.
    case parent
    /// Every ancestor takes part: a fetch, a count, a batch request, permanent IDs.
    case root
    /// Up to the first ancestor holding the object's data: a fault fires from there.
    case holderOf(ObjectID)
    /// Not up at all: the context's own queue, for an accessor that wraps itself in
    /// `performAndWait`.
    case itself
  }

  /// Runs a step, first taking each ancestor's queue its request needs. Returns without
  /// running it when the thread must wait: the step runs again, as the body of that wait,
  /// once the queue is free.
  mutating func runRequestingParents(_ step: Step) {
    while scenario.features.waitsForContexts, let (context, isParent) = contextToAsk(for: step) {
      guard takeQueue(of: context, isParent: isParent, for: step) else { return }
    }
    execute(step)
  }

  /// The nearest context whose queue the step needs and the thread does not hold yet: an
  /// ancestor for a child's request, the step's own context for an accessor; nil when the
  /// step needs no queue or holds every one it needs.
  ///
  /// `isParent` tells a child's request to an ancestor from an accessor of the step's own
  /// context, which waits as `performAndWait` does.
  private func contextToAsk(for step: Step) -> (context: Int, isParent: Bool)? {
    guard let (c, reach) = parentRequest(of: step) else { return nil }
    let held = runtime.threads[now.thread].held
    if case .itself = reach { return held.contains(graph.contexts[c].queue) ? nil : (c, false) }
    guard graph.contexts[c].parent != nil else { return nil }
    // With the flag, a call off the child's own queue traps on entry, before any request.
    if options.concurrencyDebug && !held.contains(graph.contexts[c].queue) { return nil }
    var ancestor = graph.contexts[c].parent
    while let a = ancestor {
      if !held.contains(graph.contexts[a].queue) { return (a, true) }
      switch reach {
      case .parent, .itself: return nil
      case .root: break
      case .holderOf(let id):
        if let ref = graph.registered(id, in: a), !graph[ref].isFault { return nil }
      }
      ancestor = graph.contexts[a].parent
    }
    return nil
  }

  /// Takes an ancestor's queue for the step, as `performAndWait` does: at once when it is
  /// free (and then the step goes on in this same step), else in line behind its work.
  private mutating func takeQueue(of context: Int, isParent: Bool, for step: Step) -> Bool {
    let q = graph.contexts[context].queue
    var request = step
    request.condition = nil
    var body = SimulatedThread.Frame(
      steps: [request], scope: scope, acquired: q, opener: step.index)
    touch(.queue(q), write: true)
    runtime.queues.wait(now.thread, on: q)
    runtime.threads[now.thread].waiting = (q, body)
    let blocks = !runtime.queues.isTurn(of: now.thread, on: q)
    record(takingQueue(of: context, isParent: isParent, for: step, blocks: blocks))
    guard !blocks else { return false }
    // The request runs now, inside the frame that gives the queue back when it ends.
    body.next = 1
    enter(q, by: now.thread, body: body)
    return true
  }

  /// What taking a context's queue for a step looks like in the trace: a child's request asks
  /// up; a remote merge says which context it merges into; an accessor waits as
  /// `performAndWait` does.
  private func takingQueue(of c: Int, isParent: Bool, for step: Step, blocks: Bool) -> Effect {
    let (name, queue) = (graph.contexts[c].name, runtime.queues[graph.contexts[c].queue].name)
    if case .mergeRemoteChanges = step.action {
      return .mergesOnQueue(context: name, queue: queue, blocks: blocks)
    }
    if isParent {
      return .asksParent(parent: name, queue: queue, blocks: blocks)
    }
    return blocks ? .waits(queue: queue) : .entered(queue: queue, reentrant: false)
  }

  /// The context whose parent a step asks, and how far up the request goes; nil for a step
  /// that stays in its context (reading fired values, setting, inserting, deleting).
  private func parentRequest(of step: Step) -> (Int, ParentReach)? {
    switch step.action {
    case .fetch(_, let context, _, _, _), .count(_, let context, _, _),
      .obtainPermanentIDs(let context, _), .batchUpdate(_, let context, _, _, _),
      .batchDelete(_, let context, _, _), .batchInsert(_, let context, _, _, _),
      .fetchHistory(let context, _, _, _):
      return peekContext(context).map { ($0, .root) }
    case .mergeRemoteChanges(let changes, let into) where changes.isEvaluated && into.count == 1:
      // One context's merge within mergeChanges(fromRemoteContextSave:into:).
      return peekContext(into[0]).map { ($0, .itself) }
    case .save(let context, _):
      // A save with nothing to write returns before it sends anything.
      guard let c = peekContext(context), hasChanges(c) else { return nil }
      return (c, .parent)
    case .reset(let context):
      guard let c = peekContext(context), !graph.registeredObjects(in: c).isEmpty else {
        return nil
      }
      return (c, .parent)
    case .get(let variable, _, _):
      guard case .object(let ref)? = peek(variable), graph[ref].isFault,
        graph[ref].registration != .forgottenByReset
      else { return nil }
      return (graph[ref].context, .holderOf(graph[ref].id))
    case .existingObject(let id, let context, _, _):
      guard let c = peekContext(context), case .objectID(let id)? = peek(id) else { return nil }
      if let ref = graph.registered(id, in: c), !graph[ref].isFault { return nil }
      return (c, .holderOf(id))
    case .contextProperty(let context, let property, _) where property.getter == .blocking:
      return peekContext(context).map { ($0, .itself) }
    case .performFetch(let controller, _):
      // `performAndWait` on the controller's context, then a fetch there.
      guard case .controller(let k)? = peek(controller) else { return nil }
      let c = changes.controllers[k].context
      return runtime.threads[now.thread].held.contains(graph.contexts[c].queue)
        ? (c, .root) : (c, .itself)
    case .setContextProperty(let context, _, _):
      return peekContext(context).map { ($0, .itself) }
    case .object(let id, let context, _):
      guard let c = peekContext(context), case .objectID(let id)? = peek(id),
        graph.registered(id, in: c) == nil
      else { return nil }
      return (c, .parent)
    case .async, .whenIdle, .sync, .perform, .performAndWait, .task, .performAwait, .taskGroup,
      .letValue,
      .insert, .set, .objectID, .newContext, .insertObject, .delete, .refresh, .refreshAllObjects,
      .rollback, .mergeRemoteChanges, .contextProperty, .objectState, .observe, .removeObserver,
      .mergeChanges, .notificationProperty, .fetchedResultsController, .controllerProperty,
      .transactionProperty, .read, .write, .forEach, .print, .expect, .notModelled:
      return nil
    }
  }

  /// A variable's value without reading it as the app does: deciding where a step runs is
  /// not an access the race checker should see.
  private func peek(_ name: String) -> Value? {
    program.scopes[scope, name] ?? program.sharedVars[name]
  }

  private func peek(_ expression: Expression) -> Value? {
    switch expression {
    case .literal(let value): value
    case .variable(let name): peek(name)
    case .list: nil
    }
  }

  private func peekContext(_ name: String) -> Int? {
    if case .context(let index)? = program.scopes[scope, name] { return index }
    return graph.declaredContext(named: name)
  }
}
