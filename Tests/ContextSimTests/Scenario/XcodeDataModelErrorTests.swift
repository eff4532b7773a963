import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// Each way a data model cannot be read: one error, in the file and at the place to fix.
@Suite("Xcode data model errors")
struct XcodeDataModelErrorTests {
  private static let photo = xcodeContents(
    #"<entity name="Photo"><attribute name="remoteURL" optional="YES" attributeType="String"/></entity>"#
  )

  /// The single error reading a model gives; records an issue if there is not exactly one.
  private func only(_ read: () throws(ScenarioErrors) -> XcodeDataModel) -> ScenarioError? {
    do {
      _ = try read()
      Issue.record("the model was read")
      return nil
    } catch {
      #expect(error.errors.count == 1, "expected one error, got \(error.errors)")
      return error.errors.first
    }
  }

  /// The single error decoding a scenario that names a model in `files` gives.
  private func scenarioError(_ model: String, files: DataModelFiles?) -> ScenarioError? {
    let json =
      "{\"title\": \"t\",\n \"model\": \"\(model)\",\n \"main\": [{\"count\": \"Photo\", \"in\": \"viewContext\"}]}"
    do {
      _ = try ScenarioDecoder.decode(Array(json.utf8), file: "app.json", dataModels: files)
      Issue.record("the scenario decoded")
      return nil
    } catch {
      #expect(error.errors.count == 1, "expected one error, got \(error.errors)")
      return error.errors.first
    }
  }

  @Test("Several versions and no .xccurrentversion: the error lists them and names a fix")
  func noCurrentVersion() {
    let files = memoryFiles([
      "Photos.xcdatamodeld/Photos.xcdatamodel/contents": Self.photo,
      "Photos.xcdatamodeld/Photos 2.xcdatamodel/contents": Self.photo,
    ])
    let error = only { () throws(ScenarioErrors) in
      try XcodeDataModel(path: "Photos.xcdatamodeld", files: files)
    }
    #expect(error?.file == "Photos.xcdatamodeld")
    #expect(
      error?.message
        == #"the bundle holds 2 versions ("Photos", "Photos 2") and no .xccurrentversion to say which is current"#
    )
    #expect(
      error?.fix.hasSuffix(#"name one version: "Photos.xcdatamodeld/Photos 2.xcdatamodel""#) == true
    )
  }

  @Test("A version .xccurrentversion names that is not there suggests the nearest")
  func unknownCurrentVersion() {
    let plist = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>Photos 3.xcdatamodel</string></dict></plist>
      """
    let files = memoryFiles([
      "Photos.xcdatamodeld/.xccurrentversion": plist,
      "Photos.xcdatamodeld/Photos 2.xcdatamodel/contents": Self.photo,
    ])
    let error = only { () throws(ScenarioErrors) in
      try XcodeDataModel(path: "Photos.xcdatamodeld", files: files)
    }
    #expect(error?.file == "Photos.xcdatamodeld/.xccurrentversion")
    #expect(error?.fix.hasSuffix(#"did you mean "Photos 2.xcdatamodel"?"#) == true)
  }

  @Test("Malformed XML gives the contents file with XMLParser's line")
  func malformedXML() {
    let xml = """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel">
          <entity name="Photo" representedClassName="Photo" syncable="YES">
              <attribute name="remoteURL" optional="YES" attributeType="String>
          </entity>
      </model>
      """
    let error = only { () throws(ScenarioErrors) in
      try XcodeDataModel(contents: Array(xml.utf8), file: "Photos.xcdatamodel/contents")
    }
    #expect(error?.file == "Photos.xcdatamodel/contents")
    #expect(error?.location?.line == 5)
    #expect(error?.message.hasPrefix("the model's XML is not well formed: ") == true)
    #expect(error?.description.hasPrefix("Photos.xcdatamodel/contents:5:") == true)
  }

  @Test("An unknown attribute type is placed at its element, with the types ctxsim knows")
  func unknownAttributeType() {
    let xml = xcodeContents(
      """
          <entity name="Photo" representedClassName="Photo" syncable="YES">
              <attribute name="isSeen" attributeType="Booleen" usesScalarValueType="YES"/>
          </entity>
      """)
    let error = only { () throws(ScenarioErrors) in
      try XcodeDataModel(contents: Array(xml.utf8), file: "contents")
    }
    #expect(error?.location == SourceLocation(line: 4, column: 9))
    #expect(error?.path == "model.Photo.attributes.isSeen")
    #expect(
      error?.message
        == #"Photo.isSeen has the attribute type "Booleen", which ctxsim does not know"#)
    #expect(error?.fix == #"did you mean "Boolean"?"#)
  }

  @Test("An inverse that does not point back is the scenario decoder's error, in the XML")
  func brokenInverse() {
    let xml = xcodeContents(
      """
          <entity name="Album" syncable="YES">
              <relationship name="photos" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Photo" inverseName="albun" inverseEntity="Photo"/>
          </entity>
          <entity name="Photo" syncable="YES"/>
      """)
    let error = only { () throws(ScenarioErrors) in
      try XcodeDataModel(contents: Array(xml.utf8), file: "contents")
    }
    #expect(error?.file == "contents")
    #expect(error?.location?.line == 4)
    #expect(error?.message == #"the inverse "albun" is not a relationship of Photo"#)
  }

  @Test("A missing bundle is placed at the scenario's \"model\", with the path it looked at")
  func missingBundle() {
    let error = scenarioError("Photos.xcdatamodeld", files: memoryFiles([:], directory: "app"))
    #expect(error?.file == "app.json")
    #expect(error?.location == SourceLocation(line: 2, column: 11))
    #expect(error?.path == "model")
    #expect(error?.message == #""app/Photos.xcdatamodeld": no such folder"#)
  }

  @Test("A path that is no data model is refused before anything is read")
  func notADataModel() {
    let error = scenarioError("model.json", files: memoryFiles([:]))
    #expect(
      error?.message
        == #""model.json": not an Xcode data model: the name ends in neither .xcdatamodeld nor .xcdatamodel"#
    )
  }

  @Test("A scenario decoded without files to read cannot name a model")
  func noFiles() {
    let error = scenarioError("Photos.xcdatamodeld", files: nil)
    #expect(error?.path == "model")
    #expect(error?.message.hasPrefix(#""model" names an Xcode data model"#) == true)
  }

  @Test("A model that is neither an object nor a path says it may be either")
  func wrongType() {
    let found = errors(#"{"title": "t", "model": [], "main": []}"#)
    #expect(
      found.map(\.message) == [
        #""model" must be an object, or the path of an .xcdatamodeld, not a list"#
      ])
  }
}
