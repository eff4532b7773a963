/// One `NSPersistentHistoryTransaction`: a store write as history records it (semantics-2
/// §6.4), a root context's save or a batch request.
struct HistoryTransaction: Sendable, Equatable {
  /// The history token after this write. Core Data's tokens are opaque; ctxsim's count
  /// from 1 in write order, so "after token 2" reads as it does in a trace.
  var token: Int
  /// The writing context's `transactionAuthor`.
  var author: String?
  /// The writing context's `name`.
  var contextName: String?
  var inserted: [ObjectID] = []
  var updated: [ObjectID] = []
  var deleted: [ObjectID] = []
}

extension PersistentStore {
  /// Appends a transaction for a write that changed rows, and returns its token.
  mutating func recordTransaction(
    author: String?, contextName: String?, inserted: [ObjectID], updated: [ObjectID],
    deleted: [ObjectID]
  ) -> Int {
    let token = history.count + 1
    history.append(
      HistoryTransaction(
        token: token, author: author, contextName: contextName, inserted: inserted,
        updated: updated, deleted: deleted))
    return token
  }

  /// `fetchHistory(after:)`: the transactions after a token, in order; nil means all.
  func transactions(after token: Int?) -> [HistoryTransaction] {
    history.filter { $0.token > (token ?? 0) }
  }
}
