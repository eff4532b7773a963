/// `{"expect": {"count": ENTITY, "in": CONTEXT, "equals": n}}`, `{"expect": {"count":
/// "VAR.key", "atLeast": n}}` or `{"expect": {"value": "VAR.key", "equals": v}}`: an
/// assertion of what the app can see at that moment (a stale screen shows up here).
struct ExpectVerb: VerbFamily {
  enum Verb: String, CaseIterable {
    case expect
  }

  static func schema(of verb: Verb) -> StepSchema {
    let bound = ["equals", "atLeast", "atMost"].map { ($0, StepSchema.Shape.integer) }
    return StepSchema(
      .anyOf([
        .object(
          [("count", .string), ("in", .string), ("where", .definition("predicate"))] + bound,
          required: ["count"]),
        .object([("value", .string), ("equals", .anything)], required: ["value", "equals"]),
      ]))
  }

  /// The assertion object, whose keys depend on what it counts or compares.
  var assertion: JSONValue

  func statement(_ step: StepSite, scope: inout StepScope, in decoder: inout ScenarioDecoder)
    -> Statement?
  {
    Self.assertion(assertion, path: step.path, scope: scope, in: &decoder).map {
      Statement(.expect($0), swift: Self.swift($0, decoder))
    }
  }

  private static func swift(_ assertion: Assertion, _ decoder: ScenarioDecoder) -> String {
    switch assertion {
    case .count(let request, let context, let bound):
      // Validation found the entity before it made the assertion.
      let entity = decoder.entities.first { $0.name == request.entity }
      let (setup, argument) =
        entity.map { SwiftSource.request(request, of: $0) } ?? (
          "", "\(request.entity).fetchRequest()"
        )
      return "\(setup)#expect(try \(context).count(for: \(argument)) \(bound.swift))"
    case .relationshipCount(let variable, let key, let bound):
      return "#expect(\(variable).\(key).count \(bound.swift))"
    case .value(let variable, let key, let equals):
      return "#expect(\(variable)\(key.map { ".\($0)" } ?? "") == \(equals.swiftDescription))"
    }
  }

  /// `"equals": 3`, `"atLeast": 1` or `"atMost": 1`.
  private static func countBound(
    _ json: JSONValue, path: String, in decoder: inout ScenarioDecoder
  ) -> CountBound? {
    for (key, make) in [
      ("equals", CountBound.equals), ("atLeast", CountBound.atLeast), ("atMost", CountBound.atMost),
    ] {
      if let value = json[key] {
        guard case .integer(let n) = value.kind, n >= 0 else {
          decoder.fail(
            "\"\(key)\" takes a whole number from 0", fix: "write \"\(key)\": 3, say",
            at: value.location, path: path)
          return nil
        }
        return make(n)
      }
    }
    decoder.fail(
      "\"expect\" count needs \"equals\", \"atLeast\" or \"atMost\": a whole number",
      fix: "add \"equals\": 3, say", at: json.location, path: path)
    return nil
  }

  private static func assertion(
    _ json: JSONValue, path: String, scope: StepScope, in decoder: inout ScenarioDecoder
  ) -> Assertion? {
    guard let members = decoder.object(json, path: path, what: "\"expect\"") else { return nil }
    if let countJSON = json["count"], countJSON.string?.contains(".") == true {
      decoder.checkKeys(
        members, allowed: ["count", "equals", "atLeast", "atMost"], path: path,
        what: "an expect count")
      guard
        let (variable, key, property) = decoder.name(
          countJSON, "a key path", path: path, { $0.keyPath($1, path: path, scope: scope) })
      else {
        return nil
      }
      if case .attribute? = property {
        decoder.fail(
          "\"\(key)\" is an attribute; count takes a to-many relationship",
          fix: "write {\"value\": \"\(variable).\(key)\", \"equals\": …} to compare a value",
          at: countJSON.location, path: path)
        return nil
      }
      guard let bound = countBound(json, path: path, in: &decoder) else { return nil }
      return .relationshipCount(variable: variable, key: key, bound: bound)
    }
    if json["count"] != nil {
      decoder.checkKeys(
        members, allowed: ["count", "in", "where", "equals", "atLeast", "atMost"], path: path,
        what: "an expect count")
      guard
        let entity = decoder.name(
          json["count"]!, "an entity name", path: path, { $0.entityName($1, path: path) })
      else { return nil }
      guard let inJSON = json["in"] else {
        decoder.fail(
          "\"expect\" count needs \"in\"", fix: "add \"in\": the context to count in",
          at: json.location, path: path)
        return nil
      }
      guard
        let context = decoder.name(
          inJSON, "a context name", path: path, { $0.contextName($1, path: path, scope: scope) })
      else { return nil }
      var request = FetchRequest(entity: entity.name)
      if let whereJSON = json["where"] {
        request.predicate = decoder.predicate(whereJSON, entity: entity, path: path, scope: scope)
      }
      guard let bound = countBound(json, path: path, in: &decoder) else { return nil }
      return .count(request, context: context, bound: bound)
    }
    if let valueJSON = json["value"] {
      decoder.checkKeys(members, allowed: ["value", "equals"], path: path, what: "an expect value")
      guard let text = decoder.string(valueJSON, path: path, what: "\"value\"") else { return nil }
      guard let equalsJSON = json["equals"], let equals = Value(literal: equalsJSON) else {
        decoder.fail(
          "\"expect\" value needs \"equals\": a literal",
          fix: "add \"equals\": the value the app should see", at: json.location, path: path)
        return nil
      }
      if text.contains(".") {
        guard
          let (variable, key, _) = decoder.name(
            valueJSON, "a key path", path: path, { $0.keyPath($1, path: path, scope: scope) })
        else {
          return nil
        }
        return .value(variable: variable, key: key, equals: equals)
      }
      guard
        let variable = decoder.name(
          valueJSON, "a variable name", path: path,
          { $0.variableName($1, path: path, scope: scope) })
      else { return nil }
      return .value(variable: variable, key: nil, equals: equals)
    }
    decoder.fail(
      "\"expect\" needs \"count\" or \"value\"",
      fix:
        "write {\"count\": ENTITY, \"in\": CONTEXT, \"equals\": n} or {\"value\": \"VAR.key\", \"equals\": v}",
      at: json.location, path: path)
    return nil
  }
}

extension ExpectVerb {
  /// Reads a step's arguments from its JSON; the memberwise initializer builds them directly.
  init(_ verb: Verb, _ arguments: StepArguments) {
    assertion = arguments.verbValue
  }
}
