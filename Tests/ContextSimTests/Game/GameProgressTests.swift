import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

@Suite("Game progress")
struct GameProgressTests {
  @Test("Progress is written as JSON and read back the same")
  func roundTrip() throws {
    var progress = GameProgress()
    progress.record("02-b", won: false, failedTries: 3)
    progress.record("01-a", won: true, failedTries: 1)
    #expect(
      progress.json == """
        {
          "version": 1,
          "levels": {
            "01-a": {
              "done": true,
              "failedTries": 1
            },
            "02-b": {
              "done": false,
              "failedTries": 3
            }
          }
        }

        """)
    #expect(try GameProgress(json: Array(progress.json.utf8)) == progress)
  }

  @Test("A win is never taken back, and failed tries never go down")
  func record() {
    var progress = GameProgress()
    progress.record("01-a", won: true, failedTries: 2)
    progress.record("01-a", won: false, failedTries: 0)
    #expect(progress.isDone("01-a"))
    #expect(progress.failedTries("01-a") == 2)
    #expect(!progress.isDone("02-b"))
    #expect(progress.failedTries("02-b") == 0)
  }

  @Test("The next level is the first in order not yet won")
  func next() {
    var progress = GameProgress()
    #expect(progress.next(among: ["01-a", "02-b", "03-c"]) == "01-a")
    progress.record("01-a", won: true, failedTries: 0)
    progress.record("03-c", won: true, failedTries: 0)
    #expect(progress.next(among: ["01-a", "02-b", "03-c"]) == "02-b")
    progress.record("02-b", won: true, failedTries: 0)
    #expect(progress.next(among: ["01-a", "02-b", "03-c"]) == nil)
  }

  @Test(
    "A file that is not progress says what is wrong with it",
    arguments: [
      ("{\"version\": 1, \"levels\": {", "it is not JSON"),
      ("[1, 2]", "it is not a JSON object"),
      ("{\"levels\": {}}", "it has no \"version\""),
      ("{\"version\": 2, \"levels\": {}}", "it is version 2, and this ctxsim reads 1"),
      ("{\"version\": 1, \"levels\": []}", "its \"levels\" is not an object"),
      (
        "{\"version\": 1, \"levels\": {\"01-a\": {\"done\": \"yes\", \"failedTries\": 0}}}",
        "level \"01-a\" needs \"done\""
      ),
      (
        "{\"version\": 1, \"levels\": {\"01-a\": {\"done\": true, \"failedTries\": -1}}}",
        "level \"01-a\" needs \"done\""
      ),
    ])
  func corrupt(text: String, reason: String) {
    do {
      _ = try GameProgress(json: Array(text.utf8))
      Issue.record("read \(text)")
    } catch {
      #expect(error.message.hasPrefix(reason), "\(error.message)")
      #expect(error.file == "progress.json")
    }
  }
}

@Suite("The level list")
struct LevelListTests {
  @Test("Done levels are marked, and the first playable level not done is the next")
  func list() {
    let list = LevelList(
      entries: [
        .init(number: 1, title: "One", goal: "reach deadlock", done: true),
        .init(
          number: 2, title: "Lessons/Levels/02-x.md", goal: "does not load", done: false,
          playable: false),
        .init(number: 3, title: "Three", goal: "survive: no violation to the end", done: false),
        .init(number: 4, title: "Four", goal: "reach dataRace", done: true),
      ], colour: false)
    #expect(
      list.render() == """
        Levels (2 of 4 done):
          [x]  1  One                     reach deadlock
          [ ]  2  Lessons/Levels/02-x.md  does not load
          [ ]  3  Three                   survive: no violation to the end   <- next
          [x]  4  Four                    reach dataRace

        """)
    #expect(list.next?.number == 3)
  }

  @Test("With colour the next level is bold; with every level done there is no next")
  func colourAndDone() {
    let entries = [LevelList.Entry(number: 1, title: "One", goal: "g", done: false)]
    #expect(LevelList(entries: entries, colour: true).render().contains("\u{1B}[1m  [ ]  1"))
    var done = entries
    done[0].done = true
    #expect(LevelList(entries: done, colour: true).next == nil)
    #expect(!LevelList(entries: done, colour: true).render().contains("\u{1B}"))
  }
}
