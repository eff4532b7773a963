/// The context notifications a scenario can observe, by the short names steps use
/// (semantics-2 §2.5). Each is posted on the thread running the context's work.
public enum NotificationName: String, Sendable, CaseIterable {
  /// `NSManagedObjectContext.willSaveObjectsNotification`: at the start of a save with changes.
  case willSave
  /// `NSManagedObjectContext.didSaveObjectIDsNotification`: after a save, the changed IDs.
  case didSaveObjectIDs
  /// `NSManagedObjectContext.didSaveObjectsNotification`: right after, the changed objects.
  case didSave
  /// `NSManagedObjectContext.didChangeObjectsNotification`: from `processPendingChanges`.
  case objectsDidChange
  /// `NSPersistentStoreRemoteChange`: after each store write, with the options on, posted by
  /// the coordinator on a private thread that does not wait for its observers.
  case remoteChange

  /// As Swift names it.
  public var swift: String {
    switch self {
    case .willSave: "NSManagedObjectContext.willSaveObjectsNotification"
    case .didSaveObjectIDs: "NSManagedObjectContext.didSaveObjectIDsNotification"
    case .didSave: "NSManagedObjectContext.didSaveObjectsNotification"
    case .objectsDidChange: "NSManagedObjectContext.didChangeObjectsNotification"
    case .remoteChange: ".NSPersistentStoreRemoteChange"
    }
  }
}

/// What an observer reads from a notification: `notification.object`, the changed objects.
public enum NotificationKey: String, Sendable, CaseIterable {
  case object, insertedObjects, updatedObjects, deletedObjects
  /// A remote-change notification's `NSPersistentHistoryTokenKey`: the token after the write.
  case historyToken

  /// As Swift reads it from `userInfo`.
  var swift: String {
    switch self {
    case .object: "object"
    case .insertedObjects: "userInfo?[NSInsertedObjectsKey]"
    case .updatedObjects: "userInfo?[NSUpdatedObjectsKey]"
    case .deletedObjects: "userInfo?[NSDeletedObjectsKey]"
    case .historyToken: "userInfo?[NSPersistentHistoryTokenKey] as? NSPersistentHistoryToken"
    }
  }
}

/// What a step reads from a fetched results controller.
public enum ControllerKey: String, Sendable, CaseIterable {
  /// `fetchedObjects`: the objects, in the controller's order, of its context.
  case fetchedObjects
  /// `sections?.first?.numberOfObjects`: how many rows a table would show.
  case numberOfObjects

  /// As Swift reads it.
  var swift: String {
    self == .fetchedObjects ? "fetchedObjects ?? []" : "sections?.first?.numberOfObjects ?? 0"
  }
}
