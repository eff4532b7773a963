import ContextSimCore
import ContextSimReports

/// A lesson: Markdown an instructor steps through in front of a class, tied to a scenario.
///
///     ---
///     scenario: scenarios/wrong-thread.json
///     goal: Say which queue may touch a context.
///     play: reach wrongQueueContext at context-from-main
///     ---
///     # One queue per context
///     An introduction.
///     ## Steps
///     ### context-from-main
///     Narration for the step with that label.
///     ### context-from-main if clean
///     Narration for a run where that step broke no rule.
///     ## Question
///     …
///     ## Answer
///     …
///
/// See docs/lessons.md for every key.
public struct Lesson: Sendable {
  /// The lesson file's path, as its errors name it.
  public var file: String
  /// The text of the `#` heading.
  public var title: String
  /// The scenario the lesson steps through, as a path from the repository's root.
  public var scenario: String
  /// Other scenarios the lesson refers to; checked too.
  public var alsoScenarios: [String]
  /// What the class should be able to say afterwards: the header's `goal:`.
  public var goal: String
  /// What "you are the scheduler" asks the class to do: the header's `play:` (or `crash:`).
  public var play: PlayGoal?
  /// The schedule to step through; the default schedule when absent.
  public var schedule: Schedule?
  /// Overrides the scenario's ConcurrencyDebug flag.
  public var concurrencyDebug: Bool?
  /// The text before the first `##` section, reflowed: shown before the first step.
  public var introduction: String
  /// Narration keyed by step label, in the order written.
  public var narration: [Narration]
  /// The `## Question` section, reflowed: what the instructor asks at the end.
  public var question: String
  /// The `## Answer` section, reflowed.
  public var answer: String
  /// The `## Hints` section: one hint per list item, in the order a game reveals them, one
  /// per failed try. Empty for a lesson without the section.
  public var hints: [String] = []
  /// The `## Fixes` section: candidate fixes of the scenario, one scenario each, for a game
  /// level that asks which one holds in every interleaving. Empty without the section.
  public var fixes: [Fix] = []

  /// The crash "you are the scheduler" asks the class to reach, if that is the goal.
  public var crash: CrashGoal? {
    if case .reach(let crash)? = play { return crash }
    return nil
  }

  /// What the instructor says when a labelled step runs: a `###` heading under `## Steps`.
  public struct Narration: Sendable {
    /// The step label the heading names.
    public var label: String
    /// When the narration applies: nil for every run, else only for runs where the step
    /// did (or did not) break a rule, so that nothing is said that did not happen.
    public var condition: Condition? = nil
    /// The narration, reflowed.
    public var text: String
    /// The heading's line, for errors.
    public var line: Int
  }

  /// A candidate fix: a list item of `## Fixes`, `` - `scenarios/x-fixed.json`: what it changes``.
  public struct Fix: Sendable, Equatable {
    /// The candidate's scenario, as a path from the repository's root.
    public var scenario: String
    /// What the candidate changes, in a sentence the learner chooses by.
    public var description: String
    /// The list item's line, for errors.
    public var line: Int
  }

  /// `### label if …`: what the step must have done in this run for the narration to hold.
  public enum Condition: Sendable, Equatable, CustomStringConvertible {
    /// A violation of this kind at the step.
    case violation(ViolationKind)
    /// Some violation at the step.
    case anyViolation
    /// No violation at the step.
    case clean

    /// Whether the condition holds for the violations a step had.
    public func holds(for violations: some Collection<Violation>) -> Bool {
      switch self {
      case .violation(let kind): violations.contains { $0.kind == kind }
      case .anyViolation: !violations.isEmpty
      case .clean: violations.isEmpty
      }
    }

    /// As the heading writes it after `if`.
    public var description: String {
      switch self {
      case .violation(let kind): kind.rawValue
      case .anyViolation: "violation"
      case .clean: "clean"
      }
    }

    /// `clean`, `violation` or a violation kind; nil for anything else.
    init?(parsing word: String) {
      switch word {
      case "clean": self = .clean
      case "violation": self = .anyViolation
      default:
        guard let kind = ViolationKind(rawValue: word) else { return nil }
        self = .violation(kind)
      }
    }
  }

  /// A violation to reach: its kind, and optionally the label of the step.
  public struct CrashGoal: Sendable, Equatable, CustomStringConvertible {
    /// The kind of violation to reach.
    public var kind: ViolationKind
    /// A label the violation's step, or a step around it, must carry; nil for anywhere.
    public var label: String?

    /// Whether `violation` is of the kind and, if a label is given, at a step with that label.
    public func isReached(by violation: Violation) -> Bool {
      violation.kind == kind && (label.map { violation.labels.contains($0) } ?? true)
    }

    /// `kind at label`, as the header's `crash:` writes it.
    public var description: String {
      kind.rawValue + (label.map { " at \($0)" } ?? "")
    }
  }

  /// What to say when a step has just run: the lesson's narration for its label whose
  /// condition holds for the step's `violations` (a conditional one first), else the
  /// scenario's own note. Nothing for a step its `when` skipped: the note would describe
  /// what did not happen.
  public func narration(
    for step: Step, violations: some Collection<Violation>, skipped: Bool = false
  ) -> String? {
    if skipped { return nil }
    let entries = narration.filter { $0.label == step.label }
    if let conditional = entries.first(where: { $0.condition?.holds(for: violations) == true }) {
      return conditional.text
    }
    if let plain = entries.first(where: { $0.condition == nil }) { return plain.text }
    // Only conditional narration, and none holds: the lesson has nothing to say here.
    return entries.isEmpty ? step.note : nil
  }
}

/// A problem with a lesson or level file, on a line: a ``Diagnostic``.
public typealias LessonError = Diagnostic
/// Every problem found in one lesson file.
public typealias LessonErrorList = Diagnostics

/// Reads lesson files: a `---` header of `key: value` lines, a `#` title, then the
/// `## Steps`, `## Question` and `## Answer` sections, and for a game level `## Hints` and
/// `## Fixes`, whose list items are read one by one.
public enum LessonParser {
  static let headerKeys = [
    "scenario", "also", "goal", "play", "crash", "schedule", "concurrencyDebug",
  ]
  static let sections = ["Steps", "Question", "Answer", "Hints", "Fixes"]

  /// Reads a lesson file; every problem found is reported, not just the first.
  public static func parse(_ text: String, file: String) throws(Diagnostics) -> Lesson {
    var errors: [Diagnostic] = []
    func fail(_ line: Int?, _ message: String, _ fix: String) {
      errors.append(Diagnostic(file: file, line: line, message: message, fix: fix))
    }
    let lines = text.fileLines
    var header: [String: (value: String, line: Int)] = [:]
    var i = 0  // without a header, the whole file is the body
    if let front = FrontMatter(lines) {
      for entry in front.lines {
        switch entry {
        case .entry(let key, let value, let line, _):
          if headerKeys.contains(key) {
            header[key] = (value, line)
          } else {
            fail(
              line, "unknown header key \"\(key)\"",
              nearestName(to: key, in: headerKeys).map { "did you mean \"\($0)\"?" }
                ?? "use one of: " + headerKeys.joined(separator: ", "))
          }
        case .notKeyValue(let line):
          fail(line, "a header line must be key: value", "write scenario: scenarios/file.json, say")
        }
      }
      if !front.isClosed {
        fail(1, "the header is never closed", "end the header with a line of ---")
      }
      i = front.bodyStart
    } else {
      fail(
        1, "the lesson has no header",
        "start the file with ---, the scenario: and goal: lines, and ---")
    }
    var title = ""
    var introduction: [String] = []
    var narration: [Lesson.Narration] = []
    var question: [String] = []
    var answer: [String] = []
    var hintLines: [(text: String, line: Int)] = []
    var fixLines: [(text: String, line: Int)] = []
    var section: String?
    var currentLabel: (String, Lesson.Condition?, Int)?
    var currentText: [String] = []
    func closeNarration() {
      if let (label, condition, line) = currentLabel {
        narration.append(
          Lesson.Narration(
            label: label, condition: condition, text: reflow(currentText), line: line))
      }
      currentLabel = nil
      currentText = []
    }
    while i < lines.count {
      let line = lines[i]
      if line.hasPrefix("# ") && title.isEmpty && section == nil {
        title = String(line.dropFirst(2)).trimmed
      } else if line.hasPrefix("## ") {
        closeNarration()
        let name = String(line.dropFirst(3)).trimmed
        if sections.contains(name) {
          section = name
        } else {
          fail(
            i + 1, "unknown section \"\(name)\"",
            nearestName(to: name, in: sections).map { "did you mean \"## \($0)\"?" }
              ?? "a lesson has the sections Steps, Question and Answer; a game level also Hints or Fixes"
          )
        }
      } else if line.hasPrefix("### ") {
        closeNarration()
        if section == "Steps" {
          let words = line.dropFirst(4).split(separator: " ").map(String.init)
          var condition: Lesson.Condition?
          if words.count == 3 && words[1] == "if" {
            condition = Lesson.Condition(parsing: words[2])
            if condition == nil {
              fail(
                i + 1, "\"\(words[2])\" is not a condition",
                nearestName(to: words[2], in: conditionWords).map { "did you mean \"\($0)\"?" }
                  ?? "write if clean, if violation, or if and a violation kind")
            }
          }
          currentLabel = (
            condition == nil ? words.joined(separator: " ") : words[0], condition, i + 1
          )
        } else {
          fail(
            i + 1, "a ### heading outside ## Steps",
            "step narration goes under ## Steps, one ### label each")
        }
      } else {
        switch section {
        case nil: introduction.append(line)
        case "Steps":
          if currentLabel != nil {
            currentText.append(line)
          } else if !line.trimmed.isEmpty {
            fail(
              i + 1, "text under ## Steps before any ### label",
              "start the narration with ### and the step's label")
          }
        case "Question": question.append(line)
        case "Hints": hintLines.append((line, i + 1))
        case "Fixes": fixLines.append((line, i + 1))
        default: answer.append(line)
        }
      }
      i += 1
    }
    closeNarration()
    if title.isEmpty { fail(nil, "the lesson has no title", "add a # heading after the header") }
    for required in ["scenario", "goal"] where header[required] == nil {
      fail(nil, "the header has no \(required):", "add a \(required): line to the header")
    }
    let questionText = reflow(question)
    let answerText = reflow(answer)
    if questionText.isEmpty {
      fail(nil, "the lesson has no question", "add ## Question and the question for the class")
    }
    if answerText.isEmpty { fail(nil, "the lesson has no answer", "add ## Answer and its answer") }
    var seen: [String: Int] = [:]
    for entry in narration {
      let heading = entry.label + (entry.condition.map { " if \($0)" } ?? "")
      if let first = seen[heading] {
        fail(
          entry.line, "\"\(heading)\" is narrated twice; first at line \(first)",
          "keep one ### \(heading)")
      }
      seen[heading] = entry.line
    }
    let hints = listItems(hintLines, section: "Hints", fail: fail).map(\.text)
    let fixes = listItems(fixLines, section: "Fixes", fail: fail).compactMap { item in
      fix(item.text, line: item.line, fail: fail)
    }
    var play: PlayGoal?
    if header["play"] != nil && header["crash"] != nil {
      fail(
        header["crash"]!.line, "the header has both play: and crash:",
        "keep play: reach KIND, which says what crash: does")
    }
    if let (value, line) = header["play"] {
      if value == "survive" {
        play = .survive
      } else if value.hasPrefix("reach ") {
        play = crashGoal(String(value.dropFirst(6)), line: line, fail: fail).map(PlayGoal.reach)
      } else {
        fail(
          line, "\"\(value)\" is not a goal",
          "write play: survive, or play: reach and a violation kind, optionally at a label")
      }
    } else if let (value, line) = header["crash"] {
      play = crashGoal(value, line: line, fail: fail).map(PlayGoal.reach)
    }
    var schedule: Schedule?
    if let (value, line) = header["schedule"] {
      schedule = Schedule(parsing: value)
      if schedule == nil {
        fail(
          line, "\"\(value)\" is not a schedule", "copy one from ctxsim run or explore: 0x4,1x2,0")
      }
    }
    var concurrencyDebug: Bool?
    if let (value, line) = header["concurrencyDebug"] {
      switch value {
      case "true": concurrencyDebug = true
      case "false": concurrencyDebug = false
      default: fail(line, "concurrencyDebug must be true or false", "write concurrencyDebug: false")
      }
    }
    guard errors.isEmpty else { throw Diagnostics(errors: errors) }
    return Lesson(
      file: file, title: title, scenario: header["scenario"]!.value,
      alsoScenarios: header["also"].map {
        $0.value.split(separator: ",").map { String($0).trimmed }.filter { !$0.isEmpty }
      } ?? [],
      goal: header["goal"]!.value, play: play, schedule: schedule,
      concurrencyDebug: concurrencyDebug,
      introduction: reflow(introduction), narration: narration,
      question: questionText, answer: answerText, hints: hints, fixes: fixes)
  }
}

extension LessonParser {
  static let conditionWords = ["clean", "violation"] + ViolationKind.allCases.map(\.rawValue)

  /// `wrongQueueContext at label`, or a kind alone; a located error for an unknown kind.
  static func crashGoal(
    _ value: String, line: Int, fail: (Int?, String, String) -> Void
  ) -> Lesson.CrashGoal? {
    let words = value.split(separator: " ").map(String.init)
    let parts =
      words.count >= 3 && words[1] == "at"
      ? [words[0], words[2...].joined(separator: " ")] : [value]
    guard let kind = ViolationKind(rawValue: parts[0].trimmed) else {
      fail(
        line, "\"\(parts[0])\" is not a violation kind",
        nearestName(to: parts[0], in: ViolationKind.allCases.map(\.rawValue)).map {
          "did you mean \"\($0)\"?"
        }
          ?? "write play: reach wrongQueueContext at label, say")
      return nil
    }
    return Lesson.CrashGoal(kind: kind, label: parts.count > 1 ? parts[1].trimmed : nil)
  }

  /// The list items of a section, each with the line it starts on: `- ` or `1. ` starts an
  /// item, and the lines after it, up to a blank line or the next item, continue it.
  ///
  ///     - Let the background fill the cache
  ///       first.                      →  ["Let the background fill the cache first."]
  static func listItems(
    _ lines: [(text: String, line: Int)], section: String, fail: (Int?, String, String) -> Void
  ) -> [(text: String, line: Int)] {
    var items: [(text: String, line: Int)] = []
    var open = false
    for (line, number) in lines {
      let text = line.trimmed
      if text.isEmpty {
        open = false
      } else if let item = listItemText(text) {
        items.append((item, number))
        open = true
      } else if open, let last = items.popLast() {
        items.append((last.text + " " + text, last.line))
      } else {
        fail(
          number, "text under ## \(section) that is not a list item",
          "write each entry as a list item: - and its text")
      }
    }
    return items
  }

  /// A list item's text without its `- `, `* ` or `1. `; nil for a line that starts none.
  private static func listItemText(_ text: String) -> String? {
    guard startsListItem(text) else { return nil }
    if text.hasPrefix("- ") || text.hasPrefix("* ") { return String(text.dropFirst(2)).trimmed }
    let digits = text.prefix { $0.isNumber }
    return String(text.dropFirst(digits.count + 2)).trimmed
  }

  /// `` `scenarios/x.json`: what it changes`` (the backticks optional), or a located error.
  static func fix(_ text: String, line: Int, fail: (Int?, String, String) -> Void) -> Lesson.Fix? {
    guard let colon = text.firstIndex(of: ":") else {
      fail(
        line, "a fix needs its scenario and what it changes",
        "write - `scenarios/name-fixed.json`: what the fix changes")
      return nil
    }
    let path = String(text[..<colon]).trimmed.filter { $0 != "`" }
    let description = String(text[text.index(after: colon)...]).trimmed
    guard path.hasSuffix(".json"), !path.contains(" ") else {
      fail(
        line, "\"\(path)\" is not a scenario file",
        "start the item with the candidate's scenario: - `scenarios/name-fixed.json`: …")
      return nil
    }
    guard !description.isEmpty else {
      fail(line, "the fix \(path) does not say what it changes", "add it after the colon")
      return nil
    }
    return Lesson.Fix(scenario: path, description: description, line: line)
  }

  /// Markdown's paragraphs as lines: the lines of one paragraph joined with spaces, a blank
  /// line between paragraphs, and list items and indented code kept on lines of their own,
  /// so that the screen and the transcript can wrap them to any width.
  static func reflow(_ lines: [String]) -> String {
    var out: [String] = []
    var joining = false
    for line in lines {
      let text = line.trimmed
      if text.isEmpty {
        if out.last?.isEmpty == false { out.append("") }
        joining = false
      } else if line.hasPrefix("    ") || startsListItem(text) {
        out.append(line.hasPrefix("    ") ? line : text)
        joining = !line.hasPrefix("    ")
      } else if joining, let last = out.popLast() {
        out.append(last + " " + text)
      } else {
        out.append(text)
        joining = true
      }
    }
    return out.joined(separator: "\n").trimmed
  }

  private static func startsListItem(_ text: String) -> Bool {
    if text.hasPrefix("- ") || text.hasPrefix("* ") { return true }
    let digits = text.prefix { $0.isNumber }
    return !digits.isEmpty && text.dropFirst(digits.count).hasPrefix(". ")
  }
}
