import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

private let startJSON = """
  {
    "title": "start",
    "model": {
      "Album": {"attributes": {"title": "string"},
                "relationships": {"photos": {"to": "Photo", "many": true, "inverse": "album"}}},
      "Photo": {"attributes": {"url": "string", "rank": "integer", "seen": "boolean"},
                "relationships": {"album": {"to": "Album", "inverse": "photos"}}}
    },
    "store": {"Album": [{"id": "album-1", "title": "Holiday"}]},
    "main": []
  }
  """

/// A brief with the given header lines and body.
private func brief(_ header: String, body: String = "# T\nText.\n") -> String {
  "---\ntitle: T\nscenario: s.json\nsolution: Solutions/s.json\n\(header)\n---\n\(body)"
}

/// The messages of a brief's errors, `line:column: message`, or of its validation.
private func problems(_ text: String, validate: Bool = false) throws -> [String] {
  let start = try scenario(startJSON)
  do throws(ExerciseErrors) {
    let exercise = try ExerciseParser.parse(text, file: "exercise-09-x.md")
    if validate { _ = try exercise.validated(against: start) }
    return []
  } catch {
    return error.errors.map { "\($0.location.map(\.description) ?? "-"): \($0.message)" }
  }
}

@Suite("Exercise briefs: the header, the criteria and the hints")
struct ExerciseParserTests {
  @Test("A brief gives its title, files, criteria, the violations it fixes, the brief and hints")
  func parses() throws {
    let text = brief(
      """
      fixes: wrongQueueContext, crossContextRelationship
      store: 2 Photo where album = album-1
      viewContext: 1 Album where title = "Holiday" and photos.count = 2
      store: 0 Photo where rank = 3 and seen = false and url = null
      """,
      body: """
        # Photos

        The app does this.

        ## What is broken
        That.

        ## Hints

        ### wrongQueueContext
        Use perform,
        always.

        ### store
        Keep the save.
        """)
    let exercise = try ExerciseParser.parse(text, file: "Lessons/Exercises/exercise-07-photos.md")
      .validated(against: try scenario(startJSON))
    #expect(exercise.number == 7)
    #expect(exercise.title == "T")
    #expect(exercise.scenario == "s.json")
    #expect(exercise.solution == "Solutions/s.json")
    #expect(exercise.fixes == [.wrongQueueContext, .crossContextRelationship])
    #expect(exercise.brief == "# Photos\n\nThe app does this.\n\n## What is broken\nThat.")
    #expect(exercise.hint("wrongQueueContext") == "Use perform, always.")
    #expect(exercise.hint("store") == "Keep the save.")
    #expect(exercise.hint("viewContext") == nil)
    #expect(
      exercise.criteria.map(\.description) == [
        "the store ends with 2 Photo rows where album = album-1",
        "viewContext sees 1 Album where title = \"Holiday\" and photos.count = 2 (a fetch in "
          + "viewContext at the end)",
        "the store ends with 0 Photo rows where rank = 3 and seen = false and url = null",
      ])
    let album = try #require(exercise.criteria[0].conditions.first)
    guard case .equals(.objectID(let id)) = album.test else {
      Issue.record("the handle was not resolved: \(album.test)")
      return
    }
    #expect(id.handle == "album-1")
    #expect(
      exercise.criteria[1].conditions.map(\.test) == [.equals(.string("Holiday")), .count(2)])
    #expect(
      exercise.criteria[2].conditions.map(\.test) == [
        .equals(.integer(3)), .equals(.bool(false)), .equals(.null),
      ])
    #expect(exercise.criteria[1].location == SourceLocation(line: 7, column: 14))
  }

  @Test("Only exercise-NN-name.md gives a number")
  func numbers() {
    #expect(ExerciseParser.number(of: "Lessons/Exercises/exercise-12-x.md") == 12)
    #expect(ExerciseParser.number(of: "exercise-3-x.md") == 3)
    #expect(ExerciseParser.number(of: "Lessons/03-x.md") == nil)
  }

  @Test("Header mistakes are each reported at their line, with the nearest key")
  func headerErrors() throws {
    #expect(try problems("# no header\n") == ["1:1: the brief has no header"])
    #expect(
      try problems("---\ntitel: T\nstore: 1 Note\n---\n") == [
        "2:1: unknown header key \"titel\"", "1:1: the header has no title:",
        "1:1: the header has no scenario:", "1:1: the header has no solution:",
      ])
    #expect(
      try problems(brief("")) == ["1:1: the header names no store: or viewContext: criterion"])
    #expect(
      try problems(brief("store: 1 Note\nfixes: wrongQueueContext, wrongQueueContxt"))
        == ["6:27: \"wrongQueueContxt\" is not a violation kind"])
    #expect(
      try problems("---\ntitle: T\nstore: 1 Note\n") == [
        "1:1: the header is never closed", "1:1: the header has no scenario:",
        "1:1: the header has no solution:",
      ])
  }

  @Test("A criterion's mistake is reported at its column, with what to write")
  func criterionErrors() throws {
    #expect(
      try problems(brief("store: two Note")) == [
        "5:8: a criterion starts with how many rows: a whole number"
      ])
    #expect(try problems(brief("store: 2")) == ["5:9: the entity is missing after 2"])
    #expect(
      try problems(brief("store: 2 Note with title")) == [
        "5:15: expected where after the entity"
      ])
    #expect(
      try problems(brief("store: 2 Note where title \"x\"")) == [
        "5:27: expected = after title"
      ])
    #expect(
      try problems(brief("store: 2 Note where title = \"x")) == [
        "5:29: the string is never closed"
      ])
    #expect(
      try problems(brief("viewContext: 1 Note where a = 1 or b = 2")) == [
        "5:33: expected and between two conditions"
      ])
    #expect(
      try problems(brief("store: 1 Note where photos.count = many")) == [
        "5:36: photos.count compares with a whole number"
      ])
  }

  @Test("Hints are for a violation kind, store, viewContext or setup, once each")
  func hintErrors() throws {
    #expect(
      try problems(brief("store: 1 Note", body: "## Hints\n### wrongQueueContex\nx\n"))
        == ["8:5: unknown hint topic \"wrongQueueContex\""])
    #expect(
      try problems(brief("store: 1 Note", body: "## Hints\nstray\n### store\nx\n### store\ny\n"))
        == ["8:1: text under ## Hints before any ### topic", "11:1: a second hint for \"store\""])
  }

  @Test("Criteria are checked against the starting scenario: names, types and handles")
  func validation() throws {
    func check(_ line: String) throws -> [String] {
      try problems(brief(line), validate: true)
    }
    #expect(try check("store: 1 Photos") == ["5:8: the starting scenario has no entity \"Photos\""])
    #expect(
      try check("store: 1 Photo where uri = \"x\"") == [
        "5:22: Photo has no attribute or relationship \"uri\""
      ])
    #expect(
      try check("store: 1 Photo where rank = \"x\"") == [
        "5:22: \"x\" is not an integer value"
      ])
    #expect(
      try check("store: 1 Photo where url.count = 1") == [
        "5:22: url is an attribute of Photo; .count is for a to-many relationship"
      ])
    #expect(
      try check("store: 1 Photo where album = album-2") == [
        "5:22: the starting store has no Album row \"album-2\""
      ])
    #expect(
      try check("store: 1 Photo where album = \"album-1\"") == [
        "5:22: album is a relationship to Album: it holds a row, not \"album-1\""
      ])
    #expect(
      try check("store: 1 Album where photos = null") == [
        "5:22: photos is a to-many relationship"
      ])
    #expect(try check("store: 1 Photo where album = null and seen = true").isEmpty)
  }

  @Test("Each mistake's fix names the nearest name where there is one")
  func fixes() throws {
    let start = try scenario(startJSON)
    do throws(ExerciseErrors) {
      _ = try ExerciseParser.parse(brief("store: 1 Phot where url = \"x\""), file: "e.md")
        .validated(against: start)
      Issue.record("a misspelt entity was accepted")
    } catch {
      #expect(
        error.description
          == "e.md:5:8: error: the starting scenario has no entity \"Phot\"\n"
          + "  fix: did you mean \"Photo\"?")
    }
  }
}
