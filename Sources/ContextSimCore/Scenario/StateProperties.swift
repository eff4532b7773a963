/// How Core Data guards a property's accessor off the context's queue (semantics-2 §3.1).
public enum AccessorGuard: Sendable {
  /// Asserted: traps under ConcurrencyDebug off the queue; without the flag, a race.
  case checked
  /// A plain read of a field: never traps.
  case unchecked
  /// Wrapped in `performAndWait` on the context: never traps, but blocks until the queue is
  /// free, so it can deadlock.
  case blocking
}

/// A property of `NSManagedObjectContext` a step reads with `get` or sets with `set`.
public enum ContextProperty: String, Sendable, CaseIterable {
  case hasChanges, insertedObjects, updatedObjects, deletedObjects, registeredObjects
  case mergePolicy, shouldDeleteInaccessibleFaults
  case parent, persistentStoreCoordinator, concurrencyType, automaticallyMergesChangesFromParent
  case name, transactionAuthor
  /// Its `UndoManager`, nil by default on iOS; ctxsim keeps only whether it has one.
  case undoManager

  /// Whether it holds a plain value (a flag, a policy, a name), not objects or a context.
  package var holdsValue: Bool {
    switch self {
    case .hasChanges, .mergePolicy, .shouldDeleteInaccessibleFaults, .concurrencyType,
      .automaticallyMergesChangesFromParent, .name, .transactionAuthor, .undoManager:
      true
    case .insertedObjects, .updatedObjects, .deletedObjects, .registeredObjects, .parent,
      .persistentStoreCoordinator:
      false
    }
  }

  /// How its getter is guarded: `mergePolicy`'s getter is checked though its setter blocks.
  public var getter: AccessorGuard {
    switch self {
    case .hasChanges, .insertedObjects, .updatedObjects, .deletedObjects, .registeredObjects,
      .mergePolicy, .shouldDeleteInaccessibleFaults, .undoManager:
      .checked
    case .parent, .persistentStoreCoordinator, .concurrencyType,
      .automaticallyMergesChangesFromParent:
      .unchecked
    case .name, .transactionAuthor: .blocking
    }
  }

  /// Whether a step may set it; each setter runs `performAndWait` on the context.
  public var isSettable: Bool {
    switch self {
    case .mergePolicy, .shouldDeleteInaccessibleFaults, .automaticallyMergesChangesFromParent,
      .name, .transactionAuthor, .undoManager:
      true
    default: false
    }
  }

  /// The Objective-C method a checked getter's trap names.
  var method: String { "-[NSManagedObjectContext \(rawValue)]" }
}

/// A property of `NSManagedObject` about its state, read with `get`: `note.isDeleted`.
public enum ObjectStateProperty: String, Sendable, CaseIterable {
  case isInserted, isUpdated, isDeleted, changedValues
  case hasChanges, isFault, managedObjectContext, objectID

  /// How its getter is guarded. `hasChanges` on an object is believed unchecked
  /// (semantics-2 open point V3).
  public var getter: AccessorGuard {
    switch self {
    case .isInserted, .isUpdated, .isDeleted, .changedValues: .checked
    case .hasChanges, .isFault, .managedObjectContext, .objectID: .unchecked
    }
  }

  /// As Swift reads it: `changedValues()` is a method, its keys what ctxsim binds.
  var swift: String {
    self == .changedValues ? "changedValues().keys.sorted()" : rawValue
  }
}
