import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

private func lesson(_ extra: String, header: String) throws -> Lesson {
  try LessonParser.parse(
    """
    ---
    scenario: scenarios/test.json
    goal: g
    \(header)---
    # T

    ## Question

    q

    ## Answer

    a

    \(extra)
    """, file: "Lessons/Levels/07-t.md")
}

@Suite("Level files")
struct LevelFileTests {
  @Test("A level's number and id come from its file name")
  func numberAndID() throws {
    let level = try Level(
      file: "Lessons/Levels/07-t.md",
      lesson: lesson("## Hints\n\n- h\n", header: "play: survive\n"))
    #expect(level.number == 7)
    #expect(level.id == "07-t")
    #expect(level.goal == .play(.survive))
    #expect(level.instruction == "Get to the end with no violation.")
  }

  @Test("A level needs one goal and hints; each problem is said with its fix")
  func problems() throws {
    func messages(_ lesson: Lesson, file: String = "Lessons/Levels/07-t.md") -> [String] {
      do {
        _ = try Level(file: file, lesson: lesson)
        return []
      } catch {
        return error.errors.map(\.message)
      }
    }
    #expect(
      messages(try lesson("", header: "")) == ["the level has no goal", "the level has no hints"])
    #expect(
      messages(
        try lesson("## Fixes\n\n- a.json: b\n\n## Hints\n\n- h\n", header: "play: survive\n"))
        == ["the level has both play: and ## Fixes"])
    #expect(
      messages(try lesson("## Hints\n\n- h\n", header: "play: survive\n"), file: "L/x.md")
        == ["a level's file name starts with its number"])
  }

  @Test("The briefing says the goal, the briefing, the fixes and the hints revealed")
  func briefing() throws {
    let (level, _, _) = try repositoryLevel("06-prove-the-fix.md")
    let text = LevelBriefing(level: level, levels: 6, failedTries: 1).render()
    #expect(
      text.hasPrefix(
        "Level 6 of 6: Prove the fix\nGoal: Pick the fix that holds in every interleaving.\n\nThis app ships without the flag."
      ))
    #expect(text.contains("The candidate fixes:\n  1. The crash reports point at the save"))
    #expect(text.contains("\nHints (1 of 3):\n  - A fix holds only if"))
    #expect(!text.contains("Hints (2 of 3)"))
    #expect(text.split(separator: "\n").allSatisfy { $0.count <= 80 })
  }
}
