/// Core Data steps, each checked against the queue rule before it touches anything.
extension Simulation {
  mutating func executeData(_ step: Step) {
    switch step.action {
    case .insert(let entity, let context, let values, let bind):
      let c = contextIndex(context)
      checkQueue(
        c, .context(contexts[c].name),
        method: "+[NSEntityDescription insertNewObjectForEntityForName:inManagedObjectContext:]")
      var object = ManagedObject(
        id: ObjectID(entity: entity, kind: .temporary(nextTemporaryID)), entity: entity, context: c,
        isFault: false, isInserted: true)
      nextTemporaryID += 1
      object.snapshot = scenario.entity(named: entity)?.defaultValues ?? [:]
      let ref = register(object)
      record(.inserted(object.id, context: contexts[c].name))
      bind.map { scope.values[$0] = .object(ref) }
      for (key, expression) in values {
        assign(evaluate(expression), to: key, of: ref, recorded: false)
      }

    case .insertObject(let variable, let context):
      let c = contextIndex(context)
      checkQueue(c, .context(contexts[c].name), method: "-[NSManagedObjectContext insertObject:]")
      guard let ref = objectIn(variable) else { return }
      if objects[ref.index].context != c && !objects[ref.index].isDetached {
        report(
          .uncaughtException(
            .objectInAnotherContext,
            Exception(
              name: "NSInvalidArgumentException",
              reason:
                "An NSManagedObject may only be in (or observed by) a single NSManagedObjectContext."
            )))
      }

    case .fetch(let entity, let context, let predicate, let first, let bind, let mode):
      let c = contextIndex(context)
      checkQueue(
        c, .context(contexts[c].name),
        method: "-[NSManagedObjectContext executeFetchRequest:error:]")
      if let error = injectedError() {
        fail(error, call: "\(context).fetch(_:)", mode: mode)
        bind.map { scope.values[$0] = .null }
        return
      }
      var found = fetch(entity, in: c, where: evaluate(predicate))
      if first { found = Array(found.prefix(1)) }
      record(
        .fetched(
          entity: entity, context: contexts[c].name, objects: found.map { objects[$0.index].id }))
      let result: Value =
        first ? found.first.map { .object($0) } ?? .null : .list(found.map { .object($0) })
      bind.map { scope.values[$0] = result }

    case .count(let entity, let context, let predicate, let bind, let mode):
      let c = contextIndex(context)
      checkQueue(
        c, .context(contexts[c].name),
        method: "-[NSManagedObjectContext countForFetchRequest:error:]")
      if let error = injectedError() {
        fail(error, call: "\(context).count(for:)", mode: mode)
        bind.map { scope.values[$0] = .null }
        return
      }
      let n = matchingIDs(entity, in: c, where: evaluate(predicate)).count
      record(.counted(entity: entity, context: contexts[c].name, count: n))
      bind.map { scope.values[$0] = .integer(n) }

    case .get(let variable, let key, let bind):
      guard let ref = objectIn(variable) else {
        bind.map { scope.values[$0] = .null }
        return
      }
      checkObject(ref, method: "-[NSManagedObject valueForKey:]")
      guard hasKey(key, ref), fireFault(ref) else { return }
      let value = objects[ref.index].value(key)
      record(
        .read(
          object: objects[ref.index].id, key: key, value: shown(value),
          context: contexts[objects[ref.index].context].name))
      bind.map { scope.values[$0] = value }

    case .set(let variable, let key, let expression):
      guard let ref = objectIn(variable) else { return }
      checkObject(ref, method: "-[NSManagedObject setValue:forKey:]")
      guard hasKey(key, ref) else { return }
      assign(evaluate(expression), to: key, of: ref)

    case .delete(let variable):
      guard let ref = objectIn(variable) else { return }
      let c = objects[ref.index].context
      checkQueue(c, .context(contexts[c].name), method: "-[NSManagedObjectContext deleteObject:]")
      let id = objects[ref.index].id
      let cascaded = delete(ref)
      record(.deleted(id, context: contexts[c].name, cascaded: cascaded))

    case .save(let context, let mode):
      let c = contextIndex(context)
      checkQueue(c, .context(contexts[c].name), method: "-[NSManagedObjectContext save:]")
      if let error = injectedError() { return fail(error, call: "\(context).save()", mode: mode) }
      save(c, mode: mode, call: "\(context).save()")

    case .objectID(let variable, let bind):
      // -[NSManagedObject objectID] has no assertion: safe from any thread (§1.9).
      guard let ref = objectIn(variable) else {
        scope.values[bind] = .null
        return
      }
      touch(.context(objects[ref.index].context), write: false)
      record(.objectID(objects[ref.index].id))
      scope.values[bind] = .objectID(objects[ref.index].id)

    case .object(let id, let context, let bind):
      lookUp(id, in: context, bind: bind, existing: false, mode: .do)

    case .existingObject(let id, let context, let bind, let mode):
      lookUp(id, in: context, bind: bind, existing: true, mode: mode)

    case .newContext(let description, _):
      makeContext(description)

    case .refresh(let variable, let merge):
      guard let ref = objectIn(variable) else { return }
      let c = objects[ref.index].context
      checkQueue(
        c, .context(contexts[c].name),
        method: "-[NSManagedObjectContext refreshObject:mergeChanges:]")
      refresh(ref, merge: merge)

    case .reset(let context):
      let c = contextIndex(context)
      checkQueue(c, .context(contexts[c].name), method: "-[NSManagedObjectContext reset]")
      reset(c)

    case .obtainPermanentIDs(let context, _):
      let c = contextIndex(context)
      checkQueue(
        c, .context(contexts[c].name),
        method: "-[NSManagedObjectContext obtainPermanentIDsForObjects:error:]")
      var obtained: [ObjectID] = []
      for ref in contexts[c].registered
      where objects[ref.index].isInserted && objects[ref.index].id.isTemporary {
        let entity = objects[ref.index].entity
        reassign(ref, to: ObjectID(entity: entity, kind: .permanent(store.takePrimaryKey(entity))))
        obtained.append(objects[ref.index].id)
      }
      record(.obtainedPermanentIDs(context: contexts[c].name, ids: obtained))

    case .rollback(let context):
      let c = contextIndex(context)
      checkQueue(c, .context(contexts[c].name), method: "-[NSManagedObjectContext rollback]")
      rollback(c)

    case .batchUpdate(let entity, let context, let predicate, let values, let mergeInto):
      let c = contextIndex(context)
      checkQueue(
        c, .context(contexts[c].name), method: "-[NSManagedObjectContext executeRequest:error:]")
      batchUpdate(
        entity, where: evaluate(predicate), set: evaluate(values),
        mergeInto: mergeInto.map { contextIndex($0) })

    default:
      executeSwift(step)
    }
  }

  /// The object a variable holds; nil (and a line saying so) when it holds nil.
  mutating func objectIn(_ variable: String) -> ObjectReference? {
    guard case .object(let ref) = evaluate(.variable(variable)) else {
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
    if recorded {
      record(
        .wrote(
          object: objects[ref.index].id, key: key, value: shown(value),
          context: contexts[objects[ref.index].context].name))
    }
  }

  // MARK: The queue rule

  /// Checks an object's data access against its own context's queue.
  mutating func checkObject(_ ref: ObjectReference, method: String) {
    let object = objects[ref.index]
    let name = contexts[object.context].name
    checkQueue(object.context, .object(object.id, context: name), method: method)
  }

  /// A key the entity lacks raises `NSUnknownKeyException` in the real app.
  private mutating func hasKey(_ key: String, _ ref: ObjectReference) -> Bool {
    let entity = objects[ref.index].entity
    guard let description = scenario.entity(named: entity) else { return false }
    if description.attribute(named: key) != nil || description.relationship(named: key) != nil {
      return true
    }
    report(
      .uncaughtException(
        .unknownKey,
        Exception(
          name: "NSUnknownKeyException",
          reason: "[<NSManagedObject \(uri(objects[ref.index].id))> valueForUndefinedKey:]: "
            + "the entity \(entity) is not key value coding-compliant for the key \"\(key)\".")))
    return false
  }

  // MARK: Contexts

  /// `NSManagedObjectContext(concurrencyType:)` or `newBackgroundContext()`: setting one up
  /// is not checked (§1.9). A private context gets a serial queue of its own.
  private mutating func makeContext(_ description: ContextDescription) {
    var name = description.name
    var n = 1
    while contexts.contains(where: { $0.name == name })
      || queues.index(named: name) != nil
    {
      n += 1
      name = "\(description.name)#\(n)"
    }
    touch(.registry, write: true)
    var queue = Self.mainQueue
    if description.concurrencyType == .privateQueue {
      if queues.count >= options.maximumThreads, trace.stop == nil {
        trace.stop = .limit(.queues(options.maximumThreads))
      }
      queue = queues.add(named: name, isSerial: true)
    }
    var parent: Int?
    if case .context(let parentName) = description.parent { parent = contextIndex(parentName) }
    contexts.append(
      ManagedObjectContext(
        name: name, description: description, queue: queue, parent: parent, isRuntime: true))
    scope.values[description.name] = .context(contexts.count - 1)
    record(
      .createdContext(
        name: name, queue: queues[queue].name, parent: parent.map { contexts[$0].name }))
  }

  // MARK: Looking objects up

  /// `object(with:)` and `existingObject(with:)`.
  ///
  /// `object(with:)` never fails: for an ID it cannot find it hands back a fault that fails
  /// when fired. `existingObject(with:)` fetches the row now and throws 133000 without it.
  private mutating func lookUp(
    _ idExpression: Expression, in context: String, bind: String?, existing: Bool, mode: TryMode
  ) {
    let c = contextIndex(context)
    let method =
      existing
      ? "-[NSManagedObjectContext existingObjectWithID:error:]"
      : "-[NSManagedObjectContext objectWithID:]"
    checkQueue(c, .context(contexts[c].name), method: method)
    guard case .objectID(let id) = evaluate(idExpression) else {
      record(.readNil(variable: idExpression.variableName ?? "id"))
      bind.map { scope.values[$0] = .null }
      return
    }
    let wasRegistered = registered(id, in: c) != nil
    if existing {
      let exists: Bool
      if let ref = registered(id, in: c), !objects[ref.index].isFault {
        exists = !objects[ref.index].isDeleted
      } else {
        exists = row(id, seenFrom: contexts[c].parent) != nil
      }
      guard exists else {
        fail(
          CoreDataError(code: 133_000, message: "Attempt to access an object not found in store."),
          call: "\(context).existingObject(with: \(id))", mode: mode)
        bind.map { scope.values[$0] = .null }
        return
      }
    }
    let ref = object(for: id, in: c)
    if existing { fireFault(ref) }
    record(.lookedUp(id, context: contexts[c].name, registered: wasRegistered, existing: existing))
    bind.map { scope.values[$0] = .object(ref) }
  }

  /// A thrown Core Data error, handled as the step's `try` says.
  mutating func fail(_ error: CoreDataError, call: String, mode: TryMode) {
    record(.threw(error))
    switch mode {
    case .do: report(.caughtError(error, call: call))
    case .optional: report(.discardedError(error, call: call))
    case .force: report(.uncaughtError(error, call: call))
    }
  }

  /// `NSBatchUpdateRequest`: writes straight to the store's rows, touching no context;
  /// contexts hear of it only through `mergeChanges(fromRemoteContextSave:into:)` (§7.6).
  private mutating func batchUpdate(
    _ entity: String, where predicate: [(String, Value)], set values: [(String, Value)],
    mergeInto receivers: [Int]
  ) {
    touch(.store, write: true)
    let wanted = predicate.map { ($0.0, idForm($0.1)) }
    let ids = store.ids(of: entity).filter { id in
      let row = store.row(id)?.values ?? [:]
      return wanted.allSatisfy { key, value in (row[key] ?? .null).matches(value) }
    }
    let written = Dictionary(
      values.map { ($0.0, idForm($0.1)) }, uniquingKeysWith: { _, new in new })
    for id in ids { store.replace(id, values: written) }
    record(.batchUpdated(entity: entity, count: ids.count))
    for r in receivers {
      merge(ChangeSet(source: "the batch update", updated: ids), into: r, automatic: false)
    }
  }
}

extension Expression {
  var variableName: String? {
    if case .variable(let name) = self { name } else { nil }
  }
}
