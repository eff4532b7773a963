import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

@Suite("Batch requests and remote merges in a scenario file")
struct BatchVerbDecodingTests {
  private let model = #"""
    "model": {"Note": {"attributes": {"title": "string"}},
              "Album": {"attributes": {"title": "string"},
                        "relationships": {"notes": {"to": "Note", "many": true}}},
              "Tag": {"attributes": {"name": "string"}, "unique": [["name"]]}},
    "contexts": {"background": {"queue": "private"}}
    """#

  /// The Swift line of the scenario's last step.
  private func swift(_ steps: String) throws -> String {
    try #require(
      try scenario(#"{"title": "t", \#(model), "main": [\#(steps)]}"#).allSteps.last?.swift)
  }

  private func messages(_ steps: String) -> [String] {
    errors(#"{"title": "t", \#(model), "main": [\#(steps)]}"#).map(\.message)
  }

  @Test("A batch delete with \"as\" asks for the deleted IDs, as Apple's sample does")
  func batchDeleteSwift() throws {
    #expect(
      try swift(
        #"{"batchDelete": "Note", "in": "background", "where": {"title": "x"}, "as": "ids"}"#)
        == #"let request = NSBatchDeleteRequest(fetchRequest: NSFetchRequest(entityName: "Note", "#
        + #"predicate: NSPredicate(format: "title == %@", "x"))); "#
        + "request.resultType = .resultTypeObjectIDs; "
        + "let ids = (try background.execute(request) as? NSBatchDeleteResult)?.result "
        + "as? [NSManagedObjectID] ?? []")
    #expect(
      try swift(#"{"batchDelete": "Note", "in": "background", "try": "?"}"#)
        == "try? background.execute(NSBatchDeleteRequest(fetchRequest: Note.fetchRequest()))")
  }

  @Test("The merge lists its keys as Core Data's constants, and its contexts in the order written")
  func mergeSwift() throws {
    #expect(
      try swift(
        #"{"batchDelete": "Note", "in": "background", "as": "ids"}, {"mergeRemoteChanges": {"deleted": "$ids"}, "into": ["viewContext", "background"]}"#
      )
        == "NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSDeletedObjectsKey: ids], "
        + "into: [viewContext, background])")
  }

  @Test("A batch insert passes its objects as dictionaries")
  func batchInsertSwift() throws {
    #expect(
      try swift(#"{"batchInsert": "Note", "in": "viewContext", "objects": [{"title": "a"}, {}]}"#)
        == #"try viewContext.execute(NSBatchInsertRequest(entityName: "Note", objects: [["title": "a"], [:]]))"#
    )
  }

  @Test(
    "Each mistake gives one error that says what is wrong",
    arguments: [
      (
        #"{"fetch": "Note", "in": "viewContext", "as": "notes"}, {"mergeRemoteChanges": {"deleted": "$notes"}, "into": ["viewContext"]}"#,
        #""$notes" does not hold object IDs"#
      ),
      (
        #"{"batchDelete": "Note", "in": "viewContext", "as": "ids"}, {"mergeRemoteChanges": {"deleted": "$ids"}}"#,
        #"this "mergeRemoteChanges" step has no "into""#
      ),
      (
        #"{"mergeRemoteChanges": {}, "into": ["viewContext"]}"#,
        #""mergeRemoteChanges" lists no changes"#
      ),
      (
        #"{"batchDelete": "Note", "in": "viewContext", "as": "ids"}, {"mergeRemoteChanges": {"removed": "$ids"}, "into": ["viewContext"]}"#,
        #"unknown key "removed" in the changes to merge"#
      ),
      (
        #"{"batchDelete": "Note", "in": "viewContext", "as": "ids"}, {"batchDelete": "$ids", "in": "viewContext", "where": {"title": "x"}}"#,
        #"a batch delete by object IDs takes no "where""#
      ),
      (
        #"{"batchInsert": "Album", "in": "viewContext", "objects": [{"notes": []}]}"#,
        #"a batch insert cannot set the relationship "notes": its dictionaries take attributes only"#
      ),
      (
        #"{"batchInsert": "Tag", "in": "viewContext", "objects": [{"name": "a"}]}"#,
        "a batch insert into Tag, which has uniqueness constraints, is not modelled"
      ),
      (
        #"{"batchInsert": "Note", "in": "viewContext", "objects": []}"#,
        #""objects" takes a list of one or more objects of attribute values"#
      ),
    ])
  func mistakes(steps: String, message: String) {
    #expect(messages(steps) == [message])
  }
}
