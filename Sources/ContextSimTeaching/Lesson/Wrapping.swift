import ContextSimCore
import ContextSimReports

extension String {
  /// Word-wrapped to `width` columns, each line starting with `indent`: one paragraph per
  /// line of the text, blank lines kept, a list item's later lines under its first word,
  /// and no trailing spaces.
  func wrapped(width: Int, indent: String) -> [String] {
    var out: [String] = []
    for paragraph in split(separator: "\n", omittingEmptySubsequences: false) {
      let marker = paragraph.prefix { $0 != " " }
      let isItem =
        marker == "-" || marker == "*"
        || (marker.hasSuffix(".") && marker.dropLast().allSatisfy(\.isNumber)
          && !marker.dropLast().isEmpty)
      let hanging = indent + (isItem ? String(repeating: " ", count: marker.count + 1) : "")
      var line = indent
      var start = indent
      for word in paragraph.split(separator: " ") {
        if line.count > start.count && line.count + 1 + word.count > width {
          out.append(line)
          line = hanging
          start = hanging
        }
        line += (line.count > start.count ? " " : "") + word
      }
      out.append(line)
    }
    return out.map { line in
      var line = line
      while line.last == " " { line.removeLast() }
      return line
    }
  }
}

extension String {
  /// How many columns the text takes on a terminal: its characters without colour codes.
  var visibleWidth: Int {
    var count = 0
    var inEscape = false
    for c in self {
      if c == "\u{1B}" {
        inEscape = true
      } else if inEscape {
        if c == "m" { inEscape = false }
      } else {
        count += 1
      }
    }
    return count
  }

  /// Cut to `n` columns, colour codes left whole, ending in `ellipsis` (and a reset of the
  /// colour, when `colour`) so that a reader sees it was cut.
  func clipped(to n: Int, ellipsis: String, colour: Bool) -> String {
    guard visibleWidth > n else { return self }
    var out = ""
    var count = 0
    var inEscape = false
    for c in self {
      if c == "\u{1B}" { inEscape = true }
      if inEscape {
        out.append(c)
        if c == "m" { inEscape = false }
        continue
      }
      if count >= n - 1 { break }
      out.append(c)
      count += 1
    }
    return out + ellipsis + (colour ? "\u{1B}[0m" : "")
  }
}
