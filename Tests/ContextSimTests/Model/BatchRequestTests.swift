import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

@Suite("Batch delete and insert")
struct BatchRequestTests {
  /// `Album(title) <->> Photo(url, album)` with the given rule on `photos` and optionality of
  /// `album`; album-1 has photo-1, album-2 has photo-2.
  private func library(rule: String, albumOptional: Bool = true, _ main: String) throws -> Scenario
  {
    try scenario(
      #"""
      {"title": "library",
       "model": {
         "Album": {"attributes": {"title": "string"},
                   "relationships": {"photos": {"to": "Photo", "many": true, "inverse": "album", "deleteRule": "\#(rule)"}}},
         "Photo": {"attributes": {"url": "string"},
                   "relationships": {"album": {"to": "Album", "inverse": "photos", "optional": \#(albumOptional)}}}},
       "store": {"Album": [{"id": "album-1", "title": "Trip"}, {"id": "album-2", "title": "Home"}],
                 "Photo": [{"id": "photo-1", "url": "a.jpg", "album": "album-1"},
                           {"id": "photo-2", "url": "b.jpg", "album": "album-2"}]},
       "main": \#(main)}
      """#)
  }

  @Test(
    "A batch delete removes the rows it matches from the store; the objects a context holds stay as they were"
  )
  func staleObjects() throws {
    let trace = run(
      try notes(
        #"""
        [{"fetch": "Note", "in": "viewContext", "first": true, "as": "top"}, {"get": "top.title"},
         {"batchDelete": "Note", "in": "viewContext", "where": {"title": "Buy milk"}, "as": "ids"},
         {"get": "top.title"}, {"get": "top.isDeleted"}, {"count": "Note", "in": "viewContext"}]
        """#))
    #expect(trace.violations.isEmpty)
    #expect(
      trace.lines.suffix(4) == [
        "batch-deleted 1 Note row in the store: note-1", #"read note-1.title: "Buy milk""#,
        "read note-1.isDeleted: false", "counted 1 Note in viewContext",
      ])
  }

  @Test("A fault on a batch-deleted row fails when it fires")
  func faultOnDeletedRow() throws {
    let trace = run(
      try notes(
        #"""
        [{"fetch": "Note", "in": "viewContext", "as": "shown"},
         {"batchDelete": "Note", "in": "viewContext"},
         {"forEach": "$shown", "as": "note", "do": [{"get": "note.title"}]}]
        """#))
    #expect(trace.kinds == [.faultOnDeletedObject, .faultOnDeletedObject])
  }

  @Test("Cascade deletes the destination rows with the rows asked for")
  func cascade() throws {
    let trace = run(
      try library(
        rule: "cascade",
        #"""
        [{"batchDelete": "Album", "in": "viewContext", "where": {"title": "Trip"}, "as": "ids"},
         {"count": "Photo", "in": "viewContext"}]
        """#))
    #expect(
      trace.lines == [
        "batch-deleted 1 Album row in the store: album-1, and by cascade photo-1",
        "counted 1 Photo in viewContext",
      ])
  }

  @Test(
    "Nullify clears the foreign keys that pointed at a deleted row, and moves those rows' versions on"
  )
  func nullify() throws {
    let trace = run(
      try library(
        rule: "nullify",
        #"""
        [{"fetch": "Photo", "in": "viewContext", "where": {"url": "a.jpg"}, "first": true, "as": "photo"},
         {"get": "photo.url"},
         {"batchDelete": "Album", "in": "viewContext", "where": {"title": "Trip"}},
         {"newContext": "fresh", "queue": "main"},
         {"count": "Photo", "in": "fresh", "where": {"album": null}},
         {"set": "photo.url", "to": "c.jpg"}, {"save": "viewContext", "label": "save"}]
        """#))
    #expect(trace.lines.contains("counted 1 Photo in fresh"))
    // The photo the context holds was read before the row's version moved on.
    #expect(trace.kinds == [.mergeConflict])
  }

  @Test("A deny rule refuses the whole batch delete with Cocoa error 134060")
  func deny() throws {
    let trace = run(
      try library(
        rule: "deny",
        #"""
        [{"batchDelete": "Album", "in": "viewContext", "as": "ids", "try": "?"},
         {"count": "Album", "in": "viewContext"}]
        """#))
    #expect(trace.kinds == [.discardedError])
    guard case .discardedError(let error, _)? = trace.violations.first?.detail else { return }
    #expect(error.code == 134_060)
    #expect(error.details.first == "Reason: Delete rule is not supported for batch deletes")
    #expect(trace.lines.last == "counted 2 Album in viewContext")
  }

  @Test("A nullify whose inverse is mandatory refuses the batch delete when a row would lose it")
  func mandatoryInverse() throws {
    let trace = run(
      try library(
        rule: "nullify", albumOptional: false,
        #"""
        [{"batchDelete": "Album", "in": "viewContext", "where": {"title": "Trip"}, "try": "?"},
         {"batchDelete": "Photo", "in": "viewContext", "where": {"url": "a.jpg"}},
         {"batchDelete": "Album", "in": "viewContext", "where": {"title": "Trip"}}]
        """#))
    #expect(trace.kinds == [.discardedError])
    guard case .discardedError(let error, _)? = trace.violations.first?.detail else { return }
    #expect(error.code == 134_050)
    #expect(
      error.message
        == "Constraint trigger violation: Batch delete failed due to manadatory OTM nullify inverse on Album/photos"
    )
    #expect(trace.lines.last == "batch-deleted 1 Album row in the store: album-1")
  }

  @Test("A batch delete of no object IDs raises NSInvalidArgumentException as the request is made")
  func noObjectIDs() throws {
    let trace = run(
      try notes(
        #"""
        [{"batchDelete": "Note", "in": "viewContext", "where": {"title": "nothing"}, "as": "ids"},
         {"batchDelete": "$ids", "in": "viewContext"}]
        """#))
    #expect(trace.kinds == [.invalidRequest])
    #expect(trace.violations.first?.termination == .uncaughtException)
    #expect(
      trace.violations.first.flatMap(Messages.crashLine)
        == "*** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: 'Must supply a non-zero number of objectIDs to request during initialization'"
    )
  }

  @Test("A batch delete of two entities' IDs is refused as the request is made")
  func mismatchedObjectIDs() throws {
    let trace = run(
      try library(
        rule: "nullify",
        #"""
        [{"fetch": "Album", "in": "viewContext", "first": true, "as": "album"},
         {"fetch": "Photo", "in": "viewContext", "first": true, "as": "photo"},
         {"objectID": "album", "as": "a"}, {"objectID": "photo", "as": "p"},
         {"let": "ids", "value": ["$a", "$p"]},
         {"batchDelete": "$ids", "in": "viewContext"},
         {"count": "Album", "in": "viewContext"}]
        """#))
    #expect(trace.kinds == [.invalidRequest])
    #expect(
      trace.violations.first.map(\.headline)
        == "a request Core Data refuses: NSInvalidArgumentException")
    #expect(trace.lines.last == "counted 2 Album in viewContext")
  }

  @Test("An injected store error makes a batch request throw, and it deletes nothing")
  func injectedError() throws {
    let trace = run(
      try notes(
        #"""
        [{"batchDelete": "Note", "in": "viewContext", "as": "ids", "try": "?", "label": "empty"},
         {"print": "deleted $ids"}, {"count": "Note", "in": "viewContext"}]
        """#, extra: #", "inject": [{"at": "empty", "error": 134030}]"#))
    #expect(trace.kinds == [.discardedError])
    #expect(trace.lines.suffix(2) == ["print: deleted nil", "counted 2 Note in viewContext"])
  }

  @Test("A batch delete by object IDs deletes those rows")
  func byObjectIDs() throws {
    let trace = run(
      try notes(
        #"""
        [{"fetch": "Note", "in": "viewContext", "first": true, "as": "top"},
         {"objectID": "top", "as": "id"},
         {"batchDelete": "$id", "in": "viewContext", "as": "deleted"},
         {"count": "Note", "in": "viewContext"}]
        """#))
    #expect(trace.violations.isEmpty)
    #expect(
      trace.lines.suffix(2) == [
        "batch-deleted 1 Note row in the store: note-1", "counted 1 Note in viewContext",
      ])
  }

  @Test(
    "A batch insert writes rows with permanent IDs and the model's defaults, which the next fetch finds"
  )
  func batchInsert() throws {
    let trace = run(
      try notes(
        #"""
        [{"batchInsert": "Note", "in": "viewContext", "objects": [{"title": "Pay rent"}, {}], "as": "ids"},
         {"count": "Note", "in": "viewContext", "where": {"pinned": false}},
         {"existingObject": "$ids", "in": "viewContext", "as": "none", "when": {"value": "ids", "equals": null}},
         {"forEach": "$ids", "as": "id", "do": [{"existingObject": "$id", "in": "viewContext", "as": "n"}, {"get": "n.title"}]}]
        """#))
    #expect(trace.violations.isEmpty)
    #expect(
      trace.lines == [
        "batch-inserted 2 Note rows into the store: Note/p3, Note/p4",
        "counted 4 Note in viewContext", "fetched Note/p3 into viewContext by its object ID",
        #"read Note/p3.title: "Pay rent""#, "fetched Note/p4 into viewContext by its object ID",
        "read Note/p4.title: nil",
      ])
  }

  @Test("A child context's batch request runs on its parent's queue")
  func childAsksParent() throws {
    let trace = run(
      try notes(
        #"""
        [{"perform": "child", "do": [
          {"batchDelete": "Note", "in": "child", "where": {"title": "Buy milk"}},
          {"batchInsert": "Note", "in": "child", "objects": [{"title": "x"}]}]}]
        """#,
        contexts: #"{"child": {"queue": "private", "parent": "viewContext"}}"#))
    #expect(trace.violations.isEmpty)
    #expect(
      trace.allLines.filter { $0.hasPrefix("asks") } == [
        "asks its parent viewContext, on main", "asks its parent viewContext, on main",
      ])
  }
}
