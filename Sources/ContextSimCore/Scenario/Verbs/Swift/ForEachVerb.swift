/// `{"forEach": [values] or "$var", "as": VAR, "do": [steps]}`: a `for` loop, whose body
/// binds into the scope around it as any synchronous code does.
struct ForEachVerb: VerbFamily {
  enum Verb: String, CaseIterable {
    case forEach
  }

  static func schema(of verb: Verb) -> StepSchema {
    StepSchema(.types(["array", "string"]), [.init("as", .string, required: true), .body])
  }

  var sequence: JSONValue
  var bind: Field<String>
  var body: Field<[RawStep]>

  func statement(_ step: StepSite, scope: inout StepScope, in decoder: inout ScenarioDecoder)
    -> Statement?
  {
    guard let sequence = decoder.expression(sequence, path: step.path, scope: scope, attribute: nil)
    else { return nil }
    let elementType = Self.elementType(of: sequence, scope: scope)
    guard !bind.isAbsent else {
      decoder.fail(
        "\"forEach\" needs \"as\"", fix: "add \"as\": the name each element is bound to",
        at: step.location, path: step.path)
      return nil
    }
    guard let bind = decoder.binding(bind, elementType, step, scope: &scope) else { return nil }
    let body = decoder.blockBody(body, step, scope: &scope, synchronous: true)
    return Statement(
      .forEach(sequence: sequence, bind: bind, body: body),
      swift: "for \(bind) in \(sequence.swift) {")
  }
}

extension ForEachVerb {
  /// What the loop binds each turn, so the body's key paths are checked against the entity:
  /// an object of a fetched list, or of a literal list whose items are all alike
  /// (`["$inbox", "$archive"]`). A single object or ID runs the loop once, with itself.
  static func elementType(of sequence: Expression, scope: StepScope) -> BindingType {
    func item(_ expression: Expression) -> BindingType {
      switch expression {
      case .literal: return .value
      case .list: return .unknown
      case .variable(let name):
        switch scope.bindings[name] {
        case .object(let entity)?: return .object(entity: entity)
        case .objectID(let entity)?: return .objectID(entity: entity)
        case .value?: return .value
        default: return .unknown
        }
      }
    }
    switch sequence {
    case .variable(let name):
      if case .objects(let entity)? = scope.bindings[name] { return .object(entity: entity) }
      if case .objectIDs(let entity)? = scope.bindings[name] { return .objectID(entity: entity) }
      if scope.bindings[name] == .transactions { return .transaction }
      return item(sequence)
    case .list(let items):
      let types = items.map(item)
      guard let first = types.first else { return .value }
      return types.allSatisfy { $0 == first } ? first : .unknown
    case .literal:
      return .value
    }
  }

  /// Reads a step's arguments from its JSON; the memberwise initializer builds them directly.
  init(_ verb: Verb, _ arguments: StepArguments) {
    sequence = arguments.verbValue
    bind = arguments.string("as", what: "\"as\"")
    body = arguments.steps()
  }
}
