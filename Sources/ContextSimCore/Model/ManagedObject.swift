/// One `NSManagedObject` instance: a row as one context sees it.
///
/// The object remembers its context for life; every touch of its data is checked against
/// that context's queue. A fault has no values until something reads one. Relationship
/// values hold other instances of the same context (`.object`, `.list` of `.object`).
struct ManagedObject {
  var id: ObjectID
  /// The owning context's index in the ``ObjectGraph``; it never changes.
  let context: Int
  var isFault: Bool
  var isInserted: Bool
  /// Deleted in this context: by `delete` (pending until a save), or by a merge.
  var isDeleted = false
  /// Whether its context still holds it, and if not, why. Only the ``ObjectGraph`` changes
  /// this, as it registers and unregisters the object.
  var registration = Registration.registered
  /// The values last loaded from the parent store or context.
  var snapshot = NamedValues()
  /// The row's version (`Z_OPT`) when the snapshot was taken, for optimistic locking.
  var snapshotVersion = 0
  /// Values set in this context and not yet saved.
  var changes = NamedValues()

  /// The entity it is an instance of: its ID's, which a new ID never changes. Not stored
  /// twice, since every copy of an object retains what it stores.
  var entity: String { id.entity }

  var hasChanges: Bool { isInserted || isDeleted || !changes.isEmpty }

  /// Whether `managedObjectContext` names a context: false once the context let go of it.
  var hasContext: Bool { registration == .registered }

  func value(_ key: String) -> Value {
    changes[key] ?? snapshot[key] ?? .null
  }

  /// What a save writes: what was loaded, overlaid with what changed.
  var currentValues: NamedValues {
    changes.isEmpty ? snapshot : snapshot.merging(changes)
  }
}

/// Whether a context holds an object, and what let go of it otherwise.
///
/// Core Data marks every object its context let go of the same way (state flag `0x80`,
/// so `managedObjectContext` is nil; semantics-2 §3.1), but what the app sees when it uses
/// the object next differs, so the model keeps the reason.
enum Registration: Int, Equatable {
  /// Registered in its context: found there by its object ID.
  case registered
  /// Forgotten by `reset()`: a fault with no context, whose values never load again
  /// (semantics-2 §5).
  case forgottenByReset
  /// Gone with its row: its deletion was saved, here or in a context whose save this one
  /// merged, or a save found the row deleted and kept it so.
  case deletedAndSaved
  /// An insert that `rollback()` undid.
  case insertRolledBack
  /// A duplicate that a save's constraint resolution folded into another object.
  case foldedIntoDuplicate
}
