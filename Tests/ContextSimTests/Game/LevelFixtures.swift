import Foundation
import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// The repository's root, found from this file's place in it.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// The level files in `Lessons/Levels/`, by file name, in order.
let levelFiles: [String] = {
  let folder = repositoryRoot + "/Lessons/Levels"
  let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
  return files.filter { $0.hasSuffix(".md") && $0.first?.isNumber == true }.sorted()
}()

/// A scenario of the repository, by its path from the root (`scenarios/name.json`).
func scenarioAt(_ path: String) throws -> Scenario {
  let data = try Data(contentsOf: URL(fileURLWithPath: repositoryRoot + "/" + path))
  return try ScenarioDecoder.decode(Array(data), file: path).named(path)
}

/// A level of `Lessons/Levels/` with its scenario and its fixes' scenarios.
func repositoryLevel(_ name: String) throws -> (Level, Scenario, [Scenario]) {
  let file = "Lessons/Levels/" + name
  let data = try Data(contentsOf: URL(fileURLWithPath: repositoryRoot + "/" + file))
  let lesson = try LessonParser.parse(String(decoding: data, as: UTF8.self), file: file)
  let level = try Level(file: file, lesson: lesson)
  return (
    level, try scenarioAt(lesson.scenario),
    try lesson.fixes.map { try scenarioAt($0.scenario) }
  )
}

/// A schedule of the scenario whose run meets the goal, found by exploring it.
func winningSchedule(_ goal: PlayGoal, _ lesson: Lesson, _ scenario: Scenario) -> Schedule? {
  let e = explore(
    scenario, strategy: .dpor(preemptionBound: nil),
    options: LessonCheck.options(lesson, scenario), maxSchedules: 2000)
  return e.outcomes.first { goal.isMet(by: $0.example, ended: true) }?.shortest
}

/// A schedule of the scenario whose run does not meet the goal.
func losingSchedule(_ goal: PlayGoal, _ lesson: Lesson, _ scenario: Scenario) -> Schedule? {
  let e = explore(
    scenario, strategy: .dpor(preemptionBound: nil),
    options: LessonCheck.options(lesson, scenario), maxSchedules: 2000)
  return e.outcomes.first { !goal.isMet(by: $0.example, ended: true) }?.shortest
}

extension GameSession {
  /// Plays `schedule` as a learner would: the thread it names at every real choice, `n`
  /// where there is none, until the level is won or lost or the schedule ends.
  mutating func play(_ schedule: Schedule) {
    if case .briefing = state { start() }
    while case .playing = state, let run, !hasLost, run.position < schedule.threads.count {
      let before = run.position
      if run.needsChoice {
        choose(schedule.threads[run.position])
      } else {
        next()
      }
      if case .playing = state, self.run?.position == before { return }
    }
  }
}

/// Records a failed expectation, for a `guard … else { return failure("…") }`.
func failure(_ message: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
  Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
}
