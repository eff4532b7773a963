import Foundation
import Testing

@testable import ctxsim

/// Every lesson in `Lessons/`, by file name without `.md`.
let lessonNames: [String] = {
  let files = (try? FileManager.default.contentsOfDirectory(atPath: packageRoot + "/Lessons")) ?? []
  return files.filter { $0.hasSuffix(".md") && $0.first?.isNumber == true }
    .map { String($0.dropLast(3)) }.sorted()
}()

private let badLesson = """
  ---
  scenario: scenarios/wrong-thread.json
  goal: Find the trap.
  ---
  # A lesson with a typo

  ## Steps

  ### context-from-mian
  The label has a typo.

  ## Question

  Where?

  ## Answer

  Nowhere.
  """

@Suite("ctxsim lesson")
struct LessonCommandTests {
  @Test("Each lesson's transcript is the reviewed one", arguments: lessonNames)
  func transcript(name: String) {
    let run = ctxsim("lesson", "Lessons/\(name).md", "--transcript")
    #expect(run.status == 0)
    #expect(run.err.isEmpty)
    expectSnapshot(run.out, "lessons/\(name).txt")
  }

  @Test("There are at least seventeen lessons, numbered in order")
  func seventeenLessons() {
    #expect(lessonNames.count >= 17)
    let numbers = lessonNames.compactMap { Int($0.prefix { $0.isNumber }) }
    #expect(numbers == Array(1...numbers.count))
  }

  @Test("Every lesson passes --check")
  func checkPasses() {
    let run = ctxsim("lesson", "--check")
    #expect(run.status == 0, "\(run.out)")
    #expect(
      run.out.hasSuffix("\(lessonNames.count) lessons: \(lessonNames.count) passed, 0 failed.\n"))
  }

  @Test("--check fails on a lesson narrating a label its scenario lacks")
  func checkFailsOnUnknownLabel() {
    let run = ctxsim(
      "lesson", "--check", "Lessons/99-typo.md", files: ["Lessons/99-typo.md": badLesson])
    #expect(run.status == 1)
    #expect(
      run.out == """
        FAIL  Lessons/99-typo.md
              Lessons/99-typo.md:9: error: no step of scenarios/wrong-thread.json has the label "context-from-mian"
                fix: did you mean "context-from-main"?

        1 lesson: 0 passed, 1 failed.

        """)
  }

  @Test("--check fails on a lesson citing a section docs/model.md does not have, with its line")
  func checkFailsOnUnknownReference() {
    let lesson = badLesson.replacingOccurrences(of: "context-from-mian", with: "context-from-main")
      .replacingOccurrences(of: "Nowhere.", with: "Nowhere (model §2.1, §99.1).")
    let run = ctxsim(
      "lesson", "--check", "Lessons/99-cite.md", files: ["Lessons/99-cite.md": lesson])
    #expect(run.status == 1)
    #expect(
      run.out.hasPrefix(
        """
        FAIL  Lessons/99-cite.md
              Lessons/99-cite.md:18: error: §99.1 names no numbered heading of docs/model.md

        """))
  }

  @Test("With no lesson, the lessons are listed with their titles")
  func lists() {
    let run = ctxsim("lesson")
    #expect(run.status == 0)
    #expect(
      run.out.hasPrefix(
        "Lessons in Lessons/:\n  01  One queue per context  (scenarios/wrong-thread.json)\n"))
  }

  @Test("A lesson is found by number, and printed as a transcript when not on a terminal")
  func byNumber() {
    let run = ctxsim("lesson", "1")
    #expect(run.status == 0)
    #expect(run.err == "ctxsim: standard output is not a terminal, so here is the transcript.\n")
    #expect(run.out == ctxsim("lesson", "Lessons/01-one-queue-per-context.md", "--transcript").out)
  }

  @Test("An unknown lesson says how to list them, exit 66")
  func unknownLesson() {
    let run = ctxsim("lesson", "42")
    #expect(run.status == 66)
    #expect(
      run.err
        == "ctxsim: error: no lesson \"42\" in Lessons/\n  fix: run `ctxsim lesson` to list them\n")
  }

  @Test("A broken lesson file is invalid input, with its line, exit 65")
  func brokenLesson() {
    let run = ctxsim(
      "lesson", "Lessons/99-x.md", "--transcript", files: ["Lessons/99-x.md": "# no header\n"])
    #expect(run.status == 65)
    #expect(run.err.hasPrefix("Lessons/99-x.md:1: error: the lesson has no header\n"))
  }

  @Test("--transcript without a lesson is a usage error")
  func transcriptNeedsLesson() {
    let run = ctxsim("lesson", "--transcript")
    #expect(run.status == 64)
    #expect(run.err.contains("name a lesson, such as `ctxsim lesson 1`"))
  }
}

@Suite("HTML timelines")
struct TimelineCommandTests {
  private func temporaryPath(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent(
      "ctxsim-\(ProcessInfo.processInfo.processIdentifier)-\(name)"
    ).path
  }

  @Test(
    "run --html writes a self-contained page with the cross-context crash of the photo downloader")
  func photoDownloader() throws {
    let path = temporaryPath("photo.html")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let run = ctxsim("run", "scenarios/photo-downloader.json", "--html", path)
    #expect(run.status == 133)
    #expect(run.err == "wrote \(path)\n")
    let html = String(
      decoding: try #require(FileManager.default.contents(atPath: path)), as: UTF8.self)
    #expect(html.contains("NSInvalidArgumentException"))
    #expect(html.contains("Illegal attempt to establish a relationship"))
    #expect(html.contains("--schedule "))
    for forbidden in ["src=", "href=\"http", "@import", "url(http", "<link"] {
      #expect(!html.contains(forbidden), "found \(forbidden)")
    }
  }

  @Test("lesson --html writes the lesson's timeline")
  func lessonTimeline() throws {
    let path = temporaryPath("lesson.html")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let run = ctxsim("lesson", "1", "--html", path)
    #expect(run.status == 0)
    let html = String(
      decoding: try #require(FileManager.default.contents(atPath: path)), as: UTF8.self)
    #expect(html.contains("<title>One queue per context · ctxsim timeline</title>"))
    #expect(html.contains("__Multithreading_Violation_AllThatIsLeftToUsIsHonor__"))
  }

  @Test("An unwritable --html path is reported, exit 66")
  func unwritable() {
    let run = ctxsim("run", "scenarios/wrong-thread.json", "--html", "/no/such/folder/t.html")
    #expect(run.status == 66)
    #expect(run.err.hasPrefix("/no/such/folder/t.html: error: cannot write the timeline here\n"))
  }
}
