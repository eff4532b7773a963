/// `{"let": NAME, "value": v}`, and `{"read": VAR}` / `{"write": VAR, "value": v}` on a
/// shared var declared in `"vars"`, whose every access is checked for data races.
struct VariableVerbs: VerbFamily {
  enum Verb: String, CaseIterable {
    case `let`, read, write
  }

  static func schema(of verb: Verb) -> StepSchema {
    switch verb {
    case .let, .write: StepSchema(.string, [.init("value", .anything, required: true)])
    case .read: StepSchema(.string, [.bind])
    }
  }

  var verb: Verb
  var name: Field<String>
  var value: Field<JSONValue>
  var bind: Field<String>

  func statement(_ step: StepSite, scope: inout StepScope, in decoder: inout ScenarioDecoder)
    -> Statement?
  {
    let path = step.path
    switch verb {
    case .let:
      guard let json = decoder.required(value, "value", step, what: "the value to bind"),
        let value = decoder.expression(json.value, path: path, scope: scope, attribute: nil),
        let name = decoder.read(name)
      else { return nil }
      guard isIdentifier(name.value), !decoder.sharedVars.contains(name.value) else {
        decoder.fail(
          "\"\(name.value)\" cannot be bound with let",
          fix: "use letters, digits and _, and not the name of a shared var", at: name.location,
          path: path)
        return nil
      }
      var type = Self.type(of: value, scope)
      if case .list(let items) = value, items.isEmpty,
        case .objects? = scope.bindings[name.value]
      {
        // `let notes = []` of a name that holds a list of objects: none of them, still a
        // list of that entity's objects (a helper's `return []` on one of its paths).
        type = scope.bindings[name.value] ?? type
      }
      scope.bindings[name.value] = type
      return Statement(
        .letValue(name: name.value, value: value), swift: "let \(name.value) = \(value.swift)")
    case .read:
      guard let name = decoder.read(name), let variable = decoder.sharedVariable(name, path: path)
      else { return nil }
      let bind = decoder.binding(self.bind, .unknown, step, scope: &scope)
      return Statement(
        .read(variable: variable, bind: bind),
        swift: "\(SwiftSource.assign(bind))self.\(variable)")
    case .write:
      guard let name = decoder.read(name), let variable = decoder.sharedVariable(name, path: path),
        let json = decoder.required(value, "value", step, what: "the value to write"),
        let value = decoder.expression(json.value, path: path, scope: scope, attribute: nil)
      else { return nil }
      return Statement(
        .write(variable: variable, value: value), swift: "self.\(variable) = \(value.swift)")
    }
  }
}

extension VariableVerbs {
  /// What `let` binds: another variable's object, list of objects or IDs stays one, as
  /// `let b = a` does in Swift; a list of object IDs stays one, typed
  /// by their entity when they share one, so a batch request or a merge can take it;
  /// anything else is a plain value.
  fileprivate static func type(of value: Expression, _ scope: StepScope) -> BindingType {
    if let name = value.variableName, let type = scope.bindings[name] {
      switch type {
      case .object, .objects, .objectID, .objectIDs: return type
      default: break  // a context stays the one its own name binds
      }
    }
    guard case .list(let items) = value, !items.isEmpty else { return .value }
    let entities = items.map { item -> String? in
      guard case .objectID(let entity)? = item.variableName.flatMap({ scope.bindings[$0] })
      else { return nil }
      return entity
    }
    guard entities.allSatisfy({ $0 != nil }) else { return .value }
    return Set(entities).count == 1 ? .objectIDs(entity: entities[0]!) : .unknown
  }
}

extension VariableVerbs {
  /// Reads a step's arguments from its JSON; the memberwise initializer builds them directly.
  init(_ verb: Verb, _ arguments: StepArguments) {
    self.verb = verb
    name = arguments.string(what: verb == .let ? "a variable name" : "a shared var")
    value = arguments.value("value")
    bind = arguments.string("as", what: "\"as\"")
  }
}
