/// `{"forEach": [values] or "$var", "as": VAR, "do": [steps]}`: a `for` loop, whose body
/// binds into the scope around it as any synchronous code does.
struct ForEachVerb: VerbFamily {
  enum Verb: String, CaseIterable {
    case forEach
  }

  static func keys(of verb: Verb) -> [String] { ["as", "do"] }

  var sequence: JSONValue
  var bind: Field<String>
  var body: Field<[RawStep]>

  func statement(_ step: StepSite, scope: inout StepScope, in decoder: inout ScenarioDecoder)
    -> Statement?
  {
    guard let sequence = decoder.expression(sequence, path: step.path, scope: scope, attribute: nil)
    else { return nil }
    var elementType = BindingType.value
    if case .variable(let name) = sequence {
      switch scope.bindings[name] {
      case .objects(let entity)?: elementType = .object(entity: entity)
      case .value?: elementType = .value
      default: elementType = .unknown
      }
    }
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
  /// Reads a step's arguments from its JSON; the memberwise initializer builds them directly.
  init(_ verb: Verb, _ arguments: StepArguments) {
    sequence = arguments.verbValue
    bind = arguments.string("as", what: "\"as\"")
    body = arguments.steps()
  }
}
