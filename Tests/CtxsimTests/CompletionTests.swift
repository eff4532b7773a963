import Foundation
import Testing

@testable import ctxsim

/// `ctxsim --generate-completion-script bash|zsh|fish`: written from the option tables, so
/// every command and option is completed, and a bash shell completes them.
@Suite("Shell completion scripts")
struct CompletionTests {
  @Test(
    "Each script names every command and each command's options",
    arguments: Completion.Shell.allCases)
  func complete(shell: Completion.Shell) {
    let run = ctxsim("--generate-completion-script", shell.rawValue)
    #expect(run.status == 0)
    for command in ArgumentParser.subcommands {
      #expect(run.out.contains(command.name))
      for option in command.options {
        let long = option.names.last!
        let spelled = shell == .fish && long.hasPrefix("--") ? "-l " + long.dropFirst(2) : long
        #expect(run.out.contains(spelled), "\(shell) lacks \(command.name) \(long)")
      }
    }
  }

  @Test("An unknown shell is a usage error")
  func unknownShell() {
    let run = ctxsim("--generate-completion-script", "powershell")
    #expect(run.status == 64)
    #expect(run.err.contains("takes one of bash, zsh, fish"))
  }

  /// bash itself completes `ctxsim sc`, `scan --for` and `scan --format `.
  @Test("bash completes commands, options and an option's values")
  func bashCompletes() throws {
    guard FileManager.default.isExecutableFile(atPath: "/bin/bash") else { return }
    let script = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ctxsim-completion-\(getpid()).bash")
    try ctxsim("--generate-completion-script", "bash").out.write(
      to: script, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: script) }
    func complete(_ words: [String]) throws -> String {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/bash")
      let quoted = words.map { "'\($0)'" }.joined(separator: " ")
      process.arguments = [
        "-c",
        "source '\(script.path)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); "
          + "_ctxsim; echo \"${COMPREPLY[*]}\"",
      ]
      let pipe = Pipe()
      process.standardOutput = pipe
      try process.run()
      process.waitUntilExit()
      return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        .trimmingCharacters(in: .newlines)
    }
    #expect(try complete(["ctxsim", "sc"]) == "scan")
    #expect(try complete(["ctxsim", "scan", "--for"]) == "--format")
    #expect(try complete(["ctxsim", "scan", "--format", ""]) == "text json junit sarif")
    #expect(try complete(["ctxsim", "run", "--seed", ""]) == "")
  }
}
