import Foundation
import Testing

@testable import ctxsim

/// The ctxsim commands in the README's code blocks, without the `ctxsim` (or
/// `swift run ctxsim`) in front and without a trailing `# comment`.
private func readmeCommands() -> [[String]] {
  guard let data = FileManager.default.contents(atPath: packageRoot + "/README.md") else {
    return []
  }
  var commands: [[String]] = []
  var inBlock = false
  for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
    if line.hasPrefix("```") {
      inBlock.toggle()
      continue
    }
    guard inBlock else { continue }
    let command = line.split(separator: "#", maxSplits: 1).first ?? ""
    var words = command.split(separator: " ").map(String.init)
    // A replay command printed in an output block: "... shortest (…): ctxsim run …".
    if let start = words.firstIndex(of: "ctxsim"), words[..<start].last?.hasSuffix(":") == true {
      words = Array(words[start...])
    }
    if words.starts(with: ["swift", "run", "ctxsim"]) { words.removeFirst(2) }
    if words.first == "ctxsim" { commands.append(Array(words.dropFirst())) }
  }
  return commands
}

@Suite("The README's commands run as printed")
struct ReadmeCommandTests {
  @Test("Every ctxsim command in the README parses, and names scenarios that exist")
  func commandsParse() throws {
    let commands = readmeCommands()
    #expect(commands.count >= 15, "found only \(commands.count) commands")
    for words in commands {
      _ = try ArgumentParser.parse(words)
      for word in words where word.hasPrefix("scenarios/") {
        #expect(FileManager.default.fileExists(atPath: packageRoot + "/" + word), "\(word)")
      }
    }
  }

  @Test("The README says how to put ctxsim on PATH before it uses the bare command")
  func installFirst() throws {
    let readme = try String(contentsOfFile: packageRoot + "/README.md", encoding: .utf8)
    let install = try #require(
      readme.range(of: "swift package experimental-install --product ctxsim"))
    #expect(readme.contains(#"export PATH="$HOME/.swiftpm/bin:$PATH""#))
    let firstBare = readme.firstRange(of: /\nctxsim (run|explore|check|lesson|help|-)/)
    #expect(firstBare.map { install.lowerBound < $0.lowerBound } ?? true)
  }
}
