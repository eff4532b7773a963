import ContextSimCore
import ContextSimReports

/// Grades an attempt at an exercise: every class of interleavings explored (DPOR), and in
/// each one no violation and the rows the brief asks for.
///
/// The attempt's own `expect` is ignored: a learner could declare the bug expected. It runs
/// with the starting scenario's ConcurrencyDebug setting whatever it says, and a model, a
/// store at launch or injected errors that differ from the exercise's fail the setup
/// criterion, since rows written at launch are not rows the app made. A criterion that
/// holds in some schedules and not others fails, with a schedule that shows it. The verdict
/// is a pass only when the search covered every interleaving.
///
/// - Parameters:
///   - exercise: the exercise, ``GradedExercise/validated(against:)`` its starting scenario.
///   - start: the starting scenario, which the setup is compared with.
///   - options: the run limits; ConcurrencyDebug and end states are set here.
///   - maxSchedules: the budget of schedules; a search it stops is incomplete.
///   - shouldStop: asked between schedules; true ends the search (a time limit).
public func grade(
  _ attempt: Scenario, exercise: GradedExercise, start: Scenario,
  options: SimulationOptions? = nil, maxSchedules: Int = defaultScheduleBudget,
  shouldStop: () -> Bool = { false }
) -> Grade {
  var options = options ?? SimulationOptions(start)
  options.concurrencyDebug = start.concurrencyDebug
  options.capturesEndState = true
  let exploration = explore(
    attempt, strategy: .dpor(preemptionBound: nil), options: options,
    maxSchedules: maxSchedules, shouldStop: shouldStop)
  let ended = exploration.outcomes.filter { $0.limit == nil }

  var results: [Grade.Result] = []
  let changes = setupChanges(attempt, start: start)
  results.append(
    Grade.Result(criterion: .setup, failure: changes.isEmpty ? nil : .setupChanged(changes)))
  let findings = violationFindings(attempt, ended)
  results.append(
    Grade.Result(criterion: .noViolations, failure: findings.isEmpty ? nil : .violations(findings)))
  for criterion in exercise.criteria {
    let failing = ended.filter { outcome in
      outcome.example.endState.map { !criterion.holds(in: $0) } ?? false
    }
    guard let first = failing.min(by: { $0.shortest.threads.count < $1.shortest.threads.count }),
      let state = first.example.endState
    else {
      results.append(Grade.Result(criterion: .rows(criterion), failure: nil))
      continue
    }
    let evidence = Grade.RowsEvidence(
      rows: criterion.rows(in: state), matching: criterion.matching(in: state).count,
      schedules: failing.map(\.schedules).reduce(0, +), replay: first.shortest)
    results.append(Grade.Result(criterion: .rows(criterion), failure: .rows(evidence)))
  }

  let verdict: Verdict
  if let limited = exploration.limitedOutcome, let limit = limited.limit {
    verdict = .limited(limit)
  } else if results.contains(where: { !$0.passed }) {
    verdict = .failed
  } else if !exploration.isComplete {
    verdict = .incomplete(exploration.stop)
  } else {
    verdict = .passed
  }
  return Grade(
    exercise: exercise, file: attempt.file, exploration: exploration, results: results,
    verdict: verdict, replay: exploration.limitedOutcome?.shortest)
}

/// Each violation any run showed, once per kind and step, with the shortest schedule that
/// shows it and how many schedules did.
private func violationFindings(_ attempt: Scenario, _ outcomes: [Outcome]) -> [Grade.Finding] {
  let unexpected = ExpectationCheck(
    Expectation(violations: []), traces: outcomes.map(\.example)
  ).unexpected
  return unexpected.map { v in
    let showing = outcomes.filter { outcome in
      outcome.example.violations.contains {
        $0.kind == v.kind && $0.site.stepIndex == v.site.stepIndex
      }
    }
    return Grade.Finding(
      violation: v, stepLabel: attempt.allSteps[v.site.stepIndex].label,
      replay: showing.min { $0.shortest.threads.count < $1.shortest.threads.count }?.shortest,
      schedules: showing.map(\.schedules).reduce(0, +))
  }
}

/// What the attempt changed of what the exercise fixes, in words; empty when nothing.
private func setupChanges(_ attempt: Scenario, start: Scenario) -> [String] {
  var changes: [String] = []
  let names = Set(attempt.entities.map(\.name)).union(start.entities.map(\.name)).sorted()
  let model = names.filter { attempt.entity(named: $0) != start.entity(named: $0) }
  if !model.isEmpty {
    changes.append("the model's \(model.joined(separator: ", ")) differ from the exercise's")
  }
  func rows(_ scenario: Scenario, _ entity: String) -> [String] {
    scenario.storeRows.filter { $0.entity == entity }.map { row in
      row.handle + " " + String(describing: row.values.sorted { $0.key < $1.key })
        + String(describing: row.links.sorted { $0.key < $1.key })
    }.sorted()
  }
  let stored = names.filter { rows(attempt, $0) != rows(start, $0) }
  if !stored.isEmpty {
    changes.append(
      "the store at launch holds other \(stored.joined(separator: ", ")) rows than the "
        + "exercise's; the rows must come from the app's work")
  }
  if attempt.concurrencyDebug != start.concurrencyDebug {
    changes.append(
      "the attempt sets \"concurrencyDebug\": \(attempt.concurrencyDebug); it is graded "
        + "with \(start.concurrencyDebug), as the exercise says")
  }
  func injections(_ scenario: Scenario) -> [String] {
    scenario.injections.map { "\($0.label) \($0.code) \($0.call)" }.sorted()
  }
  if injections(attempt) != injections(start) {
    changes.append("the attempt changes the errors the exercise injects (\"inject\")")
  }
  return changes
}
