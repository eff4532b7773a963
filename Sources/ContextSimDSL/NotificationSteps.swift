import ContextSimCore

/// `NotificationCenter.default.addObserver(forName:object:queue:using:)` for a context
/// notification; its body sees the notification as `as`.
public struct Observe: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// - Parameters:
  ///   - object: the context it listens to; nil for every context.
  ///   - queue: the queue its body runs on while the poster waits; nil for the posting thread.
  ///   - notification: the name the body calls the notification by.
  ///   - token: the name the returned token is bound to, for `RemoveObserver`.
  public init(
    _ name: NotificationName, object: String? = nil, queue: String? = nil,
    as notification: String, token: String? = nil, line: Int = #line, column: Int = #column,
    @StepsBuilder _ body: () -> [any ScenarioStep]
  ) {
    json = StepJSON(
      "observe", .string(name.rawValue),
      [
        "object": object.map(Literal.string), "queue": queue.map(Literal.string),
        "as": .string(notification), "token": token.map(Literal.string),
      ], body: [("do", body())], line: line, column: column)
  }
}

/// `NotificationCenter.default.removeObserver(token)`.
public struct RemoveObserver: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// `line` and `column` default to the call's place, where errors about the step point.
  public init(_ token: String, line: Int = #line, column: Int = #column) {
    json = StepJSON("removeObserver", .string(token), line: line, column: column)
  }
}

/// `context.mergeChanges(fromContextDidSave: notification)`.
public struct MergeChanges: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// `line` and `column` default to the call's place, where errors about the step point.
  public init(
    _ notification: String, into context: String, line: Int = #line, column: Int = #column
  ) {
    json = StepJSON(
      "mergeChanges", .string(notification), ["into": .string(context)], line: line,
      column: column)
  }
}

/// `NSFetchedResultsController(fetchRequest:managedObjectContext:…)`, bound to `name`, with
/// what its delegate's `controllerDidChangeContent(_:)` does, if it has a delegate.
public struct FetchedResultsController: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// A controller without a delegate, which tracks no changes.
  ///
  /// - Parameters:
  ///   - predicate: the `where` of the request, as a fetch writes it.
  ///   - sortBy: the sort descriptors, as a fetch writes them.
  public init(
    _ name: String, entity: String, in context: String, where predicate: Literal? = nil,
    sortBy: Literal? = nil, line: Int = #line, column: Int = #column
  ) {
    json = StepJSON(
      "fetchedResultsController", .string(name),
      ["entity": .string(entity), "in": .string(context), "where": predicate, "sortBy": sortBy],
      line: line, column: column)
  }

  /// A controller with a delegate, whose `controllerDidChangeContent(_:)` is `delegate`.
  public init(
    _ name: String, entity: String, in context: String, where predicate: Literal? = nil,
    sortBy: Literal? = nil, line: Int = #line, column: Int = #column,
    @StepsBuilder delegate: () -> [any ScenarioStep]
  ) {
    json = StepJSON(
      "fetchedResultsController", .string(name),
      ["entity": .string(entity), "in": .string(context), "where": predicate, "sortBy": sortBy],
      body: [("delegate", delegate())], line: line, column: column)
  }
}

/// `try controller.performFetch()`.
public struct PerformFetch: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// `line` and `column` default to the call's place, where errors about the step point.
  public init(
    _ controller: String, try mode: TryMode = .do, line: Int = #line, column: Int = #column
  ) {
    json = StepJSON(
      "performFetch", .string(controller), ["try": mode.literal], line: line, column: column)
  }
}
