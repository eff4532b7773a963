import ContextSimCore
import ContextSimReports

/// The text primitives of a full screen: lines cut or padded to a width, words wrapped,
/// colour and box drawing only when the terminal can show them.
///
/// ``GameScreen`` builds its own parts with these and keeps ``LessonScreen``'s lines as they
/// come, so both measure text the same way: without colour codes.
struct ScreenText {
  let width: Int
  let style: LessonScreen.Style

  var rule: String { String(repeating: style.unicode ? "─" : "-", count: width) }
  var dot: String { style.unicode ? "·" : "-" }
  var ellipsis: String { style.unicode ? "…" : "~" }
  var tick: String { style.unicode ? "✓" : "+" }
  var cross: String { style.unicode ? "✗" : "x" }

  /// `left`, then `right` against the right edge; `left` is cut to make room.
  func fit(_ left: String, right: String = "") -> String {
    guard !right.isEmpty else { return clip(left, width) }
    let l = clip(left, width - visible(right) - 1)
    return l + String(repeating: " ", count: max(1, width - visible(l) - visible(right))) + right
  }

  /// Word-wrapped to the width, each line starting with `indent`, at most `limit` lines: the
  /// last one kept ends with an ellipsis when text was left out.
  func wrap(_ text: String, indent: String = " ", limit: Int = .max) -> [String] {
    let lines = text.wrapped(width: width, indent: indent).map { clip($0, width) }
    guard lines.count > limit else { return lines }
    guard limit > 0 else { return [] }
    return lines.prefix(limit - 1) + [clip(lines[limit - 1] + " " + ellipsis + ellipsis, width)]
  }

  /// Cuts text to `n` visible characters, leaving colour codes whole.
  func clip(_ text: String, _ n: Int) -> String {
    text.clipped(to: n, ellipsis: ellipsis, colour: style.colour)
  }

  /// The length of text as the terminal shows it: without colour codes.
  func visible(_ text: String) -> Int { text.visibleWidth }

  /// Exactly `height` lines: the top, then as much of `body` as fits, `bottom` last.
  func frame(top: [String], body: [String], bottom: [String], height: Int) -> [String] {
    let room = max(0, height - top.count - bottom.count)
    var middle = Array(body.prefix(room))
    while middle.count < room { middle.append("") }
    return Array((top + middle + bottom).prefix(height))
  }

  func bold(_ text: String) -> String { paint(text, "1") }
  func red(_ text: String) -> String { paint(text, "31") }
  func green(_ text: String) -> String { paint(text, "32") }
  func yellow(_ text: String) -> String { paint(text, "33") }

  private func paint(_ text: String, _ code: String) -> String {
    style.colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }
}
