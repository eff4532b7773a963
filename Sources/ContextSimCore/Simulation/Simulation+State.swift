/// Reading and setting a context's properties and an object's state, each guarded as Core
/// Data guards it (semantics-2 §3.1): checked accessors trap off the queue, plain reads
/// never do, and the thread-safe ones have already taken the context's queue, as the
/// `performAndWait` they wrap themselves in does (see `runRequestingParents`).
extension Simulation {
  /// A context's property read: checked, unchecked or blocking, as Core Data makes it.
  mutating func runContextProperty(context: String, property: ContextProperty, bind: String?) {
    let c = contextIndex(context)
    if property.getter == .checked {
      checkQueue(c, method: property.method)
    } else {
      touch(.context(c), write: false)
    }
    let value = read(property, of: c)
    record(
      .property(
        owner: graph.contexts[c].name, name: property.rawValue, value: shownState(value),
        isSet: false))
    bind.map { program.scopes[scope, $0] = value }
  }

  /// A context's property set, inside the `performAndWait` Core Data wraps it in.
  mutating func runSetContextProperty(context: String, property: ContextProperty, value: Value) {
    let c = contextIndex(context)
    touch(.context(c), write: true)
    set(property, of: c, to: value)
    record(
      .property(owner: graph.contexts[c].name, name: property.rawValue, value: value, isSet: true)
    )
  }

  /// An object's state (`isInserted`, `hasChanges`, …): checked or not, as Core Data makes it.
  mutating func runObjectState(variable: String, property: ObjectStateProperty, bind: String?) {
    guard let ref = objectIn(variable) else {
      bind.map { program.scopes[scope, $0] = .null }
      return
    }
    if property.getter == .checked {
      checkObject(ref, method: "-[NSManagedObject \(property.rawValue)]")
    } else {
      touch(.context(graph[ref].context), write: false)
    }
    let value = state(property, of: ref)
    record(
      .property(
        owner: graph[ref].id.description, name: property.rawValue, value: shownState(value),
        isSet: false))
    bind.map { program.scopes[scope, $0] = value }
  }

  private func read(_ property: ContextProperty, of c: Int) -> Value {
    let context = graph.contexts[c]
    func objects(_ refs: [ObjectReference]) -> Value { .list(refs.map(Value.object)) }
    switch property {
    case .hasChanges: return .bool(hasChanges(c))
    case .insertedObjects: return objects(pendingChanges(in: c).inserted)
    case .updatedObjects: return objects(pendingChanges(in: c).updated)
    case .deletedObjects: return objects(pendingChanges(in: c).deleted)
    case .registeredObjects: return objects(graph.registeredObjects(in: c))
    case .mergePolicy: return .string(context.description.mergePolicy.rawValue)
    case .shouldDeleteInaccessibleFaults:
      return .bool(context.description.shouldDeleteInaccessibleFaults)
    case .parent: return context.parent.map { .context($0) } ?? .null
    case .persistentStoreCoordinator:
      return context.parent == nil ? .string("coordinator") : .null
    case .concurrencyType:
      return .string(
        context.description.concurrencyType == .mainQueue
          ? "mainQueueConcurrencyType" : "privateQueueConcurrencyType")
    case .automaticallyMergesChangesFromParent:
      return .bool(context.description.automaticallyMergesChangesFromParent)
    case .name: return context.description.nameProperty.map(Value.string) ?? .null
    case .transactionAuthor:
      return context.description.transactionAuthor.map(Value.string) ?? .null
    case .undoManager:
      return context.description.hasUndoManager ? .string("UndoManager") : .null
    }
  }

  private mutating func set(_ property: ContextProperty, of c: Int, to value: Value) {
    var text: String?
    if case .string(let s) = value { text = s }
    graph.changeOptions(of: c) { options in
      switch (property, value) {
      case (.mergePolicy, .string(let name)):
        options.mergePolicy = MergePolicy(rawValue: name) ?? options.mergePolicy
      case (.automaticallyMergesChangesFromParent, .bool(let flag)):
        options.automaticallyMergesChangesFromParent = flag
      case (.shouldDeleteInaccessibleFaults, .bool(let flag)):
        options.shouldDeleteInaccessibleFaults = flag
      case (.name, _): options.nameProperty = text
      case (.transactionAuthor, _): options.transactionAuthor = text
      case (.undoManager, _): options.hasUndoManager = value != .null
      default: break
      }
    }
  }

  /// An object's state flags. A reset or deleted-and-saved object has no context (§3.1).
  private func state(_ property: ObjectStateProperty, of ref: ObjectReference) -> Value {
    let object = graph[ref]
    switch property {
    case .isInserted: return .bool(object.isInserted && !object.isDeleted)
    case .isUpdated:
      return .bool(!object.isInserted && !object.isDeleted && !object.changes.isEmpty)
    case .isDeleted: return .bool(object.isDeleted)
    case .changedValues: return .list(object.changes.keys.sorted().map(Value.string))
    case .hasChanges: return .bool(object.isInserted || object.isDeleted || !object.changes.isEmpty)
    case .isFault: return .bool(object.isFault)
    case .managedObjectContext: return object.hasContext ? .context(object.context) : .null
    case .objectID: return .objectID(object.id)
    }
  }

  /// A state value as a report shows it: contexts and objects by name, not by index.
  private func shownState(_ value: Value) -> Value {
    switch value {
    case .context, .object: .string(describe(value))
    case .list(let items): .list(items.map(shownState))
    default: value
    }
  }
}
