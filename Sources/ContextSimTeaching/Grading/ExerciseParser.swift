import ContextSimCore
import ContextSimReports

/// A problem with an exercise's brief, at its place: a ``Diagnostic``.
public typealias ExerciseError = Diagnostic
/// Every problem found in one brief.
public typealias ExerciseErrors = Diagnostics

/// Reads an exercise's brief: a `---` header of `key: value` lines, the brief in Markdown,
/// then `## Hints` with one `### topic` per hint.
///
/// It checks the text alone; ``GradedExercise/validated(against:)`` then checks the
/// criteria's names against the starting scenario.
public enum ExerciseParser {
  static let headerKeys = ["title", "scenario", "solution", "fixes", "store", "viewContext"]
  /// Hint topics besides violation kinds.
  static let topics = ["store", "viewContext", "setup"]

  /// Reads a brief; every problem found is reported, not just the first.
  ///
  /// - Parameter file: the brief's path; `exercise-03-name.md` gives it the number 3.
  public static func parse(_ text: String, file: String) throws(Diagnostics) -> GradedExercise {
    var errors: [Diagnostic] = []
    func fail(_ line: Int, _ column: Int?, _ message: String, _ fix: String) {
      errors.append(
        Diagnostic(
          file: file, location: SourceLocation(line: line, column: column ?? 1), message: message,
          fix: fix))
    }
    let lines = text.fileLines
    var single: [String: (value: String, line: Int)] = [:]
    var criteria: [RowsCriterion] = []
    var fixes: [ViolationKind] = []
    var criterionLines = 0
    guard let front = FrontMatter(lines) else {
      fail(
        1, nil, "the brief has no header",
        "start it with ---, the title:, scenario: and "
          + "solution: lines and the criteria, and ---")
      throw Diagnostics(errors: errors)
    }
    for entry in front.lines {
      guard case .entry(let key, let value, let line, let column) = entry else {
        if case .notKeyValue(let line) = entry {
          fail(line, nil, "a header line must be key: value", "write store: 2 Note, say")
        }
        continue
      }
      switch key {
      case "store", "viewContext":
        criterionLines += 1
        do {
          criteria.append(
            try CriterionParser.parse(
              value, place: RowsCriterion.Place(rawValue: key)!,
              at: SourceLocation(line: line, column: column)))
        } catch {
          fail(error.location.line, error.location.column, error.message, error.fix)
        }
      case "fixes":
        var offset = column
        for word in value.split(separator: ",", omittingEmptySubsequences: false) {
          defer { offset += word.count + 1 }
          let name = String(word).trimmed
          let at = offset + word.prefix { $0 == " " }.count
          if let kind = ViolationKind(rawValue: name) {
            fixes.append(kind)
          } else {
            fail(
              line, at, "\"\(name)\" is not a violation kind",
              nearestName(to: name, in: ViolationKind.allCases.map(\.rawValue)).map {
                "did you mean \"\($0)\"?"
              } ?? "list kinds such as wrongQueueContext, separated by commas")
          }
        }
      case _ where headerKeys.contains(key):
        if let first = single[key] {
          fail(line, nil, "\(key): is given twice; first at line \(first.line)", "keep one")
        } else if value.isEmpty {
          fail(line, column, "\(key): has no value", "write the \(key) after the colon")
        } else {
          single[key] = (value, line)
        }
      default:
        fail(
          line, nil, "unknown header key \"\(key)\"",
          nearestName(to: key, in: headerKeys).map { "did you mean \"\($0)\"?" }
            ?? "use one of: " + headerKeys.joined(separator: ", "))
      }
    }
    if !front.isClosed {
      fail(1, nil, "the header is never closed", "end the header with a line of ---")
    }
    for key in ["title", "scenario", "solution"] where single[key] == nil {
      fail(1, nil, "the header has no \(key):", "add a \(key): line to the header")
    }
    if criterionLines == 0 {
      fail(
        1, nil, "the header names no store: or viewContext: criterion",
        "say what the fixed app must leave behind, such as store: 2 Note")
    }
    let body = Array(lines[front.bodyStart...])
    let (brief, hints) = readBody(body, firstLine: front.bodyStart + 1, fail: fail)
    guard errors.isEmpty else { throw Diagnostics(errors: errors) }
    return GradedExercise(
      file: file, number: number(of: file), title: single["title"]!.value,
      scenario: single["scenario"]!.value, solution: single["solution"]!.value, fixes: fixes,
      criteria: criteria, brief: brief, hints: hints)
  }

  /// The brief before `## Hints`, and the hints under it by their `###` topic.
  private static func readBody(
    _ lines: [String], firstLine: Int, fail: (Int, Int?, String, String) -> Void
  ) -> (brief: String, hints: [String: String]) {
    var brief: [String] = []
    var hints: [String: String] = [:]
    var inHints = false
    var topic: (name: String, line: Int)?
    var text: [String] = []
    func close() {
      if let topic { hints[topic.name] = paragraph(text) }
      topic = nil
      text = []
    }
    let known = topics + ViolationKind.allCases.map(\.rawValue)
    for (offset, line) in lines.enumerated() {
      let number = firstLine + offset
      if line.hasPrefix("## ") {
        close()
        inHints = String(line.dropFirst(3)).trimmed == "Hints"
        if !inHints { brief.append(line) }
      } else if inHints && line.hasPrefix("### ") {
        close()
        let name = String(line.dropFirst(4)).trimmed
        if !known.contains(name) {
          fail(
            number, 5, "unknown hint topic \"\(name)\"",
            nearestName(to: name, in: known).map { "did you mean \"\($0)\"?" }
              ?? "a hint is for store, viewContext, setup or a violation kind")
        } else if hints[name] != nil {
          fail(number, nil, "a second hint for \"\(name)\"", "keep one ### \(name) section")
        }
        topic = (name, number)
      } else if inHints {
        if topic != nil {
          text.append(line)
        } else if !line.trimmed.isEmpty {
          fail(
            number, nil, "text under ## Hints before any ### topic",
            "start each hint with ### and its topic: a violation kind, store or viewContext")
        }
      } else {
        brief.append(line)
      }
    }
    close()
    return (brief.joined(separator: "\n").trimmed, hints)
  }

  /// A hint's lines as one paragraph, for indenting under a verdict.
  private static func paragraph(_ lines: [String]) -> String {
    lines.map(\.trimmed).filter { !$0.isEmpty }.joined(separator: " ")
  }

  /// An exercise's number from its brief's file name, which orders the exercises and lets
  /// a learner type `ctxsim exercise 3`: `Lessons/Exercises/exercise-03-name.md` → 3.
  public static func number(of file: String) -> Int? {
    let name = file.split(separator: "/").last.map(String.init) ?? file
    guard name.hasPrefix("exercise-") else { return nil }
    return Int(name.dropFirst("exercise-".count).prefix { $0.isNumber })
  }
}
