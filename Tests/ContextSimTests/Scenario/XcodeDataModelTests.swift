import Foundation
import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

@Suite("Xcode data models")
struct XcodeDataModelTests {
  static let version2 = """
    {
      "Album": {
        "attributes": {
          "createdAt": {"type": "date", "default": "2023-01-01T00:00:00Z"},
          "title": {"type": "string", "optional": false}
        },
        "relationships": {
          "photos": {"to": "Photo", "many": true, "inverse": "album", "optional": true,
            "deleteRule": "cascade"}
        }
      },
      "Photo": {
        "attributes": {
          "byteCount": {"type": "integer", "default": 0},
          "isSeen": {"type": "boolean", "optional": false, "default": false},
          "remoteURL": "string",
          "tags": "binary"
        },
        "relationships": {
          "album": {"to": "Album", "many": false, "inverse": "photos", "optional": true,
            "deleteRule": "nullify"}
        },
        "unique": [["remoteURL"]]
      }
    }
    """

  @Test("A bundle is read at the version .xccurrentversion names")
  func currentVersion() throws {
    let model = try XcodeDataModel(
      contentsOf: dataModelFixtures.appendingPathComponent("Photos.xcdatamodeld"))
    #expect(JSONWriter.write(model.scenarioModel) == (try written(Self.version2)))
    #expect(model.file.hasSuffix("Photos.xcdatamodeld/Photos 2.xcdatamodel/contents"))
  }

  @Test("A bundle of one version whose .xccurrentversion names none is read at that version")
  func emptyCurrentVersion() throws {
    let bundle = FileManager.default.temporaryDirectory
      .appendingPathComponent("ctxsim-\(UUID().uuidString)/One.xcdatamodeld")
    let version = bundle.appendingPathComponent("One.xcdatamodel")
    try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: bundle.deletingLastPathComponent()) }
    try FileManager.default.copyItem(
      at: dataModelFixtures.appendingPathComponent(
        "Photos.xcdatamodeld/Photos.xcdatamodel/contents"),
      to: version.appendingPathComponent("contents"))
    // As mac-monitor's model has it: a property list with no current version in it.
    let empty = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict/></plist>"#
    try Data(empty.utf8).write(to: bundle.appendingPathComponent(".xccurrentversion"))
    let model = try XcodeDataModel(contentsOf: bundle)
    #expect(model.file.hasSuffix("One.xcdatamodel/contents"))
  }

  @Test("A version folder is read whether it is current or not")
  func oneVersion() throws {
    let model = try XcodeDataModel(
      contentsOf: dataModelFixtures.appendingPathComponent(
        "Photos.xcdatamodeld/Photos.xcdatamodel"))
    let version1 = """
      {
        "Album": {
          "attributes": {"title": {"type": "string", "optional": false}},
          "relationships": {
            "photos": {"to": "Photo", "many": true, "inverse": "album", "optional": true,
              "deleteRule": "cascade"}
          }
        },
        "Photo": {
          "attributes": {"remoteURL": "string"},
          "relationships": {
            "album": {"to": "Album", "many": false, "inverse": "photos", "optional": true,
              "deleteRule": "nullify"}
          }
        }
      }
      """
    #expect(JSONWriter.write(model.scenarioModel) == (try written(version1)))
  }

  @Test("The model read decodes, written out, to the entities the scenario decoder makes")
  func roundTrip() throws {
    let model = try XcodeDataModel(
      contentsOf: dataModelFixtures.appendingPathComponent("Photos.xcdatamodeld"))
    let decoded = try scenario(
      #"{"title": "t", "model": \#(JSONWriter.compact(model.scenarioModel)), "main": []}"#)
    #expect(decoded.entities == model.entities)
    let photo = decoded.entities.first { $0.name == "Photo" }
    #expect(photo?.attribute(named: "isSeen")?.isOptional == false)
    #expect(photo?.attribute(named: "isSeen")?.defaultValue == .bool(false))
    #expect(photo?.uniquenessConstraints == [["remoteURL"]])
  }

  @Test("A scenario whose model is a bundle's path runs, relative to the scenario's folder")
  func scenarioNamingTheBundle() throws {
    let decoded = try photosFromModel()
    let trace = run(decoded)
    #expect(trace.kinds == [.wrongQueueContext])
    #expect(trace.lines.contains("set photo-1.isSeen = true"))
  }

  @Test("A bundle of one version needs no .xccurrentversion; the path may end in a slash")
  func singleVersion() throws {
    let files = memoryFiles(
      [
        "Notes.xcdatamodeld/Notes.xcdatamodel/contents": xcodeContents(
          #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>"#
        )
      ])
    let model = try XcodeDataModel(path: "Notes.xcdatamodeld/", files: files)
    #expect(
      JSONWriter.write(model.scenarioModel)
        == (try written(#"{"Note": {"attributes": {"title": "string"}}}"#)))
    #expect(model.file == "Notes.xcdatamodeld/Notes.xcdatamodel/contents")
  }

  @Test("A relative path starts from the scenario's folder, the current one for standard input")
  func relativePaths() {
    #expect(DataModelFiles.folder(ofScenario: "scenarios/photos.json") == "scenarios")
    #expect(DataModelFiles.folder(ofScenario: "photos.json") == "")
    #expect(DataModelFiles.folder(ofScenario: "-") == "")
    #expect(DataModelFiles.folder(ofScenario: "/photos.json") == "/")
    let files = DataModelFiles.disk(relativeTo: "scenarios")
    #expect(files.resolve("Photos.xcdatamodeld") == "scenarios/Photos.xcdatamodeld")
    #expect(files.resolve("/tmp/Photos.xcdatamodeld") == "/tmp/Photos.xcdatamodeld")
    #expect(DataModelFiles.disk(relativeTo: "").resolve("P.xcdatamodeld") == "P.xcdatamodeld")
  }
}
