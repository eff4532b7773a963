/// What an `NSBatchDeleteRequest` deletes: the rows a fetch request matches, or the rows of
/// given object IDs (`init(objectIDs:)`, which Core Data turns into `SELF IN %@`).
public enum BatchDeleteTarget: Sendable {
  /// `NSBatchDeleteRequest(fetchRequest:)` for an entity, with the request's predicate.
  case request(entity: String, predicate: Predicate<Expression>)
  /// `NSBatchDeleteRequest(objectIDs:)` with the IDs an expression holds.
  case objectIDs(Expression)
}

/// The dictionary `mergeChanges(fromRemoteContextSave:into:)` takes: object IDs under
/// `NSInsertedObjectsKey`, `NSUpdatedObjectsKey` and `NSDeletedObjectsKey`; nil for a key
/// the dictionary leaves out.
public struct RemoteChanges: Sendable {
  /// The IDs under `NSInsertedObjectsKey`.
  public internal(set) var inserted: Expression?
  /// The IDs under `NSUpdatedObjectsKey`.
  public internal(set) var updated: Expression?
  /// The IDs under `NSDeletedObjectsKey`.
  public internal(set) var deleted: Expression?

  /// The keys given, in Core Data's order, with the constant each stands for.
  var entries: [(key: String, constant: String, ids: Expression)] {
    [
      ("inserted", "NSInsertedObjectsKey", inserted), ("updated", "NSUpdatedObjectsKey", updated),
      ("deleted", "NSDeletedObjectsKey", deleted),
    ].compactMap { key, constant, ids in ids.map { (key, constant, $0) } }
  }

  /// Whether every list is already a value, as in a merge a call has begun: its IDs were
  /// read once, when the app built the dictionary.
  var isEvaluated: Bool {
    entries.allSatisfy { if case .literal = $0.ids { true } else { false } }
  }

  /// `[NSDeletedObjectsKey: deletedIDs]`, as the call's first argument.
  var swift: String {
    "[" + entries.map { "\($0.constant): \($0.ids.swift)" }.joined(separator: ", ") + "]"
  }
}
