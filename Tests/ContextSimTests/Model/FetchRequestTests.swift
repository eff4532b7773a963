import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// Five notes with a title, a rank (one of them nil), a date and a read flag, in a model
/// with an album, and the given steps for the main thread.
private func inbox(_ main: String) throws -> Scenario {
  try scenario(
    """
    {
      "title": "inbox",
      "model": {
        "Note": {
          "attributes": {"title": "string", "rank": "integer", "score": "double", "date": "date",
                         "read": {"type": "boolean", "default": false}},
          "relationships": {"album": {"to": "Album", "inverse": "notes"}}
        },
        "Album": {"attributes": {"name": "string"},
                  "relationships": {"notes": {"to": "Note", "many": true, "inverse": "album"}}}
      },
      "store": {
        "Album": [{"id": "album-1", "name": "Work"}, {"id": "album-2", "name": "Home"}],
        "Note": [
          {"id": "note-1", "title": "Buy milk", "rank": 2, "score": 1.5, "date": "2024-03-01", "album": "album-1"},
          {"id": "note-2", "title": "call Bob", "rank": 5, "score": 2, "date": "2024-01-01", "read": true},
          {"id": "note-3", "title": "Pay rent", "date": "2024-05-01", "album": "album-2"},
          {"id": "note-4", "title": "Book flights", "rank": 1, "score": 0.5, "date": "2024-04-01", "album": "album-1"},
          {"id": "note-5", "rank": 3, "date": "2024-02-01", "read": true}
        ]
      },
      "contexts": {"background": {"queue": "private"}},
      "main": \(main)
    }
    """)
}

/// The lines a run of the main steps prints.
private func lines(_ main: String) throws -> [String] {
  let trace = run(try inbox(main))
  #expect(trace.violations.isEmpty, "\(trace.kinds)")
  return trace.lines
}

/// What one fetch in `viewContext` finds with the given extra keys.
private func fetched(_ keys: String) throws -> String? {
  try lines(#"[{"fetch": "Note", "in": "viewContext", \#(keys)}]"#).first
}

@Suite("Fetch requests: predicates, sort descriptors and limits")
struct FetchRequestTests {
  @Test(
    "Each comparison operator matches as NSPredicate's does",
    arguments: [
      (#"{"rank": {"!=": 2}}"#, "note-2, note-3, note-4, note-5"),
      (#"{"rank": {"<": 3}}"#, "note-1, note-4"),
      (#"{"rank": {"<=": 3}}"#, "note-1, note-4, note-5"),
      (#"{"rank": {">": 2}}"#, "note-2, note-5"),
      (#"{"rank": {">=": 2, "<": 5}}"#, "note-1, note-5"),
      (#"{"rank": {"IN": [1, 5]}}"#, "note-2, note-4"),
      (#"{"score": {">": 1}}"#, "note-1, note-2"),
      (#"{"score": {"<": 2}}"#, "note-1, note-4"),
      (#"{"title": {"<": "Buy"}}"#, "note-4"),
      (#"{"title": {">=": "a"}}"#, "note-2"),
      (#"{"date": {">": "2024-03-01"}}"#, "note-3, note-4"),
      (#"{"read": {"!=": true}}"#, "note-1, note-3, note-4"),
    ])
  func comparisons(_ predicate: String, _ expected: String) throws {
    let ids = expected.split(separator: ", ")
    let line =
      ids.count == 1
      ? "fetched \(expected) into viewContext"
      : "fetched \(ids.count) Note into viewContext: \(expected)"
    #expect(try fetched(#""where": \#(predicate)"#) == line)
  }

  @Test("A comparison with nil: == and != test for it, and no ordering holds against it")
  func nilComparisons() throws {
    #expect(try fetched(#""where": {"rank": null}"#) == "fetched note-3 into viewContext")
    #expect(try fetched(#""where": {"rank": {"==": null}}"#) == "fetched note-3 into viewContext")
    #expect(
      try fetched(#""where": {"title": {"!=": null}}"#)
        == "fetched 4 Note into viewContext: note-1, note-2, note-3, note-4")
    // note-3's rank is nil: neither below 10 nor at least 10, and != 2 all the same.
    #expect(
      try fetched(#""where": {"rank": {"<": 10}}"#)
        == "fetched 4 Note into viewContext: note-1, note-2, note-4, note-5")
    #expect(try fetched(#""where": {"rank": {">=": 10}}"#) == "fetched no Note into viewContext")
  }

  @Test("AND, OR and NOT join conditions, and nest")
  func compounds() throws {
    #expect(
      try fetched(#""where": {"OR": [{"rank": 1}, {"read": true}]}"#)
        == "fetched 3 Note into viewContext: note-2, note-4, note-5")
    #expect(
      try fetched(#""where": {"NOT": {"read": true}, "rank": {"!=": null}}"#)
        == "fetched 2 Note into viewContext: note-1, note-4")
    #expect(
      try fetched(
        #""where": {"AND": [{"read": false}, {"OR": [{"rank": {">": 1}}, {"rank": null}]}]}"#)
        == "fetched 2 Note into viewContext: note-1, note-3")
  }

  @Test("A to-one relationship compares with objects and object IDs: ==, != and IN")
  func relationships() throws {
    let found = try lines(
      #"""
      [{"fetch": "Album", "in": "viewContext", "where": {"name": "Work"}, "first": true, "as": "work"},
       {"fetch": "Album", "in": "viewContext", "where": {"name": "Home"}, "first": true, "as": "home"},
       {"objectID": "home", "as": "homeID"},
       {"fetch": "Note", "in": "viewContext", "where": {"album": {"!=": "$work"}}},
       {"fetch": "Note", "in": "viewContext", "where": {"album": {"IN": ["$work", "$homeID"]}}},
       {"fetch": "Note", "in": "viewContext", "where": {"album": {"!=": null}, "rank": {"<": 2}}}]
      """#)
    #expect(
      found.suffix(3) == [
        "fetched 3 Note into viewContext: note-2, note-3, note-5",
        "fetched 3 Note into viewContext: note-1, note-3, note-4",
        "fetched note-4 into viewContext",
      ])
  }

  @Test("Sort descriptors order the results, nil first when ascending; ties keep store order")
  func sorting() throws {
    #expect(
      try fetched(#""sortBy": [{"key": "date", "ascending": false}]"#)
        == "fetched 5 Note into viewContext: note-3, note-4, note-1, note-5, note-2")
    #expect(
      try fetched(#""sortBy": [{"key": "rank"}]"#)
        == "fetched 5 Note into viewContext: note-3, note-4, note-1, note-5, note-2")
    #expect(
      try fetched(#""sortBy": [{"key": "rank", "ascending": false}]"#)
        == "fetched 5 Note into viewContext: note-2, note-5, note-1, note-4, note-3")
    #expect(
      try fetched(#""sortBy": [{"key": "read"}, {"key": "title"}]"#)
        == "fetched 5 Note into viewContext: note-4, note-1, note-3, note-5, note-2")
  }

  @Test("A limit keeps the first N after sorting; first: true is the first of those")
  func limit() throws {
    #expect(
      try fetched(
        #""where": {"read": false}, "sortBy": [{"key": "date", "ascending": false}], "limit": 2"#)
        == "fetched 2 Note into viewContext: note-3, note-4")
    #expect(try fetched(#""limit": 1"#) == "fetched note-1 into viewContext")
    #expect(
      try fetched(#""sortBy": [{"key": "date"}], "limit": 3, "first": true"#)
        == "fetched note-2 into viewContext")
  }

  @Test("Sorting sees the context's unsaved changes and inserts, as a fetch does")
  func sortingSeesPendingChanges() throws {
    let found = try lines(
      #"""
      [{"fetch": "Note", "in": "viewContext", "where": {"title": "Pay rent"}, "first": true, "as": "rent"},
       {"set": "rent.date", "to": "2023-01-01"},
       {"insert": "Note", "into": "viewContext", "values": {"title": "New", "date": "2025-01-01"}},
       {"fetch": "Note", "in": "viewContext", "sortBy": [{"key": "date", "ascending": false}], "limit": 3}]
      """#)
    #expect(found.last == "fetched 3 Note into viewContext: Note/t1, note-4, note-1")
  }

  @Test("count and expect count take the same predicates")
  func countsAndExpectations() throws {
    let found = try lines(
      #"""
      [{"count": "Note", "in": "viewContext", "where": {"OR": [{"rank": {"<": 2}}, {"rank": null}]}},
       {"expect": {"count": "Note", "in": "viewContext", "where": {"title": {"IN": ["Pay rent", "x"]}}, "equals": 1}}]
      """#)
    #expect(
      found == [
        "counted 2 Note in viewContext",
        #"expect 1 Note where title in ["Pay rent", "x"] in viewContext: holds"#,
      ])
  }

  @Test("A batch update writes only the rows its predicate matches")
  func batchUpdate() throws {
    let found = try lines(
      #"""
      [{"batchUpdate": "Note", "in": "viewContext", "where": {"rank": {">=": 3}}, "set": {"read": false}},
       {"count": "Note", "in": "viewContext", "where": {"read": true}}]
      """#)
    #expect(found == ["batch-updated 2 Note rows in the store", "counted 0 Note in viewContext"])
  }

  @Test("A predicate's $variables are read when the step runs, on its thread")
  func variablesResolveAtRunTime() throws {
    let found = try lines(
      #"""
      [{"let": "cutoff", "value": 3},
       {"perform": "background", "do": [
         {"fetch": "Note", "in": "background", "where": {"rank": {"<": "$cutoff"}},
          "sortBy": [{"key": "rank"}], "as": "low"},
         {"forEach": "$low", "as": "note", "do": [{"get": "note.title"}]}]}]
      """#)
    #expect(
      found == [
        "fetched 2 Note into background: note-4, note-1",
        #"read note-4.title: "Book flights""#, #"read note-1.title: "Buy milk""#,
      ])
  }

  @Test("forEach runs over a literal list of objects, binding each as an object")
  func forEachOverObjects() throws {
    let found = try lines(
      #"""
      [{"fetch": "Album", "in": "viewContext", "where": {"name": "Work"}, "first": true, "as": "work"},
       {"fetch": "Album", "in": "viewContext", "where": {"name": "Home"}, "first": true, "as": "home"},
       {"forEach": ["$home", "$work"], "as": "album", "do": [{"get": "album.name"}]}]
      """#)
    #expect(found.suffix(2) == [#"read album-2.name: "Home""#, #"read album-1.name: "Work""#])
  }
}

@Suite("Values compared as NSPredicate compares them")
struct ValueComparisonTests {
  @Test("Numbers compare by value across integer and double; other mixes do not order")
  func ordering() {
    #expect(Value.integer(2).satisfies(.lessThan, .double(2.5)))
    #expect(Value.double(2).satisfies(.equal, .integer(2)))
    #expect(!Value.string("2").satisfies(.lessThan, .integer(3)))
    #expect(!Value.string("2").satisfies(.greaterThanOrEqual, .integer(3)))
    #expect(Value.string("2").satisfies(.notEqual, .integer(2)))
    #expect(Value.bool(false).satisfies(.lessThan, .bool(true)))
  }

  @Test("Strings order by Unicode scalars: capitals before lowercase, as SQLite's BINARY does")
  func strings() {
    #expect(Value.string("Zoo").satisfies(.lessThan, .string("apple")))
    #expect(Value.string("é").satisfies(.greaterThan, .string("z")))
    #expect(Value.string("ab").satisfies(.lessThan, .string("abc")))
  }

  @Test("nil is only == nil; IN treats one value as a list of one and nil as no list")
  func nilAndIn() {
    #expect(!Value.null.satisfies(.lessThan, .integer(1)))
    #expect(!Value.null.satisfies(.greaterThan, .integer(1)))
    #expect(Value.null.satisfies(.notEqual, .integer(1)))
    #expect(Value.integer(1).satisfies(.in, .integer(1)))
    #expect(!Value.integer(1).satisfies(.in, .null))
    #expect(Value.null.satisfies(.in, .list([.string("a"), .null])))
  }
}
