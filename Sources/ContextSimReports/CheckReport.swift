import ContextSimCore

/// Check results for people (text) and for tools (JSON, JUnit XML).
///
///     PASS  scenarios/deadlock.json  deadlock, as declared (dpor: 2 schedules, all of them)
///     FAIL  edited.json (dpor: 1 schedule, all of them)
///           missing: wrongQueueObject at hand-over-by-id
///     BOUNDED  importers.json (dpor: 200 schedules, then stateful within ≤ 1 preemption: …)
///           clean for every schedule with ≤ 1 preemption (1693 states kept); not proven clean: …
public struct CheckReport {
  let advice: Advice
  /// The fewest preemptions a bounded proof needs to be accepted, or nil to accept none.
  let acceptedBound: Int?

  /// A report that words replays and raised bounds with `advice`, and, given
  /// `acceptingBounded`, counts bounded proofs of at least that many preemptions as
  /// accepted where a tool reads pass or fail (the summary, JUnit). Rows still say BOUNDED.
  public init(advice: Advice = .plain, acceptingBounded: Int? = nil) {
    self.advice = advice
    acceptedBound = acceptingBounded
  }

  /// How the scenario was explored: `(dpor: 14 schedules, all of them)`, or `(stateful: every
  /// state a run can reach, 34976 kept, 6 values interchangeable)`, and when the
  /// complete search did not fit, what ran after it:
  /// `(dpor: 200 schedules, then stateful within ≤ 1 preemption: 1693 states kept; too many …)`
  /// for a design declared clean, `(dpor: 600 schedules, among them a search within ≤ 1
  /// preemption to its end; too many …)` for one declared buggy.
  public func exploration(_ check: ScenarioCheck) -> String {
    let e = check.exploration
    let strategy = e.strategyName
    if e.isComplete, let states = e.statesVisited {
      let swapped = e.interchangeableValues.count
      let values = swapped > 0 ? ", \(swapped) values interchangeable" : ""
      return "(\(strategy): every state a run can reach, \(states) kept\(values))"
    }
    if e.isComplete { return "(\(strategy): \(schedules(e.schedulesRun)), all of them)" }
    let tooMany = "too many interleavings for exhaustive search"
    switch check.fallback {
    case .bounded(let bound, _)?:
      return
        "(\(strategy): \(schedules(e.schedulesRun)), among them a search within "
        + "≤ \(countedPreemptions(bound)) to its end; \(tooMany))"
    case .statefulBounded(let bound, let states)?:
      return
        "(\(strategy): \(schedules(e.schedulesRun)), then stateful within ≤ \(countedPreemptions(bound)): "
        + "\(counted(states, "state")) kept; \(tooMany))"
    case .pct(let sampled)?:
      return
        "(\(strategy): \(schedules(e.schedulesRun - sampled)), then pct: \(sampled); \(tooMany))"
    case nil:
      return "(\(strategy): \(schedules(e.schedulesRun)))"
    }
  }

  private func schedules(_ n: Int) -> String { counted(n, "schedule") }

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
    case .limited(let limit):
      return ["a schedule hit a limit. " + limit.message(advice)]
        + (check.replay.map { ["replay: " + advice.replay(check.file, $0)] } ?? [])
    case .incomplete(let stop):
      let why =
        "not proven clean: no schedule failed, but the search did not cover every interleaving"
      return [
        why + (stop.map { "; " + advice.stopped($0, strategy: check.exploration.strategy) } ?? "")
      ]
    case .bounded(let bound, let states):
      let stop = check.exploration.stop.map {
        "the complete search was " + advice.stopped($0, strategy: check.exploration.strategy)
      }
      return [
        "clean for every schedule with ≤ \(countedPreemptions(bound)) (\(counted(states, "state")) kept); "
          + "not proven clean: a bug that needs \(bound + 1) or more preemptions is not excluded",
        stop ?? "the complete search did not finish",
      ]
    case .failed:
      return lines(check.findings, check)
    case .unmodelled:
      let n = check.unmodelledLines.count
      return
        [
          "not a pass: the runs passed \(Messages.lineCount(n)) ctxsim could not model, so what they do is unknown"
        ]
        + Messages.unmodelledList(check.unmodelledLines)
        + (check.replay.map { ["replay: " + advice.replay(check.file, $0)] } ?? [])
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
          "unexpected: \(v.kind.rawValue) at \(v.site.path)\(label): \(v.headline)")
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
    let unmodelled = results.filter { $0.status == .unmodelled }.count
    out +=
      "\n\(results.count) scenario\(results.count == 1 ? "" : "s"): \(passed) passed, "
      + "\(results.count - passed - cutShort - unmodelled) failed"
      + (cutShort > 0 ? ", \(cutShort) cut short by a limit" + bounded(results) : "")
      + (unmodelled > 0 ? ", \(unmodelled) not fully modelled" : "") + ".\n"
    return out
  }

  /// How many of the rows cut short are bounded proofs, and how many of those are accepted:
  /// ` (1 clean within a preemption bound only, 1 of them accepted)`.
  private func bounded(_ results: [CheckResult]) -> String {
    let bounded = results.filter { $0.status == .bounded }
    guard !bounded.isEmpty else { return "" }
    let accepted = bounded.filter { $0.holds(acceptingBounded: acceptedBound) }.count
    return " (\(bounded.count) clean within a preemption bound only"
      + (accepted > 0 ? ", \(accepted) of them accepted)" : ")")
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
            "strategy": check.map { .string(strategy($0)) },
            "schedules": check.map { .integer($0.exploration.schedulesRun) },
            "states": check?.exploration.statesVisited.map(JSONValue.integer),
            "complete": check.map { .bool($0.exploration.isComplete) },
            "details": .array(details(result).map(JSONValue.string)),
            "fallback": check?.fallback.map(fallback),
            "bound": check?.fallback.flatMap(bound),
          ])
        }),
      "passed": .integer(results.filter(\.passed).count),
      "failed": .integer(results.filter { [.fail, .error].contains($0.status) }.count),
      "cutShort": .integer(
        results.filter(\.status.isCutShort).count),
      "bounded": .integer(results.filter { $0.status == .bounded }.count),
      "unmodelled": .integer(results.filter { $0.status == .unmodelled }.count),
    ])
  }

  /// The strategy a row names: PCT once it took over, as before the bounded fallback, so
  /// tools that read `"strategy": "pct"` as a fallback still do.
  private func strategy(_ check: ScenarioCheck) -> String {
    if case .pct? = check.fallback { return "pct" }
    return check.exploration.strategyName
  }

  /// What ran after the complete search, by name: `"bounded"` or `"pct"`.
  private func fallback(_ fallback: ScenarioCheck.Fallback) -> JSONValue {
    switch fallback {
    case .bounded, .statefulBounded: .string("bounded")
    case .pct: .string("pct")
    }
  }

  /// The largest bound searched to its end: `{"strategy": "stateful", "preemptions": 1,
  /// "states": 1693}` for a design declared clean (a proof), `{"strategy": "dpor",
  /// "preemptions": 2, "schedules": 462}` for one declared buggy; nil when there is none.
  private func bound(_ fallback: ScenarioCheck.Fallback) -> JSONValue? {
    switch fallback {
    case .bounded(let preemptions, let schedules):
      .object([
        "strategy": .string("dpor"), "preemptions": .integer(preemptions),
        "schedules": .integer(schedules),
      ])
    case .statefulBounded(let preemptions, let states):
      .object([
        "strategy": .string("stateful"), "preemptions": .integer(preemptions),
        "states": .integer(states),
      ])
    case .pct: nil
    }
  }

  /// One `<testcase>` per scenario; failures and errors carry what differed. A bounded proof
  /// is a failure, as an incomplete search is, unless it is accepted.
  public func junit(_ results: [CheckResult]) -> String {
    let errors = results.filter { $0.status == .error }.count
    let held = results.filter { $0.holds(acceptingBounded: acceptedBound) }
    let failures = results.count - errors - held.count
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
      case .checked(let check) where result.holds(acceptingBounded: acceptedBound):
        // An accepted bounded proof passes, with what it does and does not prove.
        xml +=
          ">\n      <system-out>\(Markup.escape(lines.joined(separator: "; ") + " " + exploration(check)))</system-out>\n    </testcase>\n"
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

extension ScenarioCheck: CustomStringConvertible {
  /// The verdict's row as `ctxsim check` prints it, with how far the search went and each
  /// finding, worded by ``Advice/plain``.
  public var description: String {
    let report = CheckReport()
    let result = CheckResult(file: file, outcome: .checked(self))
    return ([result.status.rawValue + " " + report.exploration(self)] + report.details(result))
      .joined(separator: "\n")
  }
}
