import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// Persistent history tracking and the remote-change notification (semantics-2 §2.5, §6.4).
@Suite("Persistent history")
struct HistoryTests {
  private func history(_ main: String, options: String = #"{"tracking": true}"#) throws
    -> Scenario
  {
    try scenario(
      #"""
      {"title": "history", "persistentHistory": \#(options),
       "model": {"Note": {"attributes": {"title": "string"}}},
       "store": {"Note": [{"id": "note-1", "title": "Old"}]},
       "contexts": {"bg": {"queue": "private", "name": "importer", "transactionAuthor": "sync"}},
       "main": \#(main)}
      """#)
  }

  private func printed(_ trace: Trace) -> [String] {
    trace.events.compactMap { event in
      if case .printed(let text) = event.effect { "\(event.site.thread): \(text)" } else { nil }
    }
  }

  @Test("Each root save and batch request records a transaction with its author and context name")
  func transactionsRecorded() throws {
    let trace = run(
      try history(
        #"""
        [{"performAndWait": "bg", "do": [
           {"insert": "Note", "into": "bg", "values": {"title": "New"}}, {"save": "bg"},
           {"batchDelete": "Note", "in": "bg", "where": {"title": "Old"}}]},
         {"batchInsert": "Note", "in": "viewContext", "objects": [{"title": "Batch"}]},
         {"fetchHistory": "viewContext", "as": "txs"},
         {"forEach": "$txs", "as": "tx", "do": [
           {"get": "tx.token", "as": "token"}, {"get": "tx.author", "as": "author"},
           {"get": "tx.contextName", "as": "name"}, {"get": "tx.insertedObjectIDs", "as": "ins"},
           {"get": "tx.deletedObjectIDs", "as": "del"},
           {"print": "$token $author $name"}]}]
        """#))
    #expect(trace.violations.isEmpty)
    #expect(
      printed(trace) == ["main: 1 sync importer", "main: 2 sync importer", "main: 3 nil nil"])
    let changes = trace.events.compactMap { event -> String? in
      guard case .property(let owner, let name, let value, _) = event.effect, owner == "tx",
        name.hasSuffix("ObjectIDs")
      else { return nil }
      return "\(name) \(value.plainDescription.split(separator: "/").last ?? "")"
    }
    #expect(
      changes == [
        "insertedObjectIDs p2]", "deletedObjectIDs []", "insertedObjectIDs []",
        "deletedObjectIDs p1]", "insertedObjectIDs p3]", "deletedObjectIDs []",
      ])
  }

  @Test("fetchHistory after a token returns only the later transactions; a child asks its parent")
  func afterToken() throws {
    let trace = run(
      try history(
        #"""
        [{"newContext": "child", "queue": "main", "parent": "viewContext"},
         {"insert": "Note", "into": "viewContext"}, {"save": "viewContext"},
         {"fetchHistory": "child", "as": "first"},
         {"forEach": "$first", "as": "tx", "do": [{"get": "tx.token", "as": "last"}]},
         {"insert": "Note", "into": "viewContext"}, {"save": "viewContext"},
         {"fetchHistory": "child", "after": "$last", "as": "later"},
         {"forEach": "$later", "as": "tx", "do": [
           {"get": "tx.token", "as": "token"}, {"print": "after $last: $token"}]},
         {"fetchHistory": "child", "after": null, "as": "all"},
         {"forEach": "$all", "as": "tx", "do": [{"print": "all"}]}]
        """#))
    #expect(trace.violations.isEmpty)
    #expect(printed(trace) == ["main: after 1: 2", "main: all", "main: all"])
    let fetches = trace.events.compactMap { event -> [Int]? in
      if case .fetchedHistory(_, _, let tokens) = event.effect { tokens } else { nil }
    }
    #expect(fetches == [[1], [2], [1, 2]])
  }

  @Test("A remote-change observer runs on a thread of its own, and the writer does not wait")
  func remoteChangeOnPrivateThread() throws {
    let trace = run(
      try history(
        #"""
        [{"observe": "remoteChange", "as": "n", "do": [
           {"get": "n.historyToken", "as": "token"}, {"print": "remote change $token"}]},
         {"observe": "remoteChange", "queue": "main", "as": "n", "do": [{"print": "on main"}]},
         {"performAndWait": "bg", "do": [
           {"insert": "Note", "into": "bg"}, {"save": "bg"}, {"print": "saved"}]},
         {"print": "main goes on"}]
        """#, options: #"{"tracking": true, "remoteChangeNotifications": true}"#))
    #expect(trace.violations.isEmpty)
    // The saver prints first: it neither ran the observers nor waited for them.
    #expect(
      printed(trace) == [
        "main: saved", "main: main goes on", "main: on main", "global#1: remote change 1",
      ])
  }

  @Test("Merging a transaction refreshes what the context holds, checked on its queue")
  func mergeTransaction() throws {
    let trace = run(
      try history(
        #"""
        [{"fetch": "Note", "in": "viewContext", "first": true, "as": "note"},
         {"get": "note.title"},
         {"batchUpdate": "Note", "in": "bg", "set": {"title": "New"}, "label": "off-queue-batch"},
         {"perform": "bg", "do": [
           {"fetchHistory": "bg", "as": "txs"},
           {"forEach": "$txs", "as": "tx", "do": [
             {"mergeChanges": "$tx", "into": "viewContext", "label": "off-main"},
             {"perform": "viewContext", "do": [
               {"mergeChanges": "$tx", "into": "viewContext"},
               {"expect": {"value": "note.title", "equals": "New"}}]}]}]}]
        """#))
    #expect(trace.violations.map(\.kind) == [.wrongQueueContext, .wrongQueueContext])
    #expect(trace.violations.map { $0.site.labels.first } == ["off-queue-batch", "off-main"])
  }

  @Test("With history off, writes record nothing and fetchHistory is refused")
  func historyOff() throws {
    var execution = Execution(
      try scenario(
        #"""
        {"title": "t", "model": {"Note": {"attributes": {"title": "string"}}},
         "main": [{"insert": "Note", "into": "viewContext"}, {"save": "viewContext"}]}
        """#))
    while let runnable = execution.runnableThreads() { execution.step(runnable[0]) }
    #expect(execution.simulation.store.history.isEmpty)
    let refused = errors(
      #"""
      {"title": "t", "main": [{"fetchHistory": "viewContext", "as": "txs"}]}
      """#)
    #expect(refused.map(\.message) == ["\"fetchHistory\" needs a store that tracks history"])
    // Remote-change notifications without tracking carry no token.
    let trace = run(
      try history(
        #"""
        [{"observe": "remoteChange", "queue": "main", "as": "n", "do": [
           {"get": "n.historyToken", "as": "token"}, {"print": "token $token"}]},
         {"insert": "Note", "into": "viewContext"}, {"save": "viewContext"}]
        """#, options: #"{"remoteChangeNotifications": true}"#))
    #expect(printed(trace) == ["main: token nil"])
  }

  @Test("Mistakes with history are refused with a fix")
  func refused() {
    let base =
      #""title": "t", "persistentHistory": {"tracking": true, "remoteChangeNotifications": true}"#
    let object = errors(
      #"{\#(base), "main": [{"observe": "remoteChange", "object": "viewContext", "as": "n", "do": []}]}"#
    )
    #expect(
      object.map(\.message) == [
        "a remote-change notification's object is the persistent store coordinator, not a context"
      ])
    let merge = errors(
      #"{\#(base), "main": [{"observe": "remoteChange", "as": "n", "do": [{"mergeChanges": "$n", "into": "viewContext"}]}]}"#
    )
    #expect(
      merge.map(\.message) == [
        "\"n\" is a remote-change notification, which carries no changes to merge"
      ])
    let key = errors(
      #"{"title": "t", "persistentHistory": {"tracking": true, "purge": 1}, "main": []}"#)
    #expect(key.count == 1)
    let read = errors(
      #"{\#(base), "main": [{"fetchHistory": "viewContext", "as": "txs"}, {"forEach": "$txs", "as": "tx", "do": [{"get": "tx.timestamp"}]}]}"#
    )
    #expect(read.map(\.message) == ["a history transaction has no \"timestamp\" to get"])
  }
}
