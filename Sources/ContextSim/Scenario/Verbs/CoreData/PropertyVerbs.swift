/// `{"get": "VAR.key", "as": VAR}` and `{"set": "VAR.key", "to": value}`: reading and writing
/// an attribute or relationship of a managed object; a read fires the fault.
///
/// A relationship takes objects named by `$variables` (or null for a to-one), never a
/// literal; an attribute takes a literal of its type.
struct PropertyVerbs: VerbFamily {
  enum Verb: String, CaseIterable {
    case get, set
  }

  static func keys(of verb: Verb) -> [String] {
    switch verb {
    case .get: ["as"]
    case .set: ["to"]
    }
  }

  var verb: Verb
  var keyPath: Field<String>
  var bind: Field<String>
  var value: Field<JSONValue>

  func statement(_ step: StepSite, scope: inout StepScope, in decoder: inout ScenarioDecoder)
    -> Statement?
  {
    let path = step.path
    guard let text = decoder.read(keyPath),
      let (variable, key, property) = decoder.keyPath(text, path: path, scope: scope)
    else { return nil }
    switch verb {
    case .get:
      let bind = decoder.binding(self.bind, property?.bindingType ?? .unknown, step, scope: &scope)
      return Statement(
        .get(variable: variable, key: key, bind: bind),
        swift: "\(SwiftSource.assign(bind))\(variable).\(key)")
    case .set:
      guard let json = decoder.required(value, "to", step, what: "the new value")?.value else {
        return nil
      }
      let value: Expression?
      switch property {
      case .relationship(let relationship)?:
        value = decoder.relationshipValue(json, relationship, path: path, scope: scope)
      case .attribute(let attribute)?:
        value = decoder.expression(json, path: path, scope: scope, attribute: attribute)
      case nil:
        value = decoder.expression(json, path: path, scope: scope, attribute: nil)
      }
      return value.map {
        Statement(
          .set(variable: variable, key: key, value: $0), swift: "\(variable).\(key) = \($0.swift)")
      }
    }
  }
}

extension PropertyVerbs {
  /// Reads a step's arguments from its JSON; the memberwise initializer builds them directly.
  init(_ verb: Verb, _ arguments: StepArguments) {
    self.verb = verb
    keyPath = arguments.string(what: "a key path")
    bind = arguments.string("as", what: "\"as\"")
    value = arguments.value("to")
  }
}
