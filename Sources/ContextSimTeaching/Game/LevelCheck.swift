import ContextSimCore
import ContextSimReports

/// Checks a level of `ctxsim game`: what `ctxsim game --check` runs for every level.
public enum LevelCheck {
  /// Every problem with a level: its lesson's (``LessonCheck``: labels, schedule, and a
  /// `play:` goal that takes a choice), and for a level of fixes, that the choice matters.
  ///
  /// A level of fixes is worth playing when its scenario breaks in some interleaving (there
  /// is something to fix), some candidate is proven clean in every interleaving (the level
  /// can be won), some candidate breaks (picking is a real choice, so pressing any one key
  /// is not sure to win), and every candidate's search ends within the budget (the game
  /// never claims a proof it did not finish, so an undecided candidate could not be judged).
  ///
  /// - Parameters:
  ///   - fixes: the scenarios of the level's `## Fixes`, in order.
  ///   - modelDoc: docs/model.md's text, to check `§` references; nil leaves them.
  ///   - source: the level file's text, so that a bad reference comes with its line.
  ///   - maxSchedules: the budget of each search, as the game uses it.
  public static func problems(
    _ level: Level, scenario: Scenario, fixes: [Scenario], modelDoc: String? = nil,
    source: String? = nil, maxSchedules: Int = defaultScheduleBudget
  ) -> [Diagnostic] {
    var problems = LessonCheck.problems(
      level.lesson, scenario: scenario, modelDoc: modelDoc, source: source)
    guard case .prove(let candidates) = level.goal, problems.isEmpty else { return problems }
    func problem(_ line: Int?, _ message: String, _ fix: String) {
      problems.append(Diagnostic(file: level.lesson.file, line: line, message: message, fix: fix))
    }
    let options = LessonCheck.options(level.lesson, scenario)
    if FixProof(scenario, options: options, maxSchedules: maxSchedules).verdict == .passed {
      problem(
        nil, "\(level.lesson.scenario) breaks in no interleaving: there is nothing to fix",
        "name the buggy scenario in scenario:, and its candidate fixes under ## Fixes")
    }
    var proven = 0
    var broken = 0
    for (candidate, fix) in zip(candidates, fixes) {
      let proof = FixProof(
        fix, options: LessonCheck.options(level.lesson, fix), maxSchedules: maxSchedules)
      switch proof.verdict {
      case .passed: proven += 1
      case .failed: broken += 1
      default:
        let ran = proof.schedulesRun
        problem(
          candidate.line,
          "the search of \(candidate.scenario) stopped after \(ran) schedules, before it "
            + "covered every interleaving, so the game could not judge it",
          "make the candidate smaller, so that every interleaving can be explored")
      }
    }
    if proven == 0 {
      problem(
        nil, "no candidate fix is clean in every interleaving: the level cannot be won",
        "add a fix that holds, and check it with ctxsim check")
    }
    if broken == 0 {
      problem(
        nil, "every candidate fix is clean in every interleaving: any pick wins",
        "add a plausible fix that still breaks in some interleaving")
    }
    return problems
  }
}
