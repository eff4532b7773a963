/// The run-time table of verbs: what each step does when its thread takes it.
///
/// One case per `Action`, and no `default:`, so a verb added to the format does not compile
/// until it says what it does here. Each line hands the step to the file that owns its
/// part of the model (Dispatch, CoreData, Batch, State, Notifications, FetchedResults,
/// History, Swift); the checks a step makes before it runs (the queue rule, parent
/// requests) are in those methods and in `runRequestingParents`.
extension Simulation {
  mutating func execute(_ step: Step) {
    if deliverIfDelivering(step) { return }
    if let name = unmadeContext(in: step) {
      return runNotModelled(
        why: "`\(name)` was never made on this run: the step that makes it did not run")
    }
    switch step.action {
    // Queues and threads
    case .async(let queue, let body):
      enqueue(body, on: queueIndex(queue), from: step)
    case .whenIdle(let body):
      postEvent(body, from: step)
    case .sync(let queue, let body):
      runSynchronously(body, on: queueIndex(queue), from: step, reentrant: false)
    case .perform(let context, let body):
      enqueue(body, on: graph.contexts[contextIndex(context)].queue, from: step)
    case .performAndWait(let context, let body):
      // Re-entrant: on a thread already running the context's queue, the block runs inline.
      runSynchronously(
        body, on: graph.contexts[contextIndex(context)].queue, from: step, reentrant: true)
    case .task(let executor, let body):
      startTask(executor, body: body, from: step)
    case .performAwait(let context, let schedule, let body):
      performAwait(context, schedule: schedule, body: body, from: step)
    case .taskGroup(let sequence, let name, let child, let then):
      startTaskGroup(over: sequence, as: name, child: child, then: then, from: step)
    case .letValue(let name, let value):
      runLetValue(name: name, value: value)

    // Core Data
    case .insert(let entity, let context, let values, let bind):
      runInsert(entity: entity, context: context, values: values, bind: bind)
    case .fetch(let request, let context, let first, let bind, let mode):
      runFetch(request, context: context, first: first, bind: bind, try: mode)
    case .count(let request, let context, let bind, let mode):
      runCount(request, context: context, bind: bind, try: mode)
    case .get(let variable, let key, let bind):
      runGet(variable: variable, key: key, bind: bind)
    case .set(let variable, let key, let expression):
      runSet(variable: variable, key: key, value: expression)
    case .save(let context, let mode):
      runSave(context: context, try: mode, step: step)
    case .objectID(let variable, let bind):
      runObjectID(variable: variable, bind: bind)
    case .newContext(let description, _):
      makeContext(description)
    case .insertObject(let variable, let context):
      runInsertObject(variable: variable, context: context)
    case .delete(let variable):
      runDelete(variable: variable)
    case .refresh(let variable, let merge):
      runRefresh(variable: variable, merge: merge)
    case .reset(let context):
      runReset(context: context)
    case .refreshAllObjects(let context):
      runRefreshAllObjects(context: context)
    case .obtainPermanentIDs(let context, _):
      runObtainPermanentIDs(context: context)
    case .rollback(let context):
      runRollback(context: context)
    case .batchUpdate(let entity, let context, let predicate, let values, let mergeInto):
      runBatchUpdate(
        entity: entity, context: context, predicate: predicate, values: values,
        mergeInto: mergeInto, step: step)
    case .batchDelete(let target, let context, let bind, let mode):
      runBatchDelete(target, context: context, bind: bind, try: mode)
    case .batchInsert(let entity, let context, let objects, let bind, let mode):
      runBatchInsert(entity: entity, context: context, objects: objects, bind: bind, try: mode)
    case .mergeRemoteChanges(let changes, let into):
      runMergeRemoteChanges(changes, into: into, step: step)
    case .existingObject(let id, let context, let bind, let mode):
      lookUp(id, in: context, bind: bind, existing: true, mode: mode)
    case .object(let id, let context, let bind):
      lookUp(id, in: context, bind: bind, existing: false, mode: .do)
    case .contextProperty(let context, let property, let bind):
      runContextProperty(context: context, property: property, bind: bind)
    case .setContextProperty(let context, let property, let value):
      runSetContextProperty(context: context, property: property, value: value)
    case .objectState(let variable, let property, let bind):
      runObjectState(variable: variable, property: property, bind: bind)
    case .observe:
      observe(step)
    case .removeObserver(let token):
      removeObserver(token)
    case .mergeChanges(let notification, let context):
      mergeChanges(notification, into: context)
    case .notificationProperty(let variable, let key, let bind):
      read(key, of: variable, bind: bind)
    case .fetchedResultsController(let name, let request, let context, let delegate):
      makeController(name, request: request, in: context, delegate: delegate, step: step)
    case .performFetch(let controller, let mode):
      performFetch(controller, mode: mode)
    case .controllerProperty(let controller, let key, let bind):
      read(key, of: controller, bind: bind)
    case .fetchHistory(let context, let after, let bind, let mode):
      fetchHistory(in: context, after: after, bind: bind, mode: mode)
    case .transactionProperty(let transaction, let key, let bind):
      read(key, of: transaction, bind: bind)

    // Plain Swift
    case .read(let name, let bind):
      runRead(variable: name, bind: bind)
    case .write(let name, let expression):
      runWrite(variable: name, value: expression)
    case .forEach(let sequence, let name, let body):
      loop(over: sequence, as: name, body: body, from: step)
    case .print(let parts):
      runPrint(parts)
    case .expect(let assertion):
      check(assertion)
    case .notModelled(let why, _):
      runNotModelled(why: why)

    }
  }
}
