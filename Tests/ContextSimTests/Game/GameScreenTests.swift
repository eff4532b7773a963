import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

private let plain = LessonScreen.Style(unicode: false, colour: false)
private let fancy = LessonScreen.Style(unicode: true, colour: false)

/// Every screen a learner meets on the way through a level, from briefing to win.
private func screensOfLevel(_ name: String, width: Int, height: Int, style: LessonScreen.Style)
  throws -> [(String, [String])]
{
  let (level, scenario, fixes) = try repositoryLevel(name)
  let screen = GameScreen(width: width, height: height, style: style)
  var game = GameSession(level: level, scenario: scenario, fixes: fixes)
  var out = [("briefing", screen.render(game, levels: 6))]
  var help = LessonScreen.View()
  help.help = true
  out.append(("help", screen.render(game, levels: 6, view: help)))
  game.start()
  switch level.goal {
  case .play(let goal):
    out.append(("start", screen.render(game, levels: 6)))
    game.play(try #require(losingSchedule(goal, level.lesson, scenario)))
    out.append(("lost", screen.render(game, levels: 6)))
    game.restart()
    game.play(try #require(winningSchedule(goal, level.lesson, scenario)))
  case .prove(let candidates):
    out.append(("fixes", screen.render(game, levels: 6)))
    let right = try #require(candidates.firstIndex { $0.scenario.hasSuffix("-fixed.json") })
    game.choose(right == 0 ? 2 : 1)
    out.append(("counterexample", screen.render(game, levels: 6)))
    game.nextViolation()
    out.append(("counterexample at its violation", screen.render(game, levels: 6)))
    game.restart()
    out.append(("fixes after a try", screen.render(game, levels: 6)))
    game.choose(right + 1)
  }
  #expect(game.hasWon)
  out.append(("won", screen.render(game, levels: 6, next: level)))
  out.append(("won, last level", screen.render(game, levels: 6)))
  return out
}

/// The screen's text as one line of words, so that a phrase is found wherever it wraps.
private func prose(_ lines: [String]) -> String {
  lines.joined(separator: " ").split(separator: " ").joined(separator: " ")
}

@Suite("The game's screen")
struct GameScreenTests {
  @Test(
    "Every screen of every level is exactly the terminal's size, title first, keys last",
    arguments: levelFiles)
  func sizes(name: String) throws {
    for (width, height) in [(80, 24), (40, 12), (140, 40)] {
      for (what, lines) in try screensOfLevel(name, width: width, height: height, style: fancy) {
        #expect(lines.count == height, "\(name) \(what) at \(width)x\(height)")
        #expect(
          lines.allSatisfy { $0.count <= width },
          "\(name) \(what) at \(width)x\(height): \(lines.filter { $0.count > width })")
        #expect(lines[0].hasPrefix("Level "), "\(name) \(what): \(lines[0])")
        #expect(lines[1].allSatisfy { $0 == "─" })
      }
    }
  }

  @Test("The win screen keeps the title, says how it was won, and offers the next level")
  func winScreen() throws {
    let screens = try screensOfLevel(
      "03-make-the-race-happen.md", width: 80, height: 24, style: plain)
    let won = try #require(screens.first { $0.0 == "won" }?.1)
    #expect(won[0].hasPrefix("Level 3 of 6: Make the race happen"))
    #expect(won[0].hasSuffix("+ won"))
    #expect(won.contains { $0.contains("Level complete: dataRace at step") })
    #expect(won.contains { $0.contains("Your schedule: ") })
    #expect(won.contains { $0.contains("Enter: level 3, Make the race happen") })
    #expect(won.last == "Enter next level  b back  r play again  q quit")
    let last = try #require(screens.first { $0.0 == "won, last level" }?.1)
    #expect(last.contains { $0.contains("That was the last level") })
  }

  @Test("A lost run says why, with the hint it revealed and the failed try on the title")
  func lostScreen() throws {
    let screens = try screensOfLevel(
      "05-survive-the-badge.md", width: 80, height: 24, style: plain)
    let lost = try #require(screens.first { $0.0 == "lost" }?.1)
    #expect(lost[0].contains("1 failed try"))
    #expect(lost.contains { $0.hasPrefix(" x Lost: dataRace at step") })
    #expect(lost.contains { $0.hasPrefix(" Hint 1 of 3: The badge's read is safe only if") })
    #expect(lost.contains { $0.contains("Press r to try again") })
    let start = try #require(screens.first { $0.0 == "start" }?.1)
    #expect(start.contains { $0.hasPrefix(" Who runs next? Press 0 main, 1 global#1.") })
    #expect(start.contains { $0 == " Goal: Get to the end with no violation." })
    #expect(!start.contains { $0.contains("Hint") })
  }

  @Test("The fixes are listed by number; a wrong one shows its counterexample and stays marked")
  func proveScreens() throws {
    let screens = try screensOfLevel("06-prove-the-fix.md", width: 80, height: 24, style: plain)
    let fixes = try #require(screens.first { $0.0 == "fixes" }?.1)
    #expect(fixes.contains { $0.contains("Which fix holds in every interleaving?") })
    for n in 1...3 { #expect(fixes.contains { $0.hasPrefix("  \(n). ") }) }
    let start = try #require(screens.first { $0.0 == "counterexample" }?.1)
    #expect(start.contains { $0.hasPrefix(" Fix 1: The crash reports point at the save") })
    #expect(start.contains { $0.hasPrefix(" x Fix 1 breaks in this interleaving: corruption at") })
    let replay = try #require(screens.first { $0.0 == "counterexample at its violation" }?.1)
    #expect(replay[0].contains("counterexample - step"))
    #expect(replay.contains { $0.hasPrefix(" x Fix 1 breaks in this interleaving: corruption") })
    #expect(replay.contains { $0.contains("corruption") && $0.contains("viewContext") })
    let after = try #require(screens.first { $0.0 == "fixes after a try" }?.1)
    #expect(prose(after).contains("as before. [x breaks: corruption] 2. Fetch inside"))
    let won = try #require(screens.first { $0.0 == "won" }?.1)
    #expect(
      prose(won).contains(
        "+ Level complete: fix 3 holds. It is clean in every one of 3 interleavings: the search "
          + "covered them all."))
  }

  @Test("Without unicode no box drawing, arrows or marks; without colour no escape codes")
  func plainText() throws {
    let drawing = Set("─│·…→✓✗▶")
    for name in levelFiles {
      for (what, lines) in try screensOfLevel(name, width: 80, height: 24, style: plain) {
        let bad = lines.filter { $0.contains { drawing.contains($0) || $0 == "\u{1B}" } }
        #expect(bad.isEmpty, "\(name) \(what): \(bad)")
      }
    }
  }
}
