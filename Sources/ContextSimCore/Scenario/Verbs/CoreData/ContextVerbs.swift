/// `{"save": CONTEXT}`, `{"reset": CONTEXT}`, `{"rollback": CONTEXT}`,
/// `{"refreshAllObjects": CONTEXT}` and `{"obtainPermanentIDs": CONTEXT}`: the context
/// methods that take no object.
struct ContextVerbs: VerbFamily {
  enum Verb: String, CaseIterable {
    case save, reset, rollback, refreshAllObjects, obtainPermanentIDs
  }

  static func schema(of verb: Verb) -> StepSchema {
    switch verb {
    case .save, .obtainPermanentIDs: StepSchema(.string, [.try])
    case .reset, .rollback, .refreshAllObjects: StepSchema(.string)
    }
  }

  var verb: Verb
  var context: Field<String>
  var tryMode: Field<TryMode>

  func statement(_ step: StepSite, scope: inout StepScope, in decoder: inout ScenarioDecoder)
    -> Statement?
  {
    guard let context = decoder.context(context, step, scope: scope) else { return nil }
    switch verb {
    case .save:
      let mode = decoder.tryMode(tryMode)
      return Statement(
        .save(context: context, try: mode), swift: "\(mode.keyword) \(context).save()")
    case .obtainPermanentIDs:
      let mode = decoder.tryMode(tryMode)
      return Statement(
        .obtainPermanentIDs(context: context, try: mode),
        swift:
          "\(mode.keyword) \(context).obtainPermanentIDs(for: Array(\(context).insertedObjects))")
    case .reset:
      return Statement(.reset(context: context), swift: "\(context).reset()")
    case .rollback:
      return Statement(.rollback(context: context), swift: "\(context).rollback()")
    case .refreshAllObjects:
      return Statement(
        .refreshAllObjects(context: context), swift: "\(context).refreshAllObjects()")
    }
  }
}

extension ContextVerbs {
  /// Reads a step's arguments from its JSON; the memberwise initializer builds them directly.
  init(_ verb: Verb, _ arguments: StepArguments) {
    self.verb = verb
    context = arguments.string(what: "a context name")
    tryMode = arguments.tryMode()
  }
}
