import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

@Suite("Game levels")
struct LevelTests {
  @Test("There are at least six levels, numbered 1, 2, 3… in order")
  func sixLevels() throws {
    #expect(levelFiles.count >= 6)
    let numbers = try levelFiles.map { try repositoryLevel($0).0.number }
    #expect(numbers == Array(1...levelFiles.count))
  }

  @Test("The levels cover every kind of goal the game promises")
  func goalKinds() throws {
    let goals = try levelFiles.map { try repositoryLevel($0).0.goal }
    let kinds = goals.compactMap { goal -> ViolationKind? in
      if case .play(.reach(let crash)) = goal { return crash.kind }
      return nil
    }
    #expect(kinds.contains(.wrongQueueObject) || kinds.contains(.wrongQueueContext))
    for kind in [ViolationKind.deadlock, .dataRace, .corruption] {
      #expect(kinds.contains(kind), "no level reaches \(kind)")
    }
    #expect(goals.contains(.play(.survive)))
    #expect(goals.contains { if case .prove = $0 { true } else { false } })
  }

  @Test("Every level passes the level check: its goal needs a choice", arguments: levelFiles)
  func levelCheck(name: String) throws {
    let (level, scenario, fixes) = try repositoryLevel(name)
    let problems = LevelCheck.problems(level, scenario: scenario, fixes: fixes)
    #expect(problems.isEmpty, "\(problems.map(\.description))")
  }

  @Test(
    "A play level is won by some choices and by no single key pressed at every choice",
    arguments: levelFiles)
  func playLevelNeedsChoices(name: String) throws {
    let (level, scenario, _) = try repositoryLevel(name)
    guard case .play(let goal) = level.goal else { return }
    let win = try #require(winningSchedule(goal, level.lesson, scenario))
    var game = GameSession(level: level, scenario: scenario)
    game.play(win)
    #expect(game.hasWon, "\(name): \(win) did not win")
    // The learner who presses one key at every choice never wins.
    for key in 0..<10 {
      var same = GameSession(level: level, scenario: scenario)
      same.start()
      for _ in 0..<200 where !same.hasWon && !same.hasLost {
        guard let run = same.run else { break }
        if run.needsChoice && !run.world.runnable.contains(key) { break }
        if run.needsChoice { same.choose(key) } else { same.next() }
      }
      #expect(!same.hasWon, "\(name): pressing \(key) at every choice wins")
    }
  }
}
