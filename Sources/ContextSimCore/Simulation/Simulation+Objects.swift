/// Objects in contexts: faults, fetches, and what a context sees through its parents.
///
/// Which instance a context holds for an ID is the ``ObjectGraph``'s to say; this file reads
/// rows through it.
///
/// A context reads through its parent: a root context reads the store, a child reads its
/// parent's objects as they are in memory, unsaved changes included, and beyond them its
/// parent's parent (semantics §6.2, §6.3). Inside a context, relationship values hold
/// object references; between contexts and in the store they hold object IDs.
extension Simulation {
  /// A row as a context's parent shows it: values in ID form, and the row's version.
  struct RowState {
    var values: NamedValues
    var version: Int
  }

  /// A row as seen from a context, or from the store when `c` is nil; nil if it is gone.
  mutating func row(_ id: ObjectID, seenFrom c: Int?) -> RowState? {
    guard let c else {
      touch(.store, write: false)
      return store.row(id).map { RowState(values: $0.values, version: $0.version) }
    }
    touch(.context(c), write: false)
    if let ref = graph.registered(id, in: c), !graph[ref].isFault {
      if graph[ref].isDeleted { return nil }
      return RowState(
        values: graph.idForm(graph[ref].currentValues), version: graph[ref].snapshotVersion)
    }
    return row(id, seenFrom: graph.contexts[c].parent)
  }

  /// The IDs of an entity's rows as seen from a context, or from the store when `c` is nil.
  mutating func visibleIDs(_ entity: String, from c: Int?) -> [ObjectID] {
    guard let c else {
      touch(.store, write: false)
      return store.ids(of: entity)
    }
    touch(.context(c), write: false)
    let inherited = visibleIDs(entity, from: graph.contexts[c].parent)
    // Most of the time nothing here is deleted or newly inserted: the parent's list is this
    // context's, and copying it ID by ID showed in profiles.
    let changesList = graph.registeredObjects(in: c).contains { ref in
      graph[ref].isDeleted || (graph[ref].isInserted && graph[ref].entity == entity)
    }
    guard changesList else { return inherited }
    var ids: [ObjectID] = []
    ids.reserveCapacity(inherited.count + graph.registeredObjects(in: c).count)
    for id in inherited {
      if let ref = graph.registered(id, in: c), graph[ref].isDeleted { continue }
      ids.append(id)
    }
    // An object inserted here has not reached the parent yet, so it is not listed twice.
    for ref in graph.registeredObjects(in: c)
    where graph[ref].isInserted && !graph[ref].isDeleted
      && graph[ref].entity == entity
    {
      ids.append(graph[ref].id)
    }
    return ids
  }

  // MARK: Converting between contexts

  /// Values with object IDs replaced by the instances registered for them in a context.
  ///
  /// Only relationships hold object IDs, so only they are rewritten: the attributes keep
  /// the dictionary's storage, which every fault fired and every row merged would otherwise
  /// build again, key by key.
  mutating func contextForm(_ values: NamedValues, entity: String, in c: Int) -> NamedValues {
    guard scenario.hasRelationships(entity) else { return values }
    var result = values
    for relationship in scenario.entity(named: entity)?.relationships ?? [] {
      guard let value = values[relationship.name] else { continue }
      switch value {
      case .objectID, .list: result[relationship.name] = contextForm(value, in: c)
      default: continue
      }
    }
    return result
  }

  mutating func contextForm(_ value: Value, in c: Int) -> Value {
    switch value {
    case .objectID(let id): .object(graph.object(for: id, in: c))
    case .list(let items): .list(items.map { contextForm($0, in: c) })
    default: value
    }
  }

  // MARK: Faults

  /// Loads a fault's values from its context's parent. A row that is gone is an
  /// inaccessible fault: marked deleted with nil values, or an exception, as the
  /// context's `shouldDeleteInaccessibleFaults` says (semantics §4.2). A fault whose
  /// context was reset has nowhere to load from and stays a fault, its values nil: a best
  /// guess, as no public trace shows what Core Data does (semantics-2 §5.2).
  ///
  /// - Returns: false when firing raised an exception and the read did not happen.
  @discardableResult
  mutating func fireFault(_ ref: ObjectReference) -> Bool {
    guard graph[ref].isFault, graph[ref].registration != .forgottenByReset else { return true }
    let (id, c) = (graph[ref].id, graph[ref].context)
    if let row = row(id, seenFrom: graph.contexts[c].parent) {
      graph[ref].isFault = false
      graph[ref].snapshot = contextForm(row.values, entity: graph[ref].entity, in: c)
      graph[ref].snapshotVersion = row.version
      return true
    }
    guard graph.contexts[c].description.shouldDeleteInaccessibleFaults else {
      report(.uncaughtException(.faultOnDeletedObject, Exception.inaccessible(idDescription(ref))))
      return false
    }
    graph[ref].isFault = false
    graph[ref].isDeleted = true
    report(.faultOnDeletedObject(object: id))
    return true
  }

  // MARK: Fetching

  /// A fetch: the rows the parent shows, seen through this context's own changes, then the
  /// objects inserted here; those the predicate matches, ordered by the sort descriptors
  /// (the order they were found in breaks ties), and no more than the fetch limit.
  mutating func fetch(_ request: FetchRequest, in c: Int, where predicate: Predicate<Value>)
    -> [ObjectReference]
  {
    var ids: [ObjectID]
    if request.sortDescriptors.isEmpty {
      ids = matchingIDs(request.entity, in: c, where: predicate)
    } else {
      let rows = matchingRows(request.entity, in: c, where: predicate)
      ids = Self.sorted(rows, by: request.sortDescriptors)
    }
    if let limit = request.fetchLimit { ids = Array(ids.prefix(limit)) }
    return ids.map { graph.object(for: $0, in: c) }
  }

  /// The IDs a fetch or count matches, without registering anything.
  mutating func matchingIDs(_ entity: String, in c: Int, where predicate: Predicate<Value>)
    -> [ObjectID]
  {
    // Every visible row matches an empty predicate; its values need not be looked at.
    guard !predicate.matchesEverything else { return visibleIDs(entity, from: c) }
    return matchingRows(entity, in: c, where: predicate).map(\.id)
  }

  /// The rows a predicate matches, with their values in ID form as the context sees them.
  private mutating func matchingRows(
    _ entity: String, in c: Int, where predicate: Predicate<Value>
  ) -> [(id: ObjectID, values: NamedValues)] {
    var found: [(id: ObjectID, values: NamedValues)] = []
    for id in visibleIDs(entity, from: c) {
      var values: NamedValues
      if let ref = graph.registered(id, in: c), !graph[ref].isFault {
        values = graph.idForm(graph[ref].currentValues)
      } else if let row = row(id, seenFrom: graph.contexts[c].parent) {
        values = row.values
      } else {
        continue
      }
      if predicate.matches(values) { found.append((id, values)) }
    }
    return found
  }

  /// Rows in sort-descriptor order; the first descriptor that tells two rows apart decides,
  /// and rows none tells apart keep the order they were found in, so every run agrees.
  private static func sorted(
    _ rows: [(id: ObjectID, values: NamedValues)], by descriptors: [SortDescriptor]
  ) -> [ObjectID] {
    let order = rows.indices.sorted { i, j in
      for descriptor in descriptors {
        let a = rows[i].values[descriptor.key] ?? .null
        let b = rows[j].values[descriptor.key] ?? .null
        if descriptor.orders(a, before: b) { return true }
        if descriptor.orders(b, before: a) { return false }
      }
      return i < j
    }
    return order.map { rows[$0].id }
  }

  // MARK: Descriptions

  /// A value as reports show it: objects by their IDs.
  func shown(_ value: Value) -> Value {
    graph.idForm(value)
  }

  /// `x-coredata://<store>/Note/p1` or `x-coredata:///Note/t<uuid>3`, as Core Data prints
  /// an object ID's URI (semantics §3.1).
  func uri(_ id: ObjectID) -> String {
    switch id.kind {
    case .permanent(let pk): "x-coredata://\(storeIdentifier)/\(id.entity)/p\(pk)"
    case .temporary(let n): "x-coredata:///\(id.entity)/t\(temporaryIdentifier)\(n)"
    }
  }

  /// What a read of an attribute or relationship shows: the value, and for an object whose
  /// context was reset, that it read nil for that reason rather than from a row.
  func readEffect(_ key: String, of ref: ObjectReference, value: Value) -> Effect {
    let object = graph[ref]
    let context = graph.contexts[object.context].name
    guard object.registration == .forgottenByReset else {
      return .read(object: object.id, key: key, value: shown(value), context: context)
    }
    return .readAfterReset(object: object.id, key: key, value: shown(value), resetContext: context)
  }

  /// An object ID as its `description` prints it in an exception's reason:
  /// `0x600000c00040 <x-coredata://…/Note/p1>` (semantics-2 §5.3). The address is made up
  /// from the instance's place in the run, so every run prints the same one.
  func idDescription(_ ref: ObjectReference) -> String {
    let address = String(0x6000_00c0_0000 + ref.index * 0x40, radix: 16)
    return "0x\(address) <\(uri(graph[ref].id))>"
  }

  /// An object as `NSManagedObject.description` prints it inside an exception's reason.
  func objectDescription(_ ref: ObjectReference) -> String {
    let object = graph[ref]
    let address = String(0x6000_0210_0000 + ref.index * 0x60, radix: 16)
    return
      "<NSManagedObject: 0x\(address)> (entity: \(object.entity); id: \(uri(object.id)); data: "
      + (object.isFault ? "<fault>)" : "{…})")
  }
}

/// An Objective-C exception the simulated app raises: its name and reason.
public struct Exception: Sendable, Equatable {
  /// The exception's name, such as `NSInvalidArgumentException`.
  public var name: String
  /// Its reason, as the crash log prints it.
  public var reason: String

  /// A fault that cannot be fulfilled; `objectID` is the ID's description, address first.
  static func inaccessible(_ objectID: String) -> Exception {
    Exception(
      name: "NSObjectInaccessibleException",
      reason: "CoreData could not fulfill a fault for '\(objectID)'")
  }
}
