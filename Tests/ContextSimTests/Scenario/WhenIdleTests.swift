import Foundation
import Testing

@testable import ContextSimCore

/// `whenIdle`: a user's later event, which the main run loop delivers once the app is idle.
@Suite("A later event on the main run loop")
struct WhenIdleTests {
  static func decode(_ text: String) throws(Diagnostics) -> Scenario {
    try ScenarioDecoder.decode(Array(text.utf8), file: "idle.json")
  }

  @Test("Only the main run loop delivers events: another queue is an error with its fix")
  func onlyMain() {
    let text = #"{"title": "t", "main": [{"whenIdle": "global", "do": []}]}"#
    #expect(throws: Diagnostics.self) { try Self.decode(text) }
    do {
      _ = try Self.decode(text)
    } catch {
      #expect(
        error.errors.map(\.message) == [#"only the main run loop delivers events, not "global""#])
      #expect(error.errors.first?.fix == #"write "whenIdle": "main""#)
      #expect(error.errors.first?.location == SourceLocation(line: 1, column: 38))
    }
  }

  @Test("The event waits for every other thread and queue: it reads what they wrote, in every run")
  func waitsForIdle() throws {
    let text = """
      {"title": "t", "vars": {"x": 0}, "queues": {"q": "serial"},
       "main": [
         {"whenIdle": "main", "do": [{"read": "x", "as": "seen", "label": "tap"},
                                     {"expect": {"value": "$seen", "equals": 2}}]},
         {"async": "q", "do": [{"write": "x", "value": 1}]},
         {"async": "global", "do": [{"async": "q", "do": [{"write": "x", "value": 2}]}]}
       ]}
      """
    let scenario = try Self.decode(text)
    let exploration = explore(
      scenario, strategy: .dpor(preemptionBound: nil),
      options: SimulationOptions(concurrencyDebug: true), maxSchedules: 1_000)
    #expect(exploration.isComplete)
    for outcome in exploration.outcomes {
      // What ran before the tap is every other block; only its race with them is reported.
      #expect(!outcome.example.violations.contains { $0.kind == .expectationFailed })
    }
  }
}
