import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

@Suite("Playing a level")
struct GameSessionTests {
  @Test("A play level opens on its briefing; starting it makes the learner the scheduler")
  func briefingFirst() throws {
    let (level, scenario, _) = try repositoryLevel("03-make-the-race-happen.md")
    var game = GameSession(level: level, scenario: scenario)
    guard case .briefing = game.state else { return failure("not at the briefing") }
    #expect(game.run == nil)
    game.start()
    guard case .playing = game.state else { return failure("not playing") }
    #expect(game.run?.isPlaying == true)
    #expect(game.run?.needsChoice == true)
  }

  @Test("Each failed try counts once and reveals the next hint; going back does not count")
  func hintsOnePerFailedTry() throws {
    let (level, scenario, _) = try repositoryLevel("03-make-the-race-happen.md")
    guard case .play(let goal) = level.goal else { return failure("not a play level") }
    let loss = try #require(losingSchedule(goal, level.lesson, scenario))
    var game = GameSession(level: level, scenario: scenario)
    #expect(game.hints.isEmpty)
    game.play(loss)
    #expect(game.hasLost)
    #expect(game.failedTries == 1)
    #expect(game.hints == Array(level.lesson.hints.prefix(1)))
    // Keys pressed after the loss do not count it again.
    game.next()
    game.choose(1)
    #expect(game.failedTries == 1)
    game.restart()
    #expect(!game.hasLost)
    game.play(loss)
    #expect(game.failedTries == 2)
    #expect(game.hints == Array(level.lesson.hints.prefix(2)))
    game.back()
    #expect(!game.hasLost)
    #expect(game.failedTries == 2)
    // More failed tries than hints show every hint, and no more.
    for _ in 0..<5 {
      game.restart()
      game.play(loss)
    }
    #expect(game.failedTries == 7)
    #expect(game.hints == level.lesson.hints)
  }

  @Test("Failed tries kept from an earlier session keep their hints revealed")
  func keptTries() throws {
    let (level, scenario, _) = try repositoryLevel("01-the-object-in-the-cache.md")
    let game = GameSession(level: level, scenario: scenario, failedTries: 2)
    #expect(game.hints == Array(level.lesson.hints.prefix(2)))
  }

  @Test("Winning a play level records how: the violation reached, on the learner's schedule")
  func winReached() throws {
    let (level, scenario, _) = try repositoryLevel("04-two-jobs-one-deadlock.md")
    guard case .play(let goal) = level.goal else { return failure("not a play level") }
    var game = GameSession(level: level, scenario: scenario)
    game.play(try #require(winningSchedule(goal, level.lesson, scenario)))
    guard case .won(.reached(let violation, let schedule)) = game.state else {
      return failure("not won: \(game.state)")
    }
    #expect(violation.kind == .deadlock)
    #expect(schedule == Schedule(game.run?.choices ?? []))
    #expect(game.hasBeenWon)
    // Going back leaves the win, but the session remembers it was won.
    game.back()
    #expect(!game.hasWon)
    #expect(game.hasBeenWon)
  }

  @Test("Surviving is won at a clean end and lost at the first violation")
  func survive() throws {
    let (level, scenario, _) = try repositoryLevel("05-survive-the-badge.md")
    var game = GameSession(level: level, scenario: scenario)
    game.play(try #require(winningSchedule(.survive, level.lesson, scenario)))
    guard case .won(.survived) = game.state else { return failure("not won: \(game.state)") }
    var lost = GameSession(level: level, scenario: scenario)
    lost.play(try #require(losingSchedule(.survive, level.lesson, scenario)))
    #expect(lost.hasLost)
    #expect(lost.run?.trace.violations.first?.kind == .dataRace)
  }
}

@Suite("Proving a fix")
struct ProveTests {
  /// The level of fixes, with the index of its fix that holds.
  private func proveLevel() throws -> (Level, Scenario, [Scenario], right: Int) {
    let (level, scenario, fixes) = try repositoryLevel("06-prove-the-fix.md")
    let right = try #require(level.lesson.fixes.firstIndex { $0.scenario.hasSuffix("-fixed.json") })
    return (level, scenario, fixes, right)
  }

  @Test("The right fix wins with the number of interleavings the search covered")
  func rightFixWins() throws {
    let (level, scenario, fixes, right) = try proveLevel()
    var game = GameSession(level: level, scenario: scenario, fixes: fixes)
    game.start()
    guard case .choosingFix = game.state else { return failure("not choosing") }
    game.choose(right + 1)
    guard case .won(.proven(let fix, let interleavings)) = game.state else {
      return failure("not proven: \(game.state)")
    }
    #expect(fix == right)
    // As `ctxsim explore` counts them: every class of interleavings, all clean.
    let e = explore(fixes[right], options: LessonCheck.options(level.lesson, fixes[right]))
    #expect(e.isComplete && e.failingSchedules == 0)
    #expect(interleavings == e.schedulesRun)
    #expect(game.failedTries == 0)
  }

  @Test("A wrong fix is a failed try that replays its counterexample step by step")
  func wrongFixShowsCounterexample() throws {
    let (level, scenario, fixes, right) = try proveLevel()
    let wrong = right == 0 ? 1 : 0
    var game = GameSession(level: level, scenario: scenario, fixes: fixes)
    game.start()
    game.choose(wrong + 1)
    guard case .counterexample(let fix) = game.state,
      let (schedule, trace) = game.verdicts[wrong]?.counterexample
    else { return failure("no counterexample: \(game.state)") }
    #expect(fix == wrong)
    #expect(!game.hasWon)
    #expect(game.failedTries == 1)
    #expect(game.hints.count == 1)
    #expect(trace.violations.contains { $0.kind == .corruption })
    // The replay starts before the first step and follows the counterexample's schedule.
    let run = try #require(game.run)
    #expect(run.position == 0)
    #expect(!run.isPlaying)
    #expect(Array(run.schedule.threads.prefix(schedule.threads.count)) == schedule.threads)
    #expect(run.scenario.file == level.lesson.fixes[wrong].scenario)
    game.nextViolation()
    #expect(game.run?.violationsNow.contains { $0.kind == .corruption } == true)
    // The same wrong fix again is no new try; another one is.
    game.choose(wrong + 1)
    #expect(game.failedTries == 1)
    let other = (0..<fixes.count).first { $0 != right && $0 != wrong }
    if let other {
      game.choose(other + 1)
      #expect(game.failedTries == 2)
    }
    game.restart()
    guard case .choosingFix = game.state else { return failure("not back to the fixes") }
    game.choose(right + 1)
    #expect(game.hasWon)
  }

  @Test("A search cut short by its budget proves nothing: no win, no failed try")
  func undecided() throws {
    let (level, scenario, fixes, right) = try proveLevel()
    var game = GameSession(level: level, scenario: scenario, fixes: fixes, maxSchedules: 1)
    game.start()
    game.choose(right + 1)
    guard case .undecided(let fix) = game.state else { return failure("\(game.state)") }
    #expect(fix == right)
    #expect(!game.hasWon)
    #expect(game.failedTries == 0)
    guard case .incomplete? = game.verdicts[right]?.verdict else { return failure("verdict") }
    #expect(game.verdicts[right]?.schedulesRun == 1)
  }

  @Test("A proof is claimed only for a complete search; a violation found is always shown")
  func fixVerdicts() throws {
    let fixed = try scenarioAt("scenarios/checked-too-early-fixed.json")
    let racy = try scenarioAt("scenarios/checked-too-early.json")
    let options = SimulationOptions(fixed)
    let proof = FixProof(fixed, options: options)
    guard proof.verdict == .passed else { return failure("the fixed scenario is not proven") }
    #expect(proof.schedulesRun == 3)
    guard case .incomplete = FixProof(fixed, options: options, maxSchedules: 2).verdict else {
      return failure("a cut-short search claimed a proof")
    }
    let broken = FixProof(racy, options: options)
    guard broken.verdict == .failed, let (schedule, trace) = broken.counterexample
    else { return failure("no counterexample for the race") }
    #expect(trace.violations.map(\.kind) == [.dataRace])
    var replay = ReplayScheduler(schedule)
    #expect(
      simulate(racy, options: options, scheduler: &replay).violations.map(\.kind) == [.dataRace])
  }
}
