/// Checks a lesson against its scenario: what `ctxsim lesson --check` runs for every lesson.
public enum LessonCheck {
  /// The simulation options a lesson runs with.
  public static func options(_ lesson: Lesson, _ scenario: Scenario) -> SimulationOptions {
    SimulationOptions(concurrencyDebug: lesson.concurrencyDebug ?? scenario.concurrencyDebug)
  }

  /// Every problem: narration for labels the scenario lacks, a schedule that does not fit,
  /// a run that does not end, a crash the lesson names that no schedule reaches, and, given
  /// docs/model.md's text, a `§` reference that names none of its numbered headings.
  ///
  /// - Parameters:
  ///   - modelDoc: the text of docs/model.md; nil leaves the references unchecked.
  ///   - source: the lesson file's text, so that a bad reference comes with its line.
  public static func problems(
    _ lesson: Lesson, scenario: Scenario, modelDoc: String? = nil, source: String? = nil
  ) -> [LessonError] {
    var problems: [LessonError] = []
    let labels = scenario.allSteps.compactMap(\.label)
    func unknown(_ label: String, line: Int?) {
      problems.append(
        LessonError(
          file: lesson.file, line: line,
          message: "no step of \(lesson.scenario) has the label \"\(label)\"",
          fix: nearestName(to: label, in: labels).map { "did you mean \"\($0)\"?" }
            ?? "label the step in the scenario, or narrate one of: \(labels.joined(separator: ", "))"
        ))
    }
    for entry in lesson.narration where !labels.contains(entry.label) {
      unknown(entry.label, line: entry.line)
    }
    if let label = lesson.crash?.label, !labels.contains(label) { unknown(label, line: nil) }
    var scheduler = ReplayScheduler(lesson.schedule ?? Schedule())
    let trace = simulate(scenario, options: options(lesson, scenario), scheduler: &scheduler)
    switch trace.stop {
    case .scheduleMismatch(let step, let thread, _)?:
      problems.append(
        LessonError(
          file: lesson.file, line: nil,
          message:
            "the lesson's schedule does not fit \(lesson.scenario): thread \(thread) cannot run at step \(step)",
          fix: "copy the schedule again from ctxsim run or explore"))
    case .limit(let limit)?:
      problems.append(
        LessonError(
          file: lesson.file, line: nil, message: "\(lesson.scenario) hits a limit",
          fix: limit.reason))
    default:
      break
    }
    if let crash = lesson.crash, problems.isEmpty, !isReachable(crash, lesson, scenario) {
      problems.append(
        LessonError(
          file: lesson.file, line: nil,
          message: "no explored schedule of \(lesson.scenario) reaches the crash \(crash)",
          fix: "name a violation the scenario can show, or drop crash: from the header"))
    }
    if let modelDoc {
      problems += LessonReferences.problems(lesson, modelDoc: modelDoc, source: source)
    }
    return problems
  }

  /// Whether some schedule reaches the lesson's crash: reduction first, PCT if too large.
  static func isReachable(_ crash: Lesson.CrashGoal, _ lesson: Lesson, _ scenario: Scenario) -> Bool
  {
    let options = options(lesson, scenario)
    for strategy in [ExplorationStrategy.dpor(preemptionBound: nil), .pct(seed: 0, depth: 3)] {
      let e = explore(
        scenario, strategy: strategy, options: options, maxSchedules: 2000, shrinking: false)
      if e.outcomes.contains(where: { $0.example.violations.contains(where: crash.isReached) }) {
        return true
      }
      if e.isComplete { return false }
    }
    return false
  }
}
