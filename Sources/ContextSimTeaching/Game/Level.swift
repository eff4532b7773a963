import ContextSimCore
import ContextSimReports

/// A level of `ctxsim game`: a lesson file under `Lessons/Levels/` whose goal the learner
/// must reach by their own choices, with hints revealed one per failed try.
///
/// A level is a lesson, so it is written, parsed and checked as one (docs/game.md). What
/// makes it a level is its goal: a `play:` goal reached as the scheduler, or a `## Fixes`
/// list of candidate fixes of which the learner must pick one that holds in every
/// interleaving. A level has exactly one of the two.
public struct Level: Sendable {
  /// The number in the file's name (`03-…md` is level 3): how the learner asks for it.
  public var number: Int
  /// The file's name without `.md`: the key progress is kept under, so that a level keeps
  /// its progress when levels are added around it.
  public var id: String
  /// The level as a lesson: briefing, narration, hints, question and debrief.
  public var lesson: Lesson

  /// What the learner must do to win.
  public enum Goal: Sendable, Equatable {
    /// Reach a violation, or get through without one, by choosing the threads.
    case play(PlayGoal)
    /// Pick, among candidate fixes, one that no interleaving breaks.
    case prove([Lesson.Fix])
  }

  /// The level's goal, from its lesson's `play:` or `## Fixes`.
  public var goal: Goal {
    if let play = lesson.play { return .play(play) }
    return .prove(lesson.fixes)
  }

  /// A level from its file and its parsed lesson; an error for a lesson with no goal, with
  /// two, or a file name that does not start with a number.
  ///
  ///     Lessons/Levels/03-crash-without-the-flag.md → number 3, id 03-crash-without-the-flag
  public init(file: String, lesson: Lesson) throws(Diagnostics) {
    let name = file.split(separator: "/").last.map(String.init) ?? file
    id = name.hasSuffix(".md") ? String(name.dropLast(3)) : name
    self.lesson = lesson
    var errors: [Diagnostic] = []
    if let number = Int(id.prefix { $0.isNumber }) {
      self.number = number
    } else {
      number = 0
      errors.append(
        Diagnostic(
          file: file, line: nil, message: "a level's file name starts with its number",
          fix: "name it NN-kebab-case.md, such as 07-\(id).md"))
    }
    if lesson.play == nil && lesson.fixes.isEmpty {
      errors.append(
        Diagnostic(
          file: file, line: nil, message: "the level has no goal",
          fix: "add play: reach KIND (or play: survive) to the header, or a ## Fixes list"))
    }
    if lesson.play != nil && !lesson.fixes.isEmpty {
      errors.append(
        Diagnostic(
          file: file, line: lesson.fixes[0].line, message: "the level has both play: and ## Fixes",
          fix: "keep one goal: a level either plays the scenario or proves a fix"))
    }
    if lesson.hints.isEmpty {
      errors.append(
        Diagnostic(
          file: file, line: nil, message: "the level has no hints",
          fix: "add ## Hints, one list item per hint, revealed one per failed try"))
    }
    guard errors.isEmpty else { throw Diagnostics(errors: errors) }
  }

  /// What the learner is asked to do, in one sentence.
  public var instruction: String {
    switch goal {
    case .play(let play): play.instruction
    case .prove: "Pick the fix that holds in every interleaving."
    }
  }

  /// The goal as the level list shows it: `reach dataRace at read-thumbnail`, `prove a fix`.
  public var goalSummary: String {
    switch goal {
    case .play(.survive): "survive: no violation to the end"
    case .play(let play): play.description
    case .prove(let fixes): "prove a fix (\(fixes.count) candidates)"
    }
  }

  /// The hints revealed after `failedTries` failed tries: one per try, in order.
  public func hints(afterFailedTries failedTries: Int) -> [String] {
    Array(lesson.hints.prefix(max(0, failedTries)))
  }
}
