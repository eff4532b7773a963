import Foundation
import Testing

@testable import ContextSim

/// A small app: a block with a `catch`, a conditional step, and a line of the app's own.
private let app = """
  {
    "title": "listing",
    "model": {"Note": {"attributes": {"title": "string"}}},
    "store": {"Note": [{"id": "note-1", "title": "Buy milk"}]},
    "contexts": {"background": {"queue": "private"}},
    "vars": {"status": null},
    "main": [
      {"let": "data", "value": "x", "swift": "let data = try? Data(contentsOf: url)"},
      {"newBackgroundContext": "writer"},
      {"perform": "background", "do": [
        {"insert": "Note", "into": "background", "values": {"title": "New"}},
        {"save": "background", "catch": [{"write": "status", "value": "failed"}]}]},
      {"fetch": "Note", "in": "viewContext", "as": "notes", "when": {"value": "data", "notEquals": null}}
    ]
  }
  """

@Suite("The scenario as a Swift listing")
struct ProgramListingTests {
  private func listing() throws -> (ProgramListing, [String]) {
    let listing = ProgramListing(try scenario(app))
    return (
      listing,
      listing.lines.map { String(repeating: "  ", count: $0.depth) + $0.text }
    )
  }

  @Test("Blocks nest under the line that opens them; a catch is do/catch; when is if")
  func shape() throws {
    let (_, text) = try listing()
    #expect(
      text == [
        "let data = try? Data(contentsOf: url)",
        "let writer = container.newBackgroundContext()",
        "background.perform {",
        "  let object = NSEntityDescription.insertNewObject(forEntityName: \"Note\", into: background)",
        "  object.title = \"New\"",
        "  do {",
        "    try background.save()",
        "  } catch {",
        "    self.status = \"failed\"",
        "  }",
        "}",
        "if data != nil {",
        "  let notes = try viewContext.fetch(Note.fetchRequest())",
        "}",
      ])
  }

  @Test("Each step knows its first line and the lines its block spans")
  func stepLines() throws {
    let (listing, _) = try listing()
    let steps = try scenario(app).allSteps
    let perform = try #require(steps.first { $0.verb == "perform" })
    #expect(listing.line(ofStep: perform.index) == 2)
    #expect(listing.lines(ofStep: perform.index) == 2..<11)
    let save = try #require(steps.first { $0.verb == "save" })
    #expect(listing.line(ofStep: save.index) == 5)
    #expect(listing.lines[6].step == save.index)
    #expect(listing.lines[7].step == nil)
  }

  @Test("Statements joined with ; split, but not inside a string")
  func statements() {
    let split = ProgramListing.statements("let a = 1; a.b = \"x; y\"")
    #expect(split == ["let a = 1", "a.b = \"x; y\""])
    #expect(ProgramListing.statements("") == [])
  }

  @Test("A step's own line of Swift is its line in reports; it changes nothing it does")
  func ownLine() throws {
    let s = try scenario(app)
    #expect(s.allSteps[0].swift == "let data = try? Data(contentsOf: url)")
    let own = ", \"swift\": \"let data = try? Data(contentsOf: url)\""
    let plain = try scenario(app.replacingOccurrences(of: own, with: ""))
    #expect(plain.allSteps[0].swift == "let data = \"x\"")
    #expect(run(s).violations.count == run(plain).violations.count)
  }
}
