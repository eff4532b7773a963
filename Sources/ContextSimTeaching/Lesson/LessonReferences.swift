import ContextSimCore
import ContextSimReports

/// Holds a lesson's `§` references to the numbered headings of docs/model.md.
///
/// A lesson backs each claim about Core Data with the section of the model doc that states
/// it, written `(model §9.1)`. The model doc numbers its headings `## 9. Title` and
/// `### 9.1 Title`; a reference that names no such heading is a problem:
///
///     docs/model.md   ## 9. Parent and child contexts
///                     ### 9.1 Root contexts
///     lesson          a root context has no parent context (model §9.1)   fine
///                     a child saves one level up (model §9.7)             no heading 9.7
public enum LessonReferences {
  /// The numbers of the numbered headings in a Markdown text, outside fenced code.
  ///
  ///     "## 9. Parent and child contexts\n### 9.1 Root contexts" → ["9", "9.1"]
  public static func sections(inModelDoc text: String) -> Set<String> {
    var numbers: Set<String> = []
    var inCode = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```") { inCode.toggle() }
      guard !inCode, line.hasPrefix("#") else { continue }
      let title = line.drop { $0 == "#" }
      guard title.first == " " else { continue }
      let word = title.dropFirst().prefix { $0 != " " }
      let number = trimmingDots(String(word))
      if number.first?.isASCIIDigit == true && number.allSatisfy(isNumberCharacter) {
        numbers.insert(number)
      }
    }
    return numbers
  }

  /// Every `§` followed by digits and dots in `text`, in order, without a closing dot.
  ///
  ///     "as a fetch does (model §9.3, §7.2). See §10." → ["9.3", "7.2", "10"]
  public static func references(in text: String) -> [String] {
    var found: [String] = []
    var rest = text[...]
    while let mark = rest.firstIndex(of: "§") {
      let after = rest[rest.index(after: mark)...]
      let number = trimmingDots(String(after.prefix(while: isNumberCharacter)))
      if number.first?.isASCIIDigit == true { found.append(number) }
      rest = after
    }
    return found
  }

  /// A problem for each reference in the lesson's introduction, narration, question and
  /// answer that names no numbered heading of the model doc.
  ///
  /// - Parameters:
  ///   - modelDoc: the text of docs/model.md.
  ///   - source: the lesson file's text, to find each reference's line; without it a
  ///     reference in narration points at its `###` heading and any other at no line.
  public static func problems(_ lesson: Lesson, modelDoc: String, source: String? = nil)
    -> [Diagnostic]
  {
    let sections = sections(inModelDoc: modelDoc)
    var texts: [(text: String, line: Int?)] = [(lesson.introduction, nil)]
    texts += lesson.narration.map { ($0.text, $0.line) }
    texts += [(lesson.question, nil), (lesson.answer, nil)]
    var lines = source.map(referenceLines) ?? [:]
    var problems: [Diagnostic] = []
    for (text, fallback) in texts {
      for number in references(in: text) {
        let line = lines[number]?.isEmpty == false ? lines[number]!.removeFirst() : fallback
        guard !sections.contains(number) else { continue }
        problems.append(
          Diagnostic(
            file: lesson.file, line: line,
            message: "§\(number) names no numbered heading of docs/model.md",
            fix: fix(for: number, sections: sections)))
      }
    }
    return problems
  }

  /// The lines of a lesson file's body that hold each reference, in order; the header's
  /// lines are left out, as the parser reads them as keys and values.
  static func referenceLines(_ source: String) -> [String: [Int]] {
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
    var start = 0
    if lines.first == "---", let close = lines.dropFirst().firstIndex(of: "---") {
      start = close + 1
    }
    var found: [String: [Int]] = [:]
    for index in lines.indices where index >= start {
      for number in references(in: String(lines[index])) {
        found[number, default: []].append(index + 1)
      }
    }
    return found
  }

  /// How to mend a reference: the sections next to the one it names.
  ///
  ///     "9.7" with 9, 9.1 … 9.6 → "section 9 has 9.1 to 9.6: cite one of them, or …"
  static func fix(for number: String, sections: Set<String>) -> String {
    let parts = number.split(separator: ".")
    let parent = parts.dropLast().joined(separator: ".")
    let siblings = sections.filter { section in
      let sectionParts = section.split(separator: ".")
      return sectionParts.count == parts.count
        && sectionParts.dropLast().joined(separator: ".") == parent
    }.sorted(by: isBefore)
    let add = "or number a heading \(number) in docs/model.md"
    guard let first = siblings.first, let last = siblings.last else {
      return parent.isEmpty
        ? "docs/model.md has no numbered headings; number them (## 1. Title), \(add)"
        : "section \(parent) has no numbered subsections: cite \(parent), \(add)"
    }
    let range = first == last ? first : "\(first) to \(last)"
    return parent.isEmpty
      ? "docs/model.md has sections \(range): cite one of them, \(add)"
      : "section \(parent) has \(range): cite one of them, \(add)"
  }

  /// Whether a section number comes before another: `9.2` before `9.10`.
  static func isBefore(_ a: String, _ b: String) -> Bool {
    let x = a.split(separator: ".").map { Int($0) ?? 0 }
    let y = b.split(separator: ".").map { Int($0) ?? 0 }
    return x.lexicographicallyPrecedes(y)
  }

  private static func isNumberCharacter(_ c: Character) -> Bool {
    c.isASCIIDigit || c == "."
  }

  private static func trimmingDots(_ s: String) -> String {
    var s = s[...]
    while s.last == "." { s = s.dropLast() }
    return String(s)
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
