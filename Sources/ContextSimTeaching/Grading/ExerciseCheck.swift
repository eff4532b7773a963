import ContextSimCore
import ContextSimReports

/// Whether an exercise is fit to give a class: its model solution passes, and its starting
/// scenario fails, showing exactly the violations the brief says it fixes.
///
/// A brief whose `fixes:` names a kind the starting scenario never shows would send the
/// learner after a bug that is not there; a solution that fails would make the exercise
/// impossible. `ctxsim exercise --check` runs this on every exercise, and CI with it.
public enum ExerciseCheck {
  /// Each problem with the exercise, in words; empty when it is fit.
  public static func problems(
    of exercise: GradedExercise, start: Scenario, solution: Scenario,
    options: SimulationOptions? = nil, maxSchedules: Int = defaultScheduleBudget
  ) -> [String] {
    var problems: [String] = []
    let solved = grade(
      solution, exercise: exercise, start: start, options: options, maxSchedules: maxSchedules)
    if !solved.passed {
      let failed = solved.results.filter { !$0.passed }.map(\.criterion.description)
      problems.append(
        "the model solution \(exercise.solution) does not pass"
          + (failed.isEmpty ? "" : ": " + failed.joined(separator: "; ")))
    }
    let started = grade(
      start, exercise: exercise, start: start, options: options, maxSchedules: maxSchedules)
    if started.verdict != .failed {
      problems.append("the starting scenario \(exercise.scenario) does not fail")
    }
    var shown: [ViolationKind] = []
    for result in started.results {
      guard case .violations(let findings)? = result.failure else { continue }
      for finding in findings where !shown.contains(finding.violation.kind) {
        shown.append(finding.violation.kind)
      }
    }
    for kind in exercise.fixes where !shown.contains(kind) {
      problems.append("fixes: lists \(kind.rawValue), which the starting scenario never shows")
    }
    for kind in shown where !exercise.fixes.contains(kind) {
      problems.append(
        "the starting scenario shows \(kind.rawValue), which fixes: does not list")
    }
    return problems
  }
}
