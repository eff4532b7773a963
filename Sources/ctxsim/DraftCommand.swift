import ContextSim
import Foundation

/// `ctxsim draft`: reads the Swift files and prints the scenario drafted from them, or
/// writes it to `-o`'s file; a summary of what was called and stood in goes to standard
/// error, so the scenario on standard output stays a file's contents.
struct DraftCommand {
  var options: DraftOptions
  var console: Console

  func execute() -> Int32 {
    let drafted: Drafted
    switch Drafted.make(options.files, options.settings, fileBytes: options.fileBytes, console) {
    case .success(let d): drafted = d
    case .failure(let failure):
      console.writeError(failure.message + "\n")
      return failure.status
    }
    for line in drafted.summary { console.writeError("draft: \(line)\n") }
    // A draft that does not run as it is (a key the given model lacks) says where in the
    // Swift; the draft is still written, to be edited.
    let status: Int32
    switch drafted.scenario {
    case .success: status = ExitStatus.success
    case .failure(let failure):
      console.writeError(failure.message + "\n")
      status = failure.status
    }
    let json = drafted.draft.json
    guard let output = options.output else {
      console.write(json)
      return status
    }
    guard FileManager.default.createFile(atPath: output, contents: Data(json.utf8)) else {
      console.writeError(
        "\(output): error: cannot write the scenario\n  fix: check the folder exists\n")
      return ExitStatus.noInput
    }
    console.writeError("draft: wrote \(output)\n")
    return status
  }
}

/// A draft made from Swift files, and the scenario it decodes to or why it does not.
struct Drafted {
  var draft: Draft
  var scenario: Result<Scenario, LoadFailure>

  /// What a run prints before it starts: what was called and stood in, without paths.
  var summary: [String] {
    switch draft.notModelled {
    case 0: draft.summary
    case 1: draft.summary + ["1 line not modelled: it prints as a step"]
    case let n: draft.summary + ["\(n) lines not modelled: each prints as a step"]
    }
  }

  /// Reads the files (through the console) and the model, and drafts; a file that cannot
  /// be read is a failure here, a draft that does not decode is one in `scenario`.
  static func make(
    _ files: [String], _ settings: DraftSettings, fileBytes: Int, _ console: Console
  ) -> Result<Drafted, LoadFailure> {
    var sources: [Draft.Source] = []
    for path in files {
      guard case .contents(let bytes) = console.readFile(path) else {
        return .failure(
          LoadFailure(
            message: "\(path): error: no such file, or it cannot be read\n  fix: check the path",
            status: ExitStatus.noInput))
      }
      guard bytes.count <= fileBytes else {
        return .failure(
          LoadFailure(
            message: "\(path): error: the file is \(bytes.count) bytes, over the limit of "
              + "\(fileBytes)\n  fix: raise the limit with --max-file-size",
            status: ExitStatus.limitReached))
      }
      guard let text = String(validating: bytes, as: UTF8.self) else {
        return .failure(
          LoadFailure(
            message: "\(path): error: the file is not UTF-8 text\n  fix: name a .swift file",
            status: ExitStatus.invalidInput))
      }
      let name = path.split(separator: "/").last.map(String.init) ?? path
      sources.append(Draft.Source(name: name, text: text))
    }
    var model: JSONValue?
    if let path = settings.model {
      do {
        model = try XcodeDataModel(contentsOf: URL(fileURLWithPath: path)).scenarioModel
      } catch {
        return .failure(
          LoadFailure(
            message: error.errors.map(\.description).joined(separator: "\n"),
            status: ExitStatus.invalidInput))
      }
    }
    let draft = Draft(
      sources,
      options: Draft.Options(
        calls: settings.calls, items: settings.items, model: model,
        failingItem: settings.failingItem))
    return .success(
      Drafted(draft: draft, scenario: decode(draft, name: files.joined(separator: " "))))
  }

  /// The draft's scenario; its errors placed at the Swift line of the step they are in.
  private static func decode(_ draft: Draft, name: String) -> Result<Scenario, LoadFailure> {
    do {
      return .success(try ScenarioDecoder.decode(Array(draft.json.utf8), file: name))
    } catch {
      let lines = error.errors.map { problem in
        // The Swift line of the step, else where in the draft.
        let place =
          (problem.path.flatMap { draft.label(ofStepAt: $0) } ?? problem.path).map { "\($0): " }
          ?? ""
        return "\(place)error: the draft does not run: \(problem.message)\n  fix: \(problem.fix)"
      }
      return .failure(
        LoadFailure(message: lines.joined(separator: "\n"), status: ExitStatus.invalidInput))
    }
  }
}
