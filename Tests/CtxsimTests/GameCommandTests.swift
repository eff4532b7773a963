import ContextSim
import Foundation
import Testing

@testable import ctxsim

/// A fresh, empty state directory for one test, removed afterwards by the caller.
private func stateDirectory() throws -> String {
  let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("ctxsim-game-\(UUID().uuidString)").path
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}

/// Writes a progress file where `ctxsim game` looks for it under `state`.
private func writeProgress(_ text: String, under state: String) throws {
  try FileManager.default.createDirectory(
    atPath: state + "/ctxsim", withIntermediateDirectories: true)
  try Data(text.utf8).write(to: URL(fileURLWithPath: state + "/ctxsim/game.json"))
}

private let levelsDone = """
  {"version": 1, "levels": {
    "01-the-object-in-the-cache": {"done": true, "failedTries": 0},
    "02-crash-it-without-the-flag": {"done": true, "failedTries": 0},
    "03-make-the-race-happen": {"done": false, "failedTries": 2}}}
  """

@Suite("ctxsim game")
struct GameCommandTests {
  @Test("With no progress, the list shows every level, none done, the first one next")
  func freshList() throws {
    let state = try stateDirectory()
    defer { try? FileManager.default.removeItem(atPath: state) }
    let run = ctxsim("game", environment: ["XDG_STATE_HOME": state])
    #expect(run.status == 0)
    #expect(run.err.isEmpty)
    #expect(
      run.out == """
        Levels (0 of 6 done):
          [ ]  1  The object in the cache    reach wrongQueueObject at show-title   <- next
          [ ]  2  Crash it without the flag  reach corruption at fetch-off-queue
          [ ]  3  Make the race happen       reach dataRace at read-thumbnail
          [ ]  4  Two jobs, one deadlock     reach deadlock
          [ ]  5  Survive the badge          survive: no violation to the end
          [ ]  6  Prove the fix              prove a fix (3 candidates)

        Play the next one with `ctxsim game 1`.
        Progress is kept in \(state)/ctxsim/game.json.

        """)
  }

  @Test("Levels done are marked and the first not done is next")
  func progressList() throws {
    let state = try stateDirectory()
    defer { try? FileManager.default.removeItem(atPath: state) }
    try writeProgress(levelsDone, under: state)
    let run = ctxsim("game", environment: ["XDG_STATE_HOME": state])
    #expect(run.status == 0)
    let rows = run.out.split(separator: "\n").map(String.init)
    #expect(rows[0] == "Levels (2 of 6 done):")
    #expect(rows[1].hasPrefix("  [x]  1  The object in the cache"))
    #expect(rows[2].hasPrefix("  [x]  2  Crash it without the flag"))
    #expect(rows[3].hasPrefix("  [ ]  3  Make the race happen") && rows[3].hasSuffix("<- next"))
    #expect(!rows[1].contains("<- next"))
    #expect(run.out.contains("Play the next one with `ctxsim game 3`."))
  }

  @Test("--reset forgets the progress file; the list starts again from nothing")
  func reset() throws {
    let state = try stateDirectory()
    defer { try? FileManager.default.removeItem(atPath: state) }
    try writeProgress(levelsDone, under: state)
    let environment = ["XDG_STATE_HOME": state]
    let run = ctxsim("game", "--reset", environment: environment)
    #expect(run.status == 0)
    #expect(run.out == "Forgot the game's progress (\(state)/ctxsim/game.json).\n")
    #expect(!FileManager.default.fileExists(atPath: state + "/ctxsim/game.json"))
    #expect(ctxsim("game", environment: environment).out.hasPrefix("Levels (0 of 6 done):"))
    let again = ctxsim("game", "--reset", environment: environment)
    #expect(again.status == 0)
    #expect(again.out.hasPrefix("No progress to forget"))
    #expect(ctxsim("game", "--reset", "1").status == 64)
  }

  @Test("A corrupt progress file is ignored with a warning, never a crash")
  func corruptFile() throws {
    let state = try stateDirectory()
    defer { try? FileManager.default.removeItem(atPath: state) }
    try writeProgress("{\"version\": 1, \"levels\": {\"01-a\": tru", under: state)
    let run = ctxsim("game", environment: ["XDG_STATE_HOME": state])
    #expect(run.status == 0)
    #expect(
      run.err.hasPrefix(
        "ctxsim: warning: ignoring \(state)/ctxsim/game.json: it is not JSON ("))
    #expect(run.err.hasSuffix("; progress starts afresh\n"))
    #expect(run.out.hasPrefix("Levels (0 of 6 done):"))
  }

  @Test("XDG_STATE_HOME wins over HOME; a relative one is ignored; with neither, none is kept")
  func location() {
    #expect(
      GameProgressFile(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]).path
        == "/s/ctxsim/game.json")
    #expect(
      GameProgressFile(environment: ["XDG_STATE_HOME": "rel", "HOME": "/h"]).path
        == "/h/.local/state/ctxsim/game.json")
    #expect(GameProgressFile(environment: [:]).path == nil)
    let run = ctxsim("game")
    #expect(run.status == 0)
    #expect(run.out.hasSuffix("Progress is not kept: set HOME or XDG_STATE_HOME.\n"))
  }

  @Test("Progress is saved atomically into a folder made for it, and read back")
  func saveAndLoad() throws {
    let state = try stateDirectory()
    defer { try? FileManager.default.removeItem(atPath: state) }
    let file = GameProgressFile(environment: ["XDG_STATE_HOME": state + "/new"])
    var progress = GameProgress()
    progress.record("03-make-the-race-happen", won: true, failedTries: 4)
    #expect(file.save(progress) == nil)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: state + "/new/ctxsim") == ["game.json"])
    #expect(file.load(console: Console.standard) == progress)
    let unwritable = GameProgressFile(environment: ["XDG_STATE_HOME": "/proc/ctxsim-no"])
    #expect(unwritable.save(progress)?.hasPrefix("cannot write /proc/ctxsim-no/") == true)
  }

  @Test("Not on a terminal, a level prints its briefing, with the hints its failed tries revealed")
  func briefing() throws {
    let state = try stateDirectory()
    defer { try? FileManager.default.removeItem(atPath: state) }
    try writeProgress(levelsDone, under: state)
    let run = ctxsim("game", "3", environment: ["XDG_STATE_HOME": state])
    #expect(run.status == 0)
    #expect(run.err == "ctxsim: standard output is not a terminal, so here is the briefing.\n")
    #expect(
      run.out.hasPrefix(
        "Level 3 of 6: Make the race happen\nGoal: Reach dataRace at read-thumbnail.\n\n"))
    #expect(run.out.contains("\nHints (2 of 3):\n  - A `sync` on a serial queue"))
    #expect(run.out.hasSuffix("\nPlay it in a terminal: ctxsim game 3\n"))
    #expect(ctxsim("game", "race").out == ctxsim("game", "3").out)
  }

  @Test("Every level passes --check")
  func checkPasses() {
    let run = ctxsim("game", "--check")
    #expect(run.status == 0, "\(run.out)")
    #expect(run.out.hasSuffix("6 levels: 6 passed, 0 failed.\n"))
  }

  @Test("--check fails a level whose goal every schedule meets, or which has no goal")
  func checkFails() {
    let everyRun = """
      ---
      scenario: scenarios/wrong-thread.json
      goal: g
      play: reach wrongQueueContext
      ---
      # Too easy

      ## Hints

      - None needed.

      ## Question

      q

      ## Answer

      a
      """
    let run = ctxsim(
      "game", "--check", "Lessons/Levels/98-easy.md",
      files: [
        "Lessons/Levels/98-easy.md": everyRun,
        "Lessons/Levels/99-none.md": everyRun.replacingOccurrences(
          of: "play: reach wrongQueueContext\n", with: ""),
      ])
    #expect(run.status == 1)
    #expect(
      run.out.contains(
        "every schedule of scenarios/wrong-thread.json meets the goal reach wrongQueueContext"))
    let none = ctxsim(
      "game", "--check", "Lessons/Levels/99-none.md",
      files: [
        "Lessons/Levels/99-none.md": everyRun.replacingOccurrences(
          of: "play: reach wrongQueueContext\n", with: "")
      ])
    #expect(none.status == 1)
    #expect(none.out.contains("Lessons/Levels/99-none.md: error: the level has no goal"))
  }

  @Test("An unknown level, or a missing levels folder, says how to list them")
  func unknown() {
    let run = ctxsim("game", "42")
    #expect(run.status == 66)
    #expect(run.err.contains("no level \"42\" in Lessons/Levels/"))
    let folder = ctxsim("game", "--levels", "nowhere")
    #expect(folder.status == 66)
    #expect(folder.err.hasPrefix("nowhere: error: no levels (NN-name.md) here"))
  }

  @Test("ctxsim lesson lists the lessons only, not the game's levels below them")
  func lessonsWithoutLevels() {
    let run = ctxsim("lesson")
    #expect(run.status == 0)
    #expect(!run.out.contains("Levels/"))
    #expect(!run.out.contains("The object in the cache"))
  }
}
