import ContextSimCore

/// Escaping for text put into HTML or XML, shared by the timeline and the JUnit report.
package enum Markup {
  /// The text with `& < > " '` escaped; with `newlines`, line breaks too, so that they
  /// survive inside a quoted attribute.
  package static func escape(_ text: String, newlines: Bool = false) -> String {
    var out = ""
    for c in text {
      switch c {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      case "\n" where newlines: out += "&#10;"
      default: out.append(c)
      }
    }
    return out
  }
}
