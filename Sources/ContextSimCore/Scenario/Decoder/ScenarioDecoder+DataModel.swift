/// A `"model"` written as the path of an Xcode data model (a ctxsim addition to format v1).
extension ScenarioDecoder {
  /// Reads the model the scenario names, relative to the scenario's folder; false when it
  /// cannot be read, with the reasons in ``errors``.
  mutating func validateModel(named path: Located<String>) -> Bool {
    guard let dataModels else {
      fail(
        "\"model\" names an Xcode data model, but this scenario was not read from a file",
        fix: "write the model as an object, or decode with the files to read it from "
          + "(ScenarioDecoder.decode(_:file:dataModels:))", at: path.location, path: "model")
      return false
    }
    do {
      let model = try XcodeDataModel(
        path: path.value, files: dataModels,
        namedAt: ModelReference(file: file, location: path.location))
      entities = model.entities
      return true
    } catch {
      errors += error.errors
      return false
    }
  }
}
