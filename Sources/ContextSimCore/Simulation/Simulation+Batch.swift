/// Batch requests, and `mergeChanges(fromRemoteContextSave:into:)`, which brings their results
/// into contexts (semantics §7.5–§7.6, part 2 §6).
///
/// A batch request is a checked call of the context that executes it; a child sends it up to
/// its parents as it sends a fetch. It then runs in the store alone: it loads no object,
/// runs no validation, posts no did-save, and the objects contexts hold stay as they were.
///
/// `mergeChanges(fromRemoteContextSave:into:)` is a class method that never traps. Core Data
/// orders the contexts roots first, then merges into each with `performAndWait` on it, one
/// after another (part 2 §6.3). So the calling thread takes each context's queue in turn,
/// waiting in its line when another thread has it, and gives it back before it asks for the
/// next: a background thread merging into `viewContext` waits for the main queue.
extension Simulation {
  /// `NSBatchUpdateRequest`, then the merge into the contexts listed.
  mutating func runBatchUpdate(
    entity: String, context: String, predicate: Predicate<Expression>,
    values: [(key: String, value: Expression)], mergeInto: [String], step: Step
  ) {
    guard executeRequest(in: context, call: nil, mode: .do, bind: nil) else { return }
    let ids = rows(of: entity, where: evaluate(predicate))
    let written = NamedValues(evaluate(values).map { ($0.0, graph.idForm($0.1)) })
    for id in ids { store.replace(id, values: written) }
    record(.batchUpdated(entity: entity, count: ids.count))
    if !ids.isEmpty { storeWrote(by: contextIndex(context), updated: ids) }
    if !mergeInto.isEmpty {
      mergeRemoteChanges(
        ChangeSet(source: "the batch update", updated: ids), into: mergeInto, from: step)
    }
  }

  /// `NSBatchDeleteRequest`: rows gone from the store, and those its cascade rules take.
  mutating func runBatchDelete(
    _ target: BatchDeleteTarget, context: String, bind: String?, `try` mode: TryMode
  ) {
    let call = "\(context).execute(NSBatchDeleteRequest)"
    guard executeRequest(in: context, call: call, mode: mode, bind: bind),
      let (entity, ids) = rowsToDelete(target)
    else { return }
    switch store.batchDelete(ids) {
    case .refused(let error):
      fail(error, call: call, mode: mode)
      bind.map { program.scopes[scope, $0] = .null }
    case .deleted(let deleted, let cascaded):
      record(.batchDeleted(entity: entity, ids: deleted, cascaded: cascaded))
      if !deleted.isEmpty { storeWrote(by: contextIndex(context), deleted: deleted + cascaded) }
      bind.map { program.scopes[scope, $0] = .list(deleted.map { .objectID($0) }) }
    }
  }

  /// `NSBatchInsertRequest`: new rows with permanent IDs, written in the store alone.
  mutating func runBatchInsert(
    entity: String, context: String, objects: [[(key: String, value: Expression)]], bind: String?,
    `try` mode: TryMode
  ) {
    let call = "\(context).execute(NSBatchInsertRequest)"
    guard executeRequest(in: context, call: call, mode: mode, bind: bind) else { return }
    let defaults = scenario.entity(named: entity)?.initialValues ?? [:]
    var ids: [ObjectID] = []
    for object in objects {
      let id = ObjectID(entity: entity, kind: .permanent(store.takePrimaryKey(entity)))
      let values = evaluate(object).map { ($0.0, graph.idForm($0.1)) }
      store.insert(id, values: defaults.merging(NamedValues(values)))
      ids.append(id)
    }
    record(.batchInserted(entity: entity, ids: ids))
    storeWrote(by: contextIndex(context), inserted: ids)
    bind.map { program.scopes[scope, $0] = .list(ids.map { .objectID($0) }) }
  }

  /// `mergeChanges(fromRemoteContextSave:into:)`: one context at a time, each on its queue.
  mutating func runMergeRemoteChanges(_ changes: RemoteChanges, into: [String], step: Step) {
    let source = step.verb == "batchUpdate" ? "the batch update" : "a remote context"
    let set = changeSet(changes, source: source)
    guard changes.isEvaluated, into.count == 1 else {
      return mergeRemoteChanges(set, into: into, from: step)
    }
    // One context, whose queue this thread now holds: the body of Core Data's
    // performAndWait on it.
    merge(set, into: contextIndex(into[0]), automatic: false)
  }

  /// `executeRequest:error:`, checked on the context, with an injected store error thrown as
  /// the call's error. Returns false when the request went no further.
  private mutating func executeRequest(
    in context: String, call: String?, mode: TryMode, bind: String?
  )
    -> Bool
  {
    let c = contextIndex(context)
    checkQueue(
      c, method: "-[NSManagedObjectContext executeRequest:error:]"
    )
    touch(.store, write: true)
    guard let call, let error = injectedError() else { return true }
    fail(error, call: call, mode: mode)
    bind.map { program.scopes[scope, $0] = .null }
    return false
  }

  /// The store's rows of an entity that a predicate matches, unsaved changes unseen: a batch
  /// request's fetch does not include pending changes.
  private func rows(of entity: String, where predicate: Predicate<Value>) -> [ObjectID] {
    store.ids(of: entity).filter { predicate.matches(store.row($0)?.values ?? [:]) }
  }

  /// The entity and rows a batch delete names. `init(objectIDs:)` raises
  /// `NSInvalidArgumentException` for no IDs, or for IDs of two entities, before the request
  /// runs; IDs without a row delete nothing.
  private mutating func rowsToDelete(_ target: BatchDeleteTarget) -> (String, [ObjectID])? {
    switch target {
    case .request(let entity, let predicate):
      return (entity, rows(of: entity, where: evaluate(predicate)))
    case .objectIDs(let expression):
      let ids = objectIDs(in: evaluate(expression))
      let reason =
        ids.isEmpty
        ? "Must supply a non-zero number of objectIDs to request during initialization"
        : Set(ids.map(\.entity)).count > 1
          ? "mismatched objectIDs in batch delete initializer" : nil
      if let reason {
        report(
          .uncaughtException(
            .invalidRequest, Exception(name: "NSInvalidArgumentException", reason: reason)))
        return nil
      }
      return (ids[0].entity, ids.filter { store.row($0) != nil })
    }
  }

  /// The dictionary's lists, read on the calling thread.
  private mutating func changeSet(_ changes: RemoteChanges, source: String) -> ChangeSet {
    var set = ChangeSet(source: source)
    for (key, _, ids) in changes.entries {
      let found = objectIDs(in: evaluate(ids))
      switch key {
      case "inserted": set.inserted = found
      case "updated": set.updated = found
      default: set.deleted = found
      }
    }
    return set
  }

  /// The object IDs a value holds: one, or a list; objects count by their IDs.
  func objectIDs(in value: Value) -> [ObjectID] {
    switch value {
    case .objectID(let id): [id]
    case .object(let ref): [graph[ref].id]
    case .list(let items): items.flatMap { objectIDs(in: $0) }
    default: []
    }
  }

  // MARK: mergeChanges(fromRemoteContextSave:into:)

  /// Starts the merge: one call per context, roots before children, each taking that
  /// context's queue as `performAndWait` does before it merges.
  ///
  /// Only the IDs travel on: each call names its source again, from the verb it was written
  /// with. The calls run as a frame of their own. A request that took its parents' queues (a
  /// child's batch update) gives them back first, as the request returns before the merge
  /// begins: the calls then start at the thread's next step. Otherwise the first starts now.
  private mutating func mergeRemoteChanges(
    _ changes: ChangeSet, into names: [String], from step: Step
  ) {
    var depths: [Int] = []
    for name in names {
      var (c, n) = (graph.contexts[contextIndex(name)].parent, 0)
      while let parent = c { (c, n) = (graph.contexts[parent].parent, n + 1) }
      depths.append(n)
    }
    let ordered = names.enumerated().sorted { (depths[$0.0], $0.0) < (depths[$1.0], $1.0) }
    let list = { (ids: [ObjectID]) in Expression.literal(.list(ids.map { .objectID($0) })) }
    let evaluated = RemoteChanges(
      inserted: list(changes.inserted), updated: list(changes.updated),
      deleted: list(changes.deleted))
    let calls = ordered.map { _, name in
      var call = step
      call.condition = nil
      call.action = .mergeRemoteChanges(evaluated, into: [name])
      return call
    }
    var frames = runtime.threads[now.thread].frames
    var at = frames.count
    while at > 0, frames[at - 1].acquired != nil, frames[at - 1].opener == step.index,
      frames[at - 1].steps.map(\.index) == [step.index]
    {
      at -= 1
    }
    var frame = SimulatedThread.Frame(steps: calls, scope: scope, opener: step.index)
    guard at == frames.count else {
      frames.insert(frame, at: at)
      runtime.threads[now.thread].frames = frames
      return
    }
    frame.next = 1
    runtime.threads[now.thread].frames.append(frame)
    runRequestingParents(calls[0])
  }
}
