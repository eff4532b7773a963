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
    let report = CheckReport(advice: .ctxsim(), acceptingBounded: options.acceptBounded)
    switch options.format {
    case .json: console.write(JSONWriter.write(report.document(results)))
    case .text: console.write(report.text(results, colour: console.useColour(options.colour)))
    }
    if let junit = options.junit {
      let xml = report.junit(results)
      guard FileManager.default.createFile(atPath: junit, contents: Data(xml.utf8)) else {
        console.writeError("\(junit): error: cannot write the JUnit report\n")
        return ExitStatus.noInput
      }
    }
    return ExitStatus.of(results, acceptingBounded: options.acceptBounded)
  }

  /// Checks every file, several at once; results come back in file order.
  private func checkAll(_ files: [String]) -> [CheckResult] {
    // A Swift file is drafted and held to a clean design, as a fixed one declares.
    var drafting = DraftSettings()
    drafting.declaresClean = true
    let scenarios = files.map { file in
      (
        file,
        loadScenarios(
          [file], limits: self.options.limits, drafting: drafting, quiet: true, console: console)
      )
    }
    let options = self.options
    // The biggest scenarios start first, so the last one to finish is a small one.
    let order = scenarios.indices.sorted { a, b in size(scenarios[a].1) > size(scenarios[b].1) }
    let checked = concurrentMap(scenarios.count, workers: options.jobs) { n in
      let (file, loaded) = scenarios[order[n]]
      switch loaded {
      case .success(let paths):
        // Each path of a draft is checked; the file holds only when every path does, and
        // the first that does not is the one reported.
        var first: CheckResult?
        for path in paths {
          let check = ContextSim.check(
            path.scenario,
            options: options.limits.simulation(concurrencyDebug: path.scenario.concurrencyDebug),
            strategy: options.strategy, maxSchedules: options.maxSchedules,
            maxStates: options.maxStates, seed: options.seed, workers: options.jobs,
            shouldStop: timeUp(after: options.timeLimit))
          let result = CheckResult(file: file, outcome: .checked(check))
          if !result.passed { return result }
          first = first ?? result
        }
        return first ?? CheckResult(file: file, outcome: .unreadable("no scenario"))
      case .failure(let failure):
        return CheckResult(file: file, outcome: .unreadable(failure.message))
      }
    }
    var results = checked
    for (n, i) in order.enumerated() { results[i] = checked[n] }
    return results
  }

  /// How many steps a scenario has: the measure of how long it may take to check.
  private func size(_ loaded: Result<[ScenarioPath], LoadFailure>) -> Int {
    if case .success(let paths) = loaded {
      paths.map(\.scenario.allSteps.count).reduce(0, +)
    } else {
      0
    }
  }
}
