/// One `NSManagedObject` instance: a row as one context sees it.
///
/// The object remembers its context for life; every touch of its data is checked against
/// that context's queue. A fault has no values until something reads one. Relationship
/// values hold other instances of the same context (`.object`, `.list` of `.object`).
struct ManagedObject {
  var id: ObjectID
  let entity: String
  /// The owning context's index in the ``ObjectGraph``; it never changes.
  let context: Int
  var isFault: Bool
  var isInserted: Bool
  /// Deleted in this context: by `delete` (pending until a save), or by a merge.
  var isDeleted = false
  /// Forgotten by its context (`reset`, or an insert undone by `rollback`): the object's
  /// `managedObjectContext` is nil, and a fault can no longer fire.
  var isDetached = false
  /// The values last loaded from the parent store or context.
  var snapshot: [String: Value] = [:]
  /// The row's version (`Z_OPT`) when the snapshot was taken, for optimistic locking.
  var snapshotVersion = 0
  /// Values set in this context and not yet saved.
  var changes: [String: Value] = [:]

  var hasChanges: Bool { isInserted || isDeleted || !changes.isEmpty }

  func value(_ key: String) -> Value {
    changes[key] ?? snapshot[key] ?? .null
  }

  /// What a save writes: what was loaded, overlaid with what changed.
  var currentValues: [String: Value] {
    snapshot.merging(changes) { _, new in new }
  }
}
