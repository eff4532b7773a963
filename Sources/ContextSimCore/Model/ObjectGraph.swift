/// The run's managed object contexts and the `NSManagedObject` instances registered in them.
///
/// Core Data keeps one instance per object ID in each context: `object(with:)`, a fetch
/// and a fault all hand back the instance already registered there. The graph keeps that
/// rule. An object belongs to one context for life; a context's `byID` lists exactly its
/// registered objects, under their current IDs; and an ID changes (temporary to permanent,
/// or to a stored row's) only through ``reassign(_:to:)``, which moves the entry with it.
/// An object is in its context's `registered` exactly while its ``ManagedObject/registration``
/// is `.registered`; leaving says why. Temporary IDs are numbered across the run, in insertion order, and never reused.
struct ObjectGraph {
  /// Every context, by index: the scenario's, then those made at run time.
  private(set) var contexts: [ManagedObjectContext] = []
  /// Each context's registered objects, by context index.
  private var registrations: [Registrations] = []
  /// Every instance ever made, by ``ObjectReference``; one that leaves its context stays,
  /// with the reason in its ``ManagedObject/registration``, since the app may still hold it.
  private(set) var objects: [ManagedObject] = []
  /// The scenario's contexts by name; contexts made at run time are found through the
  /// variable their step bound. A scan of a few names is cheaper than hashing one, and
  /// steps look contexts up all the time.
  private var declared = SmallDictionary<NamedNumber>()
  private(set) var nextTemporaryID = 1

  /// An object's state. Changing its values and flags in place is free; its ID changes only
  /// through ``reassign(_:to:)`` (checked in debug builds).
  subscript(ref: ObjectReference) -> ManagedObject {
    _read { yield objects[ref.index] }
    _modify {
      #if DEBUG
        let id = objects[ref.index].id
        defer {
          assert(objects[ref.index].id == id, "an object's ID changes only through reassign")
        }
      #endif
      yield &objects[ref.index]
    }
  }

  /// Makes room for `count` instances in the graph and in each context, so a run that
  /// starts from a copy of this one grows its lists once, when it first changes them,
  /// instead of doubling them again and again.
  mutating func reserveRoom(objects count: Int) {
    objects.reserveCapacity(count)
    for c in contexts.indices {
      registrations[c].registered.reserveCapacity(count)
      registrations[c].byID.reserveCapacity(count)
    }
  }

  // MARK: Contexts

  /// Adds a context and returns its index. A declared one is found by name from then on.
  @discardableResult
  mutating func add(_ context: ManagedObjectContext) -> Int {
    if !context.isRuntime, !declared.contains(key: context.name) {
      declared[context.name] = contexts.count
    }
    contexts.append(context)
    registrations.append(Registrations())
    return contexts.count - 1
  }

  /// Changes the options a step may set while the app runs; registration stays the graph's.
  mutating func changeOptions(of c: Int, _ change: (inout ContextDescription) -> Void) {
    change(&contexts[c].description)
  }

  /// The scenario's context with this name, if it declares one.
  func declaredContext(named name: String) -> Int? {
    declared[name]
  }

  /// `reset()`: the context forgets every object, turning each into a fault with no
  /// context and no pending changes; the objects keep their IDs (semantics-2 §5.1).
  /// Returns the objects it forgot.
  mutating func reset(_ c: Int) -> [ObjectReference] {
    let forgotten = registrations[c].registered
    for ref in forgotten {
      objects[ref.index].registration = .forgottenByReset
      objects[ref.index].isFault = true
      objects[ref.index].isInserted = false
      objects[ref.index].isDeleted = false
      objects[ref.index].snapshot = [:]
      objects[ref.index].changes = [:]
    }
    registrations[c].registered = []
    registrations[c].byID = [:]
    return forgotten
  }

  // MARK: Registration

  /// The objects registered in context `c`, in registration order.
  func registeredObjects(in c: Int) -> [ObjectReference] { registrations[c].registered }

  /// How many IDs context `c` finds an object under: fewer than its objects once two
  /// instances share an ID there.
  func registeredIDCount(in c: Int) -> Int { registrations[c].byID.count }

  /// The instance registered for an ID in a context, if there is one.
  func registered(_ id: ObjectID, in c: Int) -> ObjectReference? {
    registrations[c].byID[id]
  }

  /// Makes an instance and registers it in context `c` under `id`. The instance is made in
  /// place: every fault and insert comes through here, and one made outside and passed in
  /// was copied and freed again.
  mutating func register(
    _ id: ObjectID, in c: Int, isFault: Bool, isInserted: Bool, values: NamedValues = NamedValues()
  ) -> ObjectReference {
    let ref = ObjectReference(index: objects.count)
    objects.append(
      ManagedObject(
        id: id, context: c, isFault: isFault, isInserted: isInserted, snapshot: values))
    registrations[c].registered.append(ref)
    registrations[c].byID[id] = ref
    return ref
  }

  /// `insert`: a new object in a context, under the next temporary ID, with the given values
  /// as what it was made with (its entity's defaults).
  mutating func insert(_ entity: String, into c: Int, values: NamedValues) -> ObjectReference {
    let id = ObjectID(entity: entity, kind: .temporary(nextTemporaryID))
    nextTemporaryID += 1
    return register(id, in: c, isFault: false, isInserted: true, values: values)
  }

  /// The registered instance for an ID, or a new fault for it.
  mutating func object(for id: ObjectID, in c: Int) -> ObjectReference {
    registered(id, in: c) ?? register(id, in: c, isFault: true, isInserted: false)
  }

  /// Takes an instance out of its context for a reason other than `reset`; the app may
  /// still hold it.
  mutating func unregister(_ ref: ObjectReference, because reason: Registration) {
    assert(reason != .registered, "an object leaves its context for a reason")
    objects[ref.index].registration = reason
    let c = objects[ref.index].context
    registrations[c].registered.removeAll { $0 == ref }
    if registrations[c].byID[objects[ref.index].id] == ref {
      registrations[c].byID[objects[ref.index].id] = nil
    }
  }

  // MARK: Crossing contexts

  /// Values with object references replaced by object IDs: how they cross contexts and
  /// reach the store.
  func idForm(_ values: NamedValues) -> NamedValues {
    // Most values are attributes: then the dictionary is already in ID form, and keeping its
    // storage saves building it again at every save and fetch.
    guard values.containsValue(where: \.holdsObjects) else { return values }
    return values.mapValues { idForm($0) }
  }

  func idForm(_ value: Value) -> Value {
    switch value {
    case .object(let ref): .objectID(objects[ref.index].id)
    case .list(let items): .list(items.map { idForm($0) })
    default: value
    }
  }

  /// Gives an object a new ID: a permanent one on save, or a stored row's.
  mutating func reassign(_ ref: ObjectReference, to id: ObjectID) {
    let c = objects[ref.index].context
    if registrations[c].byID[objects[ref.index].id] == ref {
      registrations[c].byID[objects[ref.index].id] = nil
    }
    objects[ref.index].id = id
    if registrations[c].registered.contains(ref) { registrations[c].byID[id] = ref }
  }
}

extension Value {
  /// Whether `ObjectGraph.idForm` may rewrite the value: an object, or a list of values.
  var holdsObjects: Bool {
    switch self {
    case .object, .list: true
    default: false
    }
  }
}
