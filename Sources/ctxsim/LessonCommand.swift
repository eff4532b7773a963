import ContextSim
import Foundation

/// `ctxsim lesson`: lists the lessons, checks them, prints one as a transcript, exports its
/// timeline, or steps through it full screen.
struct LessonCommand {
  var options: LessonOptions
  var console: Console

  func execute() -> Int32 {
    let numbered = NumberedFiles(folder: options.directory)
    let files = numbered.list(console)
    if options.check {
      return check(
        options.lesson.map { [numbered.resolve($0, in: files)].compactMap { $0 } } ?? files)
    }
    guard !files.isEmpty || options.lesson?.hasSuffix(".md") == true else {
      console.writeError(numbered.noneHere("lessons (NN-name.md)", option: "--lessons"))
      return ExitStatus.noInput
    }
    guard let name = options.lesson else { return list(files) }
    guard let file = numbered.resolve(name, in: files) else {
      console.writeError(
        "ctxsim: error: no lesson \"\(name)\" in \(options.directory)/\n  fix: run `ctxsim lesson` to list them\n"
      )
      return ExitStatus.noInput
    }
    let loaded: (Lesson, Scenario)
    switch load(file) {
    case .success(let pair): loaded = pair
    case .failure(let failure):
      console.writeError(failure.message + "\n")
      return failure.status
    }
    let (lesson, scenario) = loaded
    if let html = options.html {
      return exportTimeline(lesson, scenario, to: html)
    }
    if options.transcript || !console.isTerminal {
      if !options.transcript {
        console.writeError(
          "ctxsim: standard output is not a terminal, so here is the transcript.\n")
      }
      console.write(LessonTranscript(lesson: lesson, scenario: scenario).render())
      return ExitStatus.success
    }
    return LessonStepper(
      lesson: lesson, scenario: scenario, console: console, play: options.play,
      colour: options.colour, exportPath: exportPath(for: file)
    ).run()
  }

  /// Where the stepper's `e` key writes a lesson's timeline: `--export-dir`, else the
  /// temporary folder (`$TMPDIR`, or `/tmp`), never the working directory unasked.
  ///
  /// `Lessons/01-one-queue-per-context.md` → `/tmp/01-one-queue-per-context.html`
  func exportPath(for file: String) -> String {
    let name = file.split(separator: "/").last.map(String.init) ?? file
    let base = name.hasSuffix(".md") ? String(name.dropLast(3)) : name
    var folder = options.exportDirectory ?? console.environment["TMPDIR"] ?? ""
    if folder.isEmpty { folder = "/tmp" }
    return (folder.hasSuffix("/") ? folder : folder + "/") + base + ".html"
  }

  // MARK: Finding and loading lessons

  /// The repository root a lesson's scenario paths start from: the lessons folder's parent.
  func root(of file: String) -> String { TeachingFile.folder(of: file, up: 2) }

  func load(_ file: String) -> Result<(Lesson, Scenario), LoadFailure> {
    let teaching = TeachingFile(console: console, path: file, what: "the lesson")
    return teaching.parsed { try LessonParser.parse($0, file: file) }.flatMap { lesson in
      teaching.scenario(lesson.scenario, from: root(of: file)).map { (lesson, $0) }
    }
  }

  // MARK: Listing and checking

  private func list(_ files: [String]) -> Int32 {
    console.write("Lessons in \(options.directory)/:\n")
    for file in files {
      let number = (file.split(separator: "/").last ?? "").prefix { $0.isNumber }
      switch load(file) {
      case .success((let lesson, _)):
        console.write("  \(number)  \(lesson.title)  (\(lesson.scenario))\n")
      case .failure:
        console.write("  \(number)  \(file)  (does not load; run ctxsim lesson --check)\n")
      }
    }
    console.write(
      "\nStep through one with `ctxsim lesson 1`; print it with `ctxsim lesson 1 --transcript`.\n")
    return ExitStatus.success
  }

  private func check(_ files: [String]) -> Int32 {
    guard !files.isEmpty else {
      console.writeError("\(options.directory): error: no lessons to check\n")
      return ExitStatus.noInput
    }
    var failed = 0
    for file in files {
      var problems: [String] = []
      switch load(file) {
      case .failure(let error): problems.append(error.message)
      case .success((let lesson, let scenario)):
        let modelDoc = text(at: root(of: file) + "/docs/model.md")
        problems +=
          LessonCheck.problems(
            lesson, scenario: scenario, modelDoc: modelDoc, source: text(at: file)
          ).map(\.description)
        if modelDoc == nil, !LessonReferences.references(in: lessonText(lesson)).isEmpty {
          problems.append(
            "\(file): error: docs/model.md cannot be read, so the lesson's § references cannot be checked\n  fix: keep docs/model.md in the folder above \(options.directory)/"
          )
        }
        for other in lesson.alsoScenarios + lesson.fixes.map(\.scenario) {
          if case .failure(let failure) = loadScenario(
            root(of: file) + "/" + other, console: console)
          {
            problems.append(
              "\(file): error: its scenario \(other) cannot be used\n" + failure.message)
          }
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
      "\n\(files.count) lesson\(files.count == 1 ? "" : "s"): \(files.count - failed) passed, \(failed) failed.\n"
    )
    return ExitStatus.of(lessonProblems: failed)
  }

  /// A file's text, or nil when it cannot be read.
  private func text(at path: String) -> String? {
    guard case .contents(let bytes) = console.readFile(path) else { return nil }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The lesson's words that may cite docs/model.md: introduction, narration, question, answer.
  private func lessonText(_ lesson: Lesson) -> String {
    ([lesson.introduction] + lesson.narration.map(\.text) + [lesson.question, lesson.answer])
      .joined(separator: "\n")
  }

  private func exportTimeline(_ lesson: Lesson, _ scenario: Scenario, to path: String) -> Int32 {
    var scheduler = ReplayScheduler(lesson.schedule ?? Schedule())
    let trace = simulate(
      scenario, options: LessonCheck.options(lesson, scenario), scheduler: &scheduler)
    return writeTimeline(
      HTMLTimeline(scenario: scenario, title: lesson.title, advice: .ctxsim()).render(trace),
      to: path,
      console: console)
  }
}

/// Writes an HTML timeline, or says why it cannot.
func writeTimeline(_ html: String, to path: String, console: Console) -> Int32 {
  guard FileManager.default.createFile(atPath: path, contents: Data(html.utf8)) else {
    console.writeError(
      "\(path): error: cannot write the timeline here\n  fix: check the folder exists and is writable\n"
    )
    return ExitStatus.noInput
  }
  console.writeError("wrote \(path)\n")
  return ExitStatus.success
}
