import ContextSim
import Foundation
import Testing

@testable import ctxsim

/// A fresh empty folder for files the command writes.
private func temporaryFolder() throws -> String {
  let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("ctxsim-exercise-\(UUID().uuidString)").path
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}

private func contents(_ path: String) -> String? {
  FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
}

private let attempts = "Tests/ContextSimTests/Grading/Attempts/"
private let firstStart = "Lessons/Exercises/exercise-01-one-queue.json"
private let firstSolution = "Lessons/Exercises/Solutions/exercise-01-one-queue.json"

@Suite("ctxsim exercise")
struct ExerciseCommandTests {
  @Test("With no exercise, lists them by number and title, with the violations each fixes")
  func list() {
    let run = ctxsim("exercise")
    #expect(run.status == 0)
    #expect(
      run.out.hasPrefix(
        "Exercises in Lessons/Exercises/:\n  1  An import off the main thread  (wrongQueueContext)\n"
      ))
    #expect(run.out.contains("\n  4  The list that never updates\n"))
    #expect(run.out.split(separator: "\n").filter { $0.hasPrefix("  ") }.count == 7)
    #expect(run.err.isEmpty)
    #expect(ctxsim("exercises").out == run.out)
  }

  @Test("An exercise prints its brief and how it is graded, and writes the starting scenario")
  func brief() throws {
    let folder = try temporaryFolder()
    let path = folder + "/attempt.json"
    let run = ctxsim("exercise", "1", "--to", path)
    #expect(run.status == 0)
    #expect(run.out.hasPrefix("Exercise 1: An import off the main thread\n\nThe app imports"))
    #expect(run.out.contains("## What is broken\n"))
    #expect(!run.out.contains("## Hints"), "hints are for failed grades, not the brief")
    #expect(!run.out.contains("Solutions/"), "the brief never points at the solution")
    #expect(
      run.out.contains(
        """
        ## How it is graded

            ctxsim exercise 1 --grade \(path)

        explores every interleaving of your attempt, and passes it when, in every schedule:

        - no rule is broken (the starting scenario shows wrongQueueContext)
        - the store ends with 2 Note rows
        - the store ends with 1 Note row where title = "Milk"
        """))
    #expect(run.out.hasSuffix("Edit it, then grade it:\n    ctxsim exercise 1 --grade \(path)\n"))
    #expect(contents(path) == contents(packageRoot + "/" + firstStart))
  }

  @Test("An existing file is never overwritten without --force")
  func noOverwrite() throws {
    let folder = try temporaryFolder()
    let path = folder + "/exercise-1.json"
    _ = FileManager.default.createFile(atPath: path, contents: Data("my work".utf8))
    let kept = ctxsim("exercise", "1", "--to", path)
    #expect(kept.status == 0)
    #expect(contents(path) == "my work")
    #expect(
      kept.out.contains("\(path) is already here, so it was left as it is (--force starts again)"))
    let forced = ctxsim("exercise", "1", "--to", path, "--force")
    #expect(forced.status == 0)
    #expect(contents(path) == contents(packageRoot + "/" + firstStart))
  }

  @Test("A starting scenario that cannot be written says why, and exits 66")
  func cannotWrite() {
    let run = ctxsim("exercise", "2", "--to", "/nonexistent-folder/exercise-2.json")
    #expect(run.status == 66)
    #expect(
      run.err.hasPrefix(
        "/nonexistent-folder/exercise-2.json: error: cannot write the starting scenario here\n"))
  }

  @Test("The model solution passes: PASS, every criterion ok, exit 0")
  func gradePass() {
    let run = ctxsim("exercise", "1", "--grade", firstSolution)
    #expect(run.status == 0)
    #expect(
      run.out.hasPrefix(
        "PASS  exercise 1, An import off the main thread: \(firstSolution) (dpor: 1 schedule, all of them)\n"
      ))
    #expect(!run.out.contains("FAIL"))
    #expect(run.out.hasSuffix("Compare with the model solution: `ctxsim exercise 1 --solution`.\n"))
  }

  @Test("--color always colours the verdict and each criterion's word; never leaves them plain")
  func colour() {
    let coloured = ctxsim("exercise", "1", "--grade", firstSolution, "--color", "always")
    #expect(coloured.out.hasPrefix("\u{1B}[1;32mPASS\u{1B}[0m  exercise 1"))
    #expect(coloured.out.contains("\n  \u{1B}[1;32mok\u{1B}[0m    no rule is broken"))
    let plain = ctxsim("exercise", "1", "--grade", firstStart, "--color", "never", terminal: true)
    #expect(!plain.out.contains("\u{1B}["))
  }

  @Test("The starting scenario fails: each failed criterion with evidence, replay and hint, exit 1")
  func gradeFail() {
    let run = ctxsim("exercise", "1", "--grade", firstStart)
    #expect(run.status == 1)
    expectSnapshot(run.out, "exercise-1-start.txt")
  }

  @Test("A fix that deletes the save fails on the rows, with the count and a hint")
  func gradeWorkRemoved() {
    let run = ctxsim("exercise", "1", "--grade", attempts + "01-save-deleted.json")
    #expect(run.status == 1)
    #expect(run.out.contains("  ok    no rule is broken, in any schedule\n"))
    #expect(
      run.out.contains(
        """
          FAIL  the store ends with 2 Note rows
                the store ends with 0 Note rows; the exercise needs 2
                  in every schedule; replay: ctxsim run \(attempts)01-save-deleted.json --schedule
        """))
    #expect(run.out.contains("hint: Both notes must reach the store"))
    #expect(run.out.hasSuffix("4 of 6 criteria failed.\nFix the attempt, and grade it again.\n"))
  }

  @Test("A fix that works in some schedules only fails, with a schedule that replays it")
  func gradeSomeSchedules() {
    let file = attempts + "04-refresh-too-early.json"
    let run = ctxsim("exercise", "4", "--grade", file)
    #expect(run.status == 1)
    #expect(run.out.contains("in 3 of 4 schedules; replay: ctxsim run \(file) --schedule 0x5,1x3"))
    // The replay shows the refresh before the import's save: the screen reads Draft again.
    let replay = ctxsim("run", file, "--schedule", "0x5,1x3")
    #expect(replay.status == 0)
    #expect(replay.out.contains("read note-1.title: \"Draft\"\n  6  importer"))
  }

  @Test("--format json is one document with each criterion, its evidence and hints")
  func gradeJSON() throws {
    let run = ctxsim(
      "exercise", "4", "--grade", attempts + "04-merges-into-importer.json", "--format", "json")
    #expect(run.status == 1)
    let document = try JSONReader.read(Array(run.out.utf8))
    #expect(document["result"]?.kind == .string("fail"))
    #expect(document["exercise"]?.kind == .integer(4))
    #expect(document["complete"]?.kind == .bool(true))
    let criteria = try #require(document["criteria"]?.elements)
    #expect(criteria.count == 4)
    let screen = criteria[3]
    #expect(screen["passed"]?.kind == .bool(false))
    #expect(
      screen["evidence"]?.elements?.first?.kind
        == .string(
          "viewContext never sees them: a fetch of Note in viewContext at the end finds 0 "
            + "where title = \"Final\"; the exercise needs 1"))
    #expect(screen["hints"]?.elements?.count == 1)
  }

  @Test("A search cut short grades nothing: INCOMPLETE, exit 75, never PASS")
  func gradeIncomplete() {
    let run = ctxsim(
      "exercise", "7", "--grade", "Lessons/Exercises/Solutions/exercise-07-photo-downloads.json",
      "--max-schedules", "2")
    #expect(run.status == 75)
    #expect(run.out.hasPrefix("INCOMPLETE  exercise 7"))
    #expect(run.out.contains("stopped by the budget of 2 schedules (--max-schedules raises it)"))
  }

  @Test("A run limit grades nothing: LIMIT with the replay, exit 75")
  func gradeLimit() {
    let run = ctxsim("exercise", "1", "--grade", firstSolution, "--max-steps", "3")
    #expect(run.status == 75)
    #expect(run.out.hasPrefix("LIMIT  exercise 1"))
    #expect(run.out.contains("replay: ctxsim run \(firstSolution) --schedule"))
  }

  @Test("An attempt that does not parse gets the usual located error, exit 65; a missing one 66")
  func badAttempt() {
    let broken = ctxsim(
      "exercise", "1", "--grade", "mine.json",
      files: ["mine.json": #"{"title": "t", "main": [{"perfom": "importer", "do": []}]}"#])
    #expect(broken.status == 65)
    #expect(broken.err.hasPrefix("mine.json:1:26: error: unknown verb \"perfom\""))
    #expect(broken.out.isEmpty)
    let missing = ctxsim("exercise", "1", "--grade", "nope.json")
    #expect(missing.status == 66)
    #expect(missing.err.hasPrefix("nope.json: error: no such file"))
  }

  @Test("--solution prints the model solution on stdout and says so on stderr")
  func solution() {
    let run = ctxsim("exercise", "1", "--solution")
    #expect(run.status == 0)
    #expect(run.out == contents(packageRoot + "/" + firstSolution))
    #expect(
      run.err.hasPrefix(
        "The model solution of exercise 1, Lessons/Exercises/Solutions/exercise-01-one-queue.json, "
          + "shown because --solution asked for it."))
  }

  @Test("--check passes every exercise: the solutions pass, the starting scenarios fail")
  func check() {
    let run = ctxsim("exercise", "--check")
    #expect(run.status == 0, "\(run.out)")
    #expect(run.out.hasSuffix("7 exercises: 7 passed, 0 failed.\n"))
  }

  @Test("A brief with a mistake is reported at its place, exit 65, and fails --check")
  func badBrief() {
    let brief = """
      ---
      title: Broken
      scenario: exercise-01-one-queue.json
      solution: Solutions/exercise-01-one-queue.json
      store: 2 Nte
      ---
      # Broken
      """
    let path = "Lessons/Exercises/exercise-99-broken.md"
    let run = ctxsim("exercise", path, files: [path: brief])
    #expect(run.status == 65)
    #expect(
      run.err
        == "\(path):5:8: error: the starting scenario has no entity \"Nte\"\n  fix: did you mean \"Note\"?\n"
    )
    let check = ctxsim("exercise", "--check", path, files: [path: brief])
    #expect(check.status == 1)
    #expect(check.out.hasPrefix("FAIL  \(path)\n      \(path):5:8: error:"))
  }

  @Test("An unknown exercise exits 66 and says how to list them")
  func unknownExercise() {
    let run = ctxsim("exercise", "42")
    #expect(run.status == 66)
    #expect(
      run.err
        == "ctxsim: error: no exercise \"42\" in Lessons/Exercises/\n  fix: run `ctxsim exercise` to list them\n"
    )
  }

  @Test(
    "Options that do not go together are usage errors, exit 64",
    arguments: [
      (
        ["exercise", "--grade", "a.json"],
        "name an exercise, such as `ctxsim exercise 1`; `ctxsim exercise` lists them"
      ),
      (
        ["exercise", "1", "--grade", "a.json", "--solution"],
        "use one of `--grade`, `--solution` and `--check`"
      ),
      (
        ["exercise", "1", "--solution", "--to", "x.json"],
        "`--to` and `--force` go with starting an exercise: `ctxsim exercise 1 --to FILE`"
      ),
      (["exercise", "1", "--format", "json"], "`--format json` goes with `--grade`"),
      (["exercise", "1", "2"], "`ctxsim exercise` takes one exercise at a time"),
    ])
  func usage(words: [String], message: String) {
    let run = ctxsim(arguments: words)
    #expect(run.status == 64)
    #expect(run.err == "ctxsim: error: \(message)\nRun `ctxsim exercise --help` for its options.\n")
  }
}
