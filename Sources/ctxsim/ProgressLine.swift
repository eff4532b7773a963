import Foundation

/// A line on standard error saying that a long search is still going, and how to bound it.
///
/// Only on a terminal, and only from the third second on: a quick search prints nothing, and
/// a log or a pipe never gets carriage returns. The line is rewritten in place at most once
/// a second and wiped when the search ends, so the report that follows stands alone.
final class ProgressLine {
  private let console: Console
  private let clock = ContinuousClock()
  private let start: ContinuousClock.Instant
  private var shownSeconds = 0

  init(console: Console) {
    self.console = console
    start = clock.now
  }

  /// Whether the line is shown at all.
  private var isShown: Bool {
    console.errorIsTerminal && console.environment["TERM"] != "dumb"
  }

  /// Rewrites the line if another second has passed; cheap enough to call between runs.
  func tick() {
    guard isShown else { return }
    let seconds = Int((clock.now - start).components.seconds)
    guard seconds >= 3, seconds > shownSeconds else { return }
    shownSeconds = seconds
    console.writeError(
      "\r\u{1B}[Kstill exploring: \(seconds) s (Ctrl-C stops it; --time-limit bounds it)")
  }

  /// Wipes the line, if it was shown.
  func finish() {
    if shownSeconds > 0 { console.writeError("\r\u{1B}[K") }
  }
}
