import Foundation
import Testing

@testable import ctxsim

/// Every scenario in `scenarios/`, by file name.
let scenarioNames: [String] = {
  let files =
    (try? FileManager.default.contentsOfDirectory(atPath: packageRoot + "/scenarios")) ?? []
  return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
}()

@Suite("Golden output of every scenario")
struct ScenarioGoldenTests {
  @Test(
    "ctxsim run prints the reviewed report and exits as the app would", arguments: scenarioNames)
  func report(name: String) {
    let run = ctxsim("run", "scenarios/\(name).json")
    #expect(run.err.isEmpty)
    expectSnapshot(run.out + "exit \(run.status)\n", "scenarios/\(name).txt")
  }

  @Test("There are scenarios to check")
  func scenariosExist() {
    #expect(scenarioNames.count >= 21)
  }
}
