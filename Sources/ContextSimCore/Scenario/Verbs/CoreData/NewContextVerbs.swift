/// `{"newContext": NAME, "queue": "private"|"main", "parent": …, …options}` and
/// `{"newBackgroundContext": NAME}`: a context made while the app runs.
///
/// Its name is bound like a variable, so later steps in scope may use it as a context.
struct NewContextVerbs: VerbFamily {
  enum Verb: String, CaseIterable {
    case newContext, newBackgroundContext
  }

  static func schema(of verb: Verb) -> StepSchema {
    switch verb {
    case .newContext: StepSchema(.string, RawContextOptions.schema)
    // Options set on the new context before its first use, as an app sets them.
    case .newBackgroundContext:
      StepSchema(
        .string, RawContextOptions.schema.filter { !["queue", "parent"].contains($0.name) })
    }
  }

  var verb: Verb
  var name: Field<String>
  /// The step's options, read as `"contexts"` reads a context's.
  var options: RawContextOptions

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
    if case .context = context.parent, case .present(let parent) = options.parent,
      decoder.contextName(parent, path: path, scope: scope) == nil
    {
      return nil
    }
    scope.bindings[name.value] = .context
    if verb == .newBackgroundContext {
      context.parent = .store
      return Statement(
        .newContext(context, background: true),
        swift: "let \(context.name) = container.newBackgroundContext()"
          + Self.optionsSwift(context))
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
      swift: "let \(context.name) = NSManagedObjectContext(concurrencyType: \(type)); \(parent)"
        + Self.optionsSwift(context))
  }
}

extension NewContextVerbs {
  /// `; bg.mergePolicy = NSMergePolicy.overwrite`: the options set after making it, as
  /// Swift sets them; nothing for the defaults.
  static func optionsSwift(_ context: ContextDescription) -> String {
    var lines: [String] = []
    if context.mergePolicy != .error {
      lines.append("\(context.name).mergePolicy = NSMergePolicy.\(context.mergePolicy.rawValue)")
    }
    if context.automaticallyMergesChangesFromParent {
      lines.append("\(context.name).automaticallyMergesChangesFromParent = true")
    }
    if !context.shouldDeleteInaccessibleFaults {
      lines.append("\(context.name).shouldDeleteInaccessibleFaults = false")
    }
    if let name = context.nameProperty { lines.append("\(context.name).name = \"\(name)\"") }
    if let author = context.transactionAuthor {
      lines.append("\(context.name).transactionAuthor = \"\(author)\"")
    }
    return lines.map { "; " + $0 }.joined()
  }

  /// Reads a step's arguments from its JSON; the memberwise initializer builds them directly.
  init(_ verb: Verb, _ arguments: StepArguments) {
    self.verb = verb
    name = arguments.string(what: "the new context's name")
    switch verb {
    case .newContext:
      options = arguments.contextOptions()
    case .newBackgroundContext:
      // `container.newBackgroundContext()`: a private queue on the store.
      let place = arguments.json.location
      options = arguments.contextOptions()
      options.queue = .present(Located(value: .privateQueue, location: place))
    }
  }
}
