import ContextSim
import Dispatch
import Foundation

/// `ctxsim check PATH…`: each scenario explored, and held to its declared expectations.
struct CheckCommand {
  var options: CheckOptions
  var console: Console

  func execute() -> Int32 {
    var files: [String] = []
    for path in options.paths {
      switch console.readFile(path) {
      case .directory(let all):
        let found = all.filter { $0.hasSuffix(".json") }
        if found.isEmpty {
          console.writeError("\(path): error: no scenario files (*.json) in this folder\n")
          return ExitStatus.noInput
        }
        files += found
      case .missing:
        console.writeError("\(path): error: no such file or folder\n")
        return ExitStatus.noInput
      case .contents, .unreadable:
        files.append(path)
      }
    }
    let results = checkAll(files)
    switch options.format {
    case .json: console.write(JSONWriter.write(CheckReport.document(results)))
    case .text: printText(results)
    }
    if let junit = options.junit {
      let xml = CheckReport.junit(results)
      guard FileManager.default.createFile(atPath: junit, contents: Data(xml.utf8)) else {
        console.writeError("\(junit): error: cannot write the JUnit report\n")
        return ExitStatus.noInput
      }
    }
    if results.contains(where: { if case .error = $0.verdict { true } else { false } }) {
      return ExitStatus.invalidInput
    }
    return results.allSatisfy(\.passed) ? ExitStatus.success : ExitStatus.violations
  }

  /// Checks every file, several at once; results come back in file order.
  private func checkAll(_ files: [String]) -> [CheckResult] {
    let scenarios = files.map { file in
      (file, loadScenario(file, limits: self.options.limits, console: console))
    }
    let options = self.options
    return concurrentMap(scenarios.count, workers: options.jobs) { i in
      let (file, loaded) = scenarios[i]
      switch loaded {
      case .success(let scenario): return CheckCommand.check(scenario, options: options)
      case .failure(let failure):
        return CheckResult(file: file, title: nil, verdict: .error(failure.message))
      }
    }
  }

  /// Explores one scenario and compares what it found with its `expect`.
  static func check(_ scenario: Scenario, options: CheckOptions) -> CheckResult {
    guard let expectation = scenario.expectation else {
      return CheckResult(
        file: scenario.file, title: scenario.title,
        verdict: .fail([
          "no \"expect\": add \"expect\": {\"violations\": []} for a clean design, or list the violations it must show"
        ]))
    }
    let simulation = options.limits.simulation(concurrencyDebug: scenario.concurrencyDebug)
    let timeUp = timeUp(after: options.timeLimit)
    var exploration: Exploration
    var fellBack = false
    if let strategy = options.strategy {
      exploration = explore(
        scenario, strategy: strategy, options: simulation, maxSchedules: options.maxSchedules,
        shouldStop: timeUp)
    } else {
      exploration = explore(
        scenario, strategy: .dpor(preemptionBound: nil), options: simulation,
        maxSchedules: options.maxSchedules, shouldStop: timeUp)
      if !exploration.isComplete && !timeUp() {
        fellBack = true
        exploration = explore(
          scenario, strategy: .pct(seed: options.seed, depth: 3), options: simulation,
          maxSchedules: options.maxSchedules, shouldStop: timeUp)
      }
    }
    let how = CheckResult.Exploration(
      strategy: exploration.strategy.name, schedules: exploration.schedulesRun,
      complete: exploration.isComplete, fellBack: fellBack)
    if let limited = exploration.outcomes.first(where: {
      if case .limit? = $0.example.stop { true } else { false }
    }), case .limit(let limit)? = limited.example.stop {
      return CheckResult(
        file: scenario.file, title: scenario.title, exploration: how,
        verdict: .fail([
          "a schedule hit a limit. " + limit.message,
          "replay: "
            + ExplorationRenderer(scenario: scenario, runFlags: []).replayCommand(limited.shortest),
        ]))
    }
    let check = ExpectationCheck(expectation, traces: exploration.outcomes.map(\.example))
    guard check.passed else {
      let steps = scenario.allSteps
      let renderer = ExplorationRenderer(scenario: scenario, runFlags: [])
      var reasons = check.missing.map { "missing: \($0)" }
      for v in check.unexpected {
        let label = steps[v.site.stepIndex].label.map { " \"\($0)\"" } ?? ""
        reasons.append(
          "unexpected: \(v.kind.rawValue) at \(v.site.path)\(label): \(Messages.headline(v))")
        if let outcome = exploration.outcomes.first(where: {
          $0.example.violations.contains {
            $0.site.stepIndex == v.site.stepIndex && $0.kind == v.kind
          }
        }) {
          reasons.append("  replay: " + renderer.replayCommand(outcome.shortest))
        }
      }
      for expected in check.missing {
        if let outcome = exploration.outcomes.first(where: {
          !$0.example.violations.contains(where: expected.matches)
        }) {
          reasons.append(
            "  a schedule where it does not show: " + renderer.replayCommand(outcome.shortest))
        }
      }
      return CheckResult(
        file: scenario.file, title: scenario.title, exploration: how, verdict: .fail(reasons))
    }
    let kinds = Set(exploration.outcomes.flatMap { $0.example.violations.map(\.kind) })
    let summary =
      kinds.isEmpty
      ? "clean, as declared"
      : "\(kinds.map(\.rawValue).sorted().joined(separator: ", ")), as declared"
    return CheckResult(
      file: scenario.file, title: scenario.title, exploration: how, verdict: .pass(summary))
  }

  private func printText(_ results: [CheckResult]) {
    let colour = console.useColour(options.colour)
    func tag(_ word: String, _ code: String) -> String {
      colour ? "\u{1B}[1;\(code)m\(word)\u{1B}[0m" : word
    }
    for result in results {
      switch result.verdict {
      case .pass(let summary):
        console.write(
          "\(tag("PASS", "32"))  \(result.file)  \(summary) \(result.exploration?.text ?? "")\n")
      case .fail(let reasons):
        console.write("\(tag("FAIL", "31"))  \(result.file) \(result.exploration?.text ?? "")\n")
        for reason in reasons { console.write("      \(reason)\n") }
      case .error(let message):
        console.write("\(tag("ERROR", "31")) \(result.file)\n")
        for line in message.split(separator: "\n") { console.write("      \(line)\n") }
      }
    }
    let passed = results.filter(\.passed).count
    console.write(
      "\n\(results.count) scenario\(results.count == 1 ? "" : "s"): \(passed) passed, \(results.count - passed) failed.\n"
    )
  }
}
