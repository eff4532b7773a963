/// `NotificationCenter` and the notifications contexts post (semantics-2 §2).
///
/// A context posts on the thread doing its work: the one that runs the save. Posting is
/// synchronous. An observer without a queue (a selector observer, or `queue: nil`) runs on
/// the posting thread before `post` returns, as does one whose queue the poster is running
/// on. One with another queue is added to that queue, and the poster waits until the queue
/// has run it, as swift-corelibs-foundation's `post` does and Darwin stacks show (§2.2):
/// ctxsim enqueues the body there and has the poster wait in the queue's line behind it.
/// So the body runs on the queue's own thread, with what that queue owns, and a poster
/// waiting for a queue whose thread waits for the poster deadlocks (§2.4).
extension Simulation {
  /// `addObserver(forName:object:queue:using:)`, or, for a step of a delivery frame, running
  /// that observer's body for the notification being delivered.
  mutating func observe(_ step: Step) {
    guard
      case .observe(let name, let object, let queue, let bind, let token, let body) = step.action
    else { return }
    touch(.observers, write: true)
    // The token is bound before the body's scope is captured: the body may remove itself.
    token.map { program.scopes[scope, $0] = .observer(center.observers.count) }
    _ = center.add(
      Observer(
        name: name, object: object.map { contextIndex($0) }, queue: queue.map { queueIndex($0) },
        bind: bind, body: body, scope: capture(scope), step: step.index))
    record(.observing(name.rawValue, object: object, queue: queue))
  }

  mutating func removeObserver(_ token: String) {
    touch(.observers, write: true)
    guard case .observer(let index) = value(of: token) else { return }
    center.remove(index)
    record(.removedObserver(center.observers[index].name.rawValue))
  }

  /// Posts a notification on the current thread. Its observers run once the current step
  /// is done, in the order they were added.
  mutating func post(_ notification: PostedNotification) {
    guard scenario.features.observes else { return }
    touch(.observers, write: false)
    let receivers = center.receivers(of: notification)
    guard !receivers.isEmpty else { return }
    _ = center.post(notification, to: receivers)
    record(
      .posted(
        notification.name.rawValue, context: graph.contexts[notification.context].name,
        observers: receivers.count))
  }

  /// Puts what the step posted on the thread: a frame that runs each receiving observer's
  /// `observe` step again, as a delivery, in order.
  ///
  /// - Parameter q: a queue the thread holds with no frame yet, which the first of these
  ///   frames gives back when it ends: a merge block's queue.
  mutating func deliverPosted(releasing q: Int? = nil) {
    let deliveries = center.takeUndelivered()
    for (i, (notification, receivers)) in deliveries.enumerated().reversed() {
      var frame = SimulatedThread.Frame(
        steps: receivers.map { scenario.allSteps[center.observers[$0].step] },
        scope: runtime.threads[now.thread].frames.last?.scope ?? newScope(),
        acquired: i == deliveries.count - 1 ? q : nil,
        opener: now.index)
      frame.delivery = (notification, receivers)
      runtime.threads[now.thread].frames.append(frame)
    }
  }

  /// For a step of a delivery frame, which is the step that added an observer: runs that
  /// observer for the notification being delivered. Returns whether it was one.
  mutating func deliverIfDelivering(_ step: Step) -> Bool {
    // Only a post makes a delivery frame; without observers, no frame need be looked at.
    guard scenario.features.observes, let frame = runtime.threads[now.thread].frames.last,
      let delivery = frame.delivery
    else {
      return false
    }
    deliver(delivery.notification, to: delivery.observers[frame.next - 1], from: step)
    return true
  }

  /// Runs one observer's body for a notification: inline, or on its queue while the
  /// poster waits. An observer removed since the post is skipped.
  private mutating func deliver(_ notification: Int, to o: Int, from step: Step) {
    touch(.observers, write: false)
    let observer = center.observers[o]
    guard observer.isActive else { return record(.skipped) }
    if let k = observer.controller { update(controller: k, with: center.posted[notification]) }
    let scope = capture(observer.scope)
    observer.bind.map { program.scopes[scope, $0] = .notification(notification) }
    guard let q = observer.queue, !runtime.threads[now.thread].held.contains(q) else {
      runtime.threads[now.thread].frames.append(
        SimulatedThread.Frame(steps: observer.body, scope: scope, opener: step.index))
      return record(.observerRuns(queue: nil))
    }
    record(.observerRuns(queue: runtime.queues[q].name))
    let origin = origin(onto: q, at: step.index)
    enqueue(Block(steps: observer.body, scope: scope, origin: origin), on: q)
    // `waitUntilAllOperationsAreFinished`: the poster's turn comes after the body's.
    runSynchronously([], on: q, from: step, reentrant: true)
  }

  /// `context.mergeChanges(fromContextDidSave:)`, held to the receiver's queue like any
  /// other context call: called from the posting thread, it traps (§2.9).
  mutating func mergeChanges(_ notification: String, into context: String) {
    let r = contextIndex(context)
    checkQueue(r, method: "-[NSManagedObjectContext mergeChangesFromContextDidSaveNotification:]")
    let argument = value(of: notification)
    if case .transaction(let token) = argument {
      return merge(changeSet(ofTransaction: token), into: r, automatic: false)
    }
    guard case .notification(let n) = argument else { return }
    let posted = center.posted[n]
    func ids(_ values: [Value]) -> [ObjectID] {
      values.compactMap { value in
        switch value {
        case .object(let ref): graph[ref].id
        case .objectID(let id): id
        default: nil
        }
      }
    }
    merge(
      ChangeSet(
        source: graph.contexts[posted.context].name, inserted: ids(posted.inserted),
        updated: ids(posted.updated), deleted: ids(posted.deleted)), into: r, automatic: false)
  }

  /// `notification.object` and the objects its `userInfo` lists: plain reads, which never
  /// trap; the objects still belong to the context that posted.
  mutating func read(_ key: NotificationKey, of variable: String, bind: String?) {
    guard case .notification(let n) = value(of: variable) else {
      record(.readNil(variable: variable))
      bind.map { program.scopes[scope, $0] = .null }
      return
    }
    let posted = center.posted[n]
    let value: Value =
      switch key {
      case .object: .context(posted.context)
      case .insertedObjects: .list(posted.inserted)
      case .updatedObjects: .list(posted.updated)
      case .deletedObjects: .list(posted.deleted)
      case .historyToken: posted.historyToken.map(Value.integer) ?? .null
      }
    // A token prints as itself; objects and contexts as `print` shows them.
    let shownValue = key == .historyToken ? value : .string(describe(value))
    record(.property(owner: variable, name: key.rawValue, value: shownValue, isSet: false))
    bind.map { program.scopes[scope, $0] = value }
  }

  // MARK: What a save posts

  /// A successful save posts did-save-object-IDs, then did-save with the saver's objects
  /// (semantics-2 §2.5). A root's first post, with the coordinator as its object, is left
  /// out: ctxsim posts each once, from the context.
  mutating func postDidSave(_ set: SaveSet, _ changes: ChangeSet, by c: Int) {
    guard scenario.features.observes else { return }
    post(
      PostedNotification(
        name: .didSaveObjectIDs, context: c, inserted: changes.inserted.map(Value.objectID),
        updated: changes.updated.map(Value.objectID), deleted: changes.deleted.map(Value.objectID)))
    post(
      PostedNotification(
        name: .didSave, context: c, inserted: set.inserted.map(Value.object),
        updated: set.updated.map(Value.object), deleted: set.deleted.map(Value.object)))
  }

  /// A save first processes the context's pending changes, then posts will-save if it has
  /// changes. With observers to run, the save stops here and runs again once they are
  /// done, as Core Data calls them before it saves; returns whether it stopped.
  mutating func announceSave(_ c: Int, step: Step) -> Bool {
    guard scenario.features.observes else { return false }
    processPendingChanges(c)
    if hasChanges(c) { post(PostedNotification(name: .willSave, context: c)) }
    guard !center.undelivered.isEmpty else { return false }
    var again = step
    again.condition = nil
    runtime.threads[now.thread].frames.append(
      SimulatedThread.Frame(steps: [again], scope: scope, opener: step.index))
    runtime.threads[now.thread].postedWillSave = step.index
    return true
  }
}
