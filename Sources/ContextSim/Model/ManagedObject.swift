/// One `NSManagedObject` instance: a row as one context sees it.
///
/// The object remembers its context for life; every touch of its data is checked against
/// that context's queue. A fault has no values until something reads one.
struct ManagedObject {
  var id: ObjectID
  let entity: String
  /// The owning context's index in the simulation's context table.
  let context: Int
  var isFault: Bool
  var isInserted: Bool
  /// Set when a fault fired on a row that no longer exists, and the context chose to mark
  /// the object deleted rather than throw (`shouldDeleteInaccessibleFaults`).
  var isDeleted = false
  /// The values last loaded from the store.
  var snapshot: [String: Value] = [:]
  /// Values set in this context and not yet saved.
  var changes: [String: Value] = [:]

  var hasChanges: Bool { isInserted || !changes.isEmpty }

  func value(_ key: String) -> Value {
    changes[key] ?? snapshot[key] ?? .null
  }

  /// The values a save writes: what was loaded, overlaid with what changed.
  var currentValues: [String: Value] {
    snapshot.merging(changes) { _, new in new }
  }
}
