/// A problem with the shape of a value: what is wrong, where, and how to fix it.
struct ShapeProblem: Error {
  var message: String
  var fix: String
  var location: SourceLocation
}

/// The checks of a JSON value's type that the shape pass and the rest of the decoder share.
///
///     ShapeCheck.string(7 at 1:11, what: "\"title\"")
///     // "title" must be a string, not an integer (1:11)
enum ShapeCheck {
  /// A value of one JSON type, or a problem saying which type was wanted.
  static func typed<T>(
    _ json: JSONValue, what: String, must: String, fix: String, _ extract: (JSONValue) -> T?
  ) -> Result<T, ShapeProblem> {
    if let value = extract(json) { return .success(value) }
    return .failure(
      ShapeProblem(
        message: "\(what) must be \(must), not \(json.typeDescription)", fix: fix,
        location: json.location))
  }

  static func object(_ json: JSONValue, what: String) -> Result<[JSONValue.Member], ShapeProblem> {
    typed(json, what: what, must: "an object", fix: "write { … }", \.members)
  }

  static func string(_ json: JSONValue, what: String) -> Result<String, ShapeProblem> {
    typed(json, what: what, must: "a string", fix: "write it in double quotes", \.string)
  }

  static func bool(_ json: JSONValue, what: String) -> Result<Bool, ShapeProblem> {
    typed(json, what: what, must: "true or false", fix: "write true or false", \.bool)
  }

  static func list(_ json: JSONValue, what: String) -> Result<[JSONValue], ShapeProblem> {
    typed(json, what: what, must: "a list", fix: "write [ … ]", \.elements)
  }

  /// One of an enum's raw values, suggesting the nearest when the text is none of them.
  static func choice<T: RawRepresentable & CaseIterable>(
    _ json: JSONValue, what: String, as: T.Type
  ) -> Result<T, ShapeProblem> where T.RawValue == String {
    string(json, what: what).flatMap { text in
      if let value = T(rawValue: text) { return .success(value) }
      return .failure(
        ShapeProblem(
          message: "\(what) \"\(text)\" is not known",
          fix: suggestion(text, T.allCases.map(\.rawValue)),
          location: json.location))
    }
  }

  /// The keys of an object that are not allowed, each with the nearest allowed one.
  static func unknownKeys(_ members: [JSONValue.Member], allowed: [String], what: String)
    -> [ShapeProblem]
  {
    members.filter { !allowed.contains($0.key) }.map { member in
      ShapeProblem(
        message: "unknown key \"\(member.key)\" in \(what)",
        fix: suggestion(member.key, allowed), location: member.keyLocation)
    }
  }

  /// `did you mean "x"?`, or the list of names when none is close.
  static func suggestion(_ name: String, _ names: [String]) -> String {
    nearestName(to: name, in: names).map { "did you mean \"\($0)\"?" }
      ?? "use one of: " + names.map { "\"\($0)\"" }.joined(separator: ", ")
  }
}

extension Diagnostic {
  init(_ problem: ShapeProblem, file: String, path: String?) {
    self.init(
      file: file, location: problem.location, path: path, message: problem.message,
      fix: problem.fix)
  }
}
