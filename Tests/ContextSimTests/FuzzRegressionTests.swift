import Foundation
import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// The inputs kept in `FuzzRegressions/`, by file name.
private let regressionFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .appendingPathComponent("FuzzRegressions").path

private let regressionInputs: [String] = {
  let files = (try? FileManager.default.contentsOfDirectory(atPath: regressionFolder)) ?? []
  return files.filter { $0 != "README.md" }.sorted()
}()

@Suite("Fuzz regressions")
struct FuzzRegressionTests {
  @Test(
    "Each input that once broke ctxsim now runs through everything without a crash",
    arguments: regressionInputs)
  func replay(file: String) throws {
    let data = try #require(FileManager.default.contents(atPath: regressionFolder + "/" + file))
    Exercise.run(Array(data))
  }

  @Test("Every scenario runs through the fuzz harness")
  func seeds() throws {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scenarios")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(files.count >= 30)
    for file in files where file.hasSuffix(".json") {
      let data = try #require(FileManager.default.contents(atPath: folder.path + "/" + file))
      Exercise.run(Array(data))
    }
  }
}
