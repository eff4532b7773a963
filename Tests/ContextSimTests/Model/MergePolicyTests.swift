import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// The worked example of the semantics reference (§8.4): two contexts load one row;
/// context one saves first, then context two saves its own changes under a policy.
@Suite("Merge policies")
struct MergePolicyTests {
  private func people(policy: String, first: String, second: String) throws -> Scenario {
    try scenario(
      #"""
      {"title": "policies", "model": {"Person": {"attributes": {"name": "string", "home": "string"}}},
       "store": {"Person": [{"id": "person-1", "name": "tttt", "home": "beijing"}]},
       "contexts": {"one": {"queue": "private"}, "two": {"queue": "private", "mergePolicy": "\#(policy)"},
                    "reader": {"queue": "private"}},
       "main": [
         {"performAndWait": "one", "do": [{"fetch": "Person", "in": "one", "first": true, "as": "p"}, {"get": "p.name"}]},
         {"performAndWait": "two", "do": [{"fetch": "Person", "in": "two", "first": true, "as": "q"}, {"get": "q.name"}]},
         {"performAndWait": "one", "do": [\#(first), {"save": "one"}]},
         {"performAndWait": "two", "do": [\#(second), {"save": "two", "label": "second-save"}]},
         {"performAndWait": "reader", "do": [
           {"fetch": "Person", "in": "reader", "first": true, "as": "r"}, {"get": "r.name"}, {"get": "r.home"}]}
       ]}
      """#)
  }

  /// What the store holds after the second save: name and home.
  private func outcome(_ trace: Trace) -> [String] {
    Array(trace.lines.suffix(2))
  }

  private let caseA = (
    first: #"{"set": "p.name", "to": "change name1"}"#,
    second: #"{"set": "q.name", "to": "change name2"}, {"set": "q.home", "to": "change home2"}"#
  )
  private let caseB = (
    first: #"{"set": "p.name", "to": "change name1"}, {"set": "p.home", "to": "change home1"}"#,
    second: #"{"set": "q.name", "to": "change name2"}"#
  )

  @Test("The default error policy fails the save with 133020 and writes nothing")
  func errorPolicy() throws {
    let trace = run(try people(policy: "error", first: caseA.first, second: caseA.second))
    #expect(trace.kinds == [.mergeConflict])
    let violation = trace.violations[0]
    #expect(violation.labels == ["second-save"])
    let error = try caughtError(violation)
    #expect(error.code == 133_020)
    #expect(error.message == "Could not merge changes.")
    #expect(
      error.details == [
        "NSMergeConflict for person-1 with oldVersion = 1 and newVersion = 2 and old object snapshot = "
          + "{home = beijing; name = tttt} and new cached row = {home = beijing; name = change name1}"
      ])
    #expect(
      outcome(trace) == [#"read person-1.name: "change name1""#, #"read person-1.home: "beijing""#])
  }

  @Test(
    "Each policy resolves case A (one changed name; two changed name and home) its own way",
    arguments: [
      ("mergeByPropertyStoreTrump", "change name1", "change home2"),
      ("mergeByPropertyObjectTrump", "change name2", "change home2"),
      ("overwrite", "change name2", "change home2"),
      ("rollback", "change name1", "beijing"),
    ])
  func caseA(policy: String, name: String, home: String) throws {
    let trace = run(try people(policy: policy, first: caseA.first, second: caseA.second))
    #expect(trace.violations.isEmpty)
    #expect(
      outcome(trace) == [#"read person-1.name: "\#(name)""#, #"read person-1.home: "\#(home)""#])
  }

  @Test(
    "Each policy resolves case B (one changed name and home; two changed name) its own way",
    arguments: [
      ("mergeByPropertyStoreTrump", "change name1", "change home1"),
      ("mergeByPropertyObjectTrump", "change name2", "change home1"),
      ("overwrite", "change name2", "beijing"),
      ("rollback", "change name1", "change home1"),
    ])
  func caseB(policy: String, name: String, home: String) throws {
    let trace = run(try people(policy: policy, first: caseB.first, second: caseB.second))
    #expect(trace.violations.isEmpty)
    #expect(
      outcome(trace) == [#"read person-1.name: "\#(name)""#, #"read person-1.home: "\#(home)""#])
  }

  @Test(
    "Deleted by one, changed by two: only overwrite brings the row back",
    arguments: [
      ("mergeByPropertyStoreTrump", 0), ("mergeByPropertyObjectTrump", 0), ("rollback", 0),
      ("overwrite", 1),
    ])
  func deleteVersusModify(policy: String, rows: Int) throws {
    let s = try people(
      policy: policy, first: #"{"delete": "p"}"#,
      second: #"{"set": "q.name", "to": "change name2"}"#)
    let trace = run(s)
    #expect(trace.violations.isEmpty)
    #expect(
      trace.lines.contains(
        rows == 0 ? "fetched no Person into reader" : "fetched person-1 into reader"))
  }
}

@Suite("Unique constraints and validation")
struct ConstraintTests {
  private func photos(policy: String, steps: String) throws -> Scenario {
    try scenario(
      #"""
      {"title": "unique", "model": {"Photo": {"attributes": {"url": "string", "title": "string"}, "unique": [["url"]]}},
       "store": {"Photo": [{"id": "photo-1", "url": "a.jpg", "title": "stored"}]},
       "contexts": {"viewContext": {"mergePolicy": "\#(policy)"}},
       "main": \#(steps)}
      """#)
  }

  private let duplicate = #"""
    [{"insert": "Photo", "into": "viewContext", "values": {"url": "a.jpg", "title": "new"}},
     {"save": "viewContext", "label": "save"},
     {"fetch": "Photo", "in": "viewContext", "as": "all"},
     {"forEach": "$all", "as": "p", "do": [{"get": "p.title"}]}]
    """#

  @Test("With the error policy a duplicate fails the save with 133021")
  func errorPolicy() throws {
    let trace = run(try photos(policy: "error", steps: duplicate))
    #expect(trace.kinds == [.constraintConflict])
    let error = try caughtError(trace.violations.first)
    #expect(error.code == 133_021)
    #expect(
      error.details == [
        "NSConstraintConflict for constraint (url) with values (a.jpg): database: photo-1, conflictedObjects: (Photo/t1)"
      ])
  }

  @Test("Object trump turns the duplicate insert into an update of the stored row")
  func objectTrump() throws {
    let trace = run(try photos(policy: "mergeByPropertyObjectTrump", steps: duplicate))
    #expect(trace.violations.isEmpty)
    #expect(trace.lines.contains("saved viewContext to the store: updated photo-1"))
    #expect(
      trace.lines.suffix(2) == ["fetched photo-1 into viewContext", #"read photo-1.title: "new""#])
  }

  @Test("Store trump keeps the stored row as it is")
  func storeTrump() throws {
    let trace = run(try photos(policy: "mergeByPropertyStoreTrump", steps: duplicate))
    #expect(trace.violations.isEmpty)
    #expect(
      trace.lines.suffix(2) == [
        "fetched photo-1 into viewContext", #"read photo-1.title: "stored""#,
      ])
  }

  @Test("Two new objects with one URL in one save fold into one row under a trump policy")
  func duplicatesInMemory() throws {
    let trace = run(
      try photos(
        policy: "mergeByPropertyObjectTrump",
        steps: #"""
          [{"insert": "Photo", "into": "viewContext", "values": {"url": "b.jpg", "title": "first"}},
           {"insert": "Photo", "into": "viewContext", "values": {"url": "b.jpg", "title": "second"}},
           {"save": "viewContext"}, {"count": "Photo", "in": "viewContext", "where": {"url": "b.jpg"}}]
          """#))
    #expect(trace.violations.isEmpty)
    #expect(
      trace.lines.suffix(2) == [
        "saved viewContext to the store: inserted Photo/p2", "counted 1 Photo in viewContext",
      ])
  }

  @Test("Several validation failures are wrapped in 1560, and nothing is written")
  func multipleValidationErrors() throws {
    let s = try scenario(
      #"""
      {"title": "v", "model": {"Photo": {"attributes": {"url": {"type": "string", "optional": false},
                                                        "title": {"type": "string", "optional": false}}}},
       "main": [{"insert": "Photo", "into": "viewContext"}, {"save": "viewContext"},
                {"count": "Photo", "in": "viewContext"}]}
      """#)
    let trace = run(s)
    #expect(trace.kinds == [.validationFailed])
    let error = try caughtError(trace.violations.first)
    #expect(error.code == 1560)
    #expect(error.message == "Multiple validation errors occurred.")
    #expect(
      error.details == ["1570: url is a required value.", "1570: title is a required value."])
  }

  @Test("A required to-one left empty fails with 1570")
  func requiredRelationship() throws {
    let s = try scenario(
      #"""
      {"title": "v", "model": {
         "Album": {"relationships": {"photos": {"to": "Photo", "many": true, "inverse": "album"}}},
         "Photo": {"relationships": {"album": {"to": "Album", "inverse": "photos", "optional": false}}}},
       "main": [{"insert": "Photo", "into": "viewContext"}, {"save": "viewContext", "try": "!"}]}
      """#)
    let trace = run(s)
    #expect(trace.kinds == [.uncaughtError])
    #expect(
      trace.violations.first.flatMap(Messages.crashLine)
        == "Fatal error: 'try!' expression unexpectedly raised an error: Error Domain=NSCocoaErrorDomain Code=1570 \"album is a required value.\""
    )
  }
}
