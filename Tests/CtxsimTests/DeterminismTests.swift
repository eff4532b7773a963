import ContextSim
import Foundation
import Testing

@testable import ctxsim

@Suite("Determinism under load")
struct DeterminismTests {
  /// What `ctxsim run` and `ctxsim run --format json` print for a scenario.
  private func runOutput(_ name: String) -> String {
    let file = "scenarios/\(name).json"
    let text = ctxsim("run", file, "--all-steps")
    let json = ctxsim("run", file, "--format", "json", "--seed", "7")
    return text.out + "exit \(text.status)\n" + json.out
  }

  @Test("Every scenario prints the same bytes run after run, and when run all at once")
  func runsRepeatAndInParallel() {
    let serial = scenarioNames.map(runOutput)
    for (name, first) in zip(scenarioNames, serial) {
      #expect(runOutput(name) == first, "\(name) changed on a second run")
    }
    // Every scenario three times over, on every core at once.
    let copies = scenarioNames.count * 3
    let outputs = concurrentMap(copies, workers: copies) { i in
      runOutput(scenarioNames[i % scenarioNames.count])
    }
    for i in 0..<copies {
      let name = scenarioNames[i % scenarioNames.count]
      #expect(outputs[i] == serial[i % scenarioNames.count], "\(name) differed under load")
    }
  }

  @Test(
    "Exploring with one job and with several gives the same report",
    arguments: ["pct", "random"])
  func exploreSerialAndParallel(strategy: String) {
    for name in scenarioNames {
      let file = "scenarios/\(name).json"
      let options = ["--strategy", strategy, "--seed", "3", "--max-schedules", "40"]
      let one = ctxsim(arguments: ["explore", file] + options + ["--jobs", "1"])
      let four = ctxsim(arguments: ["explore", file] + options + ["--jobs", "4"])
      #expect(one.status == four.status)
      #expect(one.out == four.out, "\(name): --jobs 1 and --jobs 4 differ")
      #expect(!one.out.isEmpty)
    }
  }

  @Test("check gives the same verdicts and JSON report, scenario by scenario or all at once")
  func checkSerialAndParallel() {
    let options = ["check", "scenarios/", "--max-schedules", "60", "--format", "json"]
    let serial = ctxsim(arguments: options + ["--jobs", "1"])
    let parallel = ctxsim(arguments: options + ["--jobs", "4"])
    #expect(serial.status == parallel.status)
    #expect(serial.out == parallel.out)
  }
}
