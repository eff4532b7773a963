import Foundation

/// A Core Data model read from the bundle Xcode's model editor saves: an `.xcdatamodeld`
/// folder of versions, or one `.xcdatamodel` version.
///
/// The model becomes a scenario's format v1 `"model"` object, so a scenario can name the app's
/// own model instead of writing it out, and the model is checked as that object is: every
/// destination exists, every inverse points back. Errors in the model's XML name the
/// `contents` file with the line and column XMLParser gives.
///
///     let model = try XcodeDataModel(contentsOf: URL(fileURLWithPath: "Photos.xcdatamodeld"))
///     model.scenarioModel  // {"Album": {…}, "Photo": {"attributes": {"remoteURL": "string", …}}}
///     model.file           // "Photos.xcdatamodeld/Photos 2.xcdatamodel/contents"
public struct XcodeDataModel: Sendable {
  /// The model as a scenario's v1 `"model"`: entity name → `{"attributes", "relationships",
  /// "unique"}`, in the order of the `contents` file; each value is placed at its XML element.
  public let scenarioModel: JSONValue
  /// The `contents` file read: the current version's.
  public let file: String
  /// The entities, checked as a scenario's model is.
  let entities: [Entity]

  /// Reads the bundle or version folder at `url` from disk.
  public init(contentsOf url: URL) throws(Diagnostics) {
    try self.init(path: url.path, files: .disk(relativeTo: ""))
  }

  /// Reads the bundle or version folder at `path` through `files`, relative to its directory.
  public init(path: String, files: DataModelFiles) throws(Diagnostics) {
    try self.init(path: path, files: files, namedAt: nil)
  }

  /// Reads one version's `contents` XML; `file` is the name errors give it.
  public init(contents: [UInt8], file: String) throws(Diagnostics) {
    self.file = file
    let root = try ModelElement.parse(contents, file: file)
    scenarioModel = try ModelConversion(file: file).model(root)
    entities = try Self.check(scenarioModel, file: file)
  }

  /// Reads a model a scenario names; errors in finding it are placed at `reference`, the
  /// scenario's `"model"` string, when there is one.
  init(path: String, files: DataModelFiles, namedAt reference: ModelReference?)
    throws(Diagnostics)
  {
    let search = BundleSearch(path: path, files: files, reference: reference)
    let contents = try search.currentContents()
    try self.init(contents: contents.bytes, file: contents.path)
  }

  /// Checks the converted model with the scenario decoder's own model checks, so what
  /// scenarios reject in a model written out is rejected here too, placed in the XML.
  private static func check(_ model: JSONValue, file: String) throws(Diagnostics) -> [Entity] {
    var decoder = ScenarioDecoder(file: file)
    decoder.validateModel(SectionShape(file: file).model(model))
    guard decoder.errors.isEmpty else {
      throw Diagnostics(
        decoder.errors.sorted {
          ($0.location ?? .init(line: 0, column: 0)) < ($1.location ?? .init(line: 0, column: 0))
        })
    }
    return decoder.entities
  }
}

/// Where a scenario named its model: the `"model"` string, where errors in finding it go.
struct ModelReference {
  var file: String
  var location: SourceLocation
}
