import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

@Suite("Object IDs, faults and child contexts")
struct ChildContextAndFaultTests {
  private let child =
    #"{"draft": {"queue": "main", "parent": "viewContext"}, "one": {"queue": "private"}}"#

  @Test("Object IDs print as Core Data's URIs: three slashes and t<UUID><n> while temporary")
  func uris() throws {
    let trace = run(
      try albums(
        #"""
        [{"insert": "Photo", "into": "viewContext", "as": "p"},
         {"objectID": "p", "as": "before"}, {"save": "viewContext"}, {"objectID": "p", "as": "after"},
         {"fetch": "Album", "in": "viewContext", "first": true, "as": "a"}, {"objectID": "a", "as": "stored"},
         {"print": "$before"}, {"print": "$after"}, {"print": "$stored"}]
        """#))
    let printed = trace.lines.filter { $0.hasPrefix("print: ") }.map { String($0.dropFirst(7)) }
    #expect(printed.count == 3)
    let uuid = "[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}"
    #expect(printed[0].wholeMatch(of: try Regex("x-coredata:///Photo/t\(uuid)1")) != nil)
    #expect(printed[1].wholeMatch(of: try Regex("x-coredata://\(uuid)/Photo/p2")) != nil)
    #expect(printed[2].wholeMatch(of: try Regex("x-coredata://\(uuid)/Album/p1")) != nil)
  }

  @Test("A child's save reaches its parent's memory only; the second save reaches the store")
  func twoStepSave() throws {
    let trace = run(
      try albums(
        #"""
        [{"insert": "Album", "into": "draft", "as": "a", "values": {"title": "New"}},
         {"save": "draft"},
         {"count": "Album", "in": "viewContext"},
         {"performAndWait": "one", "do": [{"count": "Album", "in": "one"}]},
         {"save": "viewContext"},
         {"performAndWait": "one", "do": [{"count": "Album", "in": "one"}]}]
        """#, contexts: child))
    #expect(trace.violations.isEmpty)
    #expect(
      trace.lines == [
        "inserted Album/t1 into draft",
        "saved draft into its parent viewContext: inserted Album/t1",
        "counted 2 Album in viewContext", "counted 1 Album in one",
        "saved viewContext to the store: inserted Album/p2", "counted 2 Album in one",
      ])
  }

  @Test("After the two-step save the child's object still has its temporary ID")
  func childKeepsTemporaryID() throws {
    let trace = run(
      try albums(
        #"""
        [{"insert": "Album", "into": "draft", "as": "a"},
         {"save": "draft"}, {"save": "viewContext"},
         {"objectID": "a", "as": "id"}, {"print": "$id"},
         {"performAndWait": "one", "do": [
           {"existingObject": "$id", "in": "one", "as": "x", "label": "stale-id"}]}]
        """#, contexts: child))
    #expect(trace.lines.contains { $0.hasPrefix("print: x-coredata:///Album/t") })
    #expect(trace.kinds == [.objectNotFound])
    #expect(trace.violations.first?.labels == ["stale-id"])
  }

  @Test("A child fetch sees its parent's unsaved changes; dropping the child discards its drafts")
  func childReadsThroughParent() throws {
    let trace = run(
      try albums(
        #"""
        [{"fetch": "Album", "in": "viewContext", "first": true, "as": "a"},
         {"set": "a.title", "to": "Edited"},
         {"fetch": "Album", "in": "draft", "where": {"title": "Edited"}, "first": true, "as": "d"},
         {"set": "d.title", "to": "Draft"},
         {"reset": "draft"},
         {"get": "a.title"},
         {"count": "Album", "in": "draft", "where": {"title": "Draft"}}]
        """#, contexts: child))
    #expect(trace.violations.isEmpty)
    #expect(trace.lines.contains("fetched album-1 into draft"))
    #expect(
      trace.lines.suffix(3) == [
        "reset draft: forgot 2 objects", #"read album-1.title: "Edited""#,
        "counted 0 Album in draft",
      ])
  }

  @Test("A child's save overwrites its parent's unsaved values without a conflict")
  func childOverwritesParent() throws {
    let trace = run(
      try albums(
        #"""
        [{"fetch": "Album", "in": "draft", "first": true, "as": "d"},
         {"set": "d.title", "to": "From child"},
         {"fetch": "Album", "in": "viewContext", "first": true, "as": "a"},
         {"set": "a.title", "to": "From parent"},
         {"save": "draft"}, {"get": "a.title"}]
        """#, contexts: child))
    #expect(trace.violations.isEmpty)
    #expect(trace.lines.last == #"read album-1.title: "From child""#)
  }

  @Test(
    "A row deleted elsewhere: existingObject(with:) throws 133000, object(with:) waits for the read"
  )
  func deletedRowLookups() throws {
    let steps = { (lookup: String) in
      #"""
      [{"fetch": "Photo", "in": "viewContext", "first": true, "as": "p"}, {"objectID": "p", "as": "id"},
       {"performAndWait": "one", "do": [
         {"existingObject": "$id", "in": "one", "as": "mine"}, {"delete": "mine"}, {"save": "one"}]},
       {"performAndWait": "two", "do": [
         {"\#(lookup)": "$id", "in": "two", "as": "x", "label": "look-up"},
         {"get": "x.url", "label": "read"}]}]
      """#
    }
    let existing = run(try albums(steps("existingObject")))
    #expect(existing.kinds == [.objectNotFound])
    #expect(existing.violations.first?.labels == ["look-up"])
    #expect(existing.lines.contains("x is nil, so nothing happens"))
    let object = run(try albums(steps("object")))
    #expect(object.kinds == [.faultOnDeletedObject])
    #expect(object.violations.first?.labels == ["read"])
    #expect(object.lines.contains("read photo-1.url: nil"))
  }

  @Test(
    "With shouldDeleteInaccessibleFaults off, firing that fault raises NSObjectInaccessibleException"
  )
  func inaccessibleFaultThrows() throws {
    let trace = run(
      try albums(
        #"""
        [{"fetch": "Photo", "in": "viewContext", "first": true, "as": "p"}, {"objectID": "p", "as": "id"},
         {"performAndWait": "one", "do": [
           {"existingObject": "$id", "in": "one", "as": "mine"}, {"delete": "mine"}, {"save": "one"}]},
         {"performAndWait": "two", "do": [{"object": "$id", "in": "two", "as": "x"}, {"get": "x.url"}]}]
        """#,
        contexts:
          #"{"one": {"queue": "private"}, "two": {"queue": "private", "shouldDeleteInaccessibleFaults": false}}"#
      ))
    let violation = try #require(trace.violations.first)
    #expect(violation.kind == .faultOnDeletedObject)
    #expect(violation.termination == .uncaughtException)
    let crash = try #require(Messages.crashLine(violation))
    // The object ID's description, as Core Data prints it: a pointer, then the URI.
    #expect(
      crash.hasPrefix(
        "*** Terminating app due to uncaught exception 'NSObjectInaccessibleException', reason: 'CoreData could not fulfill a fault for '0x600000c000c0 <x-coredata://"
      ))
    #expect(crash.hasSuffix("/Photo/p1>''"))
  }

  @Test("A fired object keeps its stale values until refreshed")
  func staleUntilRefreshed() throws {
    let trace = run(
      try albums(
        #"""
        [{"fetch": "Album", "in": "viewContext", "first": true, "as": "a"}, {"get": "a.title"},
         {"performAndWait": "one", "do": [
           {"fetch": "Album", "in": "one", "first": true, "as": "b"},
           {"set": "b.title", "to": "Renamed"}, {"save": "one"}]},
         {"get": "a.title"}, {"refresh": "a", "merge": false}, {"get": "a.title"}]
        """#))
    #expect(
      trace.lines.filter { $0.hasPrefix("read") } == [
        #"read album-1.title: "Trip""#, #"read album-1.title: "Trip""#,
        #"read album-1.title: "Renamed""#,
      ])
  }

  @Test("refreshAllObjects reloads every object the context holds and keeps its changes")
  func refreshAllObjects() throws {
    let trace = run(
      try albums(
        #"""
        [{"fetch": "Album", "in": "viewContext", "first": true, "as": "a"}, {"get": "a.title"},
         {"fetch": "Photo", "in": "viewContext", "first": true, "as": "p"},
         {"set": "p.title", "to": "Mine"},
         {"performAndWait": "one", "do": [
           {"fetch": "Album", "in": "one", "first": true, "as": "b"},
           {"set": "b.title", "to": "Renamed"}, {"save": "one"}]},
         {"refreshAllObjects": "viewContext"}, {"get": "a.title"}, {"get": "p.title"},
         {"performAndWait": "two", "do": [{"refreshAllObjects": "two"}]}]
        """#))
    #expect(trace.violations.isEmpty)
    #expect(
      trace.lines.suffix(4) == [
        "refreshed album-1, photo-1 in viewContext, keeping their changes",
        #"read album-1.title: "Renamed""#, #"read photo-1.title: "Mine""#,
        "refreshed two: it holds no objects",
      ])
  }

  @Test("refreshAllObjects off the context's queue traps, as Core Data checks it")
  func refreshAllObjectsOffQueue() throws {
    let trace = run(try albums(#"[{"refreshAllObjects": "one"}]"#))
    let facts = try trapFacts(trace.violations.first)
    #expect(trace.kinds == [.wrongQueueContext])
    #expect(facts.method == "-[NSManagedObjectContext refreshAllObjects]")
  }
}

@Suite("Permanent IDs ahead of the save")
struct PermanentIDTests {
  @Test(
    "obtainPermanentIDs before the child's save: the ID the child holds opens the object anywhere")
  func workaround() throws {
    let trace = run(
      try albums(
        #"""
        [{"insert": "Album", "into": "draft", "as": "a", "values": {"title": "New"}},
         {"obtainPermanentIDs": "draft"},
         {"save": "draft"}, {"save": "viewContext"},
         {"objectID": "a", "as": "id"},
         {"performAndWait": "one", "do": [{"existingObject": "$id", "in": "one", "as": "x"}, {"get": "x.title"}]}]
        """#,
        contexts:
          #"{"draft": {"queue": "main", "parent": "viewContext"}, "one": {"queue": "private"}}"#))
    #expect(trace.violations.isEmpty)
    #expect(
      trace.lines == [
        "inserted Album/t1 into draft", "obtained permanent IDs in draft: Album/p2",
        "saved draft into its parent viewContext: inserted Album/p2",
        "saved viewContext to the store: inserted Album/p2",
        "fetched Album/p2 into one by its object ID",
        #"read Album/p2.title: "New""#,
      ])
  }
}
