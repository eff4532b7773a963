/// A step that names a context this run never made: its `newContext` was skipped by a
/// `"when"` (a drafted `init` that threw before it, say). Swift would not compile such a
/// use, and the app could not reach it; the scenario can, so the step is not run, and the
/// run says it passed a step it could not model instead of crashing ctxsim.
extension Simulation {
  /// The first context `step` names that this run has not made, if any.
  mutating func unmadeContext(in step: Step) -> String? {
    // Without a step that puts a context in a variable, every name is a declared context.
    guard scenario.features.bindsContexts else { return nil }
    return step.action.firstContextName { name in
      if case .context? = program.scopes[scope, name] { return false }
      return graph.declaredContext(named: name) == nil
    }
  }
}

extension Action {
  /// The first context the step names, by the name it uses, for which `test` holds.
  func firstContextName(where test: (String) -> Bool) -> String? {
    func first(_ names: [String]) -> String? { names.first(where: test) }
    switch self {
    case .perform(let c, _), .performAndWait(let c, _), .performAwait(let c, _, _),
      .insert(_, let c, _, _), .fetch(_, let c, _, _, _), .count(_, let c, _, _), .save(let c, _),
      .insertObject(_, let c), .reset(let c), .refreshAllObjects(let c),
      .obtainPermanentIDs(let c, _), .rollback(let c), .batchDelete(_, let c, _, _),
      .batchInsert(_, let c, _, _, _), .existingObject(_, let c, _, _), .object(_, let c, _),
      .contextProperty(let c, _, _), .setContextProperty(let c, _, _), .mergeChanges(_, let c),
      .fetchedResultsController(_, _, let c, _), .fetchHistory(let c, _, _, _),
      .expect(.count(_, let c, _)):
      return test(c) ? c : nil
    case .batchUpdate(_, let c, _, _, let into):
      return test(c) ? c : first(into)
    case .mergeRemoteChanges(_, let into):
      return first(into)
    case .newContext(let description, _):
      guard case .context(let parent) = description.parent else { return nil }
      return test(parent) ? parent : nil
    case .observe(_, let object?, _, _, _, _):
      return test(object) ? object : nil
    case .observe, .expect, .async, .whenIdle, .sync, .task, .taskGroup, .letValue, .get, .set,
      .objectID, .delete, .refresh, .objectState, .removeObserver, .notificationProperty,
      .performFetch, .controllerProperty, .transactionProperty, .read, .write, .forEach, .print,
      .notModelled:
      return nil
    }
  }
}
