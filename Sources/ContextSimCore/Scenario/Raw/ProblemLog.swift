/// Something that collects the problems of one scenario file as it reads it: the decoder,
/// or a shape reader whose problems validation reports later.
protocol ProblemLog {
  var file: String { get }
  var errors: [Diagnostic] { get set }
}

/// Type checks of JSON values that report what is wrong, where, with the fix.
extension ProblemLog {
  mutating func fail(_ message: String, fix: String, at location: SourceLocation?, path: String?) {
    errors.append(
      Diagnostic(file: file, location: location, path: path, message: message, fix: fix))
  }

  /// Reports a shape problem found outside the steps, where it is found.
  mutating func report<T>(_ result: Result<T, ShapeProblem>, path: String?) -> T? {
    switch result {
    case .success(let value): return value
    case .failure(let problem):
      errors.append(Diagnostic(problem, file: file, path: path))
      return nil
    }
  }

  /// Reports keys an object may not have, suggesting the nearest allowed one.
  mutating func checkKeys(
    _ members: [JSONValue.Member], allowed: [String], path: String, what: String
  ) {
    for problem in ShapeCheck.unknownKeys(members, allowed: allowed, what: what) {
      errors.append(Diagnostic(problem, file: file, path: path))
    }
  }

  mutating func object(_ json: JSONValue, path: String, what: String) -> [JSONValue.Member]? {
    report(ShapeCheck.object(json, what: what), path: path)
  }

  mutating func string(_ json: JSONValue, path: String, what: String) -> String? {
    report(ShapeCheck.string(json, what: what), path: path)
  }

  /// A string with its place, for the checks that name it in their errors.
  mutating func locatedString(_ json: JSONValue, path: String, what: String) -> Located<String>? {
    string(json, path: path, what: what).map { Located(value: $0, location: json.location) }
  }

  mutating func bool(_ json: JSONValue, path: String, what: String) -> Bool? {
    report(ShapeCheck.bool(json, what: what), path: path)
  }

  mutating func list(_ json: JSONValue, path: String, what: String) -> [JSONValue]? {
    report(ShapeCheck.list(json, what: what), path: path)
  }

  /// Reads a member that must be one of an enum's raw values.
  mutating func choice<T: RawRepresentable & CaseIterable>(
    _ json: JSONValue, path: String, what: String, as: T.Type
  ) -> T? where T.RawValue == String {
    report(ShapeCheck.choice(json, what: what, as: T.self), path: path)
  }
}

/// Problems found while reading a part of the file for its shape, kept for validation.
struct ShapeLog: ProblemLog {
  let file: String
  var errors: [Diagnostic] = []
}
