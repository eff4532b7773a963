/// Everything one run did, in order: the record renderers turn into text, JSON or HTML.
///
/// A trace holds facts only; wording lives in the renderers and ``Messages``.
public struct Trace: Sendable {
  /// What each step did, in step order; empty when ``SimulationOptions/recordsEvents`` is off.
  public var events: [TraceEvent] = []
  /// Broken rules, in step order.
  public var violations: [Violation] = []
  /// The threads of the run, by ``TraceEvent/thread`` index.
  public var threads: [String] = []
  /// The schedule the run took; replaying it gives this trace again.
  public var schedule = Schedule()
  /// Whether the run had `-com.apple.CoreData.ConcurrencyDebug 1` on, so wrong-queue use trapped.
  public var concurrencyDebug: Bool
  /// Why the run ended early, if it did.
  public var stop: Stop?
  /// Synchronisation that ordered steps: a block enqueued at one step started at another
  /// (a save's automatic merge included), or a thread blocked in `sync`/`performAndWait`
  /// went on once another gave the queue back.
  public var orderings: [Ordering] = []
  /// Errors a step's `catch` body handled: the design working, not a violation.
  public var handledErrors: [HandledError] = []
  /// Lines of the app's Swift the run passed without modelling them (`notModelled` steps),
  /// each step once, in the order first passed. A run that passed any is never clean: what
  /// those lines do is unknown (``isUnmodelled``).
  public var unmodelled: [Site] = []
  /// What the run left behind once it was over; nil unless
  /// ``SimulationOptions/capturesEndState`` asked for it.
  public var endState: EndState?

  /// One happens-before arrow: the step at `from` comes before the step at `to`.
  public struct Ordering: Sendable, Equatable {
    /// The scheduler step that comes first.
    public var from: Int
    /// The scheduler step it comes before.
    public var to: Int
  }

  /// Why a run was cut off: a crash it stops at, a limit, or a schedule that did not fit.
  public enum Stop: Sendable, Equatable {
    /// ``SimulationOptions/stopAtFirstCrash``: the app ended at its first crash, as the real
    /// one would.
    case crashed
    /// A limit stopped the run: it does not end, or grows without bound.
    case limit(Limit)
    /// A replayed schedule named a thread that could not run at that step.
    case scheduleMismatch(step: Int, thread: Int, runnable: [Int])
  }

  /// An empty trace for a run with or without ConcurrencyDebug.
  public init(concurrencyDebug: Bool) {
    self.concurrencyDebug = concurrencyDebug
  }

  /// The first violation that would end the real app, which decides its exit status.
  public var firstCrash: Violation? {
    violations.first { $0.termination != nil }
  }

  /// Whether the run found no violation but passed lines it did not model: not clean, and
  /// not buggy either, as far as ctxsim can tell.
  public var isUnmodelled: Bool { violations.isEmpty && !unmodelled.isEmpty }

  /// What the run shows, as an exploration's ``Exploration/verdict`` says it: limited when
  /// a run limit stopped it, failed with a violation, unmodelled past a line not modelled,
  /// incomplete when the schedule it was to follow did not fit, else passed (`clean`).
  public var verdict: Verdict {
    switch stop {
    case .limit(let limit)?: return .limited(limit)
    case .scheduleMismatch? where violations.isEmpty: return .incomplete(nil)
    default: break
    }
    if !violations.isEmpty { return .failed }
    return isUnmodelled ? .unmodelled : .passed
  }

  /// How bad the verdict is (``Verdict/severity``), to rank runs of one app's several
  /// paths (a draft's): the worst is the one to show.
  public var severity: Int { verdict.severity }
}

/// One scheduler step: which thread ran which scenario step, and what it did.
public struct TraceEvent: Sendable {
  /// Where the step ran.
  public var site: Site
  /// What it did.
  public var effect: Effect
}

/// An error thrown by a call and handled by the step's `catch` body.
public struct HandledError: Sendable {
  /// Where the call threw.
  public var site: Site
  /// What it threw.
  public var error: CoreDataError
  /// The call, as Swift writes it: `viewContext.existingObject(with: …)`.
  public var call: String
}

/// What a step did, as facts.
public enum Effect: Sendable, Equatable {
  /// A block was put on the queue to run later (`async`, `perform`).
  case enqueued(queue: String)
  /// An event was posted to the main run loop, to run once the app is idle (`whenIdle`).
  case postedEvent
  /// A synchronous block (`performAndWait`, `sync`) now runs on the caller's thread.
  case entered(queue: String, reentrant: Bool)
  /// `await perform(schedule: .immediate)` from the context's own queue: the block runs
  /// right there, without a suspension.
  case ranInline(queue: String)
  /// The thread blocks until the queue is free.
  case waits(queue: String)
  /// A child context's request (fetch, save, fault…) runs on its parent's queue, as a
  /// `performAndWait` there: at once, or after the thread blocks until that queue is free.
  case asksParent(parent: String, queue: String, blocks: Bool)
  /// A fetch request ran in the context and returned these objects.
  case fetched(entity: String, context: String, objects: [ObjectID])
  /// `count(for:)` ran in the context.
  case counted(entity: String, context: String, count: Int)
  /// A new object was inserted into the context, with a temporary ID.
  case inserted(ObjectID, context: String)
  /// An attribute or relationship was read from a managed object.
  case read(object: ObjectID, key: String, value: Value, context: String)
  /// An attribute or relationship was read from an object whose context was reset: no row
  /// backs it, so the read gives nil (a best guess, semantics-2 §5.2).
  case readAfterReset(object: ObjectID, key: String, value: Value, resetContext: String)
  /// A variable used as an object or object ID held nil, so the line did nothing.
  case readNil(variable: String)
  /// An attribute or relationship of a managed object was set.
  case wrote(object: ObjectID, key: String, value: Value, context: String)
  /// The context's changes were written to the store.
  case saved(context: String, inserted: [ObjectID], updated: [ObjectID], deleted: [ObjectID])
  /// A child context's changes were pushed into its parent context, not the store.
  case savedToParent(
    context: String, parent: String, inserted: [ObjectID], updated: [ObjectID], deleted: [ObjectID])
  /// `save()` ran with no changes to write.
  case savedNothing(context: String)
  /// The object was deleted in the context, with what its delete rules cascaded to.
  case deleted(ObjectID, context: String, cascaded: [ObjectID])
  /// A merge of a save into a context; `automatic` when Core Data made it, in its own
  /// block on the context's queue, rather than a line of the app's.
  case merged(
    into: String, from: String, refreshed: [ObjectID], deleted: [ObjectID], automatic: Bool,
    faultedIn: [ObjectID] = [])
  /// A fetched results controller took its context's changes in and now lists these.
  case listed(controller: String, objects: [ObjectID])
  /// `refresh(_:mergeChanges:)`: with `merged`, unsaved changes were kept.
  case refreshed(ObjectID, merged: Bool)
  /// `refreshAllObjects()` refreshed these objects, keeping their changes.
  case refreshedAll(context: String, objects: [ObjectID])
  /// `reset()` dropped every object the context held.
  case reset(context: String, forgotten: Int)
  /// `rollback()` discarded the context's unsaved changes.
  case rolledBack(context: String)
  /// `obtainPermanentIDs(for:)` replaced these inserted objects' temporary IDs.
  case obtainedPermanentIDs(context: String, ids: [ObjectID])
  /// An `NSBatchUpdateRequest` changed rows in the store directly, not through a context.
  case batchUpdated(entity: String, count: Int)
  /// An `NSBatchDeleteRequest` deleted rows in the store, and cascade the rows after them.
  case batchDeleted(entity: String, ids: [ObjectID], cascaded: [ObjectID])
  /// An `NSBatchInsertRequest` wrote new rows into the store, with permanent IDs.
  case batchInserted(entity: String, ids: [ObjectID])
  /// `mergeChanges(fromRemoteContextSave:into:)` takes a context's queue to merge into it,
  /// as `performAndWait`: at once, or after the thread blocks until that queue is free.
  case mergesOnQueue(context: String, queue: String, blocks: Bool)
  /// Persistent history recorded a store write as a transaction with this token.
  case recordedTransaction(token: Int, author: String?, contextName: String?)
  /// The coordinator posted `NSPersistentStoreRemoteChange` to this many observers, each
  /// enqueued on its queue or a private thread; the writer does not wait.
  case postedRemoteChange(token: Int?, observers: Int)
  /// `fetchHistory(after:)` ran in the context and returned transactions with these tokens.
  case fetchedHistory(context: String, after: Int?, tokens: [Int])
  /// A context was made on `queue`, with a parent context or, when nil, the store.
  case createdContext(name: String, queue: String, parent: String?)
  /// An object's `objectID` was taken: the one thing safe to pass between queues.
  case objectID(ObjectID)
  /// `object(with:)`, or `existingObject(with:)` when `existing`; `registered` when the
  /// context already held the object.
  case lookedUp(ObjectID, context: String, registered: Bool, existing: Bool)
  /// A Core Data call threw this error; the step's `try` decides what follows.
  case threw(CoreDataError)
  /// A context's property or an object's state was read, or a context's property set.
  case property(owner: String, name: String, value: Value, isSet: Bool)
  /// An observer was added for a notification, of one context or all, on a queue or none.
  case observing(String, object: String?, queue: String?)
  /// An observer was removed.
  case removedObserver(String)
  /// A context posted a notification that this many observers receive.
  case posted(String, context: String, observers: Int)
  /// An observer's body runs: on the posting thread, or on its queue while the poster waits.
  case observerRuns(queue: String?)
  /// The step's `catch` body handles the error it threw, and runs next.
  case caught(CoreDataError)
  /// A `for` loop started, over this many elements.
  case loop(count: Int)
  /// `print` wrote this text.
  case printed(String)
  /// The run passed a line of the app's Swift that the scenario does not model, for this
  /// reason.
  case notModelled(why: String)
  /// A shared var of the app was read.
  case varRead(name: String, value: Value)
  /// A shared var of the app was written.
  case varWritten(name: String, value: Value)
  /// An `expect` step held; the text says what it checked.
  case expectationHeld(String)
  /// An `expect` step did not hold; the violation says why.
  case expectationFailed
  /// ConcurrencyDebug stopped the step at a wrong-queue touch; the violation says which.
  case trapped
  /// A `Task` started on the main actor (`main`) or the global executor.
  case taskStarted(queue: String)
  /// A task waits for a block on this queue, without holding its thread.
  case awaits(queue: String)
  /// A task group started this many child tasks.
  case groupStarted(children: Int)
  /// A step whose `"when"` did not hold.
  case skipped
  /// A `let` bound a name to a value.
  case bound(name: String, value: Value)
}

extension Effect {
  /// The context the effect happened in, if it names one.
  public var context: String? {
    switch self {
    case .fetched(_, let context, _), .counted(_, let context, _), .inserted(_, let context),
      .read(_, _, _, let context), .wrote(_, _, _, let context), .saved(let context, _, _, _),
      .savedToParent(let context, _, _, _, _), .savedNothing(let context),
      .deleted(_, let context, _), .lookedUp(_, let context, _, _), .reset(let context, _),
      .rolledBack(let context), .obtainedPermanentIDs(let context, _),
      .refreshedAll(let context, _),
      .fetchedHistory(let context, _, _):
      context
    case .merged(let into, _, _, _, _, _): into
    case .createdContext(let name, _, _): name
    default: nil
    }
  }
}

extension Trace {
  /// The events of scheduler step `step`. Events and violations are recorded in step order,
  /// so this is a binary search: reports ask for every step's, and a scan each time would
  /// make a long run's report quadratic.
  public func events(atStep step: Int) -> ArraySlice<TraceEvent> {
    Self.slice(events, atStep: step) { $0.site.step }
  }

  /// The violations of scheduler step `step`, found the same way.
  public func violations(atStep step: Int) -> ArraySlice<Violation> {
    Self.slice(violations, atStep: step) { $0.site.step }
  }

  private static func slice<T>(_ items: [T], atStep step: Int, _ stepOf: (T) -> Int)
    -> ArraySlice<T>
  {
    func firstIndex(after target: Int) -> Int {
      var (low, high) = (0, items.count)
      while low < high {
        let middle = (low + high) / 2
        if stepOf(items[middle]) <= target { low = middle + 1 } else { high = middle }
      }
      return low
    }
    return items[firstIndex(after: step - 1)..<firstIndex(after: step)]
  }

  /// The context Core Data merged a save into at scheduler step `step`, when that was the
  /// step: its own block, not one of the app's lines, though it carries the saving step's
  /// place in the scenario.
  public func automaticMerge(atStep step: Int) -> String? {
    for event in events(atStep: step) {
      if case .merged(let into, _, _, _, true, _) = event.effect { return into }
    }
    return nil
  }

  /// The scheduler step whose save Core Data merged at step `step`, when that step was an
  /// automatic merge: the save enqueued the merge's block, so its ordering starts there.
  public func mergedSave(atStep step: Int) -> Int? {
    guard automaticMerge(atStep: step) != nil else { return nil }
    return orderings.last { $0.to == step }?.from
  }

  /// The line of Swift a scheduler step stands for: the scenario step's, or for an
  /// automatic merge, the call Core Data makes on the receiving context's queue.
  public func swiftLine(atStep step: Int, of scenarioStep: Step) -> String {
    automaticMerge(atStep: step).map { "\($0).mergeChanges(fromContextDidSave: notification)" }
      ?? scenarioStep.swift
  }

  /// Whether scheduler step `step` was a scenario step its `when` skipped.
  public func skipped(atStep step: Int) -> Bool {
    events(atStep: step).contains { event in
      if case .skipped = event.effect { true } else { false }
    }
  }
}

/// A bound on one run, so that a scenario that never ends, or starts threads or contexts
/// without end, stops with a message instead of hanging or exhausting memory.
public enum Limit: Sendable, Hashable {
  /// The run took this many steps, the most allowed.
  case steps(Int)
  /// The run started this many threads, the most allowed.
  case threads(Int)
  /// The run made this many queues, the most allowed.
  case queues(Int)

  /// The bound this limit enforces.
  public var bound: Bound {
    switch self {
    case .steps: .steps
    case .threads: .threads
    case .queues: .queues
    }
  }

  /// The limit's name in a sentence: "the step limit".
  public var name: String {
    switch self {
    case .steps: "step"
    case .threads: "thread"
    case .queues: "queue"
    }
  }

  /// Why the run stopped, and what may have caused it.
  public var reason: String {
    switch self {
    case .steps(let n):
      "Stopped after \(n) steps, the step limit: does a block re-enqueue itself forever?"
    case .threads(let n):
      "Stopped at \(n) threads, the thread limit: does a loop dispatch to a concurrent "
        + "queue without end?"
    case .queues(let n):
      "Stopped at \(n) queues, the queue limit: does a loop make a new context each time?"
    }
  }

  /// ``reason``, with how to raise the limit in the front end's words.
  public func message(_ advice: Advice = .plain) -> String {
    advice.explain(reason, raising: bound)
  }
}
