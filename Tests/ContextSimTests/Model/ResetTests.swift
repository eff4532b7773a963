import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// `reset()` and the objects the app still holds afterwards (semantics-2 §5): each is a
/// fault with no context and its old object ID; reading it gives nil (a best guess, §5.2);
/// relating it in the reset context is a relationship across contexts.
@Suite("reset() and the objects the app still holds")
struct ResetTests {
  /// The object-state and context-property reads of a run, as `owner.name: value`.
  private func stateReads(_ trace: Trace) -> [String] {
    trace.events.compactMap { event in
      guard case .property(let owner, let name, let value, false) = event.effect else {
        return nil
      }
      return "\(owner).\(name): \(value.swiftDescription)"
    }
  }

  @Test("After reset each object the context held is a fault with no context and its old ID")
  func forgottenObjectsAreFaults() throws {
    let trace = run(
      try albums(
        #"""
        [{"fetch": "Album", "in": "viewContext", "first": true, "as": "a"}, {"get": "a.title"},
         {"insert": "Photo", "into": "viewContext", "as": "p"},
         {"reset": "viewContext"},
         {"get": "a.isFault"}, {"get": "a.managedObjectContext"}, {"get": "a.objectID"},
         {"get": "p.isFault"}, {"get": "p.managedObjectContext"}, {"get": "p.isInserted"},
         {"get": "viewContext.hasChanges"}]
        """#))
    #expect(trace.violations.isEmpty)
    // The album, its photo (registered as a fault when the album fired) and the insert.
    #expect(trace.lines.contains("reset viewContext: forgot 3 objects"))
    #expect(
      stateReads(trace) == [
        "album-1.isFault: true", "album-1.managedObjectContext: nil", "album-1.objectID: album-1",
        "Photo/t1.isFault: true", "Photo/t1.managedObjectContext: nil",
        "Photo/t1.isInserted: false", "viewContext.hasChanges: false",
      ])
  }

  @Test("Reading an object whose context was reset gives nil, with no exception, and says why")
  func readGivesNil() throws {
    let trace = run(
      try albums(
        #"""
        [{"fetch": "Album", "in": "viewContext", "first": true, "as": "a"},
         {"get": "a.title", "as": "before"},
         {"set": "a.title", "to": "Edited"},
         {"reset": "viewContext"},
         {"get": "a.title", "as": "after", "label": "read"},
         {"get": "a.photos"},
         {"expect": {"value": "after", "equals": null}}]
        """#))
    #expect(trace.violations.isEmpty, "not a deleted object, and no exception")
    #expect(
      trace.lines.suffix(4) == [
        "reset viewContext: forgot 2 objects",
        "read album-1.title: nil; viewContext was reset, so the fault has no context to load from",
        "read album-1.photos: nil; viewContext was reset, so the fault has no context to load from",
        "expect after == nil: holds",
      ])
  }

  @Test("A held object used as a relationship target in the reset context crosses contexts")
  func relatingCrossesContexts() throws {
    for relate in [
      #"{"insert": "Photo", "into": "viewContext", "values": {"album": "$a"}, "label": "relate"}"#,
      #"{"insert": "Photo", "into": "viewContext", "as": "p"}, {"set": "p.album", "to": "$a", "label": "relate"}"#,
    ] {
      let trace = run(
        try albums(
          #"""
          [{"fetch": "Album", "in": "viewContext", "first": true, "as": "a"},
           {"reset": "viewContext"}, \#(relate)]
          """#))
      let violation = try #require(trace.violations.first)
      #expect(trace.kinds == [.crossContextRelationship])
      #expect(violation.labels == ["relate"])
      let crash = try #require(Messages.crashLine(violation))
      #expect(crash.contains("Illegal attempt to establish a relationship 'album' between objects"))
      #expect(crash.contains("(entity: Album; id: x-coredata://"))
      #expect(crash.hasSuffix("/Album/p1; data: <fault>))'"))
    }
  }

  @Test(
    "Looking the object up again by its ID after the reset gives a live object to read and relate")
  func refetchByID() throws {
    let trace = run(
      try albums(
        #"""
        [{"fetch": "Album", "in": "viewContext", "first": true, "as": "a"},
         {"objectID": "a", "as": "id"},
         {"set": "a.title", "to": "Unsaved"},
         {"reset": "viewContext"},
         {"existingObject": "$id", "in": "viewContext", "as": "fresh"},
         {"get": "fresh.title"},
         {"insert": "Photo", "into": "viewContext", "values": {"album": "$fresh"}},
         {"save": "viewContext"}]
        """#))
    #expect(trace.violations.isEmpty)
    #expect(trace.lines.contains(#"read album-1.title: "Trip""#), "the unsaved edit is gone")
  }

  @Test("A child's reset asks its parent, and waits while the parent's queue is busy")
  func childResetWaitsForParent() throws {
    let trace = run(
      try albums(
        #"""
        [{"perform": "child", "do": [
           {"insert": "Photo", "into": "child"}, {"reset": "child", "label": "reset"}]},
         {"performAndWait": "child", "do": [{"print": "main waits for child"}]}]
        """#,
        contexts: #"{"child": {"queue": "private", "parent": "viewContext"}}"#))
    #expect(trace.kinds == [.deadlock])
    #expect(trace.lines.suffix(1) == ["asks its parent viewContext: blocks until main is free"])
  }
}
