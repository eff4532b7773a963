import ContextSimCore
import ContextSimReports

/// A lesson as plain text, step after step: for handouts, tests and CI.
///
///     Lesson · One queue per context
///     Goal: …
///        2  main (on background)  main[0].performAndWait.do[0] "fetch-on-its-queue"
///           let note = try background.fetch(Note.fetchRequest()).first
///           fetched note-1 into background
///           | The main thread runs on background's queue here, so this is legal.
public struct LessonTranscript {
  let lesson: Lesson
  let scenario: Scenario
  let width: Int

  /// A transcript wrapped to `width` columns, at least 40.
  public init(lesson: Lesson, scenario: Scenario, width: Int = 80) {
    self.lesson = lesson
    self.scenario = scenario
    self.width = max(40, width)
  }

  /// The transcript of the lesson's run (its schedule, or the default one).
  public func render() -> String {
    var scheduler = ReplayScheduler(lesson.schedule ?? Schedule())
    let trace = simulate(
      scenario, options: LessonCheck.options(lesson, scenario), scheduler: &scheduler)
    var out = ["Lesson · \(lesson.title)", "Scenario: \(lesson.scenario)"]
    out += wrap("Goal: \(lesson.goal)", indent: "")
    if !lesson.introduction.isEmpty {
      out.append("")
      out += wrap(lesson.introduction, indent: "")
    }
    out.append("")
    if trace.concurrencyDebug { out.append(Messages.assertionsEnabled) }
    for step in 1...max(1, trace.schedule.threads.count) where step <= trace.schedule.threads.count
    {
      out += lines(for: step, in: trace)
    }
    out.append("")
    out += summary(trace)
    out.append("")
    out.append("Question")
    out += wrap(lesson.question, indent: "  ")
    out.append("")
    out.append("Answer")
    out += wrap(lesson.answer, indent: "  ")
    return out.joined(separator: "\n") + "\n"
  }

  /// One step: where it ran, its line of Swift, what it did, its violations, its narration.
  func lines(for step: Int, in trace: Trace) -> [String] {
    let events = trace.events(atStep: step)
    let violations = trace.violations(atStep: step)
    let thread = trace.threads[trace.schedule.threads[step - 1]]
    guard let site = events.first?.site ?? violations.first?.site else {
      return [pad(step) + "  \(thread)  starts a block"]
    }
    let scenarioStep = scenario.allSteps[site.stepIndex]
    let place = site.queue == thread ? thread : "\(thread) (on \(site.queue))"
    let merge = trace.automaticMerge(atStep: step)
    let what =
      merge == nil
      ? site.path + (scenarioStep.label.map { " \"\($0)\"" } ?? "")
      : "Core Data's merge, after \(site.path)"
    var out = [pad(step) + "  \(place)  \(what)"]
    out += wrap(trace.swiftLine(atStep: step, of: scenarioStep), indent: "       ")
    for violation in violations {
      out += wrap("\(Messages.tag(violation)) \(violation.headline)", indent: "       ")
      if let crash = Messages.crashLine(violation) { out += wrap(crash, indent: "         ") }
    }
    // An event that reads just like the line of Swift (a plain assignment) says nothing new.
    for event in events where violations.isEmpty {
      if let text = Messages.describe(event.effect, allSteps: true), text != scenarioStep.swift {
        out += wrap(text, indent: "       ")
      }
    }
    if merge == nil,
      let narration = lesson.narration(
        for: scenarioStep, violations: violations, skipped: trace.skipped(atStep: step))
    {
      out += wrap(narration, indent: "       | ")
    }
    return out
  }

  func summary(_ trace: Trace) -> [String] {
    var out: [String] = []
    if trace.violations.isEmpty {
      out.append("No violations.")
    } else {
      out.append("\(trace.violations.count) violation\(trace.violations.count == 1 ? "" : "s").")
    }
    if let crash = trace.firstCrash, let termination = crash.termination {
      out.append(
        "The real app stops at step \(crash.site.step): exit \(termination.exitStatus) (\(termination.signal))."
      )
    }
    out.append("schedule \(trace.schedule)")
    return out
  }

  private func pad(_ n: Int) -> String {
    let text = String(n)
    return String(repeating: " ", count: max(0, 4 - text.count)) + text
  }

  func wrap(_ text: String, indent: String) -> [String] {
    text.wrapped(width: width, indent: indent)
  }
}
