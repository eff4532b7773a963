import ContextSimCore
import ContextSimReports

/// A level as plain text, for when there is no terminal to play it on: its goal, briefing,
/// challenge, candidate fixes and the hints revealed so far.
///
///     Level 2 of 6: Make the race happen
///     Goal: Reach dataRace at read-thumbnail.
///
///     The downloader stores the thumbnail, …
public struct LevelBriefing {
  /// The level.
  public var level: Level
  /// How many levels the game has.
  public var levels: Int
  /// Failed tries so far, which decide the hints shown.
  public var failedTries: Int

  /// The briefing of a level, with the hints `failedTries` revealed.
  public init(level: Level, levels: Int, failedTries: Int = 0) {
    self.level = level
    self.levels = levels
    self.failedTries = failedTries
  }

  /// The text, wrapped to `width` columns, ending in a newline.
  public func render(width: Int = 80) -> String {
    let lesson = level.lesson
    var lines = ["Level \(level.number) of \(levels): \(lesson.title)"]
    lines += "Goal: \(level.instruction)".wrapped(width: width, indent: "")
    lines.append("")
    lines += lesson.introduction.wrapped(width: width, indent: "")
    if case .prove(let fixes) = level.goal {
      lines += ["", "The candidate fixes:"]
      for (index, fix) in fixes.enumerated() {
        lines += "\(index + 1). \(fix.description)".wrapped(width: width, indent: "  ")
      }
    }
    lines += [""] + lesson.question.wrapped(width: width, indent: "")
    let hints = level.hints(afterFailedTries: failedTries)
    if !hints.isEmpty {
      lines += ["", "Hints (\(hints.count) of \(lesson.hints.count)):"]
      for hint in hints { lines += "- \(hint)".wrapped(width: width, indent: "  ") }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
