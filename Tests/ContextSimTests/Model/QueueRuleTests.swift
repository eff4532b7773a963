import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

@Suite("The queue rule under ConcurrencyDebug")
struct QueueRuleTests {
  @Test("A main-queue context may be used directly on the main thread")
  func viewContextOnMain() throws {
    let trace = run(try notes(#"[{"fetch": "Note", "in": "viewContext", "as": "all"}]"#))
    #expect(trace.violations.isEmpty)
    #expect(trace.lines == ["fetched 2 Note into viewContext: note-1, note-2"])
  }

  @Test("viewContext used from a global queue traps, naming both queues")
  func viewContextFromGlobal() throws {
    let trace = run(
      try notes(
        #"[{"async": "global", "do": [{"count": "Note", "in": "viewContext", "label": "off-main"}]}]"#
      ))
    let violation = try #require(trace.violations.first)
    #expect(trace.kinds == [.wrongQueueContext])
    #expect(violation.site.thread == "global#1")
    #expect(violation.labels == ["off-main"])
    let w = try trapFacts(violation)
    #expect(w.ownerQueue == "main")
    #expect(w.touchingQueue == "global")
    #expect(w.method == "-[NSManagedObjectContext countForFetchRequest:error:]")
    #expect(violation.termination == .concurrencyTrap)
  }

  @Test("A private context used directly from main traps")
  func privateContextFromMain() throws {
    let trace = run(try notes(#"[{"fetch": "Note", "in": "background"}]"#))
    #expect(trace.kinds == [.wrongQueueContext])
    let w = try trapFacts(trace.violations.first)
    #expect(w.ownerQueue == "background")
    #expect(w.touchingQueue == "main")
  }

  @Test("A private context inside its own perform is legal")
  func privateContextInPerform() throws {
    let trace = run(
      try notes(
        #"[{"perform": "background", "do": [{"fetch": "Note", "in": "background", "as": "all"}]}]"#)
    )
    #expect(trace.violations.isEmpty)
    #expect(trace.events.first { $0.effect.name == "fetched" }?.site.thread == "background")
  }

  @Test("Inside performAndWait from main, both the private context and viewContext are usable")
  func performAndWaitHoldsBothQueues() throws {
    let trace = run(
      try notes(
        #"""
        [{"performAndWait": "background", "do": [
          {"count": "Note", "in": "background"},
          {"count": "Note", "in": "viewContext"}
        ]}]
        """#))
    #expect(trace.violations.isEmpty)
    #expect(trace.lines == ["counted 2 Note in background", "counted 2 Note in viewContext"])
  }

  @Test("viewContext used inside a private context's perform traps")
  func viewContextInsidePerform() throws {
    let trace = run(
      try notes(#"[{"perform": "background", "do": [{"count": "Note", "in": "viewContext"}]}]"#))
    #expect(trace.kinds == [.wrongQueueContext])
    let w = try trapFacts(trace.violations.first)
    #expect(w.touchingQueue == "background")
    #expect(w.ownerQueue == "main")
  }

  @Test("An object read on another queue traps on the object, not its context")
  func objectOnWrongQueue() throws {
    let trace = run(
      try notes(
        #"""
        [{"performAndWait": "background", "do": [{"fetch": "Note", "in": "background", "first": true, "as": "note"}]},
         {"get": "note.title", "label": "read"}]
        """#))
    #expect(trace.kinds == [.wrongQueueObject])
    let w = try trapFacts(trace.violations.first)
    guard case .object(let id, let context) = w.subject else {
      Issue.record("not an object: \(w.subject)")
      return
    }
    #expect(id.description == "note-1")
    #expect(context == "background")
    #expect(w.method == "-[NSManagedObject valueForKey:]")
  }

  @Test("Setting a value on another queue traps with setValue:forKey:")
  func setOnWrongQueue() throws {
    let trace = run(
      try notes(
        #"""
        [{"performAndWait": "background", "do": [{"fetch": "Note", "in": "background", "first": true, "as": "note"}]},
         {"set": "note.title", "to": "Changed"}]
        """#))
    let w = try trapFacts(trace.violations.first)
    #expect(w.method == "-[NSManagedObject setValue:forKey:]")
  }

  @Test("An object's own context queue may read it")
  func objectOnItsQueue() throws {
    let trace = run(
      try notes(
        #"""
        [{"perform": "background", "do": [
          {"fetch": "Note", "in": "background", "first": true, "as": "note"},
          {"get": "note.title", "as": "title"}
        ]}]
        """#))
    #expect(trace.violations.isEmpty)
    #expect(trace.lines.last == #"read note-1.title: "Buy milk""#)
  }

  @Test("Reading objectID off-queue is safe, and the ID opens the object in viewContext")
  func objectIDIsSafeAnywhere() throws {
    let trace = run(
      try notes(
        #"""
        [{"performAndWait": "background", "do": [{"fetch": "Note", "in": "background", "first": true, "as": "note"}]},
         {"objectID": "note", "as": "id"},
         {"existingObject": "$id", "in": "viewContext", "as": "mine"},
         {"get": "mine.title", "as": "title"}]
        """#))
    #expect(trace.violations.isEmpty)
    #expect(
      trace.lines.suffix(2) == [
        "fetched note-1 into viewContext by its object ID", #"read note-1.title: "Buy milk""#,
      ])
  }

  @Test("performAndWait is re-entrant on its own queue")
  func performAndWaitIsReentrant() throws {
    let trace = run(
      try notes(
        #"""
        [{"perform": "background", "do": [
          {"performAndWait": "background", "do": [{"count": "Note", "in": "background"}]}
        ]}]
        """#))
    #expect(trace.violations.isEmpty)
    #expect(trace.lines == ["counted 2 Note in background"])
  }

  @Test("Without the flag nothing traps, and the off-queue step still happens")
  func withoutFlag() throws {
    let trace = run(try notes(#"[{"count": "Note", "in": "background"}]"#), concurrencyDebug: false)
    #expect(trace.violations.isEmpty)
    #expect(trace.lines == ["counted 2 Note in background"])
  }

  @Test("A teaching run carries on after a trap; --stop-at-first ends there")
  func stopAtFirst() throws {
    let steps = #"[{"count": "Note", "in": "background"}, {"count": "Note", "in": "background"}]"#
    #expect(run(try notes(steps)).kinds == [.wrongQueueContext, .wrongQueueContext])
    let stopped = run(try notes(steps), stopAtFirst: true)
    #expect(stopped.kinds == [.wrongQueueContext])
    #expect(stopped.stop == .crashed)
  }

  @Test("sync onto the serial queue the thread is on deadlocks")
  func syncOntoOwnQueue() throws {
    let trace = run(
      try notes(
        #"[{"async": "work", "do": [{"sync": "work", "do": [{"print": "never"}], "label": "self-sync"}]}]"#,
        extra: #", "queues": {"work": "serial"}"#))
    #expect(trace.kinds == [.deadlock])
    #expect(trace.violations.first?.labels == ["self-sync"])
    #expect(trace.violations.first?.termination == nil)
    #expect(!trace.lines.contains("print: never"))
  }

  @Test("DispatchQueue.main.sync from the main thread deadlocks the main thread")
  func mainSyncOnMain() throws {
    let trace = run(try notes(#"[{"sync": "main", "do": [{"print": "never"}]}]"#))
    #expect(trace.kinds == [.deadlock])
    #expect(trace.violations.first?.termination == .watchdog)
  }

  @Test("sync onto another serial queue runs the block on the caller's thread, then returns")
  func syncOntoOtherQueue() throws {
    let trace = run(
      try notes(
        #"[{"sync": "work", "do": [{"print": "inside"}]}, {"print": "after"}]"#,
        extra: #", "queues": {"work": "serial"}"#))
    #expect(trace.violations.isEmpty)
    #expect(trace.lines == ["print: inside", "print: after"])
    #expect(trace.events.first { $0.effect == .printed("inside") }?.site.queue == "work")
  }
}
