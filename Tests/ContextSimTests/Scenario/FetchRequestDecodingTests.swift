import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// A scenario whose main thread runs one step, with notes that have a title, a rank, a flag
/// and an album, and albums that have notes.
private func oneStep(_ step: String) -> String {
  #"""
  {"title": "t",
   "model": {
     "Note": {"attributes": {"title": "string", "rank": "integer", "score": "double",
                             "read": "boolean", "date": "date"},
              "relationships": {"album": {"to": "Album", "inverse": "notes"}}},
     "Album": {"attributes": {"name": "string"},
               "relationships": {"notes": {"to": "Note", "many": true, "inverse": "album"}}}},
   "main": [{"fetch": "Album", "in": "viewContext", "first": true, "as": "album"}, \#(step)]}
  """#
}

/// The single error a step gives; records an issue if there is not exactly one.
private func only(_ step: String) -> ScenarioError? {
  let found = errors(oneStep(step))
  #expect(found.count == 1, "expected one error, got \(found.map(\.description))")
  return found.first
}

/// The Swift line a valid step stands for.
private func swift(_ step: String) throws -> String? {
  try scenario(oneStep(step)).main.last?.swift
}

@Suite("Fetch requests in scenario files: the forms, their errors and their Swift")
struct FetchRequestDecodingTests {
  @Test("v1's where is still an AND of equalities, with literals, variables, objects and null")
  func v1Meaning() throws {
    let step = try scenario(
      oneStep(
        #"{"fetch": "Note", "in": "viewContext", "where": {"title": "x", "album": "$album", "rank": null}}"#
      )
    ).main.last
    guard case .fetch(let request, _, _, _, _)? = step?.action else {
      Issue.record("not a fetch")
      return
    }
    #expect(request.predicate.description == #"title == "x" and album == album and rank == nil"#)
    #expect(!request.predicate.usesOperators)
    #expect(request.sortDescriptors.isEmpty && request.fetchLimit == nil)
  }

  @Test("A fetch with nothing to configure passes Note.fetchRequest(), as before")
  func plainRequest() throws {
    #expect(
      try swift(#"{"fetch": "Note", "in": "viewContext", "first": true, "as": "n"}"#)
        == "let n = try viewContext.fetch(Note.fetchRequest()).first")
  }

  @Test("The Swift line builds the request: predicate, sort descriptors, fetch limit")
  func swiftLine() throws {
    #expect(
      try swift(
        #"""
        {"fetch": "Note", "in": "viewContext", "as": "notes",
         "where": {"title": {"!=": "x"}, "rank": {"<": 3}, "read": false, "album": {"!=": null}},
         "sortBy": [{"key": "date", "ascending": false}, {"key": "title"}], "limit": 2}
        """#)
        == #"let request = NSFetchRequest<Note>(entityName: "Note"); "#
        + #"request.predicate = NSPredicate(format: "title != %@ AND rank < %d AND read == NO AND album != nil", "x", 3); "#
        + #"request.sortDescriptors = [NSSortDescriptor(key: "date", ascending: false), NSSortDescriptor(key: "title", ascending: true)]; "#
        + #"request.fetchLimit = 2; let notes = try viewContext.fetch(request)"#)
  }

  @Test("OR and NOT are parenthesised in the format; IN and doubles get their specifiers")
  func swiftCompounds() throws {
    #expect(
      try swift(
        #"""
        {"count": "Note", "in": "viewContext", "as": "n",
         "where": {"OR": [{"rank": {">=": 2}}, {"score": {"<": 1}}], "NOT": {"title": {"IN": ["a", "b"]}}}}
        """#)
        == #"let request = NSFetchRequest<Note>(entityName: "Note"); "#
        + #"request.predicate = NSPredicate(format: "(rank >= %d OR score < %f) AND NOT (title IN %@)", 2, 1.0, ["a", "b"]); "#
        + #"let n = try viewContext.count(for: request)"#)
    #expect(
      try swift(
        #"{"let": "flag", "value": true}, {"expect": {"count": "Note", "in": "viewContext", "where": {"read": {"!=": "$flag"}}, "equals": 1}}"#
      )
        == #"let request = NSFetchRequest<Note>(entityName: "Note"); "#
        + #"request.predicate = NSPredicate(format: "read != %@", NSNumber(value: flag)); "#
        + #"#expect(try viewContext.count(for: request) == 1)"#)
  }

  @Test("A batch update's predicate is the same NSPredicate")
  func batchUpdateSwift() throws {
    #expect(
      try swift(
        #"{"batchUpdate": "Note", "in": "viewContext", "where": {"rank": {">": 1}}, "set": {"read": true}}"#
      )
        == #"let request = NSBatchUpdateRequest(entityName: "Note"); "#
        + #"request.predicate = NSPredicate(format: "rank > %d", 1); "#
        + #"request.propertiesToUpdate = ["read": true]; try viewContext.execute(request)"#)
  }

  @Test(
    "Each bad predicate gives one error that names the problem and the fix",
    arguments: [
      (
        #"{"titel": {"!=": "x"}}"#, #"Note has no attribute or relationship "titel""#,
        #"did you mean "title"?"#
      ),
      (
        #"{"rank": {"<": "three"}}"#,
        #""rank" is an integer attribute, but this value is a string"#, "write an integer"
      ),
      (
        #"{"rank": {"like": 3}}"#, #"unknown operator "like" in "where""#,
        #"use one of: "==", "!=", "<", "<=", ">", ">=", "IN""#
      ),
      (#"{"title": {"in": ["a"]}}"#, #"unknown operator "in" in "where""#, #"did you mean "IN"?"#),
      (
        #"{"<": 3}"#, #""<" compares a key with a value, so it goes inside the key's object"#,
        #"write {"rank": {"<": 3}}"#
      ),
      (
        #"{"or": [{"rank": 1}]}"#, #"Note has no attribute or relationship "or""#,
        #"to join conditions, write "OR" in capitals, as NSPredicate does"#
      ),
      (
        #"{"rank": {"<": null}}"#,
        #""<" with null never matches: NSPredicate finds no order against nil"#,
        #"test for nil with {"==": null} or {"!=": null}"#
      ),
      (
        #"{"title": {"IN": "a"}}"#,
        #""IN" takes a list of values, and matches when "title" is any of them"#,
        #"write {"IN": ["a", "b"]}, or a $variable holding a list"#
      ),
      (
        #"{"title": {"==": ["a", "b"]}}"#, #""==" compares "title" with one value, not a list"#,
        #"to match any of several values, write {"IN": [ … ]}"#
      ),
      (
        #"{"album": {">": "$album"}}"#,
        #"">" orders values, but the relationship "album" holds an object"#,
        #"compare it with "==", "!=" or "IN""#
      ),
      (
        #"{"album": {"IN": ["x"]}}"#, #""IN" on the relationship "album" takes a list of objects"#,
        #"write ["$album", …], or a $variable holding a list"#
      ),
      (
        #"{"OR": []}"#, #""OR" needs at least one condition"#,
        #"write "OR": [{"title": "a"}, {"title": "b"}]"#
      ),
      (
        #"{"rank": {}}"#, #"the object for "rank" in "where" has no operator"#,
        #"write {"!=": value}, or the value alone for =="#
      ),
      (
        #"{"NOT": [{"rank": 1}]}"#, #""NOT" must be an object, not a list"#, "write { … }"
      ),
      (
        #"{"NOT": {}}"#, #"an empty condition in "NOT" matches every object"#,
        #"write a condition such as {"title": "x"}"#
      ),
      (
        #"{"OR": [{"rank": 1}, 3]}"#, #"a condition in "OR" must be an object, not an integer"#,
        "write { … }"
      ),
      (
        #"{"AND": [{"rank": {"<": "$albun"}}]}"#, #"unknown variable "$albun""#,
        #"did you mean "$album"?"#
      ),
    ])
  func badPredicate(_ predicate: String, _ message: String, _ fix: String) {
    let error = only(#"{"fetch": "Note", "in": "viewContext", "where": \#(predicate)}"#)
    #expect(error?.message == message)
    #expect(error?.fix == fix)
    #expect(error?.path == "main[1]")
  }

  @Test("A to-many relationship takes no operator: that needs ANY or ALL")
  func toMany() {
    let error = only(#"{"fetch": "Album", "in": "viewContext", "where": {"notes": {"!=": null}}}"#)
    #expect(
      error?.message
        == #""notes" is a to-many relationship; comparing it needs ANY or ALL, which ctxsim does not model"#
    )
  }

  @Test(
    "Each bad sortBy or limit gives one error that names the problem and the fix",
    arguments: [
      (
        #""sortBy": [{"key": "titel"}]"#, #"Note has no attribute or relationship "titel""#,
        #"did you mean "title"?"#
      ),
      (
        #""sortBy": [{"key": "album"}]"#,
        #""album" is a relationship; a sort descriptor orders by an attribute"#,
        "sort by an attribute of Note"
      ),
      (
        #""sortBy": [{"ascending": false}]"#,
        #"a sort descriptor needs "key": the attribute to sort by"#,
        #"write {"key": "date", "ascending": false}"#
      ),
      (
        #""sortBy": [{"key": "date", "descending": true}]"#,
        #"unknown key "descending" in a sort descriptor"#, #"did you mean "ascending"?"#
      ),
      (#""sortBy": "date""#, #""sortBy" must be a list, not a string"#, "write [ … ]"),
      (
        #""limit": 0"#, #""limit" takes a whole number from 1"#,
        "write \"limit\": 2, say; leave it out for no limit"
      ),
      (
        #""limit": "2""#, #""limit" takes a whole number from 1"#,
        "write \"limit\": 2, say; leave it out for no limit"
      ),
    ])
  func badOrderOrLimit(_ keys: String, _ message: String, _ fix: String) {
    let error = only(#"{"fetch": "Note", "in": "viewContext", \#(keys)}"#)
    #expect(error?.message == message)
    #expect(error?.fix == fix)
  }

  @Test("count takes no sortBy or limit: a count has no order")
  func countHasNoOrder() {
    let error = only(#"{"count": "Note", "in": "viewContext", "limit": 2}"#)
    #expect(error?.message == #"unknown key "limit" in a "count" step"#)
  }
}
