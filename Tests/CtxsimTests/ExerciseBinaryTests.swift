import Foundation
import Testing

/// `ctxsim exercise N` as a shell runs it, where the working directory is real.
@Suite("ctxsim exercise in a working directory")
struct ExerciseBinaryTests {
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

  /// Runs the binary in `folder`; returns its exit status and standard output.
  private func run(_ arguments: [String], in folder: String) throws -> (Int32, String) {
    let path = try #require(binary, "no ctxsim binary near \(CommandLine.arguments[0])")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: folder)
    let out = Pipe()
    process.standardOutput = out
    process.standardError = Pipe()
    try process.run()
    let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, output)
  }

  @Test("By default the starting scenario goes to exercise-N.json in the working directory")
  func defaultPath() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("ctxsim-exercise-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let exercises = ["--exercises", packageRoot + "/Lessons/Exercises"]
    let listed = try run(["exercise"] + exercises, in: folder)
    #expect(listed.0 == 0)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    let (status, output) = try run(["exercise", "3"] + exercises, in: folder)
    #expect(status == 0)
    #expect(output.hasSuffix("    ctxsim exercise 3 --grade exercise-3.json\n"))
    let written = FileManager.default.contents(atPath: folder + "/exercise-3.json")
    let start = FileManager.default.contents(
      atPath: packageRoot + "/Lessons/Exercises/exercise-03-temporary-ids.json")
    #expect(written != nil && written == start)
    let graded = try run(["exercise", "3", "--grade", "exercise-3.json"] + exercises, in: folder)
    #expect(graded.0 == 1)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["exercise-3.json"])
  }

  @Test("From any directory, the lessons, levels and exercises are found where ctxsim lives")
  func anyDirectory() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("ctxsim-anywhere-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let exercise = try run(["exercise", "1"], in: folder)
    #expect(exercise.0 == 0)
    #expect(exercise.1.contains("ctxsim exercise 1 --grade exercise-1.json"))
    let lesson = try run(["lesson", "1", "--transcript"], in: folder)
    #expect(lesson.0 == 0)
    #expect(lesson.1.hasPrefix("Lesson · One queue per context"))
    let levels = try run(["game"], in: folder)
    #expect(levels.0 == 0)
    #expect(levels.1.contains("The object in the cache"))
  }
}
