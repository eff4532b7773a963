import Foundation
import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// The stateful search merges two states whose fingerprints agree, so a property of the
/// state that the fingerprint forgets would merge states that go on differently, and the
/// proof would be unsound. `FingerprintCoverage` says of every property whether it is
/// written; this holds that list to the properties the state's types really have.
@Suite("The fingerprint covers every property of the state")
struct FingerprintCoverageTests {
  /// Scenarios that between them make every kind of state: observers and notifications,
  /// fetched results controllers, task groups, history, nested contexts, merges.
  static let scenarios = [
    "did-save-observer-on-main", "fetched-results-background", "photo-downloader-fixed",
    "persistent-history", "nested-save-deadlock", "merge-conflict", "async-perform",
    "held-across-reset",
  ]

  /// Each type met in the running state, by name, with the properties seen on it.
  static func propertiesSeen() throws -> [String: Set<String>] {
    var seen: [String: Set<String>] = [:]
    func walk(_ value: Any) {
      let mirror = Mirror(reflecting: value)
      let name = String(describing: type(of: value))
      // The scenario never changes, and the trace goes in as its outcome so far.
      if ["Scenario", "Step", "Script", "Trace"].contains(name) { return }
      if mirror.displayStyle == .struct || mirror.displayStyle == .class {
        seen[name, default: []].formUnion(mirror.children.compactMap(\.label))
      }
      for child in mirror.children { walk(child.value) }
    }
    for name in scenarios {
      let data = try Data(
        contentsOf: DraftTests.root.appendingPathComponent("scenarios/\(name).json"))
      var execution = Execution(try ScenarioDecoder.decode(Array(data), file: name))
      while let runnable = execution.runnableThreads() {
        walk(execution.simulation)
        _ = execution.step(runnable[runnable.count - 1])
      }
    }
    return seen
  }

  @Test("Every owner's properties are listed, written or left out with a reason")
  func everyPropertyListed() throws {
    let seen = try Self.propertiesSeen()
    for (owner, fields) in FingerprintCoverage.owners {
      let properties = try #require(seen[owner], "\(owner) was never met in the state")
      #expect(properties == Set(fields.keys), "\(owner)'s properties and its coverage differ")
    }
    let unknown = seen.keys.filter { name in
      FingerprintCoverage.owners[name] == nil && !FingerprintCoverage.parts.contains(name)
        && !name.hasPrefix("SmallDictionary<") && !name.hasPrefix("SIMD")
    }
    #expect(unknown.isEmpty, "types in the state FingerprintCoverage does not name: \(unknown)")
  }

}
