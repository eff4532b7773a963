/// `"persistentHistory": {"tracking": true, "remoteChangeNotifications": true}`: the store
/// options `NSPersistentHistoryTrackingKey` and
/// `NSPersistentStoreRemoteChangeNotificationPostOptionKey` (semantics-2 §6.4), a ctxsim
/// addition to format v1. Both are off unless a scenario turns them on, as in Core Data.
public struct PersistentHistoryOptions: Sendable, Equatable {
  /// Whether each store write records a transaction that `fetchHistory` can read.
  public internal(set) var tracking = false
  /// Whether each store write posts `NSPersistentStoreRemoteChange` on a private thread.
  public internal(set) var remoteChangeNotifications = false

  /// The keys of `"persistentHistory"`, in the order an error lists them.
  static let keys = ["tracking", "remoteChangeNotifications"]

  /// Neither option: the store of format v1.
  public init() {}

  init(tracking: Bool, remoteChangeNotifications: Bool) {
    self.tracking = tracking
    self.remoteChangeNotifications = remoteChangeNotifications
  }
}

/// What a step reads from an `NSPersistentHistoryTransaction`.
///
/// The changed IDs stand for `tx.changes`, filtered by `changeType`; ctxsim has no
/// `NSPersistentHistoryChange` of its own, as the standard loop merges whole transactions.
public enum TransactionKey: String, Sendable, CaseIterable {
  /// `token`: where the transaction stands in the store's history; ctxsim counts from 1.
  case token
  /// `author`: the saving context's `transactionAuthor`, or nil.
  case author
  /// `contextName`: the saving context's `name`, or nil.
  case contextName
  /// The IDs of the rows the transaction inserted.
  case insertedObjectIDs
  /// The IDs of the rows it updated.
  case updatedObjectIDs
  /// The IDs of the rows it deleted.
  case deletedObjectIDs

  /// As Swift reads it from the transaction.
  var swift: String {
    switch self {
    case .token, .author, .contextName: rawValue
    case .insertedObjectIDs: "changes?.filter { $0.changeType == .insert }.map(\\.changedObjectID)"
    case .updatedObjectIDs: "changes?.filter { $0.changeType == .update }.map(\\.changedObjectID)"
    case .deletedObjectIDs: "changes?.filter { $0.changeType == .delete }.map(\\.changedObjectID)"
    }
  }
}
