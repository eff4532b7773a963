/// The shape pass over steps: JSON → ``RawStep``, one verb per step, only its keys.
///
///     {"fetch": "Note", "in": "bg", "az": "n"}
///     // RawStep(verb: fetch, problems: [unknown key "az" in a "fetch" step])
struct StepShape {
  let file: String

  /// A list of steps, or the problem that it is not a list.
  func steps(_ json: JSONValue, path: String) -> Field<[RawStep]> {
    switch ShapeCheck.list(json, what: "the steps at \(path)") {
    case .failure(let problem):
      return .malformed(Diagnostic(problem, file: file, path: path))
    case .success(let items):
      let steps = items.enumerated().map { step($1, path: "\(path)[\($0)]") }
      return .present(Located(value: steps, location: json.location))
    }
  }

  func step(_ json: JSONValue, path: String) -> RawStep {
    var raw = RawStep(path: path, location: json.location)
    func problem(_ message: String, fix: String, at location: SourceLocation) -> RawStep {
      var failed = raw
      failed.problems.append(
        Diagnostic(file: file, location: location, path: path, message: message, fix: fix))
      return failed
    }
    let members: [JSONValue.Member]
    switch ShapeCheck.object(json, what: "a step") {
    case .failure(let error): return problem(error.message, fix: error.fix, at: error.location)
    case .success(let found): members = found
    }
    let table = Verbs.table
    // A verb's own argument may share a verb's name (`batchUpdate` takes `set`).
    let present = members.filter { table[$0.key] != nil }
    let verbs = present.filter { member in
      !present.contains { table[$0.key]?.keys.contains(member.key) == true }
    }
    guard let verbMember = verbs.first else {
      guard let unknown = members.first(where: { !["label", "note", "swift"].contains($0.key) })
      else {
        return problem(
          "this step has no verb", fix: "add one verb key, such as \"fetch\" or \"perform\"",
          at: json.location)
      }
      if let (message, fix) = UnmodelledAPIs.problem(verb: unknown.key) {
        return problem(message, fix: fix, at: unknown.keyLocation)
      }
      return problem(
        "unknown verb \"\(unknown.key)\"",
        fix: nearestName(to: unknown.key, in: Verbs.names).map { "did you mean \"\($0)\"?" }
          ?? "a step starts with a verb such as \"fetch\", \"perform\" or \"async\"; see docs/scenario-format.md",
        at: unknown.keyLocation)
    }
    if verbs.count > 1 {
      return problem(
        "a step has one verb, but this one has \"\(verbs[0].key)\" and \"\(verbs[1].key)\"",
        fix: "split it into two steps", at: verbs[1].keyLocation)
    }
    let verb = verbMember.key
    let entry = table[verb]!
    // A call that throws can carry the `catch` body that handles its error.
    let throwing = entry.keys.contains("try")
    raw.problems = ShapeCheck.unknownKeys(
      members,
      allowed: [verb, "label", "note", "swift", "when"] + (throwing ? ["catch"] : []) + entry.keys,
      what: "a \"\(verb)\" step"
    ).map { Diagnostic($0, file: file, path: path) }
    let arguments = StepArguments(shape: self, json: json, verb: verb, path: path)
    raw.label = arguments.string("label", what: "\"label\"")
    raw.note = arguments.string("note", what: "\"note\"")
    raw.swift = arguments.string("swift", what: "\"swift\"")
    raw.when = arguments.value("when")
    if throwing, let handler = json["catch"] {
      raw.handler = steps(handler, path: "\(path).catch")
    }
    raw.verb = (verb, entry.read(arguments))
    return raw
  }

  /// Every label written on a step of `main` or of any block, valid or not.
  static func labels(in json: JSONValue) -> Set<String> {
    var found: Set<String> = []
    func visit(_ step: JSONValue) {
      for member in step.members ?? [] {
        if member.key == "label", let name = member.value.string {
          found.insert(name)
        } else if ["do", "child", "then", "catch", "delegate"].contains(member.key) {
          for inner in member.value.elements ?? [] { visit(inner) }
        }
      }
    }
    for step in json.elements ?? [] { visit(step) }
    return found
  }
}

/// A step object read for its shape on behalf of its verb's family.
struct StepArguments {
  let shape: StepShape
  let json: JSONValue
  let verb: String
  let path: String

  /// The verb's own value: `"Note"` in `{"fetch": "Note"}`.
  var verbValue: JSONValue { json[verb]! }

  private func field<T>(_ json: JSONValue?, _ check: (JSONValue) -> Result<T, ShapeProblem>)
    -> Field<T>
  {
    Field(json, file: shape.file, path: path, check)
  }

  /// A member that must be a string; `nil` for the verb's own value.
  func string(_ key: String? = nil, what: String) -> Field<String> {
    field(key.map { json[$0] } ?? verbValue) { ShapeCheck.string($0, what: what) }
  }

  func bool(_ key: String, what: String) -> Field<Bool> {
    field(json[key]) { ShapeCheck.bool($0, what: what) }
  }

  /// A member that must name a case of `T`; `nil` for the verb's own value.
  func choice<T: RawRepresentable & CaseIterable>(_ key: String? = nil, what: String, as: T.Type)
    -> Field<T> where T.RawValue == String
  {
    field(key.map { json[$0] } ?? verbValue) { ShapeCheck.choice($0, what: what, as: T.self) }
  }

  /// A member whose shape depends on the model: a value, `"where"`, `"values"`.
  func value(_ key: String) -> Field<JSONValue> {
    field(json[key]) { .success($0) }
  }

  /// A list of context names: `"mergeInto"`.
  func names(_ key: String, what: String) -> Field<[Field<String>]> {
    field(json[key]) { json in
      ShapeCheck.list(json, what: what).map { items in
        items.map { item in field(item) { ShapeCheck.string($0, what: "a context name") } }
      }
    }
  }

  /// The step's own keys read as a context's options: `newContext`.
  func contextOptions() -> RawContextOptions {
    RawContextOptions(json, file: shape.file, path: path)
  }

  /// `"try"`: `"do"`, `"?"` or `"!"`.
  func tryMode() -> Field<TryMode> {
    field(json["try"]) { json in
      ShapeCheck.string(json, what: "\"try\"").flatMap { text in
        TryMode(rawValue: text).map { .success($0) }
          ?? .failure(
            ShapeProblem(
              message: "\"try\" must be \"do\", \"?\" or \"!\"",
              fix: "write \"try\": \"?\" for try?, \"!\" for try!", location: json.location))
      }
    }
  }

  /// The steps of a block: `"do"`, or a task group's `"child"` and `"then"`.
  func steps(_ key: String = "do") -> Field<[RawStep]> {
    guard let body = json[key] else { return .absent }
    return shape.steps(body, path: "\(path).\(verb).\(key)")
  }
}
