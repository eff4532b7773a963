import Foundation
import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// Every screen of every lesson in Lessons/, as a class sees it at 80×24.
@Suite("Every lesson at 80x24")
struct EveryLessonScreenTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static var lessons: [String] {
    let folder = root.appendingPathComponent("Lessons").path
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { $0.hasSuffix(".md") && $0.first?.isNumber == true }.sorted()
  }

  @Test("There are lessons to check")
  func found() { #expect(Self.lessons.count >= 15) }

  @Test(
    "Each screen keeps the title on its first line, fits 80 columns, and marks cut narration",
    arguments: lessons)
  func screens(name: String) throws {
    let text = try String(
      contentsOf: Self.root.appendingPathComponent("Lessons/\(name)"), encoding: .utf8)
    let lesson = try LessonParser.parse(text, file: "Lessons/\(name)")
    let json = try Data(contentsOf: Self.root.appendingPathComponent(lesson.scenario))
    let scenario = try ScenarioDecoder.decode(Array(json), file: lesson.scenario)
    var session = LessonSession(lesson: lesson, scenario: scenario)
    let screen = LessonScreen(width: 80, height: 24, style: .init(unicode: true, colour: false))
    for _ in 0...(session.total + 2) {
      let narration = session.narrationNow ?? (session.position == 0 ? lesson.introduction : "")
      let lastWord = narration.split(separator: " ").last.map(String.init) ?? ""
      for pane in LessonScreen.Pane.allCases {
        var view = LessonScreen.View()
        view.pane = pane
        let lines = screen.render(session, view: view)
        let place = "\(name) step \(session.position) \(pane)"
        #expect(lines.count == 24, "\(place)")
        #expect(lines[0].hasPrefix("Lesson: "), "\(place): \(lines[0])")
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(place)")
        let shown = lines.joined(separator: "\n")
        if session.ending == nil && !lastWord.isEmpty {
          #expect(
            shown.contains(lastWord) || shown.contains("j scrolls down"),
            "\(place): the narration is cut without a mark")
        }
      }
      session.next()
    }
  }
}
