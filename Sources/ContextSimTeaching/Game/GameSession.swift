import ContextSimCore
import ContextSimReports

/// Where a learner is in one level of `ctxsim game`: the briefing, their run as the
/// scheduler or their pick among candidate fixes, their failed tries, and whether they won.
///
/// The front end calls the key methods (``start()``, ``choose(_:)``, ``next()``, ``back()``,
/// ``restart()``, ``nextViolation()``) and draws the session with ``GameScreen``; after each
/// key it reads ``failedTries`` and ``hasWon`` to save progress. A failed try is counted once,
/// when a run becomes lost (or a candidate fix shows a counterexample), and each one reveals
/// the next hint.
public struct GameSession {
  /// The level being played.
  public let level: Level
  /// The level's scenario: the one the learner schedules, or the buggy one the fixes mend.
  public let scenario: Scenario
  /// The candidate fixes' scenarios, in the order of the level's `## Fixes`.
  public let fixes: [Scenario]
  let maxSchedules: Int
  /// Tries that failed so far, counting those of earlier sessions: hints stay revealed.
  public private(set) var failedTries: Int
  /// What the screen shows now.
  public private(set) var state: State
  /// The run on screen: the learner's own, or a fix's counterexample being replayed.
  public private(set) var run: LessonSession?
  /// Whether the level has been won in this session, even if the learner went back since.
  public private(set) var hasBeenWon = false
  /// What each candidate fix showed when picked, by its index: a fix is explored once.
  public private(set) var verdicts: [Int: FixProof] = [:]
  private var lossCounted = false

  /// Where the learner is.
  public enum State: Sendable {
    /// The level's briefing, before the first step.
    case briefing
    /// Choosing threads: ``run`` is the learner's run.
    case playing
    /// Choosing among the candidate fixes.
    case choosingFix
    /// The fix at this index broke in some interleaving: ``run`` replays it step by step.
    case counterexample(fix: Int)
    /// The search of the fix at this index stopped before covering every interleaving.
    case undecided(fix: Int)
    /// The level is won.
    case won(Win)
  }

  /// How the level was won.
  public enum Win: Sendable {
    /// The run reached the violation the goal names.
    case reached(Violation, schedule: Schedule)
    /// The run got to its end with no violation.
    case survived(schedule: Schedule)
    /// The fix at this index is clean in every one of `interleavings` classes.
    case proven(fix: Int, interleavings: Int)
  }

  /// A session at the level's briefing.
  ///
  /// - Parameters:
  ///   - fixes: the scenarios of the level's `## Fixes`, in order; empty for a play level.
  ///   - failedTries: failed tries kept from earlier sessions.
  ///   - maxSchedules: the budget of the search that proves a fix.
  public init(
    level: Level, scenario: Scenario, fixes: [Scenario] = [], failedTries: Int = 0,
    maxSchedules: Int = defaultScheduleBudget
  ) {
    self.level = level
    self.scenario = scenario
    self.fixes = fixes
    self.failedTries = failedTries
    self.maxSchedules = maxSchedules
    state = .briefing
  }

  /// Whether the level is won at this point.
  public var hasWon: Bool {
    if case .won = state { return true }
    return false
  }

  /// The hints revealed so far: one per failed try.
  public var hints: [String] { level.hints(afterFailedTries: failedTries) }

  /// Whether the learner's run can no longer meet the goal: go back, or try again.
  public var hasLost: Bool {
    if case .playing = state { return run?.hasLost ?? false }
    return false
  }

  /// The run of the counterexample on screen, to its end: what the replay will show.
  public var counterexampleTrace: Trace? {
    guard case .counterexample(let fix) = state,
      let trace = verdicts[fix]?.counterexample?.trace
    else { return nil }
    return trace
  }

  /// The candidate fixes, as the level lists them.
  public var candidates: [Lesson.Fix] { level.lesson.fixes }

  /// Leaves the briefing: a play level starts the learner's run as the scheduler, a prove
  /// level shows its candidate fixes.
  public mutating func start() {
    guard case .briefing = state else { return }
    switch level.goal {
    case .play:
      var session = LessonSession(lesson: level.lesson, scenario: scenario)
      session.togglePlaying()
      run = session
      state = .playing
      settle()
    case .prove:
      state = .choosingFix
    }
  }

  /// A digit key: the thread to run next when playing, or the fix to explore (1 for the
  /// first) when choosing one.
  public mutating func choose(_ digit: Int) {
    switch state {
    case .briefing:
      start()
    case .playing:
      run?.choose(digit)
      settle()
    case .choosingFix, .counterexample, .undecided:
      pickFix(digit - 1)
    case .won:
      break
    }
  }

  /// Takes the next step: a step with no choice when playing, or the counterexample's next
  /// step.
  public mutating func next() {
    switch state {
    case .briefing: start()
    case .playing, .counterexample:
      // Past the end, or once the run is lost, the lesson would show the level's question
      // and answer: the answer gives the level away, and the win screen shows it.
      guard let run, !run.isAtEnd, !run.isDecided else { return }
      self.run?.next()
      settle()
    default: break
    }
  }

  /// Goes back: to the last choice when playing (out of a win, too), one step in a
  /// counterexample, to the candidates from a fix's verdict.
  public mutating func back() {
    switch state {
    case .playing:
      run?.back()
      settle()
    case .counterexample:
      if let run, run.position > 0 {
        self.run?.back()
      } else {
        state = .choosingFix
        self.run = nil
      }
    case .undecided:
      state = .choosingFix
    case .won(.proven):
      state = .choosingFix
    case .won:
      state = .playing
      run?.back()
      settle()
    case .briefing, .choosingFix:
      break
    }
  }

  /// Starts a new try: the run from the start, or the list of candidate fixes again.
  public mutating func restart() {
    switch state {
    case .playing, .won(.reached), .won(.survived):
      state = .playing
      run?.restart()
      settle()
    case .counterexample, .undecided, .won(.proven):
      state = .choosingFix
      run = nil
    case .briefing, .choosingFix:
      break
    }
  }

  /// In a counterexample, jumps to its next violation.
  public mutating func nextViolation() {
    guard case .counterexample = state else { return }
    run?.nextViolation()
  }

  /// After a move of the learner's run: a win, or a loss counted once as a failed try.
  private mutating func settle() {
    guard let run else { return }
    if run.hasWon {
      state = .won(win(run))
      hasBeenWon = true
    } else {
      state = .playing
      if run.hasLost && !lossCounted { failedTries += 1 }
      lossCounted = run.hasLost
    }
  }

  private func win(_ run: LessonSession) -> Win {
    let schedule = Schedule(run.choices)
    if case .play(.reach(let goal)) = level.goal,
      let violation = run.trace.violations.first(where: goal.isReached)
    {
      return .reached(violation, schedule: schedule)
    }
    return .survived(schedule: schedule)
  }

  /// Explores the fix at `index` (once), and wins, replays its counterexample as a failed
  /// try, or says the search could not decide.
  private mutating func pickFix(_ index: Int) {
    guard fixes.indices.contains(index), candidates.indices.contains(index) else { return }
    let fix = fixes[index]
    let options = LessonCheck.options(level.lesson, fix)
    let proof = verdicts[index] ?? FixProof(fix, options: options, maxSchedules: maxSchedules)
    let firstTime = verdicts[index] == nil
    verdicts[index] = proof
    switch (proof.verdict, proof.counterexample) {
    case (.passed, _):
      run = nil
      state = .won(.proven(fix: index, interleavings: proof.schedulesRun))
      hasBeenWon = true
    case (.failed, let (schedule, _)?):
      var replay = level.lesson
      replay.scenario = candidates[index].scenario
      replay.schedule = schedule
      replay.play = nil
      replay.introduction =
        "Fix \(index + 1): \(candidates[index].description)\n\nIt breaks in this interleaving: "
        + "press n to step through it."
      run = LessonSession(lesson: replay, scenario: fix)
      state = .counterexample(fix: index)
      // Picking the same wrong fix again replays it, but is no new try.
      if firstTime { failedTries += 1 }
    default:
      run = nil
      state = .undecided(fix: index)
    }
  }
}
