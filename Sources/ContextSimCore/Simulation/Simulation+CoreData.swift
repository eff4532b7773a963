/// Core Data steps, each checked against the queue rule before it touches anything.
extension Simulation {
  /// `NSEntityDescription.insertNewObject(forEntityName:into:)`, then the values given.
  mutating func runInsert(
    entity: String, context: String, values: [(key: String, value: Expression)], bind: String?
  ) {
    let c = contextIndex(context)
    checkQueue(
      c, method: "+[NSEntityDescription insertNewObjectForEntityForName:inManagedObjectContext:]")
    let ref = graph.insert(
      entity, into: c, values: scenario.entity(named: entity)?.initialValues ?? [:])
    noteChange(.inserted, of: ref)
    record(.inserted(graph[ref].id, context: graph.contexts[c].name))
    bind.map { program.scopes[scope, $0] = .object(ref) }
    for (key, expression) in values {
      assign(evaluate(expression), to: key, of: ref, recorded: false)
    }
  }

  /// `context.insert(object)` of an object that exists: in another context it throws.
  mutating func runInsertObject(variable: String, context: String) {
    let c = contextIndex(context)
    checkQueue(c, method: "-[NSManagedObjectContext insertObject:]")
    guard let ref = objectIn(variable) else { return }
    if graph[ref].context != c && graph[ref].hasContext {
      report(
        .uncaughtException(
          .objectInAnotherContext,
          Exception(
            name: "NSInvalidArgumentException",
            reason:
              "An NSManagedObject may only be in (or observed by) a single NSManagedObjectContext."
          )))
    }
  }

  /// `context.fetch(request)`, or its first object.
  mutating func runFetch(
    _ request: FetchRequest, context: String, first: Bool, bind: String?, `try` mode: TryMode
  ) {
    let c = contextIndex(context)
    checkQueue(c, method: "-[NSManagedObjectContext executeFetchRequest:error:]")
    if let error = injectedError() {
      fail(error, call: "\(context).fetch(_:)", mode: mode)
      bind.map { program.scopes[scope, $0] = .null }
      return
    }
    var found = fetch(request, in: c, where: evaluate(request.predicate))
    if first { found = Array(found.prefix(1)) }
    if options.recordsEvents {
      record(
        .fetched(
          entity: request.entity, context: graph.contexts[c].name,
          objects: found.map { graph[$0].id }))
    }
    let result: Value =
      first ? found.first.map { .object($0) } ?? .null : .list(found.map { .object($0) })
    bind.map { program.scopes[scope, $0] = result }
  }

  /// `context.count(for: request)`.
  mutating func runCount(
    _ request: FetchRequest, context: String, bind: String?, `try` mode: TryMode
  ) {
    let c = contextIndex(context)
    checkQueue(c, method: "-[NSManagedObjectContext countForFetchRequest:error:]")
    if let error = injectedError() {
      fail(error, call: "\(context).count(for:)", mode: mode)
      bind.map { program.scopes[scope, $0] = .null }
      return
    }
    let n = matchingIDs(request.entity, in: c, where: evaluate(request.predicate)).count
    record(.counted(entity: request.entity, context: graph.contexts[c].name, count: n))
    bind.map { program.scopes[scope, $0] = .integer(n) }
  }

  /// `object.value(forKey:)`: fires a fault, through the parents when it must.
  mutating func runGet(variable: String, key: String, bind: String?) {
    guard let ref = objectIn(variable) else {
      bind.map { program.scopes[scope, $0] = .null }
      return
    }
    checkObject(ref, method: "-[NSManagedObject valueForKey:]")
    guard hasKey(key, ref), fireFault(ref) else { return }
    let value = graph[ref].value(key)
    if options.recordsEvents { record(readEffect(key, of: ref, value: value)) }
    bind.map { program.scopes[scope, $0] = value }
  }

  /// `object.setValue(_:forKey:)`.
  mutating func runSet(variable: String, key: String, value expression: Expression) {
    guard let ref = objectIn(variable) else { return }
    checkObject(ref, method: "-[NSManagedObject setValue:forKey:]")
    guard hasKey(key, ref) else { return }
    assign(evaluate(expression), to: key, of: ref)
  }

  /// `context.delete(object)` on the object's own context, with its delete rules.
  mutating func runDelete(variable: String) {
    guard let ref = objectIn(variable) else { return }
    let c = graph[ref].context
    checkQueue(c, method: "-[NSManagedObjectContext deleteObject:]")
    let id = graph[ref].id
    let cascaded = delete(ref)
    record(.deleted(id, context: graph.contexts[c].name, cascaded: cascaded))
  }

  /// `context.save()`; a save that stopped for its will-save observers resumes here.
  mutating func runSave(context: String, `try` mode: TryMode, step: Step) {
    let c = contextIndex(context)
    // A save that stopped for its will-save observers goes on where it stopped.
    if runtime.threads[now.thread].postedWillSave == step.index {
      runtime.threads[now.thread].postedWillSave = nil
    } else {
      checkQueue(c, method: "-[NSManagedObjectContext save:]")
      if let error = injectedError() {
        return fail(error, call: "\(context).save()", mode: mode)
      }
      if announceSave(c, step: step) { return }
    }
    save(c, mode: mode, call: "\(context).save()")
  }

  /// `object.objectID`: safe from any thread (semantics §1.9), so only read, never checked.
  mutating func runObjectID(variable: String, bind: String) {
    // -[NSManagedObject objectID] has no assertion: safe from any thread (§1.9).
    guard let ref = objectIn(variable) else {
      program.scopes[scope, bind] = .null
      return
    }
    touch(.context(graph[ref].context), write: false)
    record(.objectID(graph[ref].id))
    program.scopes[scope, bind] = .objectID(graph[ref].id)
  }

  /// `context.refresh(object, mergeChanges:)` on the object's own context.
  mutating func runRefresh(variable: String, merge: Bool) {
    guard let ref = objectIn(variable) else { return }
    let c = graph[ref].context
    checkQueue(c, method: "-[NSManagedObjectContext refreshObject:mergeChanges:]")
    refresh(ref, merge: merge)
  }

  /// `context.reset()`.
  mutating func runReset(context: String) {
    let c = contextIndex(context)
    checkQueue(c, method: "-[NSManagedObjectContext reset]")
    reset(c)
  }

  /// `context.refreshAllObjects()`: `refresh` keeping changes, for every registered object.
  mutating func runRefreshAllObjects(context: String) {
    let c = contextIndex(context)
    checkQueue(c, method: "-[NSManagedObjectContext refreshAllObjects]")
    let objects = graph.registeredObjects(in: c)
    for ref in objects { refresh(ref, merge: true, recorded: false) }
    record(.refreshedAll(context: graph.contexts[c].name, objects: objects.map { graph[$0].id }))
  }

  /// `context.obtainPermanentIDs(for: Array(context.insertedObjects))`.
  mutating func runObtainPermanentIDs(context: String) {
    let c = contextIndex(context)
    checkQueue(c, method: "-[NSManagedObjectContext obtainPermanentIDsForObjects:error:]")
    var obtained: [ObjectID] = []
    for ref in graph.registeredObjects(in: c)
    where graph[ref].isInserted && graph[ref].id.isTemporary {
      let entity = graph[ref].entity
      graph.reassign(
        ref, to: ObjectID(entity: entity, kind: .permanent(store.takePrimaryKey(entity))))
      obtained.append(graph[ref].id)
    }
    record(.obtainedPermanentIDs(context: graph.contexts[c].name, ids: obtained))
  }

  /// `context.rollback()`.
  mutating func runRollback(context: String) {
    let c = contextIndex(context)
    checkQueue(c, method: "-[NSManagedObjectContext rollback]")
    rollback(c)
  }

  /// The object a variable holds; nil (and a line saying so) when it holds nil.
  mutating func objectIn(_ variable: String) -> ObjectReference? {
    guard case .object(let ref) = value(of: variable) else {
      record(.readNil(variable: variable))
      return nil
    }
    return ref
  }

  /// Sets an attribute, or a relationship with its inverse.
  private mutating func assign(
    _ value: Value, to key: String, of ref: ObjectReference, recorded: Bool = true
  ) {
    if let relationship = relationship(key, of: ref) {
      guard relate(ref, relationship, to: value) else { return }
    } else {
      setValue(value, for: key, of: ref)
    }
    if recorded && options.recordsEvents {
      record(
        .wrote(
          object: graph[ref].id, key: key, value: shown(value),
          context: graph.contexts[graph[ref].context].name))
    }
  }

  // MARK: The queue rule

  /// Checks an object's data access against its own context's queue.
  mutating func checkObject(_ ref: ObjectReference, method: String) {
    checkQueue(graph[ref].context, object: ref, method: method)
  }

  /// A key the entity lacks raises `NSUnknownKeyException` in the real app.
  private mutating func hasKey(_ key: String, _ ref: ObjectReference) -> Bool {
    let entity = graph[ref].entity
    guard let declared = scenario.entity(entity, hasKey: key) else { return false }
    if declared { return true }
    report(
      .uncaughtException(
        .unknownKey,
        Exception(
          name: "NSUnknownKeyException",
          reason: "[<NSManagedObject \(uri(graph[ref].id))> valueForUndefinedKey:]: "
            + "the entity \(entity) is not key value coding-compliant for the key \"\(key)\".")))
    return false
  }

  // MARK: Contexts

  /// `NSManagedObjectContext(concurrencyType:)` or `newBackgroundContext()`: setting one up
  /// is not checked (§1.9). A private context gets a serial queue of its own.
  mutating func makeContext(_ description: ContextDescription) {
    var name = description.name
    var n = 1
    while graph.contexts.contains(where: { $0.name == name })
      || runtime.queues.index(named: name) != nil
    {
      n += 1
      name = "\(description.name)#\(n)"
    }
    touch(.registry, write: true)
    var queue = Self.mainQueue
    if description.concurrencyType == .privateQueue {
      if runtime.queues.count >= options.maximumThreads, trace.stop == nil {
        trace.stop = .limit(.queues(options.maximumThreads))
      }
      queue = runtime.queues.add(named: name, isSerial: true)
    }
    var parent: Int?
    if case .context(let parentName) = description.parent { parent = contextIndex(parentName) }
    let made = graph.add(
      ManagedObjectContext(
        name: name, description: description, queue: queue, parent: parent, isRuntime: true))
    program.scopes[scope, description.name] = .context(made)
    record(
      .createdContext(
        name: name, queue: runtime.queues[queue].name,
        parent: parent.map { graph.contexts[$0].name }))
  }

  // MARK: Looking objects up

  /// `object(with:)` and `existingObject(with:)`.
  ///
  /// `object(with:)` never fails: for an ID it cannot find it hands back a fault that fails
  /// when fired. `existingObject(with:)` fetches the row now and throws 133000 without it.
  mutating func lookUp(
    _ idExpression: Expression, in context: String, bind: String?, existing: Bool, mode: TryMode
  ) {
    let c = contextIndex(context)
    let method =
      existing
      ? "-[NSManagedObjectContext existingObjectWithID:error:]"
      : "-[NSManagedObjectContext objectWithID:]"
    checkQueue(c, method: method)
    guard case .objectID(let id) = evaluate(idExpression) else {
      record(.readNil(variable: idExpression.variableName ?? "id"))
      bind.map { program.scopes[scope, $0] = .null }
      return
    }
    let wasRegistered = graph.registered(id, in: c) != nil
    if existing {
      let exists: Bool
      if let ref = graph.registered(id, in: c), !graph[ref].isFault {
        exists = !graph[ref].isDeleted
      } else {
        exists = row(id, seenFrom: graph.contexts[c].parent) != nil
      }
      guard exists else {
        fail(
          CoreDataError(code: 133_000, message: "Attempt to access an object not found in store."),
          call: "\(context).existingObject(with: \(id))", mode: mode)
        bind.map { program.scopes[scope, $0] = .null }
        return
      }
    }
    let ref = graph.object(for: id, in: c)
    if existing { fireFault(ref) }
    record(
      .lookedUp(id, context: graph.contexts[c].name, registered: wasRegistered, existing: existing))
    bind.map { program.scopes[scope, $0] = .object(ref) }
  }

  /// A thrown Core Data error, handled as the step's `try` says: by its `catch` body when it
  /// has one, which runs next on this thread with `error` bound; else reported.
  mutating func fail(_ error: CoreDataError, call: String, mode: TryMode) {
    record(.threw(error))
    if mode == .do, let handler = scenario.allSteps[now.index].handler {
      trace.handledErrors.append(HandledError(site: site, error: error, call: call))
      record(.caught(error))
      let frame = SimulatedThread.Frame(steps: handler, scope: scope, opener: now.index)
      program.scopes[frame.scope, "error"] = .string(error.description)
      runtime.threads[now.thread].frames.append(frame)
      return
    }
    switch mode {
    case .do: report(.caughtError(error, call: call))
    case .optional: report(.discardedError(error, call: call))
    case .force: report(.uncaughtError(error, call: call))
    }
  }
}

extension Expression {
  var variableName: String? {
    if case .variable(let name) = self { name } else { nil }
  }
}
