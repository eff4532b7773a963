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
    for line in drafted.fullSummary { console.writeError("draft: \(line)\n") }
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

/// The drafts made from Swift files, one per path through the conditions on values only
/// that ctxsim cannot decide, each with the scenario it decodes to or why it does not.
struct Drafted {
  struct Path {
    /// Which path, from 1, of how many there are.
    var number: Int
    var draft: Draft
    var scenario: Result<Scenario, LoadFailure>
  }

  /// At least one.
  var paths: [Path]
  /// Whether the paths are every one there is (``Draft/paths(_:options:limit:)``).
  var complete = true

  /// The first path's draft: every undecided condition taken as holding.
  var draft: Draft { paths[0].draft }
  var scenario: Result<Scenario, LoadFailure> { paths[0].scenario }

  /// What a run prints before it starts: what was called and stood in, how many lines
  /// were not modelled (the run lists those it passes), and how many paths there are.
  var summary: [String] {
    var lines = draft.summary
    switch draft.notModelled {
    case 0: break
    case 1: lines.append("1 line not modelled: a run that passes it is not clean")
    case let n: lines.append("\(n) lines not modelled: a run that passes one is not clean")
    }
    return lines + pathsSummary
  }

  /// The conditions every path decides, once each, and how many paths run them.
  private var pathsSummary: [String] {
    var places: [Draft.Decision] = []
    for decision in paths.flatMap(\.draft.decisions)
    where !places.contains(where: { $0.place == decision.place }) {
      places.append(decision)
    }
    guard !places.isEmpty else { return [] }
    let count = places.count == 1 ? "1 condition" : "\(places.count) conditions"
    let which =
      paths.count == 1 && paths[0].number > 1
      ? "path \(paths[0].number), as --path asks"
      : (complete
        ? "\(paths.count) path\(paths.count == 1 ? "" : "s"), every way they go"
        : "the first \(paths.count - 1) paths; more remain, so the run is not clean")
    return ["\(count) on values ctxsim cannot decide, each drafted both ways: \(which)"]
      + places.map { "  \($0.place)  \($0.swift)" }
  }

  /// What `ctxsim draft` prints: the summary, then every line not modelled, where it is
  /// written and why.
  var fullSummary: [String] {
    let n = draft.notModelled
    guard n > 0 else { return draft.summary + ["every line read is modelled"] }
    return draft.summary
      + ["\(n == 1 ? "1 line" : "\(n) lines") not modelled: a run that passes one is not clean"]
      + draft.unmodelled.flatMap { ["  \($0.place)  \($0.swift)", "    \($0.why)"] }
  }

  /// Whether `path` is Swift to draft: a `.swift` file, or a folder holding one.
  static func isSwift(_ path: String, _ console: Console) -> Bool {
    if path.hasSuffix(".swift") { return true }
    guard case .directory(let all) = console.readFile(path) else { return false }
    return all.contains { $0.hasSuffix(".swift") }
  }

  /// The `.swift` files `paths` name, a folder's found in it (in order, at any depth), and
  /// the `.xcdatamodeld` bundles a folder holds: an app with two stores has two models.
  private static func swiftFiles(_ paths: [String], _ console: Console) -> (
    files: [String], models: [String]
  ) {
    var files: [String] = []
    var models: [String] = []
    for path in paths {
      guard case .directory(let all) = console.readFile(path) else {
        files.append(path)
        continue
      }
      files += all.filter { $0.hasSuffix(".swift") }
      for inside in all {
        guard let end = inside.range(of: ".xcdatamodeld/") else { continue }
        let model = String(inside[..<end.lowerBound]) + ".xcdatamodeld"
        if !models.contains(model) { models.append(model) }
      }
    }
    return (files, models)
  }

  /// What `paths` give to draft: each `.swift` file read (through the console), a folder's
  /// found in it, and the model (`settings.model`, or the one a folder holds).
  struct Read {
    var sources: [Draft.Source]
    /// Each file's path as given, by the name its labels use.
    var paths: [String: String]
    var model: JSONValue?
  }

  static func read(
    _ paths: [String], _ settings: DraftSettings, fileBytes: Int, _ console: Console
  ) -> Result<Read, LoadFailure> {
    let (files, foundModels) = swiftFiles(paths, console)
    let models = settings.model.map { [$0] } ?? foundModels
    if settings.model == nil, !foundModels.isEmpty {
      let which = foundModels.count == 1 ? "the model" : "the models, as one"
      console.writeError("draft: \(which): \(foundModels.joined(separator: ", "))\n")
    }
    var read = Read(sources: [], paths: [:])
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
      read.sources.append(Draft.Source(name: name, text: text))
      read.paths[name] = path
    }
    // Each model's entities, the first of two of one name kept.
    var entities: [JSONValue.Member] = []
    for path in models {
      do {
        let model = try XcodeDataModel(contentsOf: URL(fileURLWithPath: path)).scenarioModel
        if case .object(let members) = model.kind {
          entities += members.filter { m in !entities.contains { $0.key == m.key } }
        }
      } catch {
        return .failure(
          LoadFailure(
            message: error.errors.map(\.description).joined(separator: "\n"),
            status: ExitStatus.invalidInput))
      }
    }
    if !entities.isEmpty { read.model = JSONValue(.object(entities), at: JSONValue.nowhere) }
    return .success(read)
  }

  /// Reads the files and the model, and drafts; a file that cannot be read is a failure
  /// here, a draft that does not decode is one in `scenario`. A folder gives its `.swift`
  /// files, drafted as one module, and its data model unless `settings.model` names one.
  static func make(
    _ paths: [String], _ settings: DraftSettings, fileBytes: Int, _ console: Console
  ) -> Result<Drafted, LoadFailure> {
    let read: Read
    switch Self.read(paths, settings, fileBytes: fileBytes, console) {
    case .success(let r): read = r
    case .failure(let failure): return .failure(failure)
    }
    let (sources, model) = (read.sources, read.model)
    var options = Draft.Options(
      calls: settings.calls, items: settings.items, model: model,
      failingItem: settings.failingItem)
    options.declaresClean = settings.declaresClean
    // A `--call` of nothing declared is a typo: drafted, it would run nothing and say so.
    let unknown = Draft.unknownCalls(in: sources, options: options)
    if !unknown.isEmpty {
      let message = unknown.map { call in
        "error: \(call)\n  fix: "
          + (call.suggestion.map { "did you mean \($0)()?" }
            ?? "name a method, initialiser or function of the files read")
      }.joined(separator: "\n")
      return .failure(LoadFailure(message: message, status: ExitStatus.usage))
    }
    let (drafts, complete) = Draft.paths(sources, options: options, limit: Self.pathLimit)
    let name = paths.joined(separator: " ")
    var all = drafts.enumerated().map { n, draft in
      Path(
        number: n + 1, draft: draft,
        scenario: decode(draft, name: name, modelGiven: model != nil))
    }
    if let chosen = settings.path {
      guard all.indices.contains(chosen - 1) else {
        let message =
          "error: --path \(chosen): the draft has \(all.count) path\(all.count == 1 ? "" : "s")\n"
          + "  fix: name a path from 1 to \(all.count)"
        return .failure(LoadFailure(message: message, status: ExitStatus.usage))
      }
      all = [all[chosen - 1]]
    }
    return .success(Drafted(paths: all, complete: complete || settings.path != nil))
  }

  /// The most paths drafted: 16 is four undecided conditions every way.
  static let pathLimit = 16

  /// The draft's scenario; its errors placed at the Swift line of the step they are in.
  private static func decode(_ draft: Draft, name: String, modelGiven: Bool)
    -> Result<Scenario, LoadFailure>
  {
    do {
      return .success(try ScenarioDecoder.decode(Array(draft.json.utf8), file: name))
    } catch {
      let lines = error.errors.map { problem in
        // A draft ctxsim wrote that does not run is ctxsim's fault: said so, at the Swift line
        // the step was drafted from.
        guard let path = problem.path, let line = draft.swiftLine(ofStepAt: path) else {
          return "error: ctxsim drafted a scenario that does not run: \(problem.message)\n"
            + "  fix: this is a fault in ctxsim's drafter, not in your Swift; write the draft with"
            + " `ctxsim draft FILE -o draft.json` and edit it"
        }
        if modelGiven, problem.message.contains("has no attribute or relationship") {
          // The app's model and its code disagree: the user's to mend, not ctxsim's.
          return "\(line.place): error: the model given with --model does not have what this line"
            + " uses: \(problem.message)\n    \(line.swift)\n  fix: \(problem.fix), or name the"
            + " model this code is written for"
        }
        return "\(line.place): error: ctxsim could not draft this line into a step that runs:"
          + " \(problem.message)\n    \(line.swift)\n"
          + "  fix: this is a fault in ctxsim's drafter, not in your Swift (please report it with this"
          + " line); meanwhile write the draft with `ctxsim draft FILE -o draft.json` and edit the"
          + " step at \(path): \(problem.fix)"
      }
      return .failure(
        LoadFailure(message: lines.joined(separator: "\n"), status: ExitStatus.invalidInput))
    }
  }
}
