import ContextSimCore
import ContextSimReports

/// A grade for people (text) and for tools (JSON): the verdict, then each criterion with
/// `ok` or `FAIL`, the evidence, a replay and a hint.
///
///     FAIL  exercise 1, An import off the main thread: attempt.json (dpor: 1 schedule, all of them)
///       ok    the model, the store at launch and ConcurrencyDebug are the exercise's
///       ok    no rule is broken, in any schedule
///       FAIL  the store ends with 2 Note rows
///             the store ends with 0 Note rows; the exercise needs 2
///             in every schedule; replay: ctxsim run attempt.json --schedule 0,1x3
///             hint: Both notes must reach the store: keep the inserts and the save.
public struct GradeReport {
  let advice: Advice

  /// A report that words replays and raised bounds with `advice`.
  public init(advice: Advice = .plain) {
    self.advice = advice
  }

  /// One criterion as the report shows it: what it asks, and if it failed, the evidence
  /// lines and the hints.
  public struct Line: Sendable {
    /// The criterion in words.
    public var criterion: String
    /// Whether it held.
    public var passed: Bool
    /// What showed it failing: counts, rows, violations, replays.
    public var evidence: [String]
    /// What to try, from the brief or, where it has none, ctxsim's own.
    public var hints: [String]
  }

  /// The verdict's word: `PASS`, `FAIL`, `LIMIT` or `INCOMPLETE`.
  public func word(_ grade: Grade) -> String { grade.verdict.word }

  /// How the attempt was explored: `(dpor: 14 schedules, all of them)`.
  public func exploration(_ grade: Grade) -> String {
    let e = grade.exploration
    let count = "\(e.schedulesRun) schedule\(e.schedulesRun == 1 ? "" : "s")"
    return e.isComplete
      ? "(\(e.strategyName): \(count), all of them)" : "(\(e.strategyName): \(count))"
  }

  /// Why the verdict is not an answer, for a limit or an incomplete search; else nothing.
  public func notes(_ grade: Grade) -> [String] {
    switch grade.verdict {
    case .passed, .failed, .bounded, .unmodelled, .noExpectation:
      // A grade is passed, failed, limited or incomplete (``Grader``): the rest do not come.
      guard !grade.exploration.isComplete, let stop = grade.exploration.stop else { return [] }
      return [
        "the search did not cover every interleaving; "
          + advice.stopped(stop, strategy: grade.exploration.strategy)
      ]
    case .limited(let limit):
      return ["not graded: a schedule hit a limit. " + limit.message(advice)]
        + (grade.replay.map { ["replay: " + advice.replay(grade.file, $0)] } ?? [])
    case .incomplete(let stop):
      return [
        "not graded: no criterion failed, but the search did not cover every interleaving, "
          + "so the attempt is not proven"
          + (stop.map { "; " + advice.stopped($0, strategy: grade.exploration.strategy) } ?? "")
      ]
    }
  }

  /// Every criterion, in order, with its evidence and hints.
  public func lines(_ grade: Grade) -> [Line] {
    grade.results.map { result in
      var line = Line(
        criterion: result.criterion.description, passed: result.passed, evidence: [], hints: [])
      switch result.failure {
      case nil: break
      case .setupChanged(let changes):
        line.evidence = changes
        line.hints = [hint("setup", in: grade.exercise)]
      case .violations(let findings):
        for finding in findings {
          let v = finding.violation
          let label = finding.stepLabel.map { " \"\($0)\"" } ?? ""
          line.evidence.append(
            "\(v.kind.rawValue) at \(v.site.path)\(label): \(v.headline)")
          if let replay = finding.replay {
            line.evidence.append(
              "  " + schedules(finding.schedules, of: grade) + "; replay: "
                + advice.replay(grade.file, replay))
          }
        }
        var kinds: [ViolationKind] = []
        for finding in findings where !kinds.contains(finding.violation.kind) {
          kinds.append(finding.violation.kind)
        }
        line.hints = kinds.map { hint($0.rawValue, in: grade.exercise) }
      case .rows(let evidence):
        guard case .rows(let criterion) = result.criterion else { break }
        line.evidence = self.evidence(criterion, evidence)
        line.evidence.append(
          "  " + schedules(evidence.schedules, of: grade) + "; replay: "
            + advice.replay(grade.file, evidence.replay))
        line.hints = [hint(criterion.place.rawValue, in: grade.exercise)]
      }
      return line
    }
  }

  /// `the store ends with 0 Note rows; the exercise needs 2`, and the rows it has instead.
  func evidence(_ criterion: RowsCriterion, _ evidence: Grade.RowsEvidence) -> [String] {
    let entity = criterion.entity
    let filter =
      criterion.conditions.isEmpty
      ? "" : " where " + criterion.conditions.map(\.text).joined(separator: " and ")
    let n = evidence.matching
    var lines: [String] = []
    switch criterion.place {
    case .store:
      lines.append(
        "the store ends with \(n) \(entity) row\(n == 1 ? "" : "s")\(filter); "
          + "the exercise needs \(criterion.count)")
    case .viewContext:
      lines.append(
        (n == 0 ? "viewContext never sees them: " : "")
          + "a fetch of \(entity) in viewContext at the end finds \(n)\(filter); "
          + "the exercise needs \(criterion.count)")
    }
    guard !criterion.conditions.isEmpty, !evidence.rows.isEmpty else { return lines }
    let shown = evidence.rows.prefix(4).map { row in
      row.id.description + " "
        + criterion.conditions.map { condition in
          let value = row.values[condition.key] ?? .null
          if case .count = condition.test {
            return "\(condition.key).count = \(value.listItems?.count ?? 0)"
          }
          return "\(condition.key) = \(Self.written(value))"
        }.joined(separator: ", ")
    }
    let more = evidence.rows.count > 4 ? ", and \(evidence.rows.count - 4) more" : ""
    let place = criterion.place == .store ? "the store's" : "viewContext's"
    lines.append(
      "\(place) \(entity) \(evidence.rows.count == 1 ? "row" : "rows"): "
        + shown.joined(separator: "; ") + more)
    return lines
  }

  /// A value as a criterion writes it: `"Final"`, `true`, `null`, a row's handle.
  static func written(_ value: Value) -> String {
    switch value {
    case .null: "null"
    case .objectID(let id): id.description
    default: value.swiftDescription
    }
  }

  /// `in every schedule`, or `in 2 of 6 schedules`.
  private func schedules(_ n: Int, of grade: Grade) -> String {
    let total = grade.exploration.schedulesRun
    return n >= total ? "in every schedule" : "in \(n) of \(total) schedules"
  }

  /// The brief's hint for a topic, or ctxsim's own.
  private func hint(_ topic: String, in exercise: GradedExercise) -> String {
    exercise.hint(topic) ?? GradingHints.generic(topic)
  }

  /// The grade as text: the verdict row, any note, then each criterion.
  public func text(_ grade: Grade, colour: Bool) -> String {
    func tag(_ word: String) -> String {
      let code = word == "PASS" || word == "ok" ? "32" : "31"
      return colour ? "\u{1B}[1;\(code)m\(word)\u{1B}[0m" : word
    }
    let name = grade.exercise.number.map { "exercise \($0), " } ?? ""
    var out =
      "\(tag(word(grade)))  \(name)\(grade.exercise.title): \(grade.file) \(exploration(grade))\n"
    for note in notes(grade) { out += "      \(note)\n" }
    for line in lines(grade) {
      out += "  \(line.passed ? tag("ok") + "  " : tag("FAIL"))  \(line.criterion)\n"
      for evidence in line.evidence { out += "        \(evidence)\n" }
      for hint in line.hints { out += "        hint: \(hint)\n" }
    }
    let failed = grade.results.filter { !$0.passed }.count
    out +=
      failed == 0
      ? "\nEvery criterion held in every schedule ctxsim ran.\n"
      : "\n\(failed) of \(grade.results.count) criteria failed.\n"
    return out
  }

  /// The grade as one JSON document.
  public func document(_ grade: Grade) -> JSONValue {
    .object([
      "exercise": grade.exercise.number.map(JSONValue.integer),
      "title": .string(grade.exercise.title),
      "file": .string(grade.file),
      "result": .string(word(grade).lowercased()),
      "strategy": .string(grade.exploration.strategyName),
      "schedules": .integer(grade.exploration.schedulesRun),
      "complete": .bool(grade.exploration.isComplete),
      "notes": .array(notes(grade).map(JSONValue.string)),
      "criteria": .array(
        lines(grade).map { line in
          .object([
            "criterion": .string(line.criterion),
            "passed": .bool(line.passed),
            "evidence": .array(line.evidence.map { .string($0.trimmed) }),
            "hints": .array(line.hints.map(JSONValue.string)),
          ])
        }),
    ])
  }
}
