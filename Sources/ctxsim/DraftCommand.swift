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
    let draft = Draft(sources, options: Draft.Options(calls: options.calls, items: options.items))
    for line in draft.summary { console.writeError("draft: \(line)\n") }
    if draft.notModelled > 0 {
      console.writeError("draft: \(draft.notModelled) lines not modelled: each prints as a step\n")
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
    return ExitStatus.success
  }
}
