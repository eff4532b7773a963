import Foundation
import Testing

@testable import ContextSim

/// The scenario file `name` in scenarios/, decoded under its own path.
func repositoryScenario(_ name: String) throws -> Scenario {
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  let path = "scenarios/\(name).json"
  let bytes = try [UInt8](Data(contentsOf: root.appendingPathComponent(path)))
  return try ScenarioDecoder.decode(bytes, file: path)
}

/// Expects a scenario written in Swift to run exactly as its JSON twin: the same report,
/// the same JSON trace and the same schedule, on the default schedule and on three seeds,
/// and the same outcomes under exploration.
func expectTwins(
  _ swift: Scenario, _ file: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws {
  let json = try repositoryScenario(file)
  #expect(swift.allSteps.count == json.allSteps.count, sourceLocation: sourceLocation)
  #expect(
    swift.allSteps.map(\.path) == json.allSteps.map(\.path), sourceLocation: sourceLocation)
  func runs(_ s: Scenario) -> [String] {
    var traces: [Trace] = []
    var first = RunToCompletionScheduler()
    traces.append(simulate(s, scheduler: &first))
    for seed in [1, 2, 3] as [UInt64] {
      var random = RandomScheduler(seed: seed)
      traces.append(simulate(s, scheduler: &random))
    }
    let text = TextRenderer(scenario: s, options: .init(allSteps: true, verbose: true))
    return traces.map { text.render($0) + JSONRenderer(scenario: s).render($0) }
  }
  let (a, b) = (runs(swift), runs(json))
  for i in a.indices where a[i] != b[i] {
    Issue.record(
      "run \(i) differs:\n\(a[i])\n--- JSON twin ---\n\(b[i])", sourceLocation: sourceLocation)
  }
  let explored = [swift, json].map {
    explore($0, maxSchedules: 200, shrinking: false).outcomes.map(\.signature)
  }
  #expect(explored[0] == explored[1], sourceLocation: sourceLocation)
}
