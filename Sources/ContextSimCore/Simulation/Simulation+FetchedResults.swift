/// `NSFetchedResultsController` (semantics-2 §4).
///
/// `performFetch` runs `performAndWait` on the controller's context, so it never traps but
/// waits for that queue, and a child context's fetch then asks its parent (§4.1, §1.2).
/// With a delegate the controller tracks changes, and only its own context's: it listens
/// to that context's objects-did-change, posted from `processPendingChanges` on the
/// context's queue, takes the inserted, updated and deleted objects in, and then calls the
/// delegate, inline (§4.2, §4.3). A save in another context reaches it only once merged.
extension Simulation {
  /// One controller: its request, resolved at `performFetch`, and the objects it lists.
  struct FetchedResultsController {
    var name: String
    var context: Int
    var request: FetchRequest
    var predicate: Predicate<Value>?
    var objects: [ObjectReference] = []
  }

  mutating func makeController(
    _ name: String, request: FetchRequest, in context: String, delegate: [Step]?, step: Step
  ) {
    let c = contextIndex(context)
    let index = changes.controllers.count
    changes.controllers.append(FetchedResultsController(name: name, context: c, request: request))
    program.scopes[scope, name] = .controller(index)
    guard let delegate else { return }
    // Setting the delegate registers the controller for its context's changes.
    touch(.observers, write: true)
    _ = center.add(
      Observer(
        name: .objectsDidChange, object: c, queue: nil, bind: nil, body: delegate,
        scope: capture(scope), step: step.index, controller: index))
    record(.observing("controllerDidChangeContent", object: context, queue: nil))
  }

  mutating func performFetch(_ controller: String, mode: TryMode) {
    guard case .controller(let k) = value(of: controller) else { return }
    let c = changes.controllers[k].context
    touch(.context(c), write: false)
    if let error = injectedError() {
      return fail(error, call: "\(controller).performFetch()", mode: mode)
    }
    let request = changes.controllers[k].request
    let predicate = evaluate(request.predicate)
    changes.controllers[k].predicate = predicate
    changes.controllers[k].objects = fetch(request, in: c, where: predicate)
    record(
      .fetched(
        entity: request.entity, context: graph.contexts[c].name,
        objects: changes.controllers[k].objects.map { graph[$0].id }))
  }

  /// `fetchedObjects` and the row count: the controller's own array, read without a check.
  mutating func read(_ key: ControllerKey, of controller: String, bind: String?) {
    guard case .controller(let k) = value(of: controller) else { return }
    let objects = changes.controllers[k].objects
    let value: Value =
      key == .fetchedObjects ? .list(objects.map(Value.object)) : .integer(objects.count)
    let shown: Value =
      key == .fetchedObjects ? .list(objects.map { .objectID(graph[$0].id) }) : value
    record(.property(owner: controller, name: key.rawValue, value: shown, isSet: false))
    bind.map { program.scopes[scope, $0] = value }
  }

  /// Takes an objects-did-change in: new matching objects join, deleted ones leave, and
  /// changed ones are judged again; then the list is sorted. Before `performFetch` the
  /// controller has nothing to update.
  mutating func update(controller k: Int, with notification: PostedNotification) {
    guard let predicate = changes.controllers[k].predicate else { return }
    let request = changes.controllers[k].request
    var objects = changes.controllers[k].objects
    let deleted = Set(notification.deleted.compactMap(\.objectReference))
    objects.removeAll { deleted.contains($0) }
    for ref in (notification.inserted + notification.updated).compactMap(\.objectReference)
    where graph[ref].entity == request.entity {
      let matches = values(of: ref).map { predicate.matches($0) } ?? false
      if matches && !objects.contains(ref) { objects.append(ref) }
      if !matches { objects.removeAll { $0 == ref } }
    }
    if !request.sortDescriptors.isEmpty {
      let keyed = objects.map { (ref: $0, values: values(of: $0) ?? [:]) }
      objects = keyed.indices.sorted { i, j in
        for descriptor in request.sortDescriptors {
          let a = keyed[i].values[descriptor.key] ?? .null
          let b = keyed[j].values[descriptor.key] ?? .null
          if descriptor.orders(a, before: b) { return true }
          if descriptor.orders(b, before: a) { return false }
        }
        return i < j
      }.map { keyed[$0].ref }
    }
    changes.controllers[k].objects = objects
    record(.listed(controller: changes.controllers[k].name, objects: objects.map { graph[$0].id }))
  }

  /// An object's values in ID form, as a predicate sees them: its own once fired, else
  /// its row as its context's parent shows it.
  private mutating func values(of ref: ObjectReference) -> NamedValues? {
    if !graph[ref].isFault { return graph.idForm(graph[ref].currentValues) }
    return row(graph[ref].id, seenFrom: graph.contexts[graph[ref].context].parent)?.values
  }
}

extension Value {
  /// The object this value holds, if it holds one.
  var objectReference: ObjectReference? {
    if case .object(let ref) = self { ref } else { nil }
  }
}
