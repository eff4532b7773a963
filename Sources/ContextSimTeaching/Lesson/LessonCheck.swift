import ContextSimCore
import ContextSimReports

/// Checks a lesson against its scenario: what `ctxsim lesson --check` runs for every lesson.
public enum LessonCheck {
  /// The simulation options a lesson runs with.
  public static func options(_ lesson: Lesson, _ scenario: Scenario) -> SimulationOptions {
    SimulationOptions(concurrencyDebug: lesson.concurrencyDebug ?? scenario.concurrencyDebug)
  }

  /// Every problem: narration for labels the scenario lacks, a schedule that does not fit,
  /// a run that does not end, narration that does not say which run it is true of, a play
  /// goal that needs no choice or cannot be met, and, given docs/model.md's text, a `§`
  /// reference that names none of its numbered headings.
  ///
  /// - Parameters:
  ///   - modelDoc: the text of docs/model.md; nil leaves the references unchecked.
  ///   - source: the lesson file's text, so that a bad reference comes with its line.
  public static func problems(
    _ lesson: Lesson, scenario: Scenario, modelDoc: String? = nil, source: String? = nil
  ) -> [Diagnostic] {
    var problems: [Diagnostic] = []
    let labels = scenario.allSteps.compactMap(\.label)
    func unknown(_ label: String, line: Int?) {
      problems.append(
        Diagnostic(
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
        Diagnostic(
          file: lesson.file, line: nil,
          message:
            "the lesson's schedule does not fit \(lesson.scenario): thread \(thread) cannot run at step \(step)",
          fix: "copy the schedule again from ctxsim run or explore"))
    case .limit(let limit)?:
      problems.append(
        Diagnostic(
          file: lesson.file, line: nil, message: "\(lesson.scenario) hits a limit",
          fix: limit.reason))
    default:
      break
    }
    if problems.isEmpty {
      // Explored runs keep only their violations: run each again in full, by its schedule.
      let runs =
        [trace]
        + explored(lesson, scenario).map { outcome in
          var replay = ReplayScheduler(outcome.example.schedule)
          return simulate(scenario, options: options(lesson, scenario), scheduler: &replay)
        }
      problems += narrationProblems(lesson, scenario, runs: runs)
      if let play = lesson.play { problems += playProblems(play, lesson, scenario) }
    }
    if let modelDoc {
      problems += LessonReferences.problems(lesson, modelDoc: modelDoc, source: source)
    }
    return problems
  }

  /// The outcomes of the scenario's interleavings, as far as a search finds them: every
  /// class when partial-order reduction finishes, else PCT samples as well.
  static func explored(_ lesson: Lesson, _ scenario: Scenario) -> [Outcome] {
    var outcomes: [Outcome] = []
    for strategy in [ExplorationStrategy.dpor(preemptionBound: nil), .pct(seed: 0, depth: 3)] {
      let e = explore(
        scenario, strategy: strategy, options: options(lesson, scenario), maxSchedules: 2000,
        shrinking: false)
      outcomes += e.outcomes
      if e.isComplete { break }
    }
    return outcomes
  }

  /// A narrated step that breaks a rule in some runs (or some passes of a loop) and not in
  /// others needs narration that says which: a plain `### label` alone would tell the class,
  /// in one of those runs, what did not happen there.
  static func narrationProblems(_ lesson: Lesson, _ scenario: Scenario, runs: [Trace])
    -> [Diagnostic]
  {
    var clean: [String: (Int, Schedule)] = [:]
    var broken: [String: (Int, Schedule, ViolationKind)] = [:]
    for run in runs where !run.schedule.threads.isEmpty {
      for step in 1...run.schedule.threads.count {
        guard
          let site = run.events(atStep: step).first?.site
            ?? run.violations(atStep: step).first?.site,
          let label = scenario.allSteps[site.stepIndex].label,
          !run.skipped(atStep: step), run.automaticMerge(atStep: step) == nil
        else { continue }
        if let violation = run.violations(atStep: step).first {
          broken[label] = broken[label] ?? (step, run.schedule, violation.kind)
        } else {
          clean[label] = clean[label] ?? (step, run.schedule)
        }
      }
    }
    var problems: [Diagnostic] = []
    for entry in lesson.narration where entry.condition == nil {
      let conditional = lesson.narration.contains { $0.label == entry.label && $0.condition != nil }
      guard !conditional, let (cleanStep, cleanRun) = clean[entry.label],
        let (brokenStep, brokenRun, kind) = broken[entry.label]
      else { continue }
      problems.append(
        Diagnostic(
          file: lesson.file, line: entry.line,
          message:
            "\"\(entry.label)\" breaks a rule in some runs and not in others (\(kind) at step \(brokenStep) of \(brokenRun); clean at step \(cleanStep) of \(cleanRun)), but its narration does not say which",
          fix:
            "add ### \(entry.label) if \(kind) for the runs where it does, and keep ### \(entry.label) for the others"
        ))
    }
    return problems
  }

  /// A goal worth playing: some schedule meets it, some schedule does not, and pressing the
  /// same thread's number at every choice does not.
  static func playProblems(_ play: PlayGoal, _ lesson: Lesson, _ scenario: Scenario)
    -> [Diagnostic]
  {
    func problem(_ message: String, _ fix: String) -> [Diagnostic] {
      [Diagnostic(file: lesson.file, line: nil, message: message, fix: fix)]
    }
    let options = options(lesson, scenario)
    let outcomes = explored(lesson, scenario)
    let met = outcomes.contains { play.isMet(by: $0.example, ended: true) }
    let missed = outcomes.contains { !play.isMet(by: $0.example, ended: true) }
    if !met {
      return problem(
        "no explored schedule of \(lesson.scenario) meets the goal \(play)",
        "name a violation the scenario can show, or drop play: from the header")
    }
    if !missed {
      return problem(
        "every schedule of \(lesson.scenario) meets the goal \(play): the learner has no choice to make",
        "choose a goal that only some interleavings reach")
    }
    var first = RunToCompletionScheduler()
    let threads = simulate(scenario, options: options, scheduler: &first).threads.count
    for key in 0..<min(threads, 10) {
      var scheduler = SameKeyScheduler(key: key)
      let trace = simulate(scenario, options: options, scheduler: &scheduler)
      if scheduler.finished && play.isMet(by: trace, ended: true) {
        return problem(
          "pressing \(key) at every choice meets the goal \(play): the win needs no thinking",
          "choose a goal that takes different threads at different choices")
      }
    }
    return []
  }
}

/// The learner who presses one thread's number at every choice: stuck (the run abandoned)
/// at a choice where that thread cannot run.
struct SameKeyScheduler: Scheduler {
  let key: Int
  /// Whether the run got to its end, rather than to a choice the key could not make.
  var finished = true

  mutating func startExecution() -> Bool { true }

  mutating func nextThread(runnable: [Int], previous: Int?, step: Int) -> Int? {
    if runnable.count == 1 { return runnable[0] }
    if runnable.contains(key) { return key }
    finished = false
    return nil
  }
}
