import Foundation
import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

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

@Suite("The world's values between steps")
struct WorldValuesTests {
  @Test("Objects show their values per context, faults none; the store shows its rows")
  func values() throws {
    let s = try scenario(app)
    let (_, before) = simulate(
      s, options: SimulationOptions(concurrencyDebug: true), following: Schedule(), steps: 0)
    #expect(
      before.store.map(\.values) == [[WorldSnapshot.Field(key: "title", value: "\"Buy milk\"")]])
    var full = RunToCompletionScheduler()
    let schedule = simulate(s, options: SimulationOptions(concurrencyDebug: true), scheduler: &full)
      .schedule
    let (_, after) = simulate(
      s, options: SimulationOptions(concurrencyDebug: true), following: schedule,
      steps: schedule.threads.count)
    #expect(after.store.count == 2)
    #expect(after.store.last?.values.first?.value == "\"New\"")
    let background = try #require(after.contexts.first { $0.name == "background" })
    #expect(background.objects.map { $0.values.first?.value } == ["\"New\""])
    // A fetch hands out faults: their values are not loaded, so none show.
    let view = try #require(after.contexts.first { $0.name == "viewContext" })
    #expect(view.objects.allSatisfy { $0.isFault && $0.values.isEmpty })
    #expect(after.threads[0].at == nil)
    #expect(before.threads[0].at == 0)
  }
}

@Suite("Where each thread is")
struct ThreadPlaceTests {
  @Test("A thread waiting in performAndWait is at the performAndWait")
  func waitingThreadIsAtItsWait() throws {
    let s = try scenario(
      """
      {
        "title": "wait",
        "model": {"Note": {"attributes": {"title": "string"}}},
        "contexts": {"background": {"queue": "private"}},
        "main": [
          {"perform": "background", "do": [
            {"count": "Note", "in": "background", "as": "n"},
            {"count": "Note", "in": "background", "as": "o"}]},
          {"performAndWait": "background", "do": [{"count": "Note", "in": "background", "as": "m"}]}
        ]
      }
      """)
    // Main enqueues the block, the block starts on background's queue, main asks to wait.
    let (_, world) = simulate(
      s, options: SimulationOptions(concurrencyDebug: true),
      following: Schedule(parsing: "0,1,0")!, steps: 3)
    let main = try #require(world.threads.first)
    #expect(main.status == .waiting(queue: "background"))
    #expect(main.at.map { s.allSteps[$0].verb } == "performAndWait")
  }
}
