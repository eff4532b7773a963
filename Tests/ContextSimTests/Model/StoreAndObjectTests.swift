import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

@Suite("Store, object IDs and lookups")
struct StoreAndObjectTests {
  @Test("An inserted object has a temporary ID until its context saves to the store")
  func temporaryThenPermanent() throws {
    let trace = run(
      try notes(
        #"""
        [{"insert": "Note", "into": "viewContext", "as": "n", "values": {"title": "New"}},
         {"objectID": "n", "as": "before"},
         {"save": "viewContext"},
         {"objectID": "n", "as": "after"},
         {"print": "$before then $after"}]
        """#))
    #expect(trace.violations.isEmpty)
    #expect(
      trace.lines == [
        "inserted Note/t1 into viewContext", "saved viewContext to the store: inserted Note/p3",
        "print: x-coredata:///Note/t2C5794A1-E555-CFDB-2CD1-00BF94EC65061 then "
          + "x-coredata://A9502980-AF24-9F3D-64F3-0219682E12B2/Note/p3",
      ])
  }

  @Test("A fetch filters with where, sees unsaved inserts and in-memory changes")
  func fetchSeesPendingChanges() throws {
    let trace = run(
      try notes(
        #"""
        [{"fetch": "Note", "in": "viewContext", "where": {"title": "Call Bob"}, "first": true, "as": "bob"},
         {"set": "bob.title", "to": "Call Robert"},
         {"insert": "Note", "into": "viewContext", "values": {"title": "Call Bob"}},
         {"fetch": "Note", "in": "viewContext", "where": {"title": "Call Bob"}},
         {"count": "Note", "in": "viewContext"},
         {"count": "Note", "in": "viewContext", "where": {"pinned": false}}]
        """#))
    #expect(
      trace.lines == [
        "fetched note-2 into viewContext", #"set note-2.title = "Call Robert""#,
        "inserted Note/t1 into viewContext", "fetched Note/t1 into viewContext",
        "counted 3 Note in viewContext", "counted 3 Note in viewContext",
      ])
  }

  @Test("Saving writes changes to the store, where another context then sees them")
  func saveReachesOtherContexts() throws {
    let trace = run(
      try notes(
        #"""
        [{"fetch": "Note", "in": "viewContext", "first": true, "as": "n"},
         {"set": "n.title", "to": "Buy oat milk"},
         {"save": "viewContext"},
         {"perform": "background", "do": [
           {"fetch": "Note", "in": "background", "first": true, "as": "m"},
           {"get": "m.title"}]}]
        """#))
    #expect(trace.violations.isEmpty)
    #expect(
      trace.lines.suffix(2) == [
        "fetched note-1 into background", #"read note-1.title: "Buy oat milk""#,
      ])
  }

  @Test("existingObject(with:) for an unsaved object of another context throws 133000")
  func existingObjectThrows() throws {
    let steps = { (mode: String) in
      #"""
      [{"performAndWait": "background", "do": [
         {"insert": "Note", "into": "background", "as": "draft"},
         {"objectID": "draft", "as": "id"}]},
       {"existingObject": "$id", "in": "viewContext", "as": "n", "try": "\#(mode)", "label": "look-up"}]
      """#
    }
    let caught = run(try notes(steps("do")))
    #expect(caught.kinds == [.objectNotFound])
    #expect(caught.violations.first?.termination == nil)
    #expect(
      caught.violations[0].headline
        == "viewContext.existingObject(with: Note/t1) threw 133000: Attempt to access an object not found in store."
    )
    #expect(run(try notes(steps("?"))).kinds == [.discardedError])
    let forced = run(try notes(steps("!")))
    #expect(forced.kinds == [.uncaughtError])
    #expect(forced.violations.first?.termination == .swiftRuntimeTrap)
  }

  @Test("object(with:) never throws; the fault fails when fired, as the context's option says")
  func objectWithFault() throws {
    let steps = #"""
      [{"performAndWait": "background", "do": [
         {"insert": "Note", "into": "background", "as": "draft"},
         {"objectID": "draft", "as": "id"}]},
       {"object": "$id", "in": "viewContext", "as": "n"},
       {"get": "n.title", "as": "title", "label": "fire"}]
      """#
    let deleting = run(try notes(steps))
    #expect(deleting.kinds == [.faultOnDeletedObject])
    #expect(deleting.violations.first?.labels == ["fire"])
    #expect(deleting.violations.first?.termination == nil)
    #expect(deleting.lines.last == "read Note/t1.title: nil")
    let throwing = run(
      try notes(
        steps,
        contexts:
          #"{"viewContext": {"shouldDeleteInaccessibleFaults": false}, "background": {"queue": "private"}}"#
      ))
    #expect(throwing.violations.first?.termination == .uncaughtException)
  }

  @Test("A save with a required attribute missing fails with 1570 and writes nothing")
  func validation() throws {
    let s = try scenario(
      #"""
      {"title": "v", "model": {"Note": {"attributes": {"title": {"type": "string", "optional": false}}}},
       "main": [{"insert": "Note", "into": "viewContext"}, {"save": "viewContext", "try": "?"},
                {"count": "Note", "in": "viewContext"}]}
      """#)
    let trace = run(s)
    #expect(trace.kinds == [.discardedError])
    #expect(trace.violations[0].headline.contains("1570 title is a required value."))
  }

  @Test("A key the entity does not have raises NSUnknownKeyException at run time")
  func unknownKey() throws {
    let s = try scenario(
      #"""
      {"title": "k", "model": {"Note": {"attributes": {"title": "string"}}}, "store": {"Note": [{"id": "n1"}]},
       "vars": {"cache": null},
       "main": [{"fetch": "Note", "in": "viewContext", "first": true, "as": "n"},
                {"write": "cache", "value": "$n"},
                {"read": "cache", "as": "x"},
                {"get": "x.titel", "label": "typo"}]}
      """#)
    let trace = run(s)
    #expect(trace.kinds == [.unknownKey])
    #expect(trace.violations.first?.termination == .uncaughtException)
    #expect(
      trace.violations.first.flatMap(Messages.crashLine)?.contains("NSUnknownKeyException") == true)
  }

  @Test("An expect step that sees something else reports what it saw")
  func expectStep() throws {
    let trace = run(
      try notes(
        #"""
        [{"expect": {"count": "Note", "in": "viewContext", "equals": 2}},
         {"expect": {"count": "Note", "in": "viewContext", "equals": 5}, "label": "wrong"}]
        """#))
    #expect(trace.kinds == [.expectationFailed])
    #expect(trace.violations[0].headline == "expected 5 Note in viewContext, saw 2")
  }
}
