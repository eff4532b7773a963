import ContextSim
import Foundation

/// `ctxsim exercise`: lists the exercises, starts one (its brief, and its scenario written
/// to a file to edit), grades an attempt, shows the model solution, or checks them all.
struct ExerciseCommand {
  var options: ExerciseOptions
  var console: Console

  func execute() -> Int32 {
    let numbered = NumberedFiles(folder: options.directory, prefix: "exercise-")
    let files = numbered.list(console)
    if options.mode == .check {
      return check(
        options.exercise.map { [numbered.resolve($0, in: files)].compactMap { $0 } } ?? files)
    }
    guard !files.isEmpty || options.exercise?.hasSuffix(".md") == true else {
      console.writeError(
        numbered.noneHere("exercises (exercise-NN-name.md)", option: "--exercises"))
      return ExitStatus.noInput
    }
    guard let name = options.exercise else { return list(files) }
    guard let file = numbered.resolve(name, in: files) else {
      console.writeError(
        "ctxsim: error: no exercise \"\(name)\" in \(options.directory)/\n"
          + "  fix: run `ctxsim exercise` to list them\n")
      return ExitStatus.noInput
    }
    let loaded: (GradedExercise, Scenario)
    switch load(file) {
    case .success(let pair): loaded = pair
    case .failure(let failure):
      console.writeError(failure.message + "\n")
      return failure.status
    }
    let (exercise, start) = loaded
    switch options.mode {
    case .brief: return brief(exercise, start, file: file)
    case .grade(let attempt): return grade(attempt, exercise, start, file: file)
    case .solution: return solution(exercise, file: file)
    case .check: return check([file])
    }
  }

  // MARK: Finding and loading exercises

  /// The folder a brief's scenario paths start from: its own.
  private func folder(of file: String) -> String { TeachingFile.folder(of: file, up: 1) }

  /// A brief, checked against its starting scenario.
  func load(_ file: String) -> Result<(GradedExercise, Scenario), LoadFailure> {
    let teaching = TeachingFile(console: console, path: file, what: "the exercise's brief")
    let exercise: GradedExercise
    switch teaching.parsed({ try ExerciseParser.parse($0, file: file) }) {
    case .success(let parsed): exercise = parsed
    case .failure(let failure): return .failure(failure)
    }
    switch teaching.scenario(exercise.scenario, from: folder(of: file), renamed: false) {
    case .success(let start):
      do {
        return .success((try exercise.validated(against: start), start))
      } catch {
        return .failure(LoadFailure(message: error.description, status: ExitStatus.invalidInput))
      }
    case .failure(let failure): return .failure(failure)
    }
  }

  /// What `ctxsim exercise N` calls the exercise: its number, else its brief's path.
  private func name(_ exercise: GradedExercise) -> String {
    exercise.number.map(String.init) ?? exercise.file
  }

  // MARK: Listing

  private func list(_ files: [String]) -> Int32 {
    console.write("Exercises in \(options.directory)/:\n")
    for file in files {
      let number = ExerciseParser.number(of: file).map(String.init) ?? "?"
      switch load(file) {
      case .success((let exercise, _)):
        let fixes = exercise.fixes.map(\.rawValue).joined(separator: ", ")
        console.write(
          "  \(number)  \(exercise.title)" + (fixes.isEmpty ? "\n" : "  (\(fixes))\n"))
      case .failure:
        console.write(
          "  \(number)  \(file)  (does not load; run ctxsim exercise --check)\n")
      }
    }
    console.write(
      "\nStart one with `ctxsim exercise 1`; grade your attempt with "
        + "`ctxsim exercise 1 --grade exercise-1.json`.\n")
    return ExitStatus.success
  }

  // MARK: Starting an exercise

  /// Prints the brief and how it is graded, and writes the starting scenario to edit.
  private func brief(_ exercise: GradedExercise, _ start: Scenario, file: String) -> Int32 {
    let attempt = options.to ?? "exercise-\(name(exercise)).json"
    var out = "Exercise \(name(exercise)): \(exercise.title)\n\n"
    let body = exercise.brief.split(separator: "\n", omittingEmptySubsequences: false)
    out += body.drop { $0.hasPrefix("# ") || $0.isEmpty }.joined(separator: "\n") + "\n\n"
    out += "## How it is graded\n\n"
    out += "    ctxsim exercise \(name(exercise)) --grade \(attempt)\n\n"
    out += "explores every interleaving of your attempt, and passes it when, in every schedule:\n\n"
    let fixes = exercise.fixes.map(\.rawValue).joined(separator: ", ")
    out +=
      "- no rule is broken" + (fixes.isEmpty ? "" : " (the starting scenario shows \(fixes))")
      + "\n"
    for criterion in exercise.criteria { out += "- \(criterion)\n" }
    out +=
      "\nThe model, the store at launch and ConcurrencyDebug must stay as the exercise gives\n"
      + "them: the rows must come from the app's work.\n"
    console.write(out)
    return write(exercise, from: file, to: attempt)
  }

  /// Writes the starting scenario's text, never over an existing file without `--force`.
  private func write(_ exercise: GradedExercise, from file: String, to path: String) -> Int32 {
    let source = folder(of: file) + "/" + exercise.scenario
    guard case .contents(let bytes) = console.readFile(source) else {
      console.writeError("\(source): error: the starting scenario cannot be read\n")
      return ExitStatus.noInput
    }
    let grade = "ctxsim exercise \(name(exercise)) --grade \(path)"
    if FileManager.default.fileExists(atPath: path) && !options.force {
      console.write(
        "\n\(path) is already here, so it was left as it is (--force starts again). "
          + "Grade it:\n    \(grade)\n")
      return ExitStatus.success
    }
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
      console.writeError(
        "\(path): error: cannot write the starting scenario here\n"
          + "  fix: check the folder exists and is writable, or pass --to FILE\n")
      return ExitStatus.noInput
    }
    console.write("\nWrote \(path), the starting scenario. Edit it, then grade it:\n    \(grade)\n")
    return ExitStatus.success
  }

  // MARK: Grading

  private func grade(
    _ path: String, _ exercise: GradedExercise, _ start: Scenario, file: String
  ) -> Int32 {
    let loaded = loadScenario(path, limits: options.limits, console: console)
    guard case .success(let attempt) = loaded else { return reportFailure(loaded, on: console) }
    let graded = ContextSim.grade(
      attempt, exercise: exercise, start: start,
      options: options.limits.simulation(concurrencyDebug: start.concurrencyDebug),
      maxSchedules: options.maxSchedules, shouldStop: timeUp(after: options.timeLimit))
    var flags: [String] = []
    if attempt.concurrencyDebug != start.concurrencyDebug {
      flags.append(start.concurrencyDebug ? "--concurrency-debug" : "--no-concurrency-debug")
    }
    let report = GradeReport(advice: .ctxsim(runFlags: flags))
    switch options.format {
    case .json: console.write(JSONWriter.write(report.document(graded)))
    case .text:
      console.write(report.text(graded, colour: console.useColour(options.colour)))
      if graded.passed {
        console.write(
          "Compare with the model solution: `ctxsim exercise \(name(exercise)) --solution`.\n")
      } else if graded.verdict == .failed {
        console.write("Fix the attempt, and grade it again.\n")
      }
    }
    return ExitStatus.of(graded)
  }

  // MARK: The model solution

  private func solution(_ exercise: GradedExercise, file: String) -> Int32 {
    let path = folder(of: file) + "/" + exercise.solution
    guard case .contents(let bytes) = console.readFile(path) else {
      console.writeError("\(path): error: the model solution cannot be read\n")
      return ExitStatus.noInput
    }
    console.writeError(
      "The model solution of exercise \(name(exercise)), \(path), shown because --solution "
        + "asked for it. Yours may differ and still pass: `--grade` is the judge.\n")
    console.write(String(decoding: bytes, as: UTF8.self))
    return ExitStatus.success
  }

  // MARK: Checking the exercises

  private func check(_ files: [String]) -> Int32 {
    guard !files.isEmpty else {
      console.writeError("\(options.directory): error: no exercises to check\n")
      return ExitStatus.noInput
    }
    var failed = 0
    for file in files {
      var problems: [String] = []
      switch load(file) {
      case .failure(let failure): problems.append(failure.message)
      case .success((let exercise, let start)):
        let path = folder(of: file) + "/" + exercise.solution
        switch loadScenario(path, limits: options.limits, console: console) {
        case .failure(let failure):
          problems.append(
            "\(file): error: its solution \(exercise.solution) cannot be used\n" + failure.message)
        case .success(let solution):
          problems += ExerciseCheck.problems(
            of: exercise, start: start, solution: solution,
            options: options.limits.simulation(concurrencyDebug: start.concurrencyDebug),
            maxSchedules: options.maxSchedules
          ).map { "\(file): error: \($0)" }
        }
      }
      if problems.isEmpty {
        console.write("PASS  \(file)\n")
      } else {
        failed += 1
        console.write("FAIL  \(file)\n")
        for line in problems.joined(separator: "\n").split(separator: "\n") {
          console.write("      \(line)\n")
        }
      }
    }
    console.write(
      "\n\(files.count) exercise\(files.count == 1 ? "" : "s"): \(files.count - failed) passed, "
        + "\(failed) failed.\n")
    return ExitStatus.of(lessonProblems: failed)
  }
}
