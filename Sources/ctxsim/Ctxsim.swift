import ContextSim

/// The command line tool: parses the arguments, runs the command, returns the exit status.
enum Ctxsim {
  static func main(_ arguments: [String], console: Console) -> Int32 {
    let command: Command
    do {
      command = try ArgumentParser.parse(arguments)
    } catch {
      console.writeError("ctxsim: error: \(error.message)\n")
      let usage =
        error.command.map { "Run `ctxsim \($0) --help` for its options." }
        ?? "Run `ctxsim --help` for usage."
      console.writeError(usage + "\n")
      return ExitStatus.usage
    }
    switch command {
    case .version:
      console.write(Help.version + "\n")
      return ExitStatus.success
    case .help(let topic):
      guard let text = Help.text(for: topic) else {
        console.writeError("ctxsim: error: no help on `\(topic ?? "")`; try `ctxsim help run`\n")
        return ExitStatus.usage
      }
      console.write(text)
      return ExitStatus.success
    case .run(let options):
      return RunCommand(options: options, console: console).execute()
    case .check(let options):
      return CheckCommand(options: options, console: console).execute()
    case .explore(let options):
      return ExploreCommand(options: options, console: console).execute()
    case .lesson(var options):
      options.directory = home(options.directory, default: LessonOptions().directory, console)
      return LessonCommand(options: options, console: console).execute()
    case .exercise(var options):
      options.directory = home(options.directory, default: ExerciseOptions().directory, console)
      return ExerciseCommand(options: options, console: console).execute()
    case .game(var options):
      options.directory = home(options.directory, default: GameOptions().directory, console)
      return GameCommand(options: options, console: console).execute()
    case .completion(let shell):
      console.write(Completion.script(for: shell))
      return ExitStatus.success
    case .scan(let options):
      return ScanCommand(options: options, console: console).execute()
    case .draft(let options):
      return DraftCommand(options: options, console: console).execute()
    }
  }

  /// A teaching folder: as given, or, when it is the default, found where ctxsim lives.
  private static func home(_ given: String, default: String, _ console: Console) -> String {
    given == `default` ? Home(console: console).locate(given) : given
  }
}

/// Reads and decodes one scenario file, reporting why it cannot, with the exit status.
///
/// A `.swift` file is drafted first when `drafting` is given; what was called and stood in
/// is said before the run, unless `quiet`.
func loadScenario(
  _ path: String, limits: Limits = Limits(), drafting: DraftSettings? = nil, quiet: Bool = false,
  console: Console
) -> Result<Scenario, LoadFailure> {
  loadScenario([path], limits: limits, drafting: drafting, quiet: quiet, console: console)
}

/// One scenario file, or Swift to draft: `.swift` files, or folders of them, as one module.
/// A draft's first path only: see ``loadScenarios(_:limits:drafting:quiet:console:)``.
func loadScenario(
  _ paths: [String], limits: Limits = Limits(), drafting: DraftSettings? = nil,
  quiet: Bool = false, console: Console
) -> Result<Scenario, LoadFailure> {
  loadScenarios(paths, limits: limits, drafting: drafting, quiet: quiet, console: console)
    .map { $0[0].scenario }
}

/// A scenario to run: a file's, or one path of a draft.
struct ScenarioPath {
  var scenario: Scenario
  /// The draft's path, from 1; nil for a scenario file.
  var number: Int?
  /// The decisions the path takes, in words.
  var decisions: String = ""
}

extension [ScenarioPath] {
  /// Runs `work` on every path and gives the first result whose verdict is the worst, with
  /// its path: a draft's run or search is clean only when every path's is.
  func worst<Result>(_ work: (ScenarioPath) -> Result, severity: (Result) -> Int)
    -> (path: ScenarioPath, result: Result)
  {
    var shown = (path: self[0], result: work(self[0]))
    for path in dropFirst() {
      let result = work(path)
      if severity(result) > severity(shown.result) { shown = (path, result) }
    }
    return shown
  }

  /// Says which path is shown, when there are several.
  func announce(_ shown: ScenarioPath, replayHint: Bool, on console: Console) {
    guard count > 1, let number = shown.number else { return }
    let decisions = shown.decisions.isEmpty ? "" : ": \(shown.decisions)"
    let replay = replayHint ? "; replay it with --path \(number)" : ""
    console.writeError(
      "draft: path \(number) of \(count) shown, the first with this verdict"
        + "\(decisions)\(replay)\n")
  }
}

/// One scenario file, or every path of the Swift drafted from `paths` (one per way through
/// the conditions on values ctxsim cannot decide). A draft whose paths were cut short gets
/// a last one that keeps those conditions as lines not modelled, so a run over them all is
/// never clean.
func loadScenarios(
  _ paths: [String], limits: Limits = Limits(), drafting: DraftSettings? = nil,
  quiet: Bool = false, console: Console
) -> Result<[ScenarioPath], LoadFailure> {
  let path = paths[0]
  if let drafting, paths.count > 1 || Drafted.isSwift(path, console) {
    switch Drafted.make(paths, drafting, fileBytes: limits.fileBytes, console) {
    case .failure(let failure): return .failure(failure)
    case .success(let drafted):
      if !quiet { for line in drafted.summary { console.writeError("draft: \(line)\n") } }
      var loaded: [ScenarioPath] = []
      for path in drafted.paths {
        switch path.scenario {
        case .failure(let failure): return .failure(failure)
        case .success(let scenario):
          loaded.append(
            ScenarioPath(
              scenario: scenario, number: path.number,
              decisions: path.draft.pathDescription))
        }
      }
      return .success(loaded)
    }
  }
  return loadScenarioFile(path, limits: limits, console: console).map {
    [ScenarioPath(scenario: $0)]
  }
}

/// Reads and decodes one scenario file.
private func loadScenarioFile(_ path: String, limits: Limits, console: Console)
  -> Result<Scenario, LoadFailure>
{
  switch console.readFile(path) {
  case .missing:
    return .failure(
      LoadFailure(
        message:
          "\(path): error: no such file\n  fix: check the path; scenarios live in scenarios/",
        status: ExitStatus.noInput))
  case .unreadable:
    return .failure(
      LoadFailure(
        message: "\(path): error: the file cannot be read\n  fix: check its permissions",
        status: ExitStatus.noInput))
  case .directory:
    return .failure(
      LoadFailure(
        message:
          "\(path): error: this is a folder, not a scenario file\n  fix: name one .json file, or use `ctxsim check \(path)` for all of them",
        status: ExitStatus.noInput))
  case .contents(let bytes):
    guard bytes.count <= limits.fileBytes else {
      return .failure(
        LoadFailure(
          message:
            "\(path): error: the file is \(bytes.count) bytes, over the limit of \(limits.fileBytes)\n  fix: a scenario this large is probably not one; if it is, raise the limit with --max-file-size",
          status: ExitStatus.limitReached))
    }
    do {
      return .success(
        try ScenarioDecoder.decode(
          bytes, file: path == "-" ? "<stdin>" : path, maximumDepth: limits.depth,
          dataModels: console.dataModelFiles(forScenario: path)))
    } catch {
      let advised = Diagnostics(error.errors.map { $0.advised(.ctxsim()) })
      let count = advised.errors.count
      let summary = count > 1 ? "\n\(count) errors in \(path)." : ""
      return .failure(
        LoadFailure(message: advised.description + summary, status: ExitStatus.invalidInput))
    }
  }
}

/// Writes why a scenario could not be loaded, and returns the exit status for it.
func reportFailure<T>(_ result: Result<T, LoadFailure>, on console: Console) -> Int32 {
  guard case .failure(let failure) = result else { return ExitStatus.success }
  console.writeError(failure.message + "\n")
  return failure.status
}

struct LoadFailure: Error {
  var message: String
  var status: Int32
}
