import ContextSimCore

/// The `---` header that opens a lesson's, a level's and an exercise's Markdown, read the
/// same way for each: its lines in order, each a `key: value` entry or a line that is not
/// one, and where the body starts. What the keys mean, and what a problem is called, is each
/// kind's own (``LessonParser``, ``ExerciseParser``).
struct FrontMatter {
  enum Line {
    /// `key: value` on `line` (from 1); the value, trimmed, starts at `valueColumn`.
    case entry(key: String, value: String, line: Int, valueColumn: Int)
    /// A line that is neither `key: value` nor blank.
    case notKeyValue(line: Int)
  }

  /// The header's lines, in file order.
  private(set) var lines: [Line] = []
  /// Whether a line of `---` closes the header.
  private(set) var isClosed = false
  /// The index in the file's lines of the body's first line, past the closing `---`.
  private(set) var bodyStart: Int

  /// The header of a file's `lines`; nil when its first line is not `---`.
  init?(_ lines: [String]) {
    guard lines.first == "---" else { return nil }
    var i = 1
    while i < lines.count && lines[i] != "---" {
      let line = lines[i]
      if let colon = line.firstIndex(of: ":") {
        let raw = line[line.index(after: colon)...]
        let column =
          line.distance(from: line.startIndex, to: colon) + 2
          + raw.prefix { $0 == " " || $0 == "\t" }.count
        self.lines.append(
          .entry(
            key: String(line[..<colon]).trimmed, value: String(raw).trimmed, line: i + 1,
            valueColumn: column))
      } else if !line.trimmed.isEmpty {
        self.lines.append(.notKeyValue(line: i + 1))
      }
      i += 1
    }
    isClosed = i < lines.count
    bodyStart = min(i + 1, lines.count)
  }
}
