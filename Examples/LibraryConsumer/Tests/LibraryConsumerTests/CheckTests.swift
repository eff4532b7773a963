import ContextSim
import Testing

/// Two background blocks hand a note to the main queue by its object ID.
private func handOver(byID: Bool) throws -> Scenario {
  let read =
    byID
    ? #"{"async": "main", "do": [{"existingObject": "$id", "in": "viewContext", "as": "shown", "label": "show"}]}"#
    : #"{"async": "main", "do": [{"get": "note.title", "label": "show"}]}"#
  let json = """
    {
      "title": "Hand a note to the main queue",
      "model": {"Note": {"attributes": {"title": "string"}}},
      "store": {"Note": [{"id": "note-1", "title": "Buy milk"}]},
      "contexts": {"background": {"queue": "private"}},
      "main": [
        {"perform": "background", "do": [
          {"fetch": "Note", "in": "background", "first": true, "as": "note"},
          {"objectID": "note", "as": "id"},
          \(read)
        ]}
      ],
      "expect": {"violations": []}
    }
    """
  return try ScenarioDecoder.decode(Array(json.utf8), file: "hand-over.json")
}

@Suite("Checking a design from a test")
struct CheckTests {
  @Test("Handing over the object ID is clean in every interleaving")
  func fixedDesign() throws {
    let result = check(try handOver(byID: true))
    #expect(result.passed, "\(result)")
    #expect(result.exploration.isComplete)
  }

  @Test("Handing over the object itself fails, naming the violation and its schedule")
  func buggyDesign() throws {
    let result = check(try handOver(byID: false))
    #expect(!result.passed)
    let message = "\(result)"
    #expect(message.contains("unexpected: wrongQueueObject at main[0].perform.do[2].async.do[0]"))
    #expect(message.contains("replay: schedule "))
  }
}
