/// Persistent history tracking and `NSPersistentStoreRemoteChange` (semantics-2 §2.5, §6.4).
///
/// With tracking on, every store write (a root context's save, a batch request) appends a
/// transaction with the writer's `transactionAuthor` and `name` and the IDs it changed.
/// `fetchHistory` is a request like a fetch, checked on its context; a transaction's fields
/// are plain reads; merging one is `mergeChanges(fromContextDidSave:)` with its
/// `objectIDNotification()`, checked on the receiver.
///
/// With remote-change notifications on, every store write also posts
/// `NSPersistentStoreRemoteChange`, which Apple documents as arriving on "a private thread":
/// unlike a context's notifications, the writer neither runs its observers nor waits for
/// them. An observer without a queue gets its body as a block on the global concurrent queue,
/// a thread of its own; one with a queue gets it on that queue. Either way the writer goes on.
extension Simulation {
  /// After a store write that changed rows: records the transaction and posts the remote
  /// change, as the options say.
  mutating func storeWrote(
    by c: Int, inserted: [ObjectID] = [], updated: [ObjectID] = [], deleted: [ObjectID] = []
  ) {
    guard scenario.features.recordsHistory || scenario.features.postsRemoteChanges else {
      return
    }
    var token: Int?
    if scenario.features.recordsHistory {
      let description = graph.contexts[c].description
      token = store.recordTransaction(
        author: description.transactionAuthor, contextName: description.nameProperty,
        inserted: inserted, updated: updated, deleted: deleted)
      record(
        .recordedTransaction(
          token: token!, author: description.transactionAuthor,
          contextName: description.nameProperty))
    }
    if scenario.features.postsRemoteChanges { postRemoteChange(by: c, token: token) }
  }

  /// Enqueues each remote-change observer's body, on its queue or on a fresh thread of the
  /// global queue; the writer does not wait for any of them.
  private mutating func postRemoteChange(by c: Int, token: Int?) {
    touch(.observers, write: false)
    let notification = PostedNotification(name: .remoteChange, context: c, historyToken: token)
    let receivers = center.receivers(of: notification)
    guard !receivers.isEmpty else { return }
    // Delivered here, each body a block of its own: kept, not left for the step's end.
    let n = center.post(notification)
    record(.postedRemoteChange(token: token, observers: receivers.count))
    for observer in receivers.map({ center.observers[$0] }) {
      let scope = capture(observer.scope)
      observer.bind.map { program.scopes[scope, $0] = .notification(n) }
      let q = observer.queue ?? Self.globalQueue
      let origin = origin(onto: q, at: now.index)
      enqueue(Block(steps: observer.body, scope: scope, origin: origin), on: q)
    }
  }

  /// `try context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: token))`.
  mutating func fetchHistory(
    in context: String, after: Expression?, bind: String?, mode: TryMode
  ) {
    let c = contextIndex(context)
    checkQueue(
      c, method: "-[NSManagedObjectContext executeRequest:error:]"
    )
    touch(.store, write: false)
    if let error = injectedError() {
      fail(error, call: "\(context).execute(NSPersistentHistoryChangeRequest)", mode: mode)
      bind.map { program.scopes[scope, $0] = .null }
      return
    }
    var token: Int?
    if let after, case .integer(let t) = evaluate(after) { token = t }
    let found = store.transactions(after: token)
    record(
      .fetchedHistory(context: graph.contexts[c].name, after: token, tokens: found.map(\.token)))
    bind.map { program.scopes[scope, $0] = .list(found.map { .transaction($0.token) }) }
  }

  /// `tx.token`, `tx.author`, the IDs it changed: read from the transaction, never trapping.
  mutating func read(_ key: TransactionKey, of variable: String, bind: String?) {
    guard case .transaction(let token) = value(of: variable) else {
      record(.readNil(variable: variable))
      bind.map { program.scopes[scope, $0] = .null }
      return
    }
    let tx = store.history[token - 1]
    let ids = { (ids: [ObjectID]) in Value.list(ids.map(Value.objectID)) }
    let value: Value =
      switch key {
      case .token: .integer(tx.token)
      case .author: tx.author.map(Value.string) ?? .null
      case .contextName: tx.contextName.map(Value.string) ?? .null
      case .insertedObjectIDs: ids(tx.inserted)
      case .updatedObjectIDs: ids(tx.updated)
      case .deletedObjectIDs: ids(tx.deleted)
      }
    // Lists of IDs print as URIs, as `print` shows them; a token or a name as itself.
    let shownValue = if case .list = value { Value.string(describe(value)) } else { value }
    record(.property(owner: variable, name: key.rawValue, value: shownValue, isSet: false))
    bind.map { program.scopes[scope, $0] = value }
  }

  /// The changes `tx.objectIDNotification()` lists, as a merge takes them.
  func changeSet(ofTransaction token: Int) -> ChangeSet {
    let tx = store.history[token - 1]
    return ChangeSet(
      source: "transaction \(token)", inserted: tx.inserted, updated: tx.updated,
      deleted: tx.deleted)
  }
}
