import Foundation
import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// The scenario file `name` in `folder` (by default scenarios/), decoded under its own path.
func repositoryScenario(_ name: String, in folder: String = "scenarios") throws -> Scenario {
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  let path = "\(folder)/\(name).json"
  let bytes = try [UInt8](Data(contentsOf: root.appendingPathComponent(path)))
  return try ScenarioDecoder.decode(bytes, file: path)
}

/// Expects a scenario written in Swift to run exactly as its JSON twin: the same report,
/// the same JSON trace and the same schedule, on the default schedule and on three seeds,
/// and the same outcomes under exploration; and to say the same in what a run does not
/// show: the declarations, each step's Swift line, label and note, `expect` and `inject`.
func expectTwins(
  _ swift: Scenario, _ file: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws {
  expectTwins(swift, json: try repositoryScenario(file), sourceLocation: sourceLocation)
}

/// Expects a scenario written in Swift to run exactly as one decoded from JSON, as
/// `expectTwins(_:_:)` does for a file.
func expectTwins(
  _ swift: Scenario, json: Scenario, sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  #expect(swift.allSteps.count == json.allSteps.count, sourceLocation: sourceLocation)
  #expect(
    swift.allSteps.map(\.path) == json.allSteps.map(\.path), sourceLocation: sourceLocation)
  let (said, written) = (declarations(swift), declarations(json))
  for i in said.indices where i < written.count && said[i] != written[i] {
    Issue.record(
      "\(said[i])\n--- JSON twin ---\n\(written[i])", sourceLocation: sourceLocation)
  }
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

/// What a scenario declares that a run need not show, one line per fact, without the
/// source locations that differ between Swift and JSON.
private func declarations(_ s: Scenario) -> [String] {
  let header = [
    s.title, s.about ?? "no about", "concurrencyDebug \(s.concurrencyDebug)",
    "persistentHistory \(s.persistentHistory)",
    "expect \(s.expectation.map { "\($0.violations)" } ?? "nothing")",
    "inject \(s.injections.map { "\($0.label) \($0.code) \($0.call) \($0.condition.map(condition) ?? "")" })",
    "model \(s.entities)", "contexts \(s.contexts)", "queues \(s.queues)", "vars \(s.vars)",
  ]
  // A row's values are a dictionary, whose order may differ between two equal ones.
  let rows = s.storeRows.map {
    "row \($0.entity) \($0.handle) \($0.values.sorted { $0.key < $1.key })"
      + " \($0.links.sorted { $0.key < $1.key })"
  }
  return header + rows
    + s.allSteps.map {
      "\($0.path): \($0.swift) label \($0.label ?? "-") note \($0.note ?? "-")"
    }
}

private func condition(_ c: Condition) -> String {
  "\(c.variable) \(c.negated ? "!=" : "==") \(c.value.swiftDescription)"
}
