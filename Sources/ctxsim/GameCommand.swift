import ContextSim
import Foundation

/// `ctxsim game`: lists the levels with the learner's progress, checks them, forgets the
/// progress, prints a level's briefing, or plays a level full screen.
struct GameCommand {
  var options: GameOptions
  var console: Console

  func execute() -> Int32 {
    let progressFile = GameProgressFile(environment: console.environment)
    if options.reset { return reset(progressFile) }
    let numbered = NumberedFiles(folder: options.directory)
    let files = numbered.list(console)
    if options.check {
      guard let name = options.level else { return check(files) }
      return check([numbered.resolve(name, in: files)].compactMap { $0 }, numbering: false)
    }
    guard !files.isEmpty || options.level?.hasSuffix(".md") == true else {
      console.writeError(numbered.noneHere("levels (NN-name.md)", option: "--levels"))
      return ExitStatus.noInput
    }
    guard let name = options.level else { return list(files, progressFile) }
    guard let file = numbered.resolve(name, in: files) else {
      console.writeError(
        "ctxsim: error: no level \"\(name)\" in \(options.directory)/\n  fix: run `ctxsim game` to list them\n"
      )
      return ExitStatus.noInput
    }
    let loaded: LoadedLevel
    switch load(file) {
    case .success(let level): loaded = level
    case .failure(let failure):
      console.writeError(failure.message + "\n")
      return failure.status
    }
    let progress = progressFile.load(console: console)
    let briefing = LevelBriefing(
      level: loaded.level, levels: files.count,
      failedTries: progress.failedTries(loaded.level.id))
    guard console.isTerminal else {
      console.writeError("ctxsim: standard output is not a terminal, so here is the briefing.\n")
      console.write(
        briefing.render() + "\nPlay it in a terminal: ctxsim game \(loaded.level.number)\n")
      return ExitStatus.success
    }
    return GamePlayer(
      files: files, console: console, colour: options.colour, progressFile: progressFile,
      load: load
    ).run(loaded, briefing: briefing)
  }

  // MARK: Finding and loading levels

  /// The repository root a level's scenario paths start from: two folders above the
  /// level's, as `Lessons/Levels/01-name.md` is under the root.
  func root(of file: String) -> String { TeachingFile.folder(of: file, up: 3) }

  /// A level with its scenario and its candidate fixes' scenarios, each checked as it loads.
  func load(_ file: String) -> Result<LoadedLevel, LoadFailure> {
    let teaching = TeachingFile(console: console, path: file, what: "the level")
    let level: Level
    switch teaching.parsed({ try Level(file: file, lesson: LessonParser.parse($0, file: file)) }) {
    case .success(let parsed): level = parsed
    case .failure(let failure): return .failure(failure)
    }
    var scenarios: [Scenario] = []
    for path in [level.lesson.scenario] + level.lesson.fixes.map(\.scenario) {
      switch teaching.scenario(path, from: root(of: file)) {
      case .success(let scenario): scenarios.append(scenario)
      case .failure(let failure): return .failure(failure)
      }
    }
    return .success(
      LoadedLevel(level: level, scenario: scenarios[0], fixes: Array(scenarios.dropFirst())))
  }

  // MARK: Listing, checking, forgetting

  private func list(_ files: [String], _ progressFile: GameProgressFile) -> Int32 {
    let progress = progressFile.load(console: console)
    let entries = files.map { file in
      switch load(file) {
      case .success(let loaded):
        return LevelList.Entry(
          number: loaded.level.number, title: loaded.level.lesson.title,
          goal: loaded.level.goalSummary, done: progress.isDone(loaded.level.id))
      case .failure:
        let number = Int((file.split(separator: "/").last ?? "").prefix { $0.isNumber }) ?? 0
        return LevelList.Entry(
          number: number, title: file, goal: "does not load; run ctxsim game --check",
          done: false, playable: false)
      }
    }
    let list = LevelList(entries: entries, colour: console.useColour(options.colour))
    console.write(list.render() + "\n")
    if let next = list.next {
      console.write("Play the next one with `ctxsim game \(next.number)`.\n")
    } else {
      console.write("Every level is done. `ctxsim game --reset` starts again.\n")
    }
    if let path = progressFile.path {
      console.write("Progress is kept in \(path).\n")
    } else {
      console.write("Progress is not kept: set HOME or XDG_STATE_HOME.\n")
    }
    return ExitStatus.success
  }

  private func reset(_ progressFile: GameProgressFile) -> Int32 {
    guard let path = progressFile.path else {
      console.write("No progress is kept (no HOME or XDG_STATE_HOME), so none to forget.\n")
      return ExitStatus.success
    }
    guard FileManager.default.fileExists(atPath: path) else {
      console.write("No progress to forget (\(path) does not exist).\n")
      return ExitStatus.success
    }
    if let problem = progressFile.reset() {
      console.writeError("ctxsim: error: \(problem)\n  fix: remove the file by hand\n")
      return ExitStatus.noInput
    }
    console.write("Forgot the game's progress (\(path)).\n")
    return ExitStatus.success
  }

  /// Checks each level, and that the levels are numbered 1, 2, 3… with none missing.
  private func check(_ files: [String], numbering: Bool = true) -> Int32 {
    guard !files.isEmpty else {
      console.writeError("\(options.directory): error: no levels to check\n")
      return ExitStatus.noInput
    }
    var failed = 0
    for (index, file) in files.enumerated() {
      var problems: [String] = []
      switch load(file) {
      case .failure(let error): problems.append(error.message)
      case .success(let loaded):
        problems += LevelCheck.problems(
          loaded.level, scenario: loaded.scenario, fixes: loaded.fixes,
          modelDoc: text(at: root(of: file) + "/docs/model.md"), source: text(at: file)
        ).map(\.description)
        if numbering && loaded.level.number != index + 1 {
          problems.append(
            "\(file): error: this is level \(index + 1) in order, but its name says \(loaded.level.number)\n  fix: number the levels 1, 2, 3… with none missing or repeated"
          )
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
      "\n\(files.count) level\(files.count == 1 ? "" : "s"): \(files.count - failed) passed, \(failed) failed.\n"
    )
    return ExitStatus.of(lessonProblems: failed)
  }
}

extension GameCommand {
  /// A file's text, or nil when it cannot be read.
  fileprivate func text(at path: String) -> String? {
    guard case .contents(let bytes) = console.readFile(path) else { return nil }
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// A level ready to play: its scenario and its candidate fixes', loaded and checked.
struct LoadedLevel {
  var level: Level
  var scenario: Scenario
  var fixes: [Scenario]
}
