import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// A level-shaped lesson: the sections every lesson has, with `extra` sections after them.
private func levelText(_ extra: String, header: String = "play: reach dataRace\n") -> String {
  """
  ---
  scenario: scenarios/test.json
  goal: Find the race.
  \(header)---
  # A level

  The briefing.

  ## Question

  Where?

  ## Answer

  There.

  \(extra)
  """
}

@Suite("Hints and fixes in lesson files")
struct LessonHintsAndFixesTests {
  @Test("## Hints gives one hint per list item, continuation lines joined, in order")
  func hints() throws {
    let parsed = try LessonParser.parse(
      levelText(
        """
        ## Hints

        - Look at the queue
          the screen waits on.
        - Run the screen first.
        1. Then the downloader.
        """), file: "Lessons/Levels/01-a.md")
    #expect(
      parsed.hints == [
        "Look at the queue the screen waits on.", "Run the screen first.", "Then the downloader.",
      ])
    #expect(parsed.answer == "There.")
    #expect(parsed.fixes.isEmpty)
  }

  @Test("## Fixes gives each candidate's scenario and what it changes, with its line")
  func fixes() throws {
    let parsed = try LessonParser.parse(
      levelText(
        """
        ## Fixes

        - `scenarios/a-fixed.json`: Write on the queue,
          then read on it.
        - scenarios/b.json: Wait longer.
        """, header: ""), file: "Lessons/Levels/06-b.md")
    #expect(
      parsed.fixes == [
        Lesson.Fix(
          scenario: "scenarios/a-fixed.json", description: "Write on the queue, then read on it.",
          line: 19),
        Lesson.Fix(scenario: "scenarios/b.json", description: "Wait longer.", line: 21),
      ])
  }

  @Test("A lesson without the new sections parses as before: no hints, no fixes")
  func lessonsUnchanged() throws {
    let parsed = try LessonParser.parse(levelText(""), file: "Lessons/01-a.md")
    #expect(parsed.hints.isEmpty)
    #expect(parsed.fixes.isEmpty)
    #expect(parsed.introduction == "The briefing.")
  }

  @Test("Text that is no list item, and a fix without a scenario, are located errors")
  func errors() {
    let text = levelText(
      """
      ## Hints

      Not a list item.

      ## Fixes

      - Move the write: onto the queue
      - `scenarios/c.json`
      """)
    #expect(throws: LessonErrorList.self) { try LessonParser.parse(text, file: "L.md") }
    do {
      _ = try LessonParser.parse(text, file: "L.md")
    } catch {
      #expect(
        error.errors.map(\.description) == [
          "L.md:20: error: text under ## Hints that is not a list item\n"
            + "  fix: write each entry as a list item: - and its text",
          "L.md:24: error: \"Move the write\" is not a scenario file\n"
            + "  fix: start the item with the candidate's scenario: - `scenarios/name-fixed.json`: …",
          "L.md:25: error: a fix needs its scenario and what it changes\n"
            + "  fix: write - `scenarios/name-fixed.json`: what the fix changes",
        ])
    }
  }

  @Test("A misspelt section suggests Hints")
  func nearSection() {
    do {
      _ = try LessonParser.parse(levelText("## Hint\n\n- one\n"), file: "L.md")
      Issue.record("a misspelt section parsed")
    } catch {
      #expect(error.errors.first?.description.contains("did you mean \"## Hints\"?") == true)
    }
  }
}
