import ContextSim
import Foundation

/// `ctxsim draft`: reads the Swift files and prints the scenario drafted from them, or
/// writes it to `-o`'s file; a one-line summary of what was called and stood in goes to
/// standard error, so the scenario on standard output stays a file's contents.
struct DraftCommand {
  var options: DraftOptions
  var console: Console

  func execute() -> Int32 {
    var sources: [Draft.Source] = []
    for path in options.files {
      guard case .contents(let bytes) = console.readFile(path) else {
        console.writeError(
          "\(path): error: no such file, or it cannot be read\n  fix: check the path\n")
        return ExitStatus.noInput
      }
      guard bytes.count <= options.fileBytes else {
        console.writeError(
          "\(path): error: the file is \(bytes.count) bytes, over the limit of \(options.fileBytes)\n"
            + "  fix: raise the limit with --max-file-size\n")
        return ExitStatus.limitReached
      }
      guard let text = String(validating: bytes, as: UTF8.self) else {
        console.writeError(
          "\(path): error: the file is not UTF-8 text\n  fix: name a .swift file\n")
        return ExitStatus.invalidInput
      }
      let name = path.split(separator: "/").last.map(String.init) ?? path
      sources.append(Draft.Source(name: name, text: text))
    }
    var model: JSONValue?
    if let path = options.model {
      do {
        model = try XcodeDataModel(contentsOf: URL(fileURLWithPath: path)).scenarioModel
      } catch {
        for problem in error.errors { console.writeError(problem.description + "\n") }
        return ExitStatus.invalidInput
      }
    }
    let draft = Draft(
      sources, options: Draft.Options(calls: options.calls, items: options.items, model: model))
    for line in draft.summary { console.writeError("draft: \(line)\n") }
    if draft.notModelled > 0 {
      console.writeError("draft: \(draft.notModelled) lines not modelled: each prints as a step\n")
    }
    // A draft that does not run as it is (a key the given model lacks) says where in the
    // Swift; the draft is still written, to be edited.
    var status = ExitStatus.success
    do {
      _ = try ScenarioDecoder.decode(Array(draft.json.utf8), file: options.output ?? "<draft>")
    } catch {
      status = ExitStatus.invalidInput
      for problem in error.errors {
        let place = problem.path.flatMap { draft.label(ofStepAt: $0) }.map { "\($0): " } ?? ""
        console.writeError(
          "\(place)error: the draft does not run: \(problem.message)\n  fix: \(problem.fix)\n")
      }
    }
    if let output = options.output {
      guard FileManager.default.createFile(atPath: output, contents: Data(draft.json.utf8)) else {
        console.writeError(
          "\(output): error: cannot write the scenario\n  fix: check the folder exists\n")
        return ExitStatus.noInput
      }
      console.writeError("draft: wrote \(output)\n")
    } else {
      console.write(draft.json)
    }
    return status
  }
}
