/// `"contexts": {NAME: {options}}`: one context declared up front.
struct RawContext {
  var name: Located<String>
  /// Keys besides a context's options.
  var problems: [Diagnostic] = []
  var options: Field<RawContextOptions>
}

/// `"queues": {NAME: "serial"|"concurrent"}`: one extra dispatch queue.
struct RawQueue {
  var name: Located<String>
  var attributes: Field<QueueDescription.Attributes>
}

/// `"vars": {NAME: value}`: one shared var and its initial value.
struct RawVar {
  var name: Located<String>
  var value: Field<Value>
}

/// `"expect": {"violations": [...]}`: what `ctxsim check` holds the scenario to.
struct RawExpectation {
  var location: SourceLocation
  /// Keys besides `violations`.
  var problems: [Diagnostic] = []
  var violations: Field<[Field<RawExpectedViolation>]> = .absent
  var handled: Field<[Field<RawExpectedHandledError>]> = .absent
}

/// `"persistentHistory": {"tracking": bool, "remoteChangeNotifications": bool}`.
struct RawPersistentHistory {
  /// Keys besides the two options.
  var problems: [Diagnostic] = []
  var tracking: Field<Bool> = .absent
  var remoteChangeNotifications: Field<Bool> = .absent
}

/// `{"error": CODE, "at": LABEL, "in": "every"|"some"}`.
struct RawExpectedHandledError {
  var location: SourceLocation
  /// Keys besides `error`, `at` and `in`.
  var problems: [Diagnostic] = []
  /// The Cocoa error code; nil when it is missing or not a whole number.
  var code: Int?
  var label: Field<String> = .absent
  var quantifier: Field<ExpectedViolation.Quantifier> = .absent
}

/// `{"kind": KIND, "at": LABEL, "in": "every"|"some"}`.
struct RawExpectedViolation {
  var location: SourceLocation
  /// Keys besides `kind`, `at` and `in`.
  var problems: [Diagnostic] = []
  var kind: Field<ViolationKind> = .absent
  var label: Field<String> = .absent
  var quantifier: Field<ExpectedViolation.Quantifier> = .absent
}

/// `{"at": LABEL, "error": CODE, "call": N, "when": {"value": VAR, "equals": v}}`.
struct RawInjection {
  var location: SourceLocation
  /// Keys besides `at`, `error`, `call` and `when`.
  var problems: [Diagnostic] = []
  var label: Field<String> = .absent
  /// The Cocoa error code; nil when it is missing or not a whole number.
  var code: Int?
  var call: Field<Int> = .absent
  /// The condition, or the problems that keep it from being one, in the order found.
  var condition: Field<Condition> = .absent
  var conditionProblems: [Diagnostic] = []
}

/// The shape pass over the sections besides `main`: each reader gives a section's raw form.
struct SectionShape {
  let file: String

  func field<T>(
    _ json: JSONValue?, path: String, _ check: (JSONValue) -> Result<T, ShapeProblem>
  ) -> Field<T> {
    Field(json, file: file, path: path, check)
  }

  /// An object whose members are read one by one, each with its name: `"queues": {…}`.
  func members<T>(
    _ json: JSONValue, path: String, what: String, _ member: (Located<String>, JSONValue) -> T
  ) -> Field<[T]> {
    field(json, path: path) {
      ShapeCheck.object($0, what: what).map { members in
        members.map { member(Located(value: $0.key, location: $0.keyLocation), $0.value) }
      }
    }
  }

  /// A list whose items are read one by one, each with its own path: `inject[2]`.
  func items<T>(
    _ json: JSONValue?, path: String, what: String, _ item: (JSONValue, String) -> T
  ) -> Field<[T]> {
    field(json, path: path) {
      ShapeCheck.list($0, what: what).map { items in
        items.enumerated().map { item($1, "\(path)[\($0)]") }
      }
    }
  }

  private func problems(_ members: [JSONValue.Member], _ keys: [String], what: String, path: String)
    -> [Diagnostic]
  {
    ShapeCheck.unknownKeys(members, allowed: keys, what: what).map {
      Diagnostic($0, file: file, path: path)
    }
  }

  func contexts(_ json: JSONValue) -> Field<[RawContext]> {
    members(json, path: "contexts", what: "\"contexts\"") { name, options in
      let path = "contexts.\(name.value)"
      var context = RawContext(name: name, options: .absent)
      context.options = field(options, path: path) { json in
        ShapeCheck.object(json, what: "a context's options").map { members in
          context.problems = problems(
            members, RawContextOptions.keys, what: "a context's options", path: path)
          return RawContextOptions(json, file: file, path: path)
        }
      }
      return context
    }
  }

  func queues(_ json: JSONValue) -> Field<[RawQueue]> {
    members(json, path: "queues", what: "\"queues\"") { name, kind in
      RawQueue(
        name: name,
        attributes: field(kind, path: "queues.\(name.value)") {
          ShapeCheck.choice($0, what: "a queue's kind", as: QueueDescription.Attributes.self)
        })
    }
  }

  func vars(_ json: JSONValue) -> Field<[RawVar]> {
    members(json, path: "vars", what: "\"vars\"") { name, initial in
      RawVar(
        name: name,
        value: field(initial, path: "vars.\(name.value)") { json in
          Value(literal: json).map { .success($0) }
            ?? .failure(
              ShapeProblem(
                message: "the initial value of \"\(name.value)\" cannot be an object",
                fix: "use a string, number, boolean, null or list", location: json.location))
        })
    }
  }

  func expectation(_ json: JSONValue) -> Field<RawExpectation> {
    field(json, path: "expect") { json in
      ShapeCheck.object(json, what: "\"expect\"").map { members in
        var raw = RawExpectation(location: json.location)
        raw.problems = problems(
          members, ["violations", "handled"], what: "\"expect\"", path: "expect")
        raw.violations = items(
          json["violations"], path: "expect.violations", what: "\"violations\"",
          expectedViolation)
        raw.handled = items(
          json["handled"], path: "expect.handled", what: "\"handled\"", expectedHandledError)
        return raw
      }
    }
  }

  private func expectedHandledError(_ json: JSONValue, _ path: String)
    -> Field<RawExpectedHandledError>
  {
    field(json, path: path) { json in
      ShapeCheck.object(json, what: "an expected handled error").map { members in
        var raw = RawExpectedHandledError(
          location: json.location,
          problems: problems(
            members, ["error", "at", "in"], what: "an expected handled error", path: path),
          label: field(json["at"], path: path) { ShapeCheck.string($0, what: "\"at\"") },
          quantifier: field(json["in"], path: path) {
            ShapeCheck.choice($0, what: "\"in\"", as: ExpectedViolation.Quantifier.self)
          })
        if case .integer(let code)? = json["error"]?.kind { raw.code = code }
        return raw
      }
    }
  }

  private func expectedViolation(_ json: JSONValue, _ path: String) -> Field<RawExpectedViolation> {
    field(json, path: path) { json in
      ShapeCheck.object(json, what: "an expected violation").map { members in
        RawExpectedViolation(
          location: json.location,
          problems: problems(
            members, ["kind", "at", "in"], what: "an expected violation", path: path),
          kind: field(json["kind"], path: path) {
            ShapeCheck.choice($0, what: "the violation kind", as: ViolationKind.self)
          },
          label: field(json["at"], path: path) { ShapeCheck.string($0, what: "\"at\"") },
          quantifier: field(json["in"], path: path) {
            ShapeCheck.choice($0, what: "\"in\"", as: ExpectedViolation.Quantifier.self)
          })
      }
    }
  }

  /// The store's history options: `{"tracking": true, "remoteChangeNotifications": true}`.
  func persistentHistory(_ json: JSONValue) -> Field<RawPersistentHistory> {
    let path = "persistentHistory"
    return field(json, path: path) { json in
      ShapeCheck.object(json, what: "\"persistentHistory\"").map { members in
        RawPersistentHistory(
          problems: problems(
            members, PersistentHistoryOptions.keys, what: "\"persistentHistory\"", path: path),
          tracking: field(json["tracking"], path: path) {
            ShapeCheck.bool($0, what: "\"tracking\"")
          },
          remoteChangeNotifications: field(json["remoteChangeNotifications"], path: path) {
            ShapeCheck.bool($0, what: "\"remoteChangeNotifications\"")
          })
      }
    }
  }

  func injections(_ json: JSONValue) -> Field<[Field<RawInjection>]> {
    items(json, path: "inject", what: "\"inject\"", injection)
  }

  private func injection(_ json: JSONValue, _ path: String) -> Field<RawInjection> {
    field(json, path: path) { json in
      ShapeCheck.object(json, what: "an injected error").map { members in
        var raw = RawInjection(location: json.location)
        raw.problems = problems(
          members, ["at", "error", "call", "when"], what: "an injected error", path: path)
        raw.label = field(json["at"], path: path) { ShapeCheck.string($0, what: "\"at\"") }
        if case .integer(let code)? = json["error"]?.kind { raw.code = code }
        raw.call = field(json["call"], path: path) { json in
          if case .integer(let n) = json.kind, n > 0 { return .success(n) }
          return .failure(
            ShapeProblem(
              message: "\"call\" must be a whole number from 1",
              fix: "write \"call\": 2 for the second time the step runs", location: json.location))
        }
        if let when = json["when"] {
          (raw.condition, raw.conditionProblems) = condition(when, path)
        }
        return raw
      }
    }
  }

  /// An injection's `"when"`: its condition, or its problems (a wrong type, then a missing part).
  private func condition(_ json: JSONValue, _ path: String) -> (Field<Condition>, [Diagnostic]) {
    var found: [Diagnostic] = []
    let members: [JSONValue.Member]?
    switch ShapeCheck.object(json, what: "\"when\"") {
    case .success(let object): members = object
    case .failure(let problem):
      members = nil
      found.append(Diagnostic(problem, file: file, path: path))
    }
    guard let members, let variable = json["value"]?.string,
      let compared = json["equals"] ?? json["notEquals"], let value = Value(literal: compared)
    else {
      let incomplete = Diagnostic(
        file: file, location: json.location, path: path,
        message: "\"when\" needs \"value\" and \"equals\" or \"notEquals\"",
        fix: "write {\"value\": \"url\", \"equals\": \"…\"}")
      return (.malformed(incomplete), found)
    }
    found = problems(members, ["value", "equals", "notEquals"], what: "\"when\"", path: path)
    let condition = Condition(
      variable: variable.hasPrefix("$") ? String(variable.dropFirst()) : variable, value: value,
      negated: json["notEquals"] != nil)
    return (.present(Located(value: condition, location: json.location)), found)
  }
}
