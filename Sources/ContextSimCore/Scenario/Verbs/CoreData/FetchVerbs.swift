/// `{"fetch": ENTITY, "in": CONTEXT, "where": {…}, "sortBy": [{"key": K, "ascending": bool}],
/// "limit": N, "as": VAR, "first": bool}` and `{"count": ENTITY, "in": CONTEXT, "where": {…},
/// "as": VAR}`: a fetch request.
struct FetchVerbs: VerbFamily {
  enum Verb: String, CaseIterable {
    case fetch, count
  }

  static func schema(of verb: Verb) -> StepSchema {
    switch verb {
    case .fetch:
      StepSchema(
        .string,
        [
          .context, .predicate, .init("sortBy", .definition("sortBy")),
          .init("limit", .atLeast(1)), .bind, .init("first", .boolean), .try,
        ])
    case .count: StepSchema(.string, [.context, .predicate, .bind, .try])
    }
  }

  var verb: Verb
  var entity: Field<String>
  var context: Field<String>
  var predicate: Field<JSONValue>
  var sortBy: Field<JSONValue>
  var limit: Field<JSONValue>
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
    var request = FetchRequest(entity: entity.name)
    if let json = decoder.read(predicate) {
      request.predicate = decoder.predicate(json.value, entity: entity, path: path, scope: scope)
    }
    if let json = decoder.read(sortBy) {
      request.sortDescriptors = decoder.sortDescriptors(json.value, entity: entity, path: path)
    }
    if let json = decoder.read(limit) {
      request.fetchLimit = decoder.fetchLimit(json.value, path: path)
    }
    let mode = decoder.tryMode(tryMode)
    let (setup, argument) = SwiftSource.request(request, of: entity)
    switch verb {
    case .count:
      let bind = decoder.binding(self.bind, .value, step, scope: &scope)
      return Statement(
        .count(request, context: context, bind: bind, try: mode),
        swift:
          "\(setup)\(SwiftSource.assign(bind))\(mode.keyword) \(context).count(for: \(argument))"
      )
    case .fetch:
      let first = decoder.read(first)?.value ?? false
      let bind = decoder.binding(
        self.bind, first ? .object(entity: entity.name) : .objects(entity: entity.name), step,
        scope: &scope)
      return Statement(
        .fetch(request, context: context, first: first, bind: bind, try: mode),
        swift:
          "\(setup)\(SwiftSource.assign(bind))\(mode.keyword) \(context).fetch(\(argument))\(first ? ".first" : "")"
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
    sortBy = arguments.value("sortBy")
    limit = arguments.value("limit")
    tryMode = arguments.tryMode()
    first = arguments.bool("first", what: "\"first\"")
    bind = arguments.string("as", what: "\"as\"")
  }
}
