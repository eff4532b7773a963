import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// A model doc with sections 1, 2 and 2.1 to 2.3, and a heading in fenced code that is not one.
private let modelDoc = """
  # The model

  ## 1. Threads

  ## 2. Contexts

  ### 2.1 Root contexts

  ### 2.2 Children

  ### 2.3 Saving

  ```sh
  # 9. a comment, not a heading
  ```
  """

private let scenarioJSON = """
  {
    "title": "references",
    "model": {"Note": {"attributes": {"title": "string"}}},
    "main": [{"insert": "Note", "into": "viewContext", "label": "insert"}]
  }
  """

/// A lesson whose introduction, narration, question and answer hold the given text.
private func lessonSource(
  introduction: String = "", narration: String = "", question: String = "Why?",
  answer: String = "Because."
) -> String {
  """
  ---
  scenario: scenarios/test.json
  goal: Cite the model.
  ---
  # References

  \(introduction)

  ## Steps

  ### insert
  \(narration)

  ## Question

  \(question)

  ## Answer

  \(answer)
  """
}

private func problems(_ source: String, withSource: Bool = true) throws -> [LessonError] {
  let lesson = try LessonParser.parse(source, file: "Lessons/99-test.md")
  return LessonCheck.problems(
    lesson, scenario: try scenario(scenarioJSON), modelDoc: modelDoc,
    source: withSource ? source : nil)
}

@Suite("References from lessons to docs/model.md")
struct LessonReferencesTests {
  @Test("Numbered headings are the model doc's sections; fenced code is not read")
  func sections() {
    #expect(LessonReferences.sections(inModelDoc: modelDoc) == ["1", "2", "2.1", "2.2", "2.3"])
  }

  @Test("A reference is § and digits and dots, without the sentence's closing dot")
  func references() {
    #expect(
      LessonReferences.references(in: "as a fetch does (model §2.3, §1). See §2.1. A § alone.")
        == ["2.3", "1", "2.1"])
  }

  @Test("References to numbered headings pass, wherever the lesson makes them")
  func goodReferences() throws {
    let source = lessonSource(
      introduction: "Roots save to the store (model §2.1).", narration: "Threads (model §1).",
      question: "See model §2.2.", answer: "Both (model §2, §2.3).")
    #expect(try problems(source).isEmpty)
  }

  @Test("A reference to no heading is a problem on its line, with the sections near it")
  func badReference() throws {
    let source = lessonSource(
      introduction: "Fine (model §2.1).", narration: "Saving one level\n(model §2.7) and §1.",
      answer: "Again §2.7, and §3.")
    #expect(
      try problems(source).map(\.description) == [
        "Lessons/99-test.md:13: error: §2.7 names no numbered heading of docs/model.md\n  fix: section 2 has 2.1 to 2.3: cite one of them, or number a heading 2.7 in docs/model.md",
        "Lessons/99-test.md:21: error: §2.7 names no numbered heading of docs/model.md\n  fix: section 2 has 2.1 to 2.3: cite one of them, or number a heading 2.7 in docs/model.md",
        "Lessons/99-test.md:21: error: §3 names no numbered heading of docs/model.md\n  fix: docs/model.md has sections 1 to 2: cite one of them, or number a heading 3 in docs/model.md",
      ])
  }

  @Test("Without the lesson's text, a narration's reference points at its heading")
  func withoutSource() throws {
    let source = lessonSource(narration: "Saving one level\n(model §2.7).", answer: "§1.1")
    #expect(try problems(source, withSource: false).map(\.line) == [11, nil])
    #expect(
      try problems(source).last?.fix
        == "section 1 has no numbered subsections: cite 1, or number a heading 1.1 in docs/model.md"
    )
  }

  @Test("Without the model doc, references are not checked")
  func noModelDoc() throws {
    let lesson = try LessonParser.parse(
      lessonSource(answer: "§42"), file: "Lessons/99-test.md")
    #expect(LessonCheck.problems(lesson, scenario: try scenario(scenarioJSON)).isEmpty)
  }
}
