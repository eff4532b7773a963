import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

@Suite("Decoding contexts, rows and relationships")
struct ScenarioDecoderRelationshipTests {
  private let model = #"""
    "model": {
      "Album": {"attributes": {"title": "string"}, "relationships": {"photos": {"to": "Photo", "many": true, "inverse": "album"}}},
      "Photo": {"attributes": {"url": "string"}, "relationships": {"album": {"to": "Album", "inverse": "photos"}}}
    }
    """#

  @Test("A cycle of context parents is refused, naming the cycle")
  func parentCycle() {
    let found = errors(
      #"{"title": "t", "main": [], "contexts": {"a": {"queue": "private", "parent": "b"}, "b": {"queue": "private", "parent": "a"}}}"#
    )
    #expect(found.map(\.message) == ["the parents of \"a\" go round in a cycle: a → b → a"])
    #expect(found.first?.path == "contexts.a")
  }

  @Test("A parent that is not a context is refused with a suggestion")
  func unknownParent() {
    let found = errors(
      #"{"title": "t", "main": [], "contexts": {"draft": {"queue": "main", "parent": "viewContxt"}}}"#
    )
    #expect(found.map(\.message) == ["the parent \"viewContxt\" of \"draft\" is not a context"])
    #expect(found.first?.fix == "did you mean \"viewContext\"?")
  }

  @Test("A row linking to a missing row, or to a row of the wrong entity, is refused")
  func rowLinks() {
    let found = errors(
      """
      {"title": "t", \(model), "main": [], "store": {
        "Album": [{"id": "album-1"}],
        "Photo": [{"id": "photo-1", "album": "album-2"}, {"id": "photo-2", "album": "photo-1"}]}}
      """)
    #expect(
      found.map(\.message) == [
        "no row has the id \"album-2\"",
        "Photo.album points at Album rows, but \"photo-1\" is a Photo",
      ])
  }

  @Test("A relationship takes objects, not literals")
  func relationshipLiteral() {
    let found = errors(
      """
      {"title": "t", \(model), "main": [
        {"insert": "Photo", "into": "viewContext", "as": "p"},
        {"set": "p.album", "to": "album-1"}]}
      """)
    #expect(
      found.map(\.message) == ["the relationship \"album\" takes an object or null, not a string"])
  }

  @Test("A context made by a step is usable by name after it, and only in its scope")
  func runtimeContextScope() {
    #expect(
      errors(
        #"{"title": "t", "main": [{"newBackgroundContext": "bg"}, {"perform": "bg", "do": [{"print": "hi"}]}]}"#
      ).isEmpty)
    let found = errors(
      #"{"title": "t", "main": [{"async": "global", "do": [{"newBackgroundContext": "bg"}]}, {"save": "bg"}]}"#
    )
    #expect(found.map(\.message) == ["unknown context \"bg\""])
  }

  @Test("batchUpdate takes a set of values even though set is also a verb")
  func batchUpdateSet() {
    #expect(
      errors(
        """
        {"title": "t", \(model), "main": [{"batchUpdate": "Photo", "in": "viewContext", "set": {"url": "x"}}]}
        """
      ).isEmpty)
  }
}
