import ContextSimCore

/// Renders a run for people: one line per step that did something, each violation as a
/// short trap report, then a summary and the schedule.
///
///     CoreData: annotation: Core Data multi-threading assertions enabled.
///        2  background  fetched note-1 into background
///        3  main        TRAP  context background (queue background) touched from main
public struct TextRenderer {
  /// What to show, and how.
  public struct Options: Sendable {
    /// Also show steps that touch no context: dispatch, object IDs, loops.
    public var allSteps = false
    /// Add a simulated backtrace to each violation.
    public var verbose = false
    /// Dim step numbers and red violation tags, with ANSI escapes.
    public var colour = false
    /// How to word the way out of a limit.
    public var advice = Advice.plain

    /// Options, all off by default, with ``Advice/plain``.
    public init(
      allSteps: Bool = false, verbose: Bool = false, colour: Bool = false, advice: Advice = .plain
    ) {
      self.allSteps = allSteps
      self.verbose = verbose
      self.colour = colour
      self.advice = advice
    }
  }

  let scenario: Scenario
  let options: Options
  private let steps: [Step]

  /// A renderer for runs of `scenario`.
  public init(scenario: Scenario, options: Options) {
    self.scenario = scenario
    self.options = options
    steps = scenario.allSteps
  }

  /// The whole report for one run, ending in a newline.
  public func render(_ trace: Trace) -> String {
    var out: [String] = []
    if trace.concurrencyDebug { out.append(Messages.assertionsEnabled) }
    let lines = stepLines(trace)
    let stepWidth = max(3, String(trace.schedule.threads.count).count)
    let queueWidth = lines.map(\.queue.count).max() ?? 0
    let indent = String(repeating: " ", count: stepWidth + queueWidth + 4)
    for line in lines {
      let number =
        String(repeating: " ", count: stepWidth - String(line.step).count) + String(line.step)
      let queue = line.queue + String(repeating: " ", count: queueWidth - line.queue.count)
      out.append("\(dim(number))  \(queue)  \(line.text)")
      out += line.detail.map { indent + $0 }
    }
    out.append("")
    out += summary(trace)
    return out.joined(separator: "\n") + "\n"
  }

  private struct Line {
    var step: Int
    var queue: String
    var text: String
    var detail: [String] = []
  }

  private func stepLines(_ trace: Trace) -> [Line] {
    var lines: [Line] = []
    var violations = trace.violations[...]
    for event in trace.events {
      // A trap fires at the touch, before the step's effect, so violations come first; a
      // deadlock is found once the last step has blocked, so it comes after that step.
      while let v = violations.first,
        v.site.step < event.site.step || (v.site.step == event.site.step && v.kind != .deadlock)
      {
        lines.append(violationLine(v))
        violations.removeFirst()
      }
      let trapped = trace.violations(atStep: event.site.step).contains { $0.kind != .deadlock }
      if trapped && !options.allSteps { continue }
      if case .notModelled(let why) = event.effect {
        let line = UnmodelledLine(passed: steps[event.site.stepIndex])
        lines.append(
          Line(
            step: event.site.step, queue: event.site.queue,
            text: yellow("NOT MODELLED") + "  " + line.swift,
            detail: [why, dim("at " + line.place)]))
        continue
      }
      if let text = Messages.describe(event.effect, allSteps: options.allSteps) {
        lines.append(Line(step: event.site.step, queue: event.site.queue, text: text))
      }
    }
    lines += violations.map(violationLine)
    return lines
  }

  private func violationLine(_ v: Violation) -> Line {
    let tag = Messages.tag(v)
    var detail: [String] = []
    if let crash = Messages.crashLine(v) { detail.append(crash) }
    detail += Messages.errorDetails(v)
    var at = "\(v.kind.rawValue) at \(v.site.path)"
    if let label = steps[v.site.stepIndex].label { at += " \"\(label)\"" }
    detail.append(dim(at))
    if options.verbose { detail += backtrace(v) }
    let pad = String(repeating: " ", count: max(1, 6 - tag.count))
    return Line(
      step: v.site.step, queue: v.site.queue, text: red(tag) + pad + v.headline,
      detail: detail)
  }

  /// A crash-log style backtrace: Core Data's frames, then the scenario steps as Swift.
  private func backtrace(_ v: Violation) -> [String] {
    var lines = ["Thread \(v.site.thread) backtrace:"]
    var n = 0
    func frame(_ place: String, _ text: String) {
      lines.append("  \(n)  \(place)  \(text)")
      n += 1
    }
    if case .wrongQueue(let w) = v.detail {
      frame("CoreData", Messages.trapSymbol)
      frame("CoreData", "_PFAssertSafeMultiThreadedAccess_impl")
      frame("CoreData", w.method)
    }
    for entry in v.backtrace {
      switch entry {
      case .step(let index): frame(steps[index].path, steps[index].swift)
      case .launch: frame("(launch)", "the app starts on the main thread")
      case .enqueued(let queue, let thread):
        lines.append("  -- enqueued on \(queue) by \(thread) --")
      }
    }
    return lines
  }

  private func summary(_ trace: Trace) -> [String] {
    var out: [String] = []
    let count = trace.violations.count
    let unmodelled = trace.unmodelledLines(in: scenario)
    if count == 0 {
      // A run cut short says nothing of the steps it did not take.
      switch trace.stop {
      case .scheduleMismatch?: break
      case .limit?: out.append("No violations before the run was stopped.")
      case nil where !unmodelled.isEmpty:
        out += Messages.unmodelledRun(unmodelled)
      default:
        out.append(
          trace.concurrencyDebug
            ? "No violations."
            : "No violations. (ConcurrencyDebug is off, so queue use is not checked.)")
      }
      let handled = trace.handledErrors.count
      if handled > 0 {
        out.append(
          "\(handled) error\(handled == 1 ? "" : "s") thrown and handled by its catch block."
        )
      }
    } else {
      var kinds: [String] = []
      for v in trace.violations where !kinds.contains(v.kind.rawValue) {
        kinds.append(v.kind.rawValue)
      }
      out.append("\(count) violation\(count == 1 ? "" : "s"): \(kinds.joined(separator: ", ")).")
      if let crash = trace.firstCrash, let termination = crash.termination {
        let ranOn =
          trace.events.contains { $0.site.step > crash.site.step }
          || trace.violations.contains { $0.site.step > crash.site.step }
        let rest = ranOn ? " ctxsim ran on to show the rest." : ""
        out.append(
          "The real app stops at step \(crash.site.step): exit \(termination.exitStatus) (\(termination.signal)).\(rest)"
        )
      } else {
        out.append(
          count == 1
            ? "It does not crash the app; ctxsim exits 1 because it found it."
            : "None of them crashes the app; ctxsim exits 1 because it found them.")
      }
    }
    if !unmodelled.isEmpty, count > 0 || trace.stop != nil {
      out += Messages.unmodelledToo(unmodelled)
    }
    switch trace.stop {
    case .limit(let limit)?:
      out.append(limit.message(options.advice))
    case .scheduleMismatch(let step, let thread, let runnable)?:
      out.append(
        "The schedule does not fit this scenario: at step \(step) thread \(thread) cannot run "
          + "(runnable: \(runnable.map(String.init).joined(separator: ", "))).")
    default:
      break
    }
    out.append("schedule \(trace.schedule)")
    return out
  }

  private func dim(_ text: String) -> String {
    options.colour ? "\u{1B}[2m\(text)\u{1B}[0m" : text
  }

  private func red(_ text: String) -> String {
    options.colour ? "\u{1B}[1;31m\(text)\u{1B}[0m" : text
  }

  private func yellow(_ text: String) -> String {
    options.colour ? "\u{1B}[1;33m\(text)\u{1B}[0m" : text
  }
}
