import ContextSimCore
import ContextSimReports

/// Where an instructor is in a lesson: the schedule being followed, how many steps have
/// been taken, and the world at that point.
///
/// Going back runs the scenario again from the start to the earlier step; runs are
/// deterministic, so this shows exactly what was there before. In "you are the scheduler"
/// mode the learner picks the thread at every point where more than one could run, and wins
/// on meeting the lesson's play goal: reaching its crash, or getting through without one.
/// Steps with nothing to choose are taken for the learner, but the session stops after any
/// that the lesson narrates or that breaks a rule, so nothing worth reading flies past.
public struct LessonSession {
  /// The lesson being taught.
  public let lesson: Lesson
  /// The lesson's scenario.
  public let scenario: Scenario
  /// The scenario as the Swift program it stands for, for the code pane.
  public let listing: ProgramListing
  let options: SimulationOptions
  /// The schedule followed when stepping: the lesson's, or the default one, complete.
  public private(set) var schedule: Schedule
  /// Steps taken so far.
  public private(set) var position = 0
  /// The run up to ``position``.
  public private(set) var trace: Trace
  /// Threads, queues and contexts as they stand after ``position`` steps.
  public private(set) var world: WorldSnapshot
  /// Whether the learner chooses the threads.
  public private(set) var isPlaying = false
  /// The threads the learner chose, step by step, including steps where only one could run.
  public private(set) var choices: [Int] = []
  private var forced: [Bool] = []
  /// Whether the learner's choices met the lesson's play goal.
  public private(set) var hasWon = false
  /// Whether the learner's choices can no longer meet it: go back, or start again.
  public private(set) var hasLost = false
  /// Past the last step: the run's summary with the lesson's question, then its answer.
  public private(set) var ending: Ending?

  /// What `n` shows once the run is over, one press at a time.
  public enum Ending: Sendable, Equatable {
    /// The run's summary and the question for the class.
    case question
    /// The question's answer, revealed.
    case answer
  }

  /// Starts before the first step, following the lesson's schedule run to its end by the
  /// default schedule, or the default schedule alone.
  public init(lesson: Lesson, scenario: Scenario) {
    self.lesson = lesson
    self.scenario = scenario
    listing = ProgramListing(scenario)
    options = LessonCheck.options(lesson, scenario)
    var scheduler = ReplayScheduler(lesson.schedule ?? Schedule())
    schedule = simulate(scenario, options: options, scheduler: &scheduler).schedule
    (trace, world) = ContextSimCore.simulate(
      scenario, options: options, following: schedule, steps: 0)
  }

  /// Steps in the schedule being followed, or taken so far when the learner chooses.
  public var total: Int { isPlaying ? choices.count : schedule.threads.count }

  /// Whether the run has ended at this point.
  public var isAtEnd: Bool {
    world.runnable.isEmpty || (!isPlaying && position >= schedule.threads.count)
  }

  /// In play mode, whether the learner has to pick the next thread.
  public var needsChoice: Bool { isPlaying && !isDecided && world.runnable.count > 1 }

  /// In play mode, whether the game is won or lost.
  public var isDecided: Bool { hasWon || hasLost }

  /// The scenario step taken last, if any.
  public var lastStep: Step? {
    guard position > 0 else { return nil }
    let site =
      trace.events(atStep: position).last?.site
      ?? trace.violations(atStep: position).last?.site
    return site.map { scenario.allSteps[$0.stepIndex] }
  }

  /// Violations of the step taken last.
  public var violationsNow: [Violation] {
    Array(trace.violations(atStep: position))
  }

  /// What the lesson says about the step taken last, as it happened in this run.
  public var narrationNow: String? {
    guard let step = lastStep, trace.automaticMerge(atStep: position) == nil else { return nil }
    return lesson.narration(
      for: step, violations: violationsNow, skipped: trace.skipped(atStep: position))
  }

  /// Takes one step of the schedule; when the learner chooses, only a step that is no
  /// choice (one runnable thread), with the forced steps after it. Past the end (or once
  /// the play goal is decided), shows the question, then the answer.
  public mutating func next() {
    if isAtEnd || (isPlaying && isDecided) {
      ending = ending == nil ? .question : .answer
    } else if isPlaying {
      guard !isDecided, world.runnable.count == 1 else { return }
      take(world.runnable[0], forced: true)
      moveOnWhileForced()
    } else if position < schedule.threads.count {
      go(to: position + 1)
    }
  }

  /// Goes one step back; when the learner chooses, back to before their last real choice.
  public mutating func back() {
    if let shown = ending {
      ending = shown == .answer ? .question : nil
    } else if isPlaying {
      // Back to the last point where the learner chose.
      while forced.last == true { pop() }
      if !choices.isEmpty { pop() }
      replay()
    } else if position > 0 {
      go(to: position - 1)
    }
  }

  /// Goes back to before the first step, keeping the mode.
  public mutating func restart() {
    if isPlaying {
      choices = []
      forced = []
      replay()
      moveOnWhileForced()
    } else {
      go(to: 0)
    }
  }

  /// Moves to the next step with a violation, or to the end.
  public mutating func nextViolation() {
    guard !isPlaying else { return }
    var full = ReplayScheduler(schedule)
    let run = simulate(scenario, options: options, scheduler: &full)
    let target = run.violations.map(\.site.step).first { $0 > position } ?? schedule.threads.count
    go(to: target)
  }

  /// Switches between following the schedule and choosing the threads, from the start.
  public mutating func togglePlaying() {
    isPlaying.toggle()
    choices = []
    forced = []
    hasWon = false
    hasLost = false
    if isPlaying {
      replay()
      moveOnWhileForced()
    } else {
      go(to: 0)
    }
  }

  /// In play mode, lets thread `t` take the next step, if it can.
  public mutating func choose(_ t: Int) {
    guard isPlaying, !isDecided, world.runnable.contains(t) else { return }
    take(t, forced: world.runnable.count == 1)
    moveOnWhileForced()
  }

  private mutating func take(_ t: Int, forced isForced: Bool) {
    choices.append(t)
    forced.append(isForced)
    replay()
  }

  private mutating func pop() {
    choices.removeLast()
    forced.removeLast()
  }

  /// Takes the steps where only one thread can move: there is nothing to choose. Stops
  /// after a step worth reading (narrated, or breaking a rule): `n` goes on from there.
  private mutating func moveOnWhileForced() {
    while !isDecided && world.runnable.count == 1 && choices.count < options.maximumSteps {
      if position > 0 && (narrationNow != nil || !violationsNow.isEmpty) { return }
      take(world.runnable[0], forced: true)
    }
  }

  private mutating func replay() {
    ending = nil
    position = choices.count
    (trace, world) = ContextSimCore.simulate(
      scenario, options: options, following: Schedule(choices), steps: position)
    let ended = world.runnable.isEmpty
    hasWon = lesson.play?.isMet(by: trace, ended: ended) ?? false
    hasLost = !hasWon && (lesson.play?.isLost(by: trace, ended: ended) ?? false)
  }

  private mutating func go(to step: Int) {
    ending = nil
    position = max(0, min(step, schedule.threads.count))
    (trace, world) = ContextSimCore.simulate(
      scenario, options: options, following: schedule, steps: position)
  }
}
