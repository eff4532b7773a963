import ContextSim
import Foundation
import Testing

@testable import ctxsim

/// The repository root, found from this file's place in it.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().path

/// What one in-process run of the tool printed and returned.
struct ToolRun {
  var status: Int32
  var out: String
  var err: String
}

/// Runs `ctxsim` in-process from the repository root, as a user would type it there.
///
/// - Parameters:
///   - files: file contents that stand in for files on disk, keyed by path.
///   - terminal: whether standard output is a terminal.
func ctxsim(
  _ arguments: String..., files: [String: String] = [:], environment: [String: String] = [:],
  terminal: Bool = false
) -> ToolRun {
  ctxsim(arguments: arguments, files: files, environment: environment, terminal: terminal)
}

/// `errorTerminal`: whether standard error is a terminal.
func ctxsim(
  arguments: [String], files: [String: String] = [:], environment: [String: String] = [:],
  terminal: Bool = false, errorTerminal: Bool = false
) -> ToolRun {
  final class Output {
    var out = ""
    var err = ""
  }
  let output = Output()
  let console = Console(
    write: { output.out += $0 },
    writeError: { output.err += $0 },
    isTerminal: terminal,
    environment: environment,
    readFile: { path in
      if let text = files[path] { return .contents(Array(text.utf8)) }
      let absolute = path.hasPrefix("/") ? path : packageRoot + "/" + path
      switch Console.readFromDisk(absolute) {
      case .directory(let found):
        return .directory(found.map { path + String($0.dropFirst(absolute.count)) })
      case let other:
        return other
      }
    }, errorIsTerminal: errorTerminal)
  let status = Ctxsim.main(arguments, console: console)
  return ToolRun(status: status, out: output.out, err: output.err)
}

/// Compares text with a golden file in `Snapshots/`.
///
/// Golden files change only on purpose: run `CTXSIM_RECORD=1 swift test` to rewrite
/// them, then review the diff. CI never records.
func expectSnapshot(
  _ actual: String, _ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  let path = packageRoot + "/Tests/CtxsimTests/Snapshots/" + name
  if ProcessInfo.processInfo.environment["CTXSIM_RECORD"] == "1" {
    _ = FileManager.default.createFile(atPath: path, contents: Data(actual.utf8))
    Issue.record(
      "recorded \(name); review it and run again without CTXSIM_RECORD",
      sourceLocation: sourceLocation)
    return
  }
  guard let data = FileManager.default.contents(atPath: path) else {
    Issue.record(
      "no golden file \(name); record it with CTXSIM_RECORD=1 swift test",
      sourceLocation: sourceLocation)
    return
  }
  let expected = String(decoding: data, as: UTF8.self)
  #expect(
    actual == expected, "output differs from Snapshots/\(name)", sourceLocation: sourceLocation)
}
