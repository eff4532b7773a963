import ContextSim

/// `ctxsim check PATH…`: each scenario against its declared expectations.
struct CheckCommand {
  var options: CheckOptions
  var console: Console

  func execute() -> Int32 {
    var files: [String] = []
    for path in options.paths {
      switch console.readFile(path) {
      case .directory(let found):
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
    let colour = console.useColour(options.colour)
    var passed = 0
    var invalid = false
    for file in files {
      switch checkOne(file) {
      case .pass(let summary):
        passed += 1
        console.write("\(tag("PASS", colour: colour ? "32" : nil))  \(file)  \(summary)\n")
      case .fail(let reasons):
        console.write("\(tag("FAIL", colour: colour ? "31" : nil))  \(file)\n")
        for reason in reasons { console.write("      \(reason)\n") }
      case .error(let failure):
        invalid = true
        console.write("\(tag("ERROR", colour: colour ? "31" : nil)) \(file)\n")
        for line in failure.message.split(separator: "\n") { console.write("      \(line)\n") }
      }
    }
    let failed = files.count - passed
    console.write(
      "\n\(files.count) scenario\(files.count == 1 ? "" : "s"): \(passed) passed, \(failed) failed.\n"
    )
    if invalid { return ExitStatus.invalidInput }
    return failed == 0 ? ExitStatus.success : ExitStatus.violations
  }

  private enum Verdict {
    case pass(String)
    case fail([String])
    case error(LoadFailure)
  }

  private func checkOne(_ file: String) -> Verdict {
    let scenario: Scenario
    switch loadScenario(file, console: console) {
    case .success(let loaded): scenario = loaded
    case .failure(let failure): return .error(failure)
    }
    guard let expectation = scenario.expectation else {
      return .fail([
        "no \"expect\": add \"expect\": {\"violations\": []} for a clean design, or list the violations it must show"
      ])
    }
    var scheduler = RunToCompletionScheduler()
    let trace = simulate(
      scenario,
      options: SimulationOptions(
        concurrencyDebug: scenario.concurrencyDebug, maximumSteps: options.maximumSteps),
      scheduler: &scheduler)
    if case .stepLimit(let limit)? = trace.stop {
      return .fail(["stopped at the step limit (\(limit) steps); raise it with --max-steps"])
    }
    let check = ExpectationCheck(expectation, traces: [trace])
    guard check.passed else {
      let steps = scenario.allSteps
      return .fail(
        check.missing.map { "missing: \($0)" }
          + check.unexpected.map { v in
            let label = steps[v.site.stepIndex].label.map { " \"\($0)\"" } ?? ""
            return
              "unexpected: \(v.kind.rawValue) at \(v.site.path)\(label): \(Messages.headline(v))"
          }
          + ["replay: ctxsim run \(file) --schedule \(trace.schedule)"])
    }
    let n = trace.violations.count
    let summary = n == 0 ? "clean, as declared" : "\(n) violation\(n == 1 ? "" : "s"), as declared"
    return .pass(summary + " (default schedule)")
  }

  private func tag(_ word: String, colour: String?) -> String {
    colour.map { "\u{1B}[1;\($0)m\(word)\u{1B}[0m" } ?? word
  }
}
