import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// Observers of context notifications (semantics-2 §2): who runs them, where, and when.
@Suite("Notification observers")
struct NotificationTests {
  private func traced(_ main: String) throws -> Trace {
    run(
      try scenario(
        #"""
        {"title": "observers", "model": {"Note": {"attributes": {"title": "string"}}},
         "contexts": {"bg": {"queue": "private"}}, "main": \#(main)}
        """#))
  }

  private func printed(_ trace: Trace) -> [String] {
    trace.events.compactMap { event in
      if case .printed(let text) = event.effect { "\(event.site.thread): \(text)" } else { nil }
    }
  }

  @Test("Observers run in the order they were added, on the posting thread, before the next step")
  func order() throws {
    let trace = try traced(
      #"""
      [{"observe": "didSaveObjectIDs", "as": "n", "do": [{"print": "ids"}]},
       {"observe": "didSave", "as": "n", "do": [{"print": "first"}]},
       {"observe": "didSave", "object": "bg", "as": "n", "do": [{"print": "second"}]},
       {"observe": "didSave", "object": "viewContext", "as": "n", "do": [{"print": "never"}]},
       {"perform": "bg", "do": [
         {"insert": "Note", "into": "bg"}, {"save": "bg"}, {"print": "after save"}]}]
      """#)
    #expect(trace.violations.isEmpty)
    #expect(printed(trace) == ["bg: ids", "bg: first", "bg: second", "bg: after save"])
  }

  @Test("Will-save observers run before the save writes; a save with no changes posts nothing")
  func willSave() throws {
    let trace = try traced(
      #"""
      [{"observe": "willSave", "as": "n", "do": [
         {"count": "Note", "in": "bg", "as": "stored"}, {"print": "will save over $stored"}]},
       {"performAndWait": "bg", "do": [
         {"save": "bg"},
         {"insert": "Note", "into": "bg"}, {"save": "bg"},
         {"count": "Note", "in": "bg", "as": "after"}, {"print": "saved: $after"}]}]
      """#)
    #expect(trace.violations.isEmpty)
    #expect(printed(trace) == ["main: will save over 1", "main: saved: 1"])
    // The store had no row when will-save ran: the count of 1 is the pending insert.
    #expect(trace.events.filter { if case .saved = $0.effect { true } else { false } }.count == 1)
  }

  @Test("The did-save's objects belong to the saving context: touching one elsewhere traps")
  func objectsStayWithSaver() throws {
    let trace = try traced(
      #"""
      [{"observe": "didSave", "queue": "main", "as": "n", "do": [
         {"get": "n.insertedObjects", "as": "inserted"},
         {"forEach": "$inserted", "as": "note", "do": [{"get": "note.title", "label": "read-on-main"}]}]},
       {"perform": "bg", "do": [
         {"insert": "Note", "into": "bg", "values": {"title": "x"}}, {"save": "bg"}]}]
      """#)
    #expect(trace.violations.map(\.kind) == [.wrongQueueObject])
    #expect(trace.violations.first?.labels == ["read-on-main"])
  }

  @Test("An observer that removes itself runs once")
  func removesItself() throws {
    let trace = try traced(
      #"""
      [{"observe": "didSave", "as": "n", "token": "token", "do": [
         {"print": "once"}, {"removeObserver": "$token"}]},
       {"performAndWait": "bg", "do": [
         {"insert": "Note", "into": "bg"}, {"save": "bg"},
         {"insert": "Note", "into": "bg"}, {"save": "bg"}]}]
      """#)
    #expect(printed(trace) == ["main: once"])
  }

  @Test("A queue observer while main waits for the poster deadlocks; without a queue it does not")
  func queueObserverDeadlock() throws {
    func outcomes(queue: String) throws -> Set<[ViolationKind]> {
      let s = try scenario(
        #"""
        {"title": "t", "model": {"Note": {"attributes": {"title": "string"}}},
         "contexts": {"bg": {"queue": "private"}},
         "main": [
           {"observe": "didSave", \#(queue) "as": "n", "do": [{"print": "saved"}]},
           {"perform": "bg", "do": [{"insert": "Note", "into": "bg"}, {"save": "bg"}]},
           {"performAndWait": "bg", "do": [{"count": "Note", "in": "bg"}]}]}
        """#)
      let e = explore(
        s, strategy: .dpor(preemptionBound: nil),
        options: SimulationOptions(concurrencyDebug: true), maxSchedules: 1_000)
      #expect(e.isComplete)
      return Set(e.outcomes.map { $0.signature.map(\.kind) })
    }
    #expect(try outcomes(queue: #""queue": "main","#) == [[.deadlock]])
    #expect(try outcomes(queue: "") == [[]])
  }

  @Test("mergeChanges is held to the receiver's queue")
  func mergeChecked() throws {
    let trace = try traced(
      #"""
      [{"observe": "didSave", "object": "bg", "as": "n", "do": [
         {"mergeChanges": "$n", "into": "viewContext", "label": "merge"}]},
       {"perform": "bg", "do": [{"insert": "Note", "into": "bg"}, {"save": "bg"}]}]
      """#)
    #expect(trace.violations.map(\.kind) == [.wrongQueueContext])
    #expect(trace.violations.first?.labels == ["merge"])
  }

  @Test("Notification names, tokens and merges are checked when the file is read")
  func decoding() {
    let base = #"{"title": "t", "contexts": {"bg": {"queue": "private"}}, "main": STEPS}"#
    func messages(_ steps: String) -> [String] {
      errors(base.replacingOccurrences(of: "STEPS", with: steps)).map(\.message)
    }
    #expect(
      messages(#"[{"observe": "didSave", "do": []}]"#) == [
        #""observe" needs "as": the name the body calls the notification"#
      ])
    #expect(
      messages(#"[{"let": "x", "value": 1}, {"removeObserver": "$x"}]"#) == [
        #""x" does not hold an observer token"#
      ])
    #expect(
      messages(
        #"[{"observe": "didSave", "as": "n", "do": []}, {"mergeChanges": "$n", "into": "bg"}]"#)
        == [#"unknown variable "$n""#])
    #expect(
      errors(
        #"{"title": "t", "queues": {"pool": "concurrent"}, "main": [{"observe": "didSave", "queue": "pool", "as": "n", "do": []}]}"#
      ).map(\.message) == [#"an observer's queue must be serial: "pool" is concurrent"#])
  }
}
