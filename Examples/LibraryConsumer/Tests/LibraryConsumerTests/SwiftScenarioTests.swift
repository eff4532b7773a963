import ContextSim
import Testing

@Test("Handing a note to the main queue by its object ID is clean in every interleaving")
func handOverByID() throws {
  let result = check(
    try Scenario(
      "Hand over by ID", model: ["Note": ["attributes": ["title": "string"]]],
      store: ["Note": [["id": "n1"]]], contexts: ["background": ["queue": "private"]], expect: []
    ) {
      Perform("background") {
        Fetch("Note", in: "background", first: true, as: "note")
        GetObjectID("note", as: "id")
        Async("main") { ExistingObject("$id", in: "viewContext", as: "shown") }
      }
    })
  #expect(result.passed, "\(result)")  // a clean design passes only when every class ran
}
