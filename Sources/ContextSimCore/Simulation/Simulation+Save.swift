/// Saving: validation, then one level up for a child, or to the store for a root context
/// with optimistic locking, merge policies and unique constraints (semantics §6, §8).
extension Simulation {
  /// The objects one save writes, in registration order.
  struct SaveSet {
    var inserted: [ObjectReference] = []
    var updated: [ObjectReference] = []
    var deleted: [ObjectReference] = []

    var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
  }

  /// What a save of the context would write: `insertedObjects`, `updatedObjects` and
  /// `deletedObjects`. An object inserted and deleted again before a save is in none.
  func pendingChanges(in c: Int) -> SaveSet {
    var set = SaveSet()
    for ref in graph.registeredObjects(in: c) {
      switch (graph[ref].isInserted, graph[ref].isDeleted) {
      case (true, false): set.inserted.append(ref)
      case (false, true): set.deleted.append(ref)
      case (false, false) where !graph[ref].changes.isEmpty: set.updated.append(ref)
      default: break
      }
    }
    return set
  }

  /// `hasChanges`.
  func hasChanges(_ c: Int) -> Bool {
    !pendingChanges(in: c).isEmpty
  }

  /// `context.save()`.
  /// `call` is built only for an error, as most saves succeed.
  mutating func save(_ c: Int, mode: TryMode, call: @autoclosure () -> String) {
    // An object inserted and deleted before any save simply goes away.
    for ref in graph.registeredObjects(in: c)
    where graph[ref].isInserted && graph[ref].isDeleted {
      graph.unregister(ref, because: .deletedAndSaved)
    }
    let set = pendingChanges(in: c)
    guard !set.isEmpty else { return record(.savedNothing(context: graph.contexts[c].name)) }
    if let error = validate(set) { return fail(error, call: call(), mode: mode) }
    if let parent = graph.contexts[c].parent {
      pushToParent(set, from: c, to: parent)
    } else {
      saveToStore(set, from: c, mode: mode, call: call())
    }
  }

  // MARK: Child to parent

  /// A child's save pushes its changes into its parent's memory, one level up. Nothing
  /// is checked for conflicts, IDs stay temporary, and the child's values overwrite the
  /// parent's unsaved values for the same properties (semantics §6.1, §6.4, §6.5).
  private mutating func pushToParent(_ set: SaveSet, from c: Int, to p: Int) {
    touch(.context(p), write: true)
    for ref in set.inserted {
      let object = graph[ref]
      let target =
        graph.registered(object.id, in: p)
        ?? graph.register(object.id, in: p, isFault: false, isInserted: true)
      graph[target].changes.merge(
        contextForm(graph.idForm(object.currentValues), entity: object.entity, in: p))
    }
    for ref in set.updated {
      let object = graph[ref]
      let target = graph.object(for: object.id, in: p)
      guard fireFault(target) else { continue }
      for (key, value) in contextForm(graph.idForm(object.changes), entity: object.entity, in: p) {
        graph[target].changes[key] = value
      }
    }
    for ref in set.deleted {
      let target = graph.object(for: graph[ref].id, in: p)
      if graph[target].isInserted {
        graph.unregister(target, because: .deletedAndSaved)
      } else if fireFault(target) {
        graph[target].isDeleted = true
      }
    }
    let changes = settle(set, in: c)
    record(
      .savedToParent(
        context: graph.contexts[c].name, parent: graph.contexts[p].name, inserted: changes.inserted,
        updated: changes.updated, deleted: changes.deleted))
    notifySaved(changes, by: c)
    postDidSave(set, changes, by: c)
  }

  /// After a save: the saved objects hold what they wrote, and the deleted ones are gone.
  private mutating func settle(_ set: SaveSet, in c: Int) -> ChangeSet {
    // Two loops, not one over the two lists joined: that builds an array at every save.
    for ref in set.inserted { settleValues(of: ref, in: c) }
    for ref in set.updated { settleValues(of: ref, in: c) }
    for ref in set.deleted { graph.unregister(ref, because: .deletedAndSaved) }
    return ChangeSet(
      source: graph.contexts[c].name, inserted: set.inserted.map { graph[$0].id },
      updated: set.updated.map { graph[$0].id },
      deleted: set.deleted.map { graph[$0].id })
  }

  /// A saved object holds what it wrote: its changes become its snapshot.
  private mutating func settleValues(of ref: ObjectReference, in c: Int) {
    let changes = graph[ref].changes
    graph[ref].changes = [:]
    if graph[ref].snapshot.isEmpty {
      graph[ref].snapshot = changes
    } else {
      graph[ref].snapshot.merge(changes)
    }
    graph[ref].isInserted = false
    if graph.contexts[c].parent == nil, let version = store.version(of: graph[ref].id) {
      graph[ref].snapshotVersion = version
    }
  }

  // MARK: Root to store

  private mutating func saveToStore(
    _ set: SaveSet, from c: Int, mode: TryMode, call: @autoclosure () -> String
  ) {
    touch(.store, write: true)
    let policy = graph.contexts[c].description.mergePolicy
    var set = set
    var resurrected: [ObjectReference] = []
    var writeWhole: Set<ObjectReference> = []

    let conflicts = optimisticLockingConflicts(set)
    if !conflicts.isEmpty {
      guard policy != .error else {
        return fail(
          CoreDataError(
            code: 133_020, message: "Could not merge changes.",
            details: conflicts.map { conflictDescription($0) }),
          call: call(), mode: mode)
      }
      for conflict in conflicts {
        resolve(
          conflict, policy: policy, set: &set, resurrected: &resurrected, writeWhole: &writeWhole)
      }
    }
    let constraintConflicts = uniquenessConflicts(set)
    if !constraintConflicts.isEmpty {
      guard policy != .error else {
        return fail(
          CoreDataError(
            code: 133_021, message: "(null)", details: constraintConflicts.map(\.description)),
          call: call(), mode: mode)
      }
      for conflict in constraintConflicts {
        resolve(conflict, policy: policy, set: &set, writeWhole: &writeWhole)
      }
    }

    // Permanent IDs first, so relationships between new objects write permanent IDs.
    for ref in set.inserted where graph[ref].id.isTemporary {
      let entity = graph[ref].entity
      graph.reassign(
        ref, to: ObjectID(entity: entity, kind: .permanent(store.takePrimaryKey(entity))))
    }
    if !resurrected.isEmpty { set.inserted += resurrected }
    for ref in set.inserted {
      store.insert(graph[ref].id, values: graph.idForm(graph[ref].currentValues))
    }
    for ref in set.updated {
      let object = graph[ref]
      let values = writeWhole.contains(ref) ? object.currentValues : object.changes
      let bumps = values.keys.contains { key in
        relationship(key, of: ref)?.isToMany != true
      }
      store.update(
        object.id, values: graph.idForm(values), previous: graph.idForm(object.snapshot),
        bumpVersion: bumps)
    }
    for ref in set.deleted { store.delete(graph[ref].id) }
    let changes = settle(set, in: c)
    record(
      .saved(
        context: graph.contexts[c].name, inserted: changes.inserted, updated: changes.updated,
        deleted: changes.deleted))
    storeWrote(
      by: c, inserted: changes.inserted, updated: changes.updated, deleted: changes.deleted)
    notifySaved(changes, by: c)
    postDidSave(set, changes, by: c)
  }

  /// A changed or deleted object whose row moved on since it was read.
  struct LockingConflict {
    var object: ObjectReference
    /// The row now, or nil when another context deleted it.
    var row: PersistentStore.Row?
  }

  private mutating func optimisticLockingConflicts(_ set: SaveSet) -> [LockingConflict] {
    var conflicts: [LockingConflict] = []
    func check(_ ref: ObjectReference) {
      let object = graph[ref]
      let version = store.version(of: object.id)
      if version == nil && object.isDeleted { return }
      if version != object.snapshotVersion {
        conflicts.append(LockingConflict(object: ref, row: store.row(object.id)))
      }
    }
    set.updated.forEach(check)
    set.deleted.forEach(check)
    return conflicts
  }

  /// `NSMergeConflict`'s description, as the error's `conflictList` prints it (§8.2).
  private mutating func conflictDescription(_ conflict: LockingConflict) -> String {
    let object = graph[conflict.object]
    func snapshot(_ values: NamedValues) -> String {
      "{"
        + values.keys.sorted().filter { relationship($0, of: conflict.object)?.isToMany != true }
        .map { "\($0) = \(shown(values[$0]!).plainDescription)" }.joined(separator: "; ") + "}"
    }
    return
      "NSMergeConflict for \(object.id) with oldVersion = \(object.snapshotVersion) and newVersion = "
      + (conflict.row.map { "\($0.version)" } ?? "<deleted>")
      + " and old object snapshot = \(snapshot(graph.idForm(object.snapshot)))"
      + " and new cached row = \(conflict.row.map { snapshot($0.values) } ?? "{}")"
  }

  /// Resolves one conflict the way the context's merge policy does (semantics §8.4).
  private mutating func resolve(
    _ conflict: LockingConflict, policy: MergePolicy, set: inout SaveSet,
    resurrected: inout [ObjectReference], writeWhole: inout Set<ObjectReference>
  ) {
    let ref = conflict.object
    let object = graph[ref]
    guard let row = conflict.row else {
      // Deleted in the store, changed here: only overwrite brings the row back.
      set.updated.removeAll { $0 == ref }
      if policy == .overwrite {
        graph[ref].snapshot = [:]
        graph[ref].changes = object.currentValues
        resurrected.append(ref)
      } else {
        graph.unregister(ref, because: .deletedAndSaved)
        graph[ref].isDeleted = true
      }
      return
    }
    let stored = contextForm(row.values, entity: object.entity, in: object.context)
    if object.isDeleted {
      // Deleted here, changed in the store: the store's side wins under these two.
      if policy == .rollback || policy == .mergeByPropertyStoreTrump {
        set.deleted.removeAll { $0 == ref }
        graph[ref].isDeleted = false
        graph[ref].snapshot = stored
        graph[ref].snapshotVersion = row.version
      }
      return
    }
    let storeChanged = Set(
      row.values.filter { key, value in
        relationship(key, of: ref)?.isToMany != true
          && value != graph.idForm(object.snapshot[key] ?? .null)
      }.keys)
    switch policy {
    case .mergeByPropertyStoreTrump:
      graph[ref].changes = object.changes.filter { !storeChanged.contains($0.key) }
    case .mergeByPropertyObjectTrump:
      break
    case .overwrite:
      writeWhole.insert(ref)
      return  // the stale snapshot is written as it is
    case .rollback:
      graph[ref].changes = [:]
    case .error:
      return
    }
    graph[ref].snapshot = stored
    graph[ref].snapshotVersion = row.version
    if graph[ref].changes.isEmpty {
      set.updated.removeAll { $0 == ref }
    }
  }
}
