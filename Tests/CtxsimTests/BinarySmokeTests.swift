import Foundation
import Testing

/// One test of the built binary as a shell runs it: real streams, real exit status.
@Suite("The ctxsim binary")
struct BinarySmokeTests {
  /// The `ctxsim` executable SwiftPM built next to this test bundle.
  private var binary: String? {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = directory.appendingPathComponent("ctxsim").path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      directory.deleteLastPathComponent()
    }
    return nil
  }

  @Test("Run as a process, the first scenario exits 133 and prints the trap on stdout")
  func wrongThread() throws {
    let path = try #require(binary, "no ctxsim binary near \(CommandLine.arguments[0])")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = ["run", "scenarios/wrong-thread.json"]
    process.currentDirectoryURL = URL(fileURLWithPath: packageRoot)
    process.environment = ["NO_COLOR": "1"]
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let errors = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 133)
    #expect(process.terminationReason == .exit)
    #expect(
      output.hasPrefix("CoreData: annotation: Core Data multi-threading assertions enabled.\n"))
    #expect(output.contains("TRAP  context background (queue background) touched from main"))
    #expect(errors.isEmpty)
  }
}

@Suite("The README's library example")
struct LibraryExampleTests {
  @Test("The README shows the example package's main.swift exactly, so pasting it works")
  func readmeMatchesExample() throws {
    let readme = try String(contentsOfFile: packageRoot + "/README.md", encoding: .utf8)
    let example = try String(
      contentsOfFile: packageRoot + "/Examples/LibraryConsumer/Sources/LibraryConsumer/main.swift",
      encoding: .utf8)
    #expect(readme.contains("```swift\n" + example + "```\n"))
  }

  @Test("The README's Swift-written scenario is the example package's test, as it runs in CI")
  func readmeMatchesSwiftScenarioTest() throws {
    let readme = try String(contentsOfFile: packageRoot + "/README.md", encoding: .utf8)
    let test = try String(
      contentsOfFile: packageRoot
        + "/Examples/LibraryConsumer/Tests/LibraryConsumerTests/SwiftScenarioTests.swift",
      encoding: .utf8)
    let body = try #require(test.range(of: "@Test(")).lowerBound
    #expect(readme.contains("```swift\n" + test[body...] + "```\n"))
  }
}
