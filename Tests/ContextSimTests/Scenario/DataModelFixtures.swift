import Foundation
import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// The folder of Xcode-written fixtures: `Photos.xcdatamodeld` and a scenario naming it.
let dataModelFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().appendingPathComponent("Fixtures")

/// `photos-from-model.json`, decoded with its `Photos.xcdatamodeld` read from the disk.
func photosFromModel() throws -> Scenario {
  let path = dataModelFixtures.appendingPathComponent("photos-from-model.json").path
  let bytes = try #require(FileManager.default.contents(atPath: path))
  return try ScenarioDecoder.decode(
    Array(bytes), file: path,
    dataModels: .disk(relativeTo: DataModelFiles.folder(ofScenario: path)))
}

/// Files held in memory, keyed by path, standing in for a model bundle on disk.
func memoryFiles(_ contents: [String: String], directory: String = "") -> DataModelFiles {
  DataModelFiles(directory: directory) { path in
    if let text = contents[path] { return .file(Array(text.utf8)) }
    let prefix = path + "/"
    let names = contents.keys.filter { $0.hasPrefix(prefix) }.compactMap {
      $0.dropFirst(prefix.count).split(separator: "/").first.map(String.init)
    }
    return names.isEmpty ? .missing : .directory(Array(Set(names)).sorted())
  }
}

/// A `contents` file as Xcode 15 writes it, around the given entities.
func xcodeContents(_ entities: String) -> String {
  """
  <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
  <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23C71" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
  \(entities)
  </model>
  """
}

/// The model's JSON as the writer prints it, so trees compare without their places.
func written(_ json: String) throws -> String {
  JSONWriter.write(try JSONReader.read(Array(json.utf8)))
}
