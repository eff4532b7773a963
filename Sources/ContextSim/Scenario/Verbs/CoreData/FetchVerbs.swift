/// `{"fetch": ENTITY, "in": CONTEXT, "where": {key: value}, "as": VAR, "first": bool}` and
/// `{"count": ENTITY, "in": CONTEXT, "where": {…}, "as": VAR}`: a fetch request.
struct FetchVerbs: VerbFamily {
  enum Verb: String, CaseIterable {
    case fetch, count
  }

  static func keys(of verb: Verb) -> [String] {
    switch verb {
    case .fetch: ["in", "where", "as", "first", "try"]
    case .count: ["in", "where", "as", "try"]
    }
  }

  var verb: Verb
  var entity: Field<String>
  var context: Field<String>
  var predicate: Field<JSONValue>
  var tryMode: Field<TryMode>
  var first: Field<Bool>
  var bind: Field<String>

  func statement(_ step: StepSite, scope: inout StepScope, in decoder: inout ScenarioDecoder)
    -> Statement?
  {
    let path = step.path
    let entity = decoder.entity(entity, step)
    let context = decoder.required(context, "in", step, what: "the context to \(verb) in")
      .flatMap { decoder.contextName($0, path: path, scope: scope) }
    guard let entity, let context else { return nil }
    let predicate =
      decoder.read(predicate).map {
        decoder.attributeValues($0.value, entity: entity, path: path, scope: scope)
      } ?? []
    let mode = decoder.tryMode(tryMode)
    let request = SwiftSource.request(entity.name, predicate)
    switch verb {
    case .count:
      let bind = decoder.binding(self.bind, .value, step, scope: &scope)
      return Statement(
        .count(entity: entity.name, context: context, predicate: predicate, bind: bind, try: mode),
        swift: "\(SwiftSource.assign(bind))\(mode.keyword) \(context).count(for: \(request))")
    case .fetch:
      let first = decoder.read(first)?.value ?? false
      let bind = decoder.binding(
        self.bind, first ? .object(entity: entity.name) : .objects(entity: entity.name), step,
        scope: &scope)
      return Statement(
        .fetch(
          entity: entity.name, context: context, predicate: predicate, first: first, bind: bind,
          try: mode),
        swift:
          "\(SwiftSource.assign(bind))\(mode.keyword) \(context).fetch(\(request))\(first ? ".first" : "")"
      )
    }
  }
}

extension FetchVerbs {
  /// Reads a step's arguments from its JSON; the memberwise initializer builds them directly.
  init(_ verb: Verb, _ arguments: StepArguments) {
    self.verb = verb
    entity = arguments.string(what: "an entity name")
    context = arguments.string("in", what: "a context name")
    predicate = arguments.value("where")
    tryMode = arguments.tryMode()
    first = arguments.bool("first", what: "\"first\"")
    bind = arguments.string("as", what: "\"as\"")
  }
}
