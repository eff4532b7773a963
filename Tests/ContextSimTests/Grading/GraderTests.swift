import Foundation
import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// The repository root, found from this file's place in it.
private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
private let exercisesFolder = root + "/Lessons/Exercises"
private let attemptsFolder = root + "/Tests/ContextSimTests/Grading/Attempts"

private func text(_ path: String) throws -> String {
  try String(contentsOfFile: path, encoding: .utf8)
}

/// One exercise as the command loads it: the brief validated against its starting scenario,
/// and its model solution.
private struct Loaded {
  var exercise: GradedExercise
  var start: Scenario
  var solution: Scenario

  init(_ number: Int) throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: exercisesFolder)
    let name = try #require(
      files.first { ExerciseParser.number(of: $0) == number && $0.hasSuffix(".md") })
    let brief = try ExerciseParser.parse(
      try text(exercisesFolder + "/" + name), file: "Lessons/Exercises/" + name)
    start = try scenario(
      try text(exercisesFolder + "/" + brief.scenario), file: "exercise-\(number).json")
    solution = try scenario(
      try text(exercisesFolder + "/" + brief.solution), file: brief.solution)
    exercise = try brief.validated(against: start)
  }

  func grade(_ attempt: Scenario, maxSchedules: Int = defaultScheduleBudget) -> Grade {
    ContextSim.grade(attempt, exercise: exercise, start: start, maxSchedules: maxSchedules)
  }

  /// A wrong attempt kept under Tests/ContextSimTests/Grading/Attempts.
  func attempt(_ name: String) throws -> Scenario {
    try scenario(try text(attemptsFolder + "/" + name + ".json"), file: name + ".json")
  }
}

private let numbers = Array(1...7)

extension Grade {
  /// The criteria that failed, in words.
  fileprivate var failed: [String] {
    results.filter { !$0.passed }.map(\.criterion.description)
  }

  /// The report's lines for a criterion whose description starts with `prefix`.
  fileprivate func report(_ prefix: String) -> GradeReport.Line? {
    GradeReport().lines(self).first { $0.criterion.hasPrefix(prefix) }
  }
}

@Suite("Graded exercises: solutions pass, starting scenarios and wrong attempts fail")
struct GraderTests {
  @Test("There are at least five exercises, numbered from 1 without gaps")
  func exercisesExist() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: exercisesFolder)
    let found = files.compactMap { $0.hasSuffix(".md") ? ExerciseParser.number(of: $0) : nil }
    #expect(found.sorted() == numbers)
  }

  @Test("Each model solution passes: clean and complete in a few schedules", arguments: numbers)
  func solutionPasses(number: Int) throws {
    let loaded = try Loaded(number)
    let grade = loaded.grade(loaded.solution)
    #expect(grade.verdict == .passed, "\(GradeReport().text(grade, colour: false))")
    #expect(grade.exploration.isComplete)
    // Small enough to grade at once: every exercise explores completely in few schedules.
    #expect(grade.exploration.schedulesRun <= 50)
    #expect(grade.results.count == 2 + loaded.exercise.criteria.count)
  }

  @Test(
    "Each starting scenario fails, showing exactly the violations its brief says it fixes",
    arguments: numbers)
  func startFails(number: Int) throws {
    let loaded = try Loaded(number)
    let grade = loaded.grade(loaded.start)
    #expect(grade.verdict == .failed)
    #expect(
      ExerciseCheck.problems(of: loaded.exercise, start: loaded.start, solution: loaded.solution)
        .isEmpty)
    let violations = grade.results[1]
    #expect(violations.passed == loaded.exercise.fixes.isEmpty)
  }

  @Test("The starting scenarios fail the criteria a reader of each brief would expect")
  func startingCriteria() throws {
    #expect(try Loaded(1).grade(Loaded(1).start).failed == ["no rule is broken, in any schedule"])
    #expect(
      try Loaded(4).grade(Loaded(4).start).failed == [
        "viewContext sees 1 Note where title = \"Final\" (a fetch in viewContext at the end)"
      ])
    #expect(
      try Loaded(5).grade(Loaded(5).start).failed == [
        "no rule is broken, in any schedule",
        "the store ends with 1 Note row where title = \"Shopping\" and body = \"milk, eggs\"",
      ])
  }

  /// A wrong attempt, the criteria it must fail, and a phrase its evidence must contain.
  struct WrongAttempt: Sendable, CustomStringConvertible {
    var name: String
    var failed: [String]
    var evidence: String
    var description: String { name }
  }

  static let wrongAttempts: [WrongAttempt] = [
    WrongAttempt(
      name: "01-perform-half",
      failed: [
        "no rule is broken", "the store ends with 2 Note rows",
        "the store ends with 1 Note row where title = \"Milk\"",
        "the store ends with 1 Note row where title = \"Eggs\"", "viewContext sees 2 Note",
      ],
      evidence: "wrongQueueContext at main[0].async.do[1] \"save-import\""),
    WrongAttempt(
      name: "01-save-deleted",
      failed: [
        "the store ends with 2 Note rows",
        "the store ends with 1 Note row where title = \"Milk\"",
        "the store ends with 1 Note row where title = \"Eggs\"", "viewContext sees 2 Note",
      ],
      evidence: "the store ends with 0 Note rows; the exercise needs 2"),
    WrongAttempt(
      name: "01-store-seeded", failed: ["the model, the store at launch"],
      evidence: "the store at launch holds other Note rows than the exercise's"),
    WrongAttempt(
      name: "01-flag-off", failed: ["the model, the store at launch", "no rule is broken"],
      evidence: "the attempt sets \"concurrencyDebug\": false"),
    WrongAttempt(
      name: "02-relationship-dropped",
      failed: [
        "the store ends with 2 Photo rows where album = album-1",
        "viewContext sees 2 Photo where album = album-1",
      ],
      evidence: "the store's Photo rows: Photo/p1 album = null; Photo/p2 album = null"),
    WrongAttempt(
      name: "02-looked-up-in-viewcontext",
      failed: [
        "no rule is broken", "the store ends with 2 Photo rows where album = album-1",
        "viewContext sees 2 Photo where album = album-1",
      ],
      evidence: "wrongQueueContext at main[2].perform.do[0] \"look-up-album\""),
    WrongAttempt(
      name: "03-error-caught",
      failed: [
        "the store ends with 1 Note row where title = \"Imported\" and isRead = true",
        "viewContext sees 1 Note where title = \"Imported\" and isRead = true",
      ],
      evidence: "the store's Note row: Note/p1 title = \"Imported\", isRead = false"),
    WrongAttempt(
      name: "03-permanent-id-unsaved",
      failed: [
        "no rule is broken",
        "the store ends with 1 Note row where title = \"Imported\" and isRead = true",
        "viewContext sees 1 Note where title = \"Imported\" and isRead = true",
      ],
      evidence: "uncaughtError at main[0].perform.do[3].async.do[0] \"open-on-main\""),
    WrongAttempt(
      name: "03-object-with",
      failed: [
        "no rule is broken",
        "the store ends with 1 Note row where title = \"Imported\" and isRead = true",
        "viewContext sees 1 Note where title = \"Imported\" and isRead = true",
      ],
      evidence: "faultOnDeletedObject at main[0].perform.do[2].async.do[1] \"mark-read\""),
    WrongAttempt(
      name: "04-refresh-too-early", failed: ["viewContext sees 1 Note where title = \"Final\""],
      evidence: "viewContext's Note row: note-1 title = \"Draft\""),
    WrongAttempt(
      name: "04-merges-into-importer",
      failed: ["viewContext sees 1 Note where title = \"Final\""],
      evidence: "a fetch of Note in viewContext at the end finds 0 where title = \"Final\""),
    WrongAttempt(
      name: "04-merge-on-posting-thread", failed: ["no rule is broken"],
      evidence: "wrongQueueContext at main[0].observe.do[0] \"merge-on-poster\""),
    WrongAttempt(
      name: "05-overwrite-policy",
      failed: [
        "the store ends with 1 Note row where title = \"Shopping\" and body = \"milk, eggs\""
      ],
      evidence: "note-1 title = \"Shopping\", body = \"milk\""),
    WrongAttempt(
      name: "05-rollback-policy",
      failed: [
        "the store ends with 1 Note row where title = \"Shopping\" and body = \"milk, eggs\""
      ],
      evidence: "note-1 title = \"Groceries\", body = \"milk, eggs\""),
    WrongAttempt(
      name: "05-save-error-caught",
      failed: [
        "the store ends with 1 Note row where title = \"Shopping\" and body = \"milk, eggs\""
      ],
      evidence: "the store ends with 0 Note rows where title = \"Shopping\""),
    WrongAttempt(
      name: "06-temporary-id",
      failed: [
        "no rule is broken",
        "the store ends with 1 Album row where title = \"Holiday\" and isSynced = true",
      ],
      evidence: "objectNotFound at main[4].perform.do[0] \"look-up-by-id\""),
    WrongAttempt(
      name: "06-object-used-directly",
      failed: [
        "no rule is broken",
        "the store ends with 1 Album row where title = \"Holiday\" and isSynced = true",
      ],
      evidence: "wrongQueueObject at main[3].perform.do[0] \"mark-synced\""),
    WrongAttempt(
      name: "07-no-merge",
      failed: ["viewContext sees 1 Album where title = \"Holiday\" and photos.count = 2"],
      evidence: "viewContext's Album row: album-1 title = \"Holiday\", photos.count = 0"),
    WrongAttempt(
      name: "07-save-outside-perform",
      failed: [
        "no rule is broken", "the store ends with 2 Photo rows where album = album-1",
        "the store ends with 1 Photo row where remoteURL = \"https://example.com/1.jpg\"",
        "the store ends with 1 Photo row where remoteURL = \"https://example.com/2.jpg\"",
        "viewContext sees 1 Album",
      ],
      evidence: "wrongQueueContext at main[3].forEach.do[0].async.do[2] \"save-photo\""),
  ]

  @Test(
    "Each wrong attempt fails the criteria it should, with evidence, a replay and the brief's hint",
    arguments: wrongAttempts)
  func wrongAttempt(_ wrong: WrongAttempt) throws {
    let loaded = try Loaded(Int(wrong.name.prefix(2))!)
    let grade = loaded.grade(try loaded.attempt(wrong.name))
    #expect(grade.verdict == .failed)
    #expect(grade.failed.count == wrong.failed.count, "\(grade.failed)")
    for (failed, expected) in zip(grade.failed, wrong.failed) {
      #expect(failed.hasPrefix(expected), "\(failed)")
    }
    let lines = GradeReport(advice: .plain).lines(grade).filter { !$0.passed }
    #expect(lines.contains { $0.evidence.contains { $0.contains(wrong.evidence) } }, "\(lines)")
    for line in lines {
      #expect(
        line.evidence.contains { $0.contains("schedule ") } || line.criterion.hasPrefix("the model")
      )
      #expect(!line.hints.isEmpty)
    }
  }

  @Test("The wrong attempts cover every exercise")
  func everyExerciseHasWrongAttempts() {
    let covered = Set(Self.wrongAttempts.map { Int($0.name.prefix(2))! })
    #expect(covered == Set(numbers))
  }

  @Test("A hint comes from the brief where it has one for the failure, else ctxsim's own")
  func hints() throws {
    let loaded = try Loaded(1)
    let perform = loaded.grade(try loaded.attempt("01-perform-half"))
    #expect(
      perform.report("no rule is broken")?.hints == [loaded.exercise.hint("wrongQueueContext")!])
    let flag = loaded.grade(try loaded.attempt("01-flag-off"))
    #expect(flag.report("the model")?.hints == [GradingHints.generic("setup")])
  }

  @Test("A fix that does the work in only some schedules fails, naming one that shows it")
  func someSchedules() throws {
    let loaded = try Loaded(4)
    let grade = loaded.grade(try loaded.attempt("04-refresh-too-early"))
    guard case .rows(let evidence)? = grade.results.last?.failure else {
      Issue.record("the viewContext criterion did not fail: \(grade.failed)")
      return
    }
    // Four classes: the two fetches' order on the store's lock counts as well.
    #expect(evidence.schedules == 3)
    #expect(grade.exploration.schedulesRun == 4)
    #expect(evidence.matching == 0)
    let line = try #require(grade.report("viewContext sees"))
    #expect(line.evidence.last == "  in 3 of 4 schedules; replay: schedule \(evidence.replay)")
    // Replaying the schedule shows the stale screen; one schedule is fine.
    var options = SimulationOptions(loaded.start)
    options.capturesEndState = true
    var replay = ReplayScheduler(evidence.replay)
    let stale = simulate(
      try loaded.attempt("04-refresh-too-early"), options: options, scheduler: &replay)
    #expect(stale.endState?.viewContext["Note"]?.first?.values["title"] == .string("Draft"))
  }

  @Test("Removing the work removes the violation too, and fails the rows criteria")
  func removingTheWork() throws {
    let loaded = try Loaded(1)
    let grade = loaded.grade(try loaded.attempt("01-save-deleted"))
    #expect(grade.results[1].passed)
    #expect(
      grade.report("the store ends with 2 Note rows")?.evidence.first
        == "the store ends with 0 Note rows; the exercise needs 2")
    #expect(
      grade.report("viewContext sees 2 Note")?.evidence.first
        == "viewContext never sees them: a fetch of Note in viewContext at the end finds 0; "
        + "the exercise needs 2")
  }

  @Test("The attempt's own expect is ignored: declaring the bug expected does not pass")
  func ownExpectIgnored() throws {
    let loaded = try Loaded(1)
    let declared = try text(exercisesFolder + "/exercise-01-one-queue.json")
      .replacingOccurrences(
        of: #""expect": { "violations": [] }"#,
        with: #""expect": { "violations": [{ "kind": "wrongQueueContext" }] }"#)
    let attempt = try scenario(declared)
    #expect(check(attempt).passed)
    #expect(loaded.grade(attempt).verdict == .failed)
  }

  @Test("A search cut short is never a pass: the grade is incomplete")
  func incomplete() throws {
    let loaded = try Loaded(7)
    let grade = loaded.grade(loaded.solution, maxSchedules: 3)
    #expect(grade.verdict == .incomplete(.maxSchedules(3)))
    #expect(!grade.passed)
    #expect(
      GradeReport().notes(grade) == [
        "not graded: no criterion failed, but the search did not cover every interleaving, so "
          + "the attempt is not proven; stopped by the budget of 3 schedules"
      ])
    // Failures a partial search found are real: the attempt fails.
    #expect(loaded.grade(loaded.start, maxSchedules: 1).verdict == .failed)
  }

  @Test("A run limit that cuts a schedule short leaves the attempt ungraded, with the replay")
  func limited() throws {
    let loaded = try Loaded(1)
    var options = SimulationOptions(loaded.start)
    options.maximumSteps = 3
    let grade = ContextSim.grade(
      loaded.solution, exercise: loaded.exercise, start: loaded.start, options: options)
    guard case .limited(.steps(3)) = grade.verdict, let replay = grade.replay else {
      Issue.record("not limited: \(grade.verdict)")
      return
    }
    #expect(replay.threads.count == 3)
  }

  @Test("A criterion counts exactly, and compares numbers by value")
  func criterionCounts() throws {
    let id = ObjectID(entity: "Note", kind: .permanent(1))
    let state = EndState(
      store: [
        "Note": [
          .init(id: id, values: ["rank": .integer(2)]),
          .init(id: ObjectID(entity: "Note", kind: .permanent(2)), values: ["rank": .double(2)]),
        ]
      ], viewContext: [:])
    let condition = RowsCriterion.Condition(
      key: "rank", test: .equals(.double(2)), text: "rank = 2.0",
      location: SourceLocation(line: 1, column: 1))
    var criterion = RowsCriterion(
      place: .store, count: 2, entity: "Note", conditions: [condition],
      location: SourceLocation(line: 1, column: 1))
    #expect(criterion.holds(in: state))
    criterion.count = 1
    #expect(!criterion.holds(in: state))
    criterion.place = .viewContext
    criterion.count = 0
    #expect(criterion.holds(in: state))
  }
}
