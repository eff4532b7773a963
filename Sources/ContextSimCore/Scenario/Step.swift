/// One line of the app's Swift, as a scenario file scripts it.
public struct Step: Sendable {
  /// The step's position among all steps of the scenario, depth first; stable per file.
  public internal(set) var index: Int {
    get { box.fields.index }
    set { update { $0.index = newValue } }
  }
  /// Where the step sits in the file's structure: `main[2].perform.do[0]`.
  public internal(set) var path: String {
    get { box.fields.path }
    set { update { $0.path = newValue } }
  }
  /// Where the step is written: line and column in a file, or in the Swift that built it.
  public internal(set) var location: SourceLocation {
    get { box.fields.location }
    set { update { $0.location = newValue } }
  }
  /// The verb the step was written with, `fetch` or `performAndWait`, as its family
  /// declares it.
  public internal(set) var verb: String {
    get { box.fields.verb }
    set { update { $0.verb = newValue } }
  }
  /// The step's own label, for `expect`, `inject` and lessons.
  public internal(set) var label: String? {
    get { box.fields.label }
    set { update { $0.label = newValue } }
  }
  /// A sentence the reports show beside the step.
  public internal(set) var note: String? {
    get { box.fields.note }
    set { update { $0.note = newValue } }
  }
  /// Labels of this step and of the steps that contain it, innermost first.
  public internal(set) var labels: [String] {
    get { box.fields.labels }
    set { update { $0.labels = newValue } }
  }
  /// Runs the step only when this holds: Swift's `if`.
  public internal(set) var condition: Condition? {
    get { box.fields.condition }
    set { update { $0.condition = newValue } }
  }
  /// What the step does.
  public internal(set) var action: Action {
    get { box.fields.action }
    set { update { $0.action = newValue } }
  }
  /// The line of Swift the action stands for, without the `if` a `"when"` adds; its verb
  /// family spells it when the step is validated.
  public internal(set) var statement: String {
    get { box.fields.statement }
    set { update { $0.statement = newValue } }
  }
  /// The app's own line of Swift, from the step's `"swift"`: what listings and reports show
  /// instead of the line the verb spells, `when` included.
  public internal(set) var source: String? {
    get { box.fields.source }
    set { update { $0.source = newValue } }
  }
  /// The `catch { … }` that handles what the step throws: nil for a step written without
  /// one, whose error v1 reports as a violation.
  public internal(set) var handler: [Step]? {
    get { box.fields.handler }
    set { update { $0.handler = newValue } }
  }

  /// The fields in one shared box. A thread takes the step it runs out of its block at every
  /// step of every run: a box is one reference to count where the fields are a dozen. Each
  /// core of a search runs a scenario of its own (``Scenario/separateCopy()``), so no two
  /// cores count the same box.
  private var box: Box

  init(
    index: Int, path: String, location: SourceLocation, verb: String, label: String?, note: String?,
    labels: [String], condition: Condition?, action: Action, statement: String,
    source: String? = nil, handler: [Step]? = nil
  ) {
    box = Box(
      Fields(
        index: index, path: path, location: location, verb: verb, label: label, note: note,
        labels: labels, condition: condition, action: action, statement: statement,
        source: source, handler: handler))
  }

  /// Changes the fields, copying them first if another step shares them.
  private mutating func update(_ change: (inout Fields) -> Void) {
    if !isKnownUniquelyReferenced(&box) { box = Box(box.fields) }
    change(&box.fields)
  }

  private struct Fields {
    var index: Int
    var path: String
    var location: SourceLocation
    var verb: String
    var label: String?
    var note: String?
    var labels: [String]
    var condition: Condition?
    var action: Action
    var statement: String
    var source: String?
    var handler: [Step]?
  }

  /// Mutable, but only while one step holds it (``update(_:)``), so steps shared between
  /// threads are only read.
  private final class Box: @unchecked Sendable {
    var fields: Fields

    init(_ fields: Fields) {
      self.fields = fields
    }
  }

  /// The steps of the block this step runs or enqueues, if it has one, then its `catch`.
  public var body: [Step] { action.body + (handler ?? []) }
}

/// `"when": {"value": "data", "equals": null}`: the step runs only if a variable holds a
/// value (or, with `notEquals`, does not).
public struct Condition: Sendable {
  /// The variable it tests.
  public internal(set) var variable: String
  /// The value it compares the variable with.
  public internal(set) var value: Value
  /// Whether the step runs when the variable does not hold the value.
  public internal(set) var negated: Bool
  /// Tests that must hold too: `"when": [A, B]` (added to v1), what a drafted `if` inside
  /// another `if` needs.
  public internal(set) var also: [Condition] = []

  /// This test and those it needs too.
  public var all: [Condition] {
    var first = self
    first.also = []
    return [first] + also
  }
}

/// Where a Swift task runs: on the main actor (the main queue) or the global executor.
public enum TaskExecutor: String, Sendable, CaseIterable {
  case main
  case detached
}

/// `context.perform(schedule:)`'s two ways of running a block.
public enum ScheduledTaskType: String, Sendable, CaseIterable {
  /// Runs inline when the caller is already on the context's queue, else enqueues.
  case immediate
  /// Always enqueues, as `perform(_:)` does.
  case enqueued
}

/// How a throwing call is written: `try`, `try?` or `try!`.
public enum TryMode: String, Sendable {
  /// `do { try … } catch { … }`: the error is caught and reported.
  case `do`
  /// `try?`: the error is swallowed, which ctxsim reports as a discarded error.
  case optional = "?"
  /// `try!`: an error crashes the app.
  case force = "!"
}

/// An expression in a step: a literal, or a variable named with `$`.
public indirect enum Expression: Sendable, Equatable {
  case literal(Value)
  case variable(String)
  case list([Expression])
}

/// A piece of `print` text: plain words, or a `$variable` to interpolate.
public enum TemplatePart: Sendable, Equatable {
  case text(String)
  case variable(String)
}

/// What a step does. Each case is one verb of the scenario format.
public indirect enum Action: Sendable {
  // Queues and threads
  case async(queue: String, body: [Step])
  /// A later event on the main run loop (a user's tap): it runs on the main thread once the
  /// app is idle, every other thread done and every queue drained.
  case whenIdle(body: [Step])
  case sync(queue: String, body: [Step])
  case perform(context: String, body: [Step])
  case performAndWait(context: String, body: [Step])
  /// `Task { @MainActor in … }` or `Task.detached { … }`.
  case task(TaskExecutor, body: [Step])
  /// `try await context.perform(schedule:) { … }`: the task waits without holding a thread.
  case performAwait(context: String, schedule: ScheduledTaskType, body: [Step])
  /// `withTaskGroup`: a child task per element on the global executor, then `then` on the
  /// parent's executor for each child as it finishes, seeing what the child bound.
  case taskGroup(sequence: Expression, bind: String, child: [Step], then: [Step])
  /// `let name = value`.
  case letValue(name: String, value: Expression)

  // Core Data
  case insert(
    entity: String, context: String, values: [(key: String, value: Expression)], bind: String?)
  /// `context.fetch(request)`; `first` binds the first object or nil instead of the list.
  case fetch(FetchRequest, context: String, first: Bool, bind: String?, try: TryMode)
  /// `context.count(for: request)`.
  case count(FetchRequest, context: String, bind: String?, try: TryMode)
  case get(variable: String, key: String, bind: String?)
  case set(variable: String, key: String, value: Expression)
  case save(context: String, try: TryMode)
  case objectID(variable: String, bind: String)
  /// `NSManagedObjectContext(concurrencyType:)`, or `container.newBackgroundContext()`.
  case newContext(ContextDescription, background: Bool)
  /// `context.insert(object)` for an object that already exists.
  case insertObject(variable: String, context: String)
  case delete(variable: String)
  case refresh(variable: String, merge: Bool)
  case reset(context: String)
  /// `context.refreshAllObjects()`: each registered object refreshed, keeping its changes.
  case refreshAllObjects(context: String)
  /// `context.obtainPermanentIDs(for: Array(context.insertedObjects))`.
  case obtainPermanentIDs(context: String, try: TryMode)
  case rollback(context: String)
  /// `NSBatchUpdateRequest`, then `mergeChanges(fromRemoteContextSave:into:)`.
  case batchUpdate(
    entity: String, context: String, predicate: Predicate<Expression>,
    values: [(key: String, value: Expression)], mergeInto: [String])
  /// `NSBatchDeleteRequest`; `bind` names the deleted IDs (`.resultTypeObjectIDs`).
  case batchDelete(BatchDeleteTarget, context: String, bind: String?, try: TryMode)
  /// `NSBatchInsertRequest(entityName:objects:)`; `bind` names the inserted rows' IDs.
  case batchInsert(
    entity: String, context: String, objects: [[(key: String, value: Expression)]],
    bind: String?, try: TryMode)
  /// `NSManagedObjectContext.mergeChanges(fromRemoteContextSave:into:)`: each context in
  /// turn, roots first, merges on its own queue while the caller waits.
  case mergeRemoteChanges(RemoteChanges, into: [String])
  case existingObject(id: Expression, context: String, bind: String?, try: TryMode)
  case object(id: Expression, context: String, bind: String?)
  /// `context.hasChanges`, `context.name` …: a context's property, guarded as Core Data
  /// guards it.
  case contextProperty(context: String, property: ContextProperty, bind: String?)
  /// `context.mergePolicy = …`: a setter, which runs `performAndWait` on the context.
  case setContextProperty(context: String, property: ContextProperty, value: Value)
  /// `note.isDeleted`, `note.managedObjectContext` …: an object's state.
  case objectState(variable: String, property: ObjectStateProperty, bind: String?)
  /// `NotificationCenter.default.addObserver(forName:object:queue:using:)`: the body runs for
  /// each matching post, inline on the posting thread, or on `queue` while the poster waits.
  case observe(
    NotificationName, object: String?, queue: String?, bind: String, token: String?,
    body: [Step])
  /// `NotificationCenter.default.removeObserver(token)`.
  case removeObserver(token: String)
  /// `context.mergeChanges(fromContextDidSave: notification)`, checked on the receiver.
  case mergeChanges(notification: String, into: String)
  /// `notification.object`, or the objects its `userInfo` lists.
  case notificationProperty(variable: String, key: NotificationKey, bind: String?)
  /// `NSFetchedResultsController(fetchRequest:managedObjectContext:…)`, with the delegate's
  /// `controllerDidChangeContent` body when it has a delegate.
  case fetchedResultsController(
    name: String, request: FetchRequest, context: String, delegate: [Step]?)
  /// `try controller.performFetch()`.
  case performFetch(controller: String, try: TryMode)
  /// `controller.fetchedObjects`, or how many there are.
  case controllerProperty(controller: String, key: ControllerKey, bind: String?)
  /// `NSPersistentHistoryChangeRequest.fetchHistory(after: token)` executed in a context;
  /// `after` nil fetches from the start.
  case fetchHistory(context: String, after: Expression?, bind: String?, try: TryMode)
  /// `tx.token`, `tx.author`, the IDs it changed: plain reads of a transaction.
  case transactionProperty(variable: String, key: TransactionKey, bind: String?)

  // Plain Swift
  case read(variable: String, bind: String?)
  case write(variable: String, value: Expression)
  case forEach(sequence: Expression, bind: String, body: [Step])
  case print([TemplatePart])
  case expect(Assertion)
  /// A line of the app's Swift the scenario does not model: why, and where it is written
  /// (`Importer.swift:42:9`) when the scenario says. A run that passes it is never clean.
  case notModelled(why: String, at: String?)

  /// How the call is tried, for a call that throws.
  public var tryMode: TryMode? {
    switch self {
    case .fetch(_, _, _, _, let mode), .count(_, _, _, let mode), .save(_, let mode),
      .obtainPermanentIDs(_, let mode), .existingObject(_, _, _, let mode),
      .batchDelete(_, _, _, let mode), .batchInsert(_, _, _, _, let mode),
      .performFetch(_, let mode), .fetchHistory(_, _, _, let mode):
      mode
    case .async, .whenIdle, .sync, .perform, .performAndWait, .task, .performAwait, .taskGroup,
      .letValue,
      .insert, .get, .set, .objectID, .newContext, .insertObject, .delete, .refresh, .reset,
      .refreshAllObjects, .rollback, .batchUpdate, .mergeRemoteChanges, .object, .contextProperty,
      .setContextProperty, .objectState, .observe, .removeObserver, .mergeChanges,
      .notificationProperty, .fetchedResultsController, .controllerProperty, .transactionProperty,
      .read, .write, .forEach, .print, .expect, .notModelled:
      nil
    }
  }

  /// The steps of the block the action runs or enqueues; a task group's child steps, then
  /// its `then` steps.
  public var body: [Step] {
    switch self {
    case .async(_, let body), .whenIdle(let body), .sync(_, let body), .perform(_, let body),
      .performAndWait(_, let body), .forEach(_, _, let body), .task(_, let body),
      .performAwait(_, _, let body), .observe(_, _, _, _, _, let body):
      body
    case .fetchedResultsController(_, _, _, let delegate?):
      delegate
    case .taskGroup(_, _, let child, let then):
      child + then
    case .letValue, .insert, .fetch, .count, .get, .set, .save, .objectID, .newContext,
      .insertObject, .delete, .refresh, .reset, .refreshAllObjects, .obtainPermanentIDs, .rollback,
      .batchUpdate, .batchDelete, .batchInsert, .mergeRemoteChanges, .existingObject, .object,
      .contextProperty, .setContextProperty, .objectState, .removeObserver, .mergeChanges,
      .notificationProperty, .fetchedResultsController, .performFetch, .controllerProperty,
      .fetchHistory, .transactionProperty, .read, .write, .print, .expect, .notModelled:
      []
    }
  }
}

/// What an `expect` step asserts about what the app can see at that moment.
public enum Assertion: Sendable {
  /// How many objects a count request finds in a context.
  case count(FetchRequest, context: String, bound: CountBound)
  case value(variable: String, key: String?, equals: Value)
  /// How many objects a held object's to-many relationship shows: `album.photos`.
  case relationshipCount(variable: String, key: String, bound: CountBound)
}

/// How an `expect` count compares: `equals`, `atLeast` or `atMost`.
public enum CountBound: Sendable, Equatable {
  case equals(Int)
  case atLeast(Int)
  case atMost(Int)

  /// Whether a count meets the bound.
  public func holds(_ n: Int) -> Bool {
    switch self {
    case .equals(let m): n == m
    case .atLeast(let m): n >= m
    case .atMost(let m): n <= m
    }
  }

  /// `3`, `at least 1`, `at most 1`.
  public var description: String {
    switch self {
    case .equals(let m): "\(m)"
    case .atLeast(let m): "at least \(m)"
    case .atMost(let m): "at most \(m)"
    }
  }

  /// The comparison as Swift writes it: `== 3`.
  public var swift: String {
    switch self {
    case .equals(let m): "== \(m)"
    case .atLeast(let m): ">= \(m)"
    case .atMost(let m): "<= \(m)"
    }
  }
}
