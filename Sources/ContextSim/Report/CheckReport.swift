/// One scenario file's row in a check report: its check, or why it could not be read.
public struct CheckResult: Sendable {
  /// What became of the file.
  public enum Outcome: Sendable {
    /// The scenario was read and checked.
    case checked(ScenarioCheck)
    /// The file could not be read or decoded: the message says where and why.
    case unreadable(String)
  }

  /// The scenario file, as the report lists it.
  public var file: String
  /// Its check, or why there is none.
  public var outcome: Outcome

  /// A row for `file`.
  public init(file: String, outcome: Outcome) {
    self.file = file
    self.outcome = outcome
  }

  /// The scenario's title, once it was read.
  public var title: String? {
    if case .checked(let check) = outcome { check.title } else { nil }
  }

  /// Whether the scenario held.
  public var passed: Bool { status == .pass }

  /// What the row says of the file, as one word.
  public enum Status: String, Sendable {
    case pass = "PASS"
    case fail = "FAIL"
    case limit = "LIMIT"
    case incomplete = "INCOMPLETE"
    case error = "ERROR"

    /// Whether a bound, not the design, kept the check from an answer.
    public var isCutShort: Bool { self == .limit || self == .incomplete }
  }

  /// The row's word, from the check's verdict.
  public var status: Status {
    guard case .checked(let check) = outcome else { return .error }
    switch check.verdict {
    case .passed: return .pass
    case .failed, .noExpectation: return .fail
    case .limited: return .limit
    case .incomplete: return .incomplete
    }
  }
}

/// Check results for people (text) and for tools (JSON, JUnit XML).
///
///     PASS  scenarios/deadlock.json  deadlock, as declared (dpor: 2 schedules, all of them)
///     FAIL  edited.json (dpor: 1 schedule, all of them)
///           missing: wrongQueueObject at hand-over-by-id
public struct CheckReport {
  let advice: Advice

  /// A report that words replays and raised bounds with `advice`.
  public init(advice: Advice = .plain) {
    self.advice = advice
  }

  /// How the scenario was explored: `(dpor: 14 schedules, all of them)`.
  public func exploration(_ check: ScenarioCheck) -> String {
    let e = check.exploration
    let count = "\(e.schedulesRun) schedule\(e.schedulesRun == 1 ? "" : "s")"
    let strategy = e.strategyName
    if e.isComplete { return "(\(strategy): \(count), all of them)" }
    if check.fellBack {
      return "(\(strategy): \(count); too many interleavings for exhaustive search)"
    }
    return "(\(strategy): \(count))"
  }

  /// The summary after PASS, or the lines that say what differed, what stopped the search,
  /// or why the file could not be read.
  public func details(_ result: CheckResult) -> [String] {
    guard case .checked(let check) = result.outcome else {
      if case .unreadable(let message) = result.outcome {
        return message.split(separator: "\n").map(String.init)
      }
      return []
    }
    switch check.verdict {
    case .passed:
      let kinds = check.kindsSeen
      let handled = check.handledCodes.map { "error \($0) handled" }
      let seen = kinds.isEmpty ? "clean" : kinds.map(\.rawValue).joined(separator: ", ")
      return [([seen] + handled).joined(separator: ", ") + ", as declared"]
    case .noExpectation:
      return [
        "no \"expect\": add \"expect\": {\"violations\": []} for a clean design, or list the violations it must show"
      ]
    case .limited(let limit, let replay):
      return [
        "a schedule hit a limit. " + limit.message(advice),
        "replay: " + advice.replay(check.file, replay),
      ]
    case .incomplete(let stop):
      let why =
        "not proven clean: no schedule failed, but the search did not cover every interleaving"
      return [
        why + (stop.map { "; " + advice.stopped($0, strategy: check.exploration.strategy) } ?? "")
      ]
    case .failed(let findings):
      return lines(findings, check)
    }
  }

  /// Missing violations first, then each unexpected one with its replay, then a schedule
  /// for each missing one where it does not show.
  private func lines(_ findings: [ScenarioCheck.Finding], _ check: ScenarioCheck) -> [String] {
    var lines: [String] = []
    var counterexamples: [String] = []
    for finding in findings {
      switch finding {
      case .missing(let expected as CustomStringConvertible, let counterexample),
        .missingHandled(let expected as CustomStringConvertible, let counterexample):
        lines.append("missing: \(expected)")
        if let counterexample {
          counterexamples.append(
            "  a schedule where it does not show: " + advice.replay(check.file, counterexample))
        }
      case .unexpected(let v, let stepLabel, let replay):
        let label = stepLabel.map { " \"\($0)\"" } ?? ""
        lines.append(
          "unexpected: \(v.kind.rawValue) at \(v.site.path)\(label): \(Messages.headline(v))")
        if let replay { lines.append("  replay: " + advice.replay(check.file, replay)) }
      }
    }
    return lines + counterexamples
  }

  /// The text report: a row per scenario, then the count.
  public func text(_ results: [CheckResult], colour: Bool) -> String {
    func tag(_ word: String) -> String {
      let code = word == "PASS" ? "32" : "31"
      return colour ? "\u{1B}[1;\(code)m\(word)\u{1B}[0m" : word
    }
    var out = ""
    for result in results {
      let word = result.status.rawValue
      let lines = details(result)
      switch result.outcome {
      case .checked(let check) where check.passed:
        out += "\(tag(word))  \(result.file)  \(lines.joined()) \(exploration(check))\n"
        continue
      case .checked(let check):
        out += "\(tag(word))  \(result.file) \(exploration(check))\n"
      case .unreadable:
        out += "\(tag(word)) \(result.file)\n"
      }
      for line in lines { out += "      \(line)\n" }
    }
    let passed = results.filter(\.passed).count
    let cutShort = results.filter(\.status.isCutShort).count
    out +=
      "\n\(results.count) scenario\(results.count == 1 ? "" : "s"): \(passed) passed, "
      + "\(results.count - passed - cutShort) failed"
      + (cutShort > 0 ? ", \(cutShort) cut short by a limit.\n" : ".\n")
    return out
  }

  /// The results as one JSON document.
  public func document(_ results: [CheckResult]) -> JSONValue {
    .object([
      "scenarios": .array(
        results.map { result in
          var check: ScenarioCheck?
          if case .checked(let c) = result.outcome { check = c }
          return .object([
            "file": .string(result.file),
            "title": result.title.map(JSONValue.string),
            "result": .string(result.status.rawValue.lowercased()),
            "strategy": check.map { .string($0.exploration.strategyName) },
            "schedules": check.map { .integer($0.exploration.schedulesRun) },
            "complete": check.map { .bool($0.exploration.isComplete) },
            "details": .array(details(result).map(JSONValue.string)),
          ])
        }),
      "passed": .integer(results.filter(\.passed).count),
      "failed": .integer(results.filter { [.fail, .error].contains($0.status) }.count),
      "cutShort": .integer(
        results.filter(\.status.isCutShort).count),
    ])
  }

  /// One `<testcase>` per scenario; failures and errors carry what differed.
  public func junit(_ results: [CheckResult]) -> String {
    let errors = results.filter { $0.status == .error }.count
    let failures = results.count - errors - results.filter(\.passed).count
    var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
    xml +=
      #"<testsuites name="ctxsim check" tests="\#(results.count)" failures="\#(failures)" errors="\#(errors)">"#
      + "\n"
    xml +=
      #"  <testsuite name="scenarios" tests="\#(results.count)" failures="\#(failures)" errors="\#(errors)">"#
      + "\n"
    for result in results {
      let name = Markup.escape(result.file)
      let lines = details(result)
      xml += #"    <testcase classname="ctxsim.check" name="\#(name)" file="\#(name)""#
      switch result.outcome {
      case .checked(let check) where check.passed:
        xml +=
          ">\n      <system-out>\(Markup.escape(lines.joined() + " " + exploration(check)))</system-out>\n    </testcase>\n"
      case .checked:
        xml +=
          ">\n" + #"      <failure message="\#(Markup.escape(lines.first ?? "failed"))">"#
          + Markup.escape(lines.joined(separator: "\n")) + "</failure>\n    </testcase>\n"
      case .unreadable(let message):
        xml +=
          ">\n" + #"      <error message="invalid scenario">"# + Markup.escape(message)
          + "</error>\n    </testcase>\n"
      }
    }
    xml += "  </testsuite>\n</testsuites>\n"
    return xml
  }
}
