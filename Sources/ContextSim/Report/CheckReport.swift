/// One scenario's result in `ctxsim check`.
public struct CheckResult: Sendable {
  public enum Verdict: Sendable {
    case pass(String)
    /// What differed, one line each.
    case fail([String])
    /// The file could not be read or decoded.
    case error(String)
  }

  /// How the scenario was explored.
  public struct Exploration: Sendable {
    public var strategy: String
    public var schedules: Int
    public var complete: Bool
    /// Whether exhaustive search ran out of budget and PCT took over.
    public var fellBack: Bool

    public init(strategy: String, schedules: Int, complete: Bool, fellBack: Bool) {
      self.strategy = strategy
      self.schedules = schedules
      self.complete = complete
      self.fellBack = fellBack
    }

    /// `(dpor: 14 schedules, all of them)`.
    public var text: String {
      let count = "\(schedules) schedule\(schedules == 1 ? "" : "s")"
      if complete { return "(\(strategy): \(count), all of them)" }
      if fellBack { return "(\(strategy): \(count); too many interleavings for exhaustive search)" }
      return "(\(strategy): \(count))"
    }
  }

  public var file: String
  public var title: String?
  public var exploration: Exploration?
  public var verdict: Verdict

  public init(file: String, title: String?, exploration: Exploration? = nil, verdict: Verdict) {
    self.file = file
    self.title = title
    self.exploration = exploration
    self.verdict = verdict
  }

  public var passed: Bool {
    if case .pass = verdict { true } else { false }
  }
}

/// Machine formats for `ctxsim check`: JSON, and JUnit XML for CI systems.
public enum CheckReport {
  public static func document(_ results: [CheckResult]) -> JSONValue {
    .object([
      "scenarios": .array(
        results.map { result in
          var verdict = "pass"
          var details: [String] = []
          switch result.verdict {
          case .pass(let summary): details = [summary]
          case .fail(let reasons):
            verdict = "fail"
            details = reasons
          case .error(let message):
            verdict = "error"
            details = [message]
          }
          return .object([
            "file": .string(result.file),
            "title": result.title.map(JSONValue.string),
            "result": .string(verdict),
            "strategy": result.exploration.map { .string($0.strategy) },
            "schedules": result.exploration.map { .integer($0.schedules) },
            "complete": result.exploration.map { .bool($0.complete) },
            "details": .array(details.map(JSONValue.string)),
          ])
        }),
      "passed": .integer(results.filter(\.passed).count),
      "failed": .integer(results.filter { !$0.passed }.count),
    ])
  }

  /// One `<testcase>` per scenario; failures and errors carry what differed.
  public static func junit(_ results: [CheckResult]) -> String {
    let failures = results.filter { if case .fail = $0.verdict { true } else { false } }.count
    let errors = results.filter { if case .error = $0.verdict { true } else { false } }.count
    var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
    xml +=
      #"<testsuites name="ctxsim check" tests="\#(results.count)" failures="\#(failures)" errors="\#(errors)">"#
      + "\n"
    xml +=
      #"  <testsuite name="scenarios" tests="\#(results.count)" failures="\#(failures)" errors="\#(errors)">"#
      + "\n"
    for result in results {
      let name = Markup.escape(result.file)
      xml += #"    <testcase classname="ctxsim.check" name="\#(name)" file="\#(name)""#
      switch result.verdict {
      case .pass(let summary):
        xml +=
          ">\n      <system-out>\(Markup.escape(summary + " " + (result.exploration?.text ?? "")))</system-out>\n    </testcase>\n"
      case .fail(let reasons):
        xml +=
          ">\n" + #"      <failure message="\#(Markup.escape(reasons.first ?? "failed"))">"#
          + Markup.escape(reasons.joined(separator: "\n")) + "</failure>\n    </testcase>\n"
      case .error(let message):
        xml +=
          ">\n" + #"      <error message="invalid scenario">"# + Markup.escape(message)
          + "</error>\n    </testcase>\n"
      }
    }
    xml += "  </testsuite>\n</testsuites>\n"
    return xml
  }
}
