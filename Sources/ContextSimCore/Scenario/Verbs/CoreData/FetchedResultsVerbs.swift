/// `{"fetchedResultsController": NAME, "entity": ENTITY, "in": CONTEXT, "where": {…},
/// "sortBy": […], "delegate": [steps]}` and `{"performFetch": NAME}`: an
/// `NSFetchedResultsController` and its first fetch (semantics-2 §4).
///
/// The delegate is what `controllerDidChangeContent(_:)` does: it runs inside the context's
/// `processPendingChanges`, after the controller has taken in the changes. Like an
/// observer's body it is an escaping closure: it sees what was bound when the controller
/// was made, and what it binds stays inside it.
struct FetchedResultsVerbs: VerbFamily {
  enum Verb: String, CaseIterable {
    case fetchedResultsController, performFetch
  }

  static func schema(of verb: Verb) -> StepSchema {
    switch verb {
    case .fetchedResultsController:
      StepSchema(
        .string,
        [
          .init("entity", .string, required: true), .context, .predicate,
          .init("sortBy", .definition("sortBy")), .init("delegate", .definition("steps")),
        ])
    case .performFetch: StepSchema(.string, [.try])
    }
  }

  var verb: Verb
  var name: Field<String>
  var entity: Field<String>
  var context: Field<String>
  var predicate: Field<JSONValue>
  var sortBy: Field<JSONValue>
  var delegate: Field<[RawStep]>
  var tryMode: Field<TryMode>

  func statement(_ step: StepSite, scope: inout StepScope, in decoder: inout ScenarioDecoder)
    -> Statement?
  {
    guard let name = decoder.read(name) else { return nil }
    switch verb {
    case .performFetch:
      guard let controller = decoder.variableName(name, path: step.path, scope: scope) else {
        return nil
      }
      guard case .controller? = scope.bindings[controller] else {
        decoder.fail(
          "\"\(controller)\" is not a fetched results controller",
          fix: "make one with {\"fetchedResultsController\": \"\(controller)\", …}",
          at: name.location, path: step.path)
        return nil
      }
      let mode = decoder.tryMode(tryMode)
      return Statement(
        .performFetch(controller: controller, try: mode),
        swift: "\(mode.keyword) \(controller).performFetch()")
    case .fetchedResultsController:
      let entity = decoder.required(self.entity, "entity", step, what: "the entity it lists")
        .flatMap { decoder.entityName($0, path: step.path) }
      let context = decoder.required(context, "in", step, what: "the context it fetches in")
        .flatMap { decoder.contextName($0, path: step.path, scope: scope) }
      guard let entity, let context,
        let bound = decoder.binding(
          self.name, .controller(entity: entity.name), step, scope: &scope)
      else { return nil }
      var request = FetchRequest(entity: entity.name)
      if let json = decoder.read(predicate) {
        request.predicate = decoder.predicate(
          json.value, entity: entity, path: step.path, scope: scope)
      }
      if let json = decoder.read(sortBy) {
        request.sortDescriptors = decoder.sortDescriptors(
          json.value, entity: entity, path: step.path)
      }
      var body: [Step]?
      if !delegate.isAbsent {
        body = decoder.blockBody(delegate, key: "delegate", step, scope: &scope, synchronous: false)
      }
      let (setup, argument) = SwiftSource.request(request, of: entity)
      return Statement(
        .fetchedResultsController(
          name: bound, request: request, context: context, delegate: body),
        swift: "\(setup)let \(bound) = NSFetchedResultsController(fetchRequest: \(argument), "
          + "managedObjectContext: \(context), sectionNameKeyPath: nil, cacheName: nil)"
          + (body == nil
            ? ""
            : "; \(bound).delegate = self; "
              + "func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {")
      )
    }
  }
}

extension FetchedResultsVerbs {
  /// Reads a step's arguments from its JSON; the memberwise initializer builds them directly.
  init(_ verb: Verb, _ arguments: StepArguments) {
    self.verb = verb
    name = arguments.string(what: "the controller's name")
    entity = arguments.string("entity", what: "an entity name")
    context = arguments.string("in", what: "a context name")
    predicate = arguments.value("where")
    sortBy = arguments.value("sortBy")
    delegate = arguments.steps("delegate")
    tryMode = arguments.tryMode()
  }
}
