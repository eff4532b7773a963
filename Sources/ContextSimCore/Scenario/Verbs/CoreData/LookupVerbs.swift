/// `{"objectID": VAR, "as": VAR}`, and `{"existingObject": "$id", "in": CONTEXT, "as": VAR}`
/// or `{"object": …}`: handing an object over between contexts by its ID.
///
/// `existingObject(with:)` throws when the row is gone; `object(with:)` never throws but
/// may hand back a fault that fails later.
struct LookupVerbs: VerbFamily {
  enum Verb: String, CaseIterable {
    case objectID, existingObject, object
  }

  static func schema(of verb: Verb) -> StepSchema {
    switch verb {
    case .objectID: StepSchema(.string, [.init("as", .string, required: true)])
    case .existingObject: StepSchema(.string, [.context, .bind, .try])
    case .object: StepSchema(.string, [.context, .bind])
    }
  }

  var verb: Verb
  var object: Field<String>
  var id: JSONValue
  var context: Field<String>
  var bind: Field<String>
  var tryMode: Field<TryMode>

  func statement(_ step: StepSite, scope: inout StepScope, in decoder: inout ScenarioDecoder)
    -> Statement?
  {
    if verb == .objectID { return objectID(step, scope: &scope, in: &decoder) }
    let path = step.path
    guard let id = decoder.expression(id, path: path, scope: scope, attribute: nil),
      let context = decoder.required(
        context, "in", step, what: "the context to look the object up in"
      ).flatMap({ decoder.contextName($0, path: path, scope: scope) })
    else { return nil }
    var type = BindingType.unknown
    if case .variable(let name) = id, case .objectID(let entity)? = scope.bindings[name] {
      type = .object(entity: entity)
    }
    let bind = decoder.binding(self.bind, type, step, scope: &scope)
    let assign = SwiftSource.assign(bind)
    if verb == .object {
      return Statement(
        .object(id: id, context: context, bind: bind),
        swift: "\(assign)\(context).object(with: \(id.swift))")
    }
    let mode = decoder.tryMode(tryMode)
    return Statement(
      .existingObject(id: id, context: context, bind: bind, try: mode),
      swift: "\(assign)\(mode.keyword) \(context).existingObject(with: \(id.swift))")
  }

  /// `let id = object.objectID`, typed by the object's entity when it is known.
  private func objectID(
    _ step: StepSite, scope: inout StepScope, in decoder: inout ScenarioDecoder
  ) -> Statement? {
    guard let variable = decoder.variable(object, step, scope: scope) else { return nil }
    guard !bind.isAbsent else {
      decoder.fail(
        "\"objectID\" needs \"as\"", fix: "add \"as\": \"\(variable)ID\"", at: step.location,
        path: step.path)
      return nil
    }
    let entity: String? =
      switch scope.bindings[variable] {
      case .object(let entity)?: entity
      default: nil
      }
    let type = entity.map { BindingType.objectID(entity: $0) } ?? .unknown
    guard let bind = decoder.binding(self.bind, type, step, scope: &scope) else { return nil }
    return Statement(
      .objectID(variable: variable, bind: bind), swift: "let \(bind) = \(variable).objectID")
  }
}

extension LookupVerbs {
  /// Reads a step's arguments from its JSON; the memberwise initializer builds them directly.
  init(_ verb: Verb, _ arguments: StepArguments) {
    self.verb = verb
    object = arguments.string(what: "a variable name")
    id = arguments.verbValue
    context = arguments.string("in", what: "a context name")
    bind = arguments.string("as", what: "\"as\"")
    tryMode = arguments.tryMode()
  }
}
