import Testing

@testable import ctxsim

/// Scenarios whose `"model"` names an Xcode data model, read through the console.
@Suite("Scenarios naming an Xcode data model")
struct DataModelCommandTests {
  private static let fixtures = "Tests/ContextSimTests/Fixtures"

  @Test("ctxsim run reads the bundle beside the scenario and runs it")
  func runsBesideTheScenario() {
    let run = ctxsim("run", "\(Self.fixtures)/photos-from-model.json")
    #expect(run.status == 133)
    #expect(run.err.isEmpty)
    #expect(run.out.contains("set photo-1.isSeen = true"))
    #expect(run.out.contains("1 violation: wrongQueueContext."))
  }

  @Test("A scenario read from standard input finds the model from the current directory")
  func standardInput() {
    let scenario = #"""
      {"title": "t", "model": "\#(Self.fixtures)/Photos.xcdatamodeld",
       "store": {"Photo": [{"id": "photo-1"}]},
       "main": [{"fetch": "Photo", "in": "viewContext", "first": true, "as": "photo"},
                {"get": "photo.isSeen", "as": "seen"}, {"print": "$seen"}]}
      """#
    let run = ctxsim("run", "-", files: ["-": scenario])
    #expect(run.status == 0, "\(run.err)")
    #expect(run.out.contains("false"))
  }

  @Test("A model that is not there is a bad scenario, exit 65, at the scenario's \"model\"")
  func missingModel() {
    let scenario = #"{"title": "t", "model": "Missing.xcdatamodeld", "main": []}"#
    let run = ctxsim("run", "app.json", files: ["app.json": scenario])
    #expect(run.status == 65)
    #expect(
      run.err.hasPrefix(#"app.json:1:25: error: "Missing.xcdatamodeld": no such folder (at model)"#)
    )
  }
}
