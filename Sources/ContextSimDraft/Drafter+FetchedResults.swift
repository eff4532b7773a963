import ContextSimCore
import ContextSimReports

/// Fetched results controllers: `NSFetchedResultsController(fetchRequest:managedObjectContext:…)`,
/// its delegate's `controllerDidChangeContent(_:)`, `performFetch()` and `fetchedObjects`.
extension Drafter {
  /// `NSFetchedResultsController(…)` bound to `name`: the controller, with the delegate body
  /// when the files set `name.delegate = self` and the class has `controllerDidChangeContent`.
  mutating func fetchedResultsController(
    _ call: Call, named name: String, at statement: SwiftStatement
  )
    -> [JSONValue]?
  {
    guard call.method == "NSFetchedResultsController",
      let request = fetchRequest(call.argument("fetchRequest")), request.unreadPredicate == nil,
      let contextArgument = call.argument("managedObjectContext")
    else { return nil }
    // A context made in the call (`container.newBackgroundContext()`) is made first.
    var made: [JSONValue] = []
    if resolve(contextArgument) == nil, Call(contextArgument) != nil {
      made = expressionSteps(contextArgument, result: name + "Context", at: statement)
    }
    guard case .context(let context)? = resolve(contextArgument) ?? meaning(of: name + "Context")
    else { return nil }
    model.addEntity(request.entity, fetched: true)
    madeControllers.insert(name)  // before its delegate's body, which may read it
    let conditions = Self.whereClause(request.conditions)
    var delegate: JSONValue?
    let setsDelegate = compactLines.contains { $0.contains("\(name).delegate=self") }
    if setsDelegate,
      let (type, function) = method(named: "controllerDidChangeContent", receiver: nil)
    {
      let saved = subject
      subject = type ?? subject
      defer { subject = saved }
      // The delegate runs on whichever thread processes the context's changes.
      delegate = .array(
        onThread(main: context == "viewContext" ? true : nil) { outer in
          outer.scoped { drafter in
            if let parameter = function.parameters.first {
              drafter.bind(parameter.name, .controller(name, entity: request.entity))
            }
            return drafter.steps(function.body ?? [])
          }
        })
    }
    bind(name, .controller(name, entity: request.entity))
    return made + [
      step(
        [
          "fetchedResultsController": .string(name), "entity": .string(request.entity),
          "in": .string(context), "where": conditions, "delegate": delegate,
        ], at: statement)
    ]
  }
}
