/// Core Data steps, each checked against the queue rule before it touches anything.
extension Simulation {
  func executeData(_ step: Step) {
    switch step.action {
    case .insert(let entity, let context, let values, let bind):
      let c = contextIndex(context)
      checkQueue(
        .context(context),
        method: "+[NSEntityDescription insertNewObjectForEntityForName:inManagedObjectContext:]")
      let ref = insert(entity, into: c)
      for (key, expression) in values {
        objects[ref.index].changes[key] = evaluate(expression)
      }
      record(.inserted(objects[ref.index].id, context: context))
      bind.map { scope.values[$0] = .object(ref) }

    case .fetch(let entity, let context, let predicate, let first, let bind, _):
      let c = contextIndex(context)
      checkQueue(.context(context), method: "-[NSManagedObjectContext executeFetchRequest:error:]")
      var found = fetch(entity, in: c, where: evaluate(predicate))
      if first { found = Array(found.prefix(1)) }
      record(
        .fetched(entity: entity, context: context, objects: found.map { objects[$0.index].id }))
      let result: Value =
        first ? found.first.map { .object($0) } ?? .null : .list(found.map { .object($0) })
      bind.map { scope.values[$0] = result }

    case .count(let entity, let context, let predicate, let bind, _):
      let c = contextIndex(context)
      checkQueue(.context(context), method: "-[NSManagedObjectContext countForFetchRequest:error:]")
      let n = fetch(entity, in: c, where: evaluate(predicate)).count
      record(.counted(entity: entity, context: context, count: n))
      bind.map { scope.values[$0] = .integer(n) }

    case .get(let variable, let key, let bind):
      guard case .object(let ref) = evaluate(.variable(variable)) else {
        record(.readNil(variable: variable))
        bind.map { scope.values[$0] = .null }
        return
      }
      checkObject(ref, method: "-[NSManagedObject valueForKey:]")
      guard hasKey(key, ref) else { return }
      fireFault(ref)
      let value = objects[ref.index].value(key)
      record(.read(object: objects[ref.index].id, key: key, value: value))
      bind.map { scope.values[$0] = value }

    case .set(let variable, let key, let expression):
      guard case .object(let ref) = evaluate(.variable(variable)) else {
        record(.readNil(variable: variable))
        return
      }
      checkObject(ref, method: "-[NSManagedObject setValue:forKey:]")
      guard hasKey(key, ref) else { return }
      fireFault(ref)
      let value = evaluate(expression)
      objects[ref.index].changes[key] = value
      record(.wrote(object: objects[ref.index].id, key: key, value: value))

    case .save(let context, let mode):
      let c = contextIndex(context)
      checkQueue(.context(context), method: "-[NSManagedObjectContext save:]")
      if let error = validate(c) {
        fail(error, call: "\(context).save()", mode: mode)
      } else {
        save(c)
      }

    case .objectID(let variable, let bind):
      // -[NSManagedObject objectID] has no assertion: safe from any thread.
      guard case .object(let ref) = evaluate(.variable(variable)) else {
        record(.readNil(variable: variable))
        scope.values[bind] = .null
        return
      }
      record(.objectID(objects[ref.index].id))
      scope.values[bind] = .objectID(objects[ref.index].id)

    case .object(let id, let context, let bind):
      lookUp(id, in: context, bind: bind, existing: false, mode: .do)

    case .existingObject(let id, let context, let bind, let mode):
      lookUp(id, in: context, bind: bind, existing: true, mode: mode)

    default:
      executeSwift(step)
    }
  }

  // MARK: The queue rule

  /// Checks that the current thread may touch the context; records a trap if not.
  ///
  /// The rule (semantics §1.2, §12 l): a context is usable on a thread that is running its
  /// queue, either as the queue's block or inside `performAndWait`/`sync` onto it.
  func checkQueue(_ subject: Violation.WrongQueue.Subject, method: String) {
    guard options.concurrencyDebug, !trappedThisStep else { return }
    let context = contexts[contextIndex(subject.context)]
    let thread = threads[current]
    guard !thread.held.contains(context.queue) else { return }
    trappedThisStep = true
    record(.trapped)
    report(
      .wrongQueue(
        Violation.WrongQueue(
          subject: subject, ownerQueue: queues[context.queue].name,
          touchingQueue: queues[thread.held.last ?? 0].name, method: method)))
  }

  /// Checks an object's data access against its own context's queue.
  func checkObject(_ ref: ObjectReference, method: String) {
    let object = objects[ref.index]
    checkQueue(.object(object.id, context: contexts[object.context].name), method: method)
  }

  /// A key the entity lacks raises `NSUnknownKeyException` in the real app.
  private func hasKey(_ key: String, _ ref: ObjectReference) -> Bool {
    let entity = objects[ref.index].entity
    if scenario.entity(named: entity)?.attribute(named: key) != nil { return true }
    report(.unknownKey(entity: entity, key: key))
    return false
  }

  // MARK: Objects and the store

  /// The instance registered for an ID in a context, if there is one.
  func registered(_ id: ObjectID, in c: Int) -> ObjectReference? {
    contexts[c].registered.first { objects[$0.index].id == id }
  }

  private func register(_ object: ManagedObject) -> ObjectReference {
    let ref = ObjectReference(index: objects.count)
    objects.append(object)
    contexts[object.context].registered.append(ref)
    return ref
  }

  private func insert(_ entity: String, into c: Int) -> ObjectReference {
    let id = ObjectID(entity: entity, kind: .temporary(nextTemporaryID))
    nextTemporaryID += 1
    var object = ManagedObject(id: id, entity: entity, context: c, isFault: false, isInserted: true)
    object.snapshot = scenario.entity(named: entity)?.defaultValues ?? [:]
    return register(object)
  }

  /// Loads a fault's values from the store. A row that is gone is an inaccessible fault.
  func fireFault(_ ref: ObjectReference) {
    guard objects[ref.index].isFault else { return }
    objects[ref.index].isFault = false
    let object = objects[ref.index]
    if let row = store.row(object.id) {
      objects[ref.index].snapshot = row.values
      return
    }
    objects[ref.index].isDeleted = true
    let deletes = contexts[object.context].description.shouldDeleteInaccessibleFaults
    report(.faultOnDeletedObject(object: object.id, throwsException: !deletes))
  }

  /// A fetch in a root context: stored rows, seen through this context's unsaved changes,
  /// then the objects inserted here and not yet saved.
  func fetch(_ entity: String, in c: Int, where predicate: [(String, Value)]) -> [ObjectReference] {
    func matches(_ values: [String: Value]) -> Bool {
      predicate.allSatisfy { key, value in (values[key] ?? .null).matches(value) }
    }
    var found: [ObjectReference] = []
    for row in store.rows(of: entity) {
      if let ref = registered(row.id, in: c) {
        let object = objects[ref.index]
        guard !object.isDeleted else { continue }
        let values = object.isFault ? row.values : object.currentValues
        if matches(values) { found.append(ref) }
      } else if matches(row.values) {
        found.append(
          register(
            ManagedObject(id: row.id, entity: entity, context: c, isFault: true, isInserted: false))
        )
      }
    }
    for ref in contexts[c].registered {
      let object = objects[ref.index]
      if object.isInserted && object.entity == entity && matches(object.currentValues) {
        found.append(ref)
      }
    }
    return found
  }

  /// Validation before a save: a non-optional attribute without a value fails with 1570.
  ///
  /// A failed save writes nothing and leaves the context's changes in place.
  private func validate(_ c: Int) -> CoreDataError? {
    for ref in contexts[c].registered where objects[ref.index].hasChanges {
      let object = objects[ref.index]
      for attribute in scenario.entity(named: object.entity)?.attributes ?? []
      where !attribute.isOptional && object.value(attribute.name) == .null {
        return CoreDataError(code: 1570, message: "\(attribute.name) is a required value.")
      }
    }
    return nil
  }

  /// `save()` on a root context: inserted objects get rows and permanent IDs, changed
  /// objects write their changes and bump the row version.
  private func save(_ c: Int) {
    var inserted: [ObjectID] = []
    var updated: [ObjectID] = []
    for ref in contexts[c].registered where objects[ref.index].hasChanges {
      let object = objects[ref.index]
      if object.isInserted {
        let id = store.insert(entity: object.entity, values: object.currentValues)
        objects[ref.index].id = id
        objects[ref.index].isInserted = false
        inserted.append(id)
      } else {
        store.update(object.id, values: object.changes)
        updated.append(object.id)
      }
      objects[ref.index].snapshot = object.currentValues
      objects[ref.index].changes = [:]
    }
    if inserted.isEmpty && updated.isEmpty {
      record(.savedNothing(context: contexts[c].name))
    } else {
      record(.saved(context: contexts[c].name, inserted: inserted, updated: updated))
    }
  }

  /// `object(with:)` and `existingObject(with:)`.
  ///
  /// `object(with:)` never fails: for an ID it cannot find it hands back a fault that fails
  /// when fired. `existingObject(with:)` fetches the row now and throws 133000 without it.
  private func lookUp(
    _ idExpression: Expression, in context: String, bind: String?, existing: Bool, mode: TryMode
  ) {
    let c = contextIndex(context)
    let method =
      existing
      ? "-[NSManagedObjectContext existingObjectWithID:error:]"
      : "-[NSManagedObjectContext objectWithID:]"
    checkQueue(.context(context), method: method)
    guard case .objectID(let id) = evaluate(idExpression) else {
      record(.readNil(variable: idExpression.variableName ?? "id"))
      bind.map { scope.values[$0] = .null }
      return
    }
    var ref = registered(id, in: c)
    let wasRegistered = ref != nil
    if existing {
      let exists =
        ref.map {
          !objects[$0.index].isDeleted && (objects[$0.index].isInserted || store.row(id) != nil)
        } ?? (store.row(id) != nil)
      guard exists else {
        fail(
          CoreDataError(code: 133_000, message: "Attempt to access an object not found in store."),
          call: "existingObject(with:)", mode: mode)
        bind.map { scope.values[$0] = .null }
        return
      }
    }
    if ref == nil {
      ref = register(
        ManagedObject(id: id, entity: id.entity, context: c, isFault: true, isInserted: false))
    }
    if existing { fireFault(ref!) }
    record(.lookedUp(id, context: context, registered: wasRegistered, existing: existing))
    bind.map { scope.values[$0] = .object(ref!) }
  }

  /// A thrown Core Data error, handled as the step's `try` says.
  func fail(_ error: CoreDataError, call: String, mode: TryMode) {
    record(.threw(error))
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
