/// `{"newContext": NAME, "queue": "private"|"main", "parent": …, …options}` and
/// `{"newBackgroundContext": NAME}`: a context made while the app runs.
///
/// Its name is bound like a variable, so later steps in scope may use it as a context.
struct NewContextVerbs: VerbFamily {
  enum Verb: String, CaseIterable {
    case newContext, newBackgroundContext
  }

  static func keys(of verb: Verb) -> [String] {
    switch verb {
    case .newContext: ScenarioDecoder.contextOptionKeys
    case .newBackgroundContext: []
    }
  }

  var verb: Verb
  var name: Field<String>
  /// The step itself, read as a context's options as `"contexts"` reads them.
  var options: JSONValue

  func statement(_ step: StepSite, scope: inout StepScope, in decoder: inout ScenarioDecoder)
    -> Statement?
  {
    let path = step.path
    guard let name = decoder.read(name) else { return nil }
    guard isIdentifier(name.value), !["main", "global"].contains(name.value) else {
      decoder.fail(
        "\"\(name.value)\" cannot name a context",
        fix: "use letters, digits and _, and not main or global", at: name.location, path: path)
      return nil
    }
    guard
      var context = decoder.contextOptions(
        options, name: name.value, requiresQueue: true, path: path)
    else { return nil }
    if let parent = options["parent"], case .context = context.parent,
      decoder.name(
        parent, "a context name", path: path, { $0.contextName($1, path: path, scope: scope) })
        == nil
    {
      return nil
    }
    scope.bindings[name.value] = .context
    if verb == .newBackgroundContext {
      context.parent = .store
      return Statement(
        .newContext(context, background: true),
        swift: "let \(context.name) = container.newBackgroundContext()")
    }
    let type =
      context.concurrencyType == .mainQueue
      ? ".mainQueueConcurrencyType" : ".privateQueueConcurrencyType"
    let parent =
      switch context.parent {
      case .store:
        "\(context.name).persistentStoreCoordinator = container.persistentStoreCoordinator"
      case .context(let parent): "\(context.name).parent = \(parent)"
      }
    return Statement(
      .newContext(context, background: false),
      swift: "let \(context.name) = NSManagedObjectContext(concurrencyType: \(type)); \(parent)")
  }
}

extension NewContextVerbs {
  /// Reads a step's arguments from its JSON; the memberwise initializer builds them directly.
  init(_ verb: Verb, _ arguments: StepArguments) {
    self.verb = verb
    name = arguments.string(what: "the new context's name")
    options =
      verb == .newBackgroundContext
      ? JSONValue.object(["queue": .string("private")]) : arguments.json
  }
}
