import Foundation
import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

@Suite("Looking up a step's events")
struct TraceLookupTests {
  @Test("Events and violations are recorded in step order, and each step's are found exactly")
  func stepOrder() throws {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("scenarios").path
    let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter {
      $0.hasSuffix(".json")
    }
    #expect(files.count >= 30)
    for file in files {
      let data = try #require(FileManager.default.contents(atPath: folder + "/" + file))
      let s = try ScenarioDecoder.decode(Array(data), file: file)
      for seed in [1, 2] as [UInt64] {
        var scheduler = RandomScheduler(seed: seed)
        let trace = simulate(
          s, options: SimulationOptions(concurrencyDebug: s.concurrencyDebug),
          scheduler: &scheduler)
        let eventSteps = trace.events.map(\.site.step)
        let violationSteps = trace.violations.map(\.site.step)
        #expect(eventSteps == eventSteps.sorted(), "\(file)")
        #expect(violationSteps == violationSteps.sorted(), "\(file)")
        for step in 0...(trace.schedule.threads.count + 1) {
          #expect(
            trace.events(atStep: step).map(\.site.step)
              == trace.events.filter { $0.site.step == step }.map(\.site.step))
          #expect(
            trace.violations(atStep: step).map(\.kind)
              == trace.violations.filter { $0.site.step == step }.map(\.kind))
        }
      }
    }
  }
}
