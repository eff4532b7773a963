/// What a stateful search compares: everything that decides how a run goes on and how it
/// ends, and nothing kept only for reports.
///
/// Left out, because no step reads them: step numbers (``Block/enqueuedAt``,
/// ``SimulatedThread/startedFrom``, a queue's `releasedAt`, sites' `step`), where blocks
/// came from (origins, backtraces), the trace's events, orderings and schedule, and the
/// violations' text. The violations so far count as a set of ``ViolationSignature``s,
/// which is what an outcome is made of; the number of steps taken counts too, so no state
/// is reached twice along one path and the search never goes round a loop.
///
/// Ranked: a vector clock's entry for thread u is only ever compared with u's times at
/// accesses to shared vars, those the race detector remembers and those u has yet to make
/// (none earlier than u's own time now). So each entry goes in as its rank among those
/// times, and two runs whose clocks order every remembered and future access alike
/// compare equal, however many times their threads synchronised to get there.
///
/// Renamed: a managed object is named by its context and object ID, not by its place in
/// the object table, and a scope by the order this walk first meets it (written out in full
/// there), so two runs that made the same objects and closures in a different order compare
/// equal. Both are only names: no step depends on where an object or scope sits in its
/// table. (An object no longer registered, or one of two registered under one ID, keeps its
/// place as its name.) Interchangeable values (a task group's or loop's elements) go in by
/// the order a walk meets them (``ValueNumbering``), so two runs that saved the same photos
/// in another order compare equal. Dictionaries go in as the sum of their entries' hashes,
/// which does not depend on their order. Everything else keeps its number (threads, queues, contexts,
/// notifications, observers), which is sound and only merges fewer states.
extension Simulation {
  /// This state's fingerprint.
  func fingerprint() -> StateFingerprint {
    var writer = StateWriter(
      graph: graph, scopes: program.scopes, raceDetector: raceDetector, values: ValueNumbering(self)
    )
    writer.write(self)
    return writer.hasher.finalize()
  }
}

/// Writes one state into a ``FingerprintHasher``, naming objects and numbering scopes.
private struct StateWriter {
  var hasher = FingerprintHasher()
  let graph: ObjectGraph
  let scopes: ScopeTable
  private var scopeNumbers: [Int]
  private var scopesSeen = 0
  /// Per context: whether its registered objects have one ID each, so the ID names them.
  private let namedByID: [Bool]
  /// Per thread: the times a clock's entry for it is compared with, ascending.
  private let times: [[Int]]
  /// The interchangeable values' names in this state.
  private let values: ValueNumbering

  init(
    graph: ObjectGraph, scopes: ScopeTable, raceDetector: RaceDetector,
    values: ValueNumbering
  ) {
    self.graph = graph
    self.values = values
    self.scopes = scopes
    scopeNumbers = Array(repeating: -1, count: scopes.count)
    namedByID = graph.contexts.indices.map {
      graph.registeredIDCount(in: $0) == graph.registeredObjects(in: $0).count
    }
    var times = raceDetector.clocks.indices.map { [raceDetector.clocks[$0][$0]] }
    for history in raceDetector.histories {
      for access in (history.lastWrite.map { [$0] } ?? []) + history.reads {
        times[access.thread].append(access.time)
      }
    }
    for u in times.indices { times[u].sortAndRemoveDuplicates() }
    self.times = times
  }

  /// How many of the times thread `u`'s entries are compared with are at most `time`.
  private func rank(_ time: Int, of u: Int) -> Int {
    guard u < times.count else { return time }
    return times[u].firstIndex { $0 > time } ?? times[u].count
  }

  mutating func write(_ s: Simulation) {
    writeOutcomeSoFar(s.trace)
    hasher.combine(s.runtime.threads.count)
    for thread in s.runtime.threads { write(thread) }
    hasher.combine(s.runtime.queues.count)
    for q in 0..<s.runtime.queues.count { write(s.runtime.queues[q]) }
    hasher.combine(s.runtime.events.count)
    for event in s.runtime.events { write(event) }
    write(graph)
    write(s.store)
    write(s.program.sharedVars)
    write(s.raceDetector)
    hasher.combine(s.runtime.taskGroups.count)
    for group in s.runtime.taskGroups {
      hasher.combine(group.results.count)
      for result in group.results {
        write(result.values)
        write(result.clock)
      }
      hasher.combine(group.outstanding)
      hasher.combine(group.waiting?.executor)
      if let waiting = group.waiting { write(waiting.frames) }
    }
    hasher.combine(s.program.injectedCalls.count)
    for key in s.program.injectedCalls.keys.sorted() {
      hasher.combine(key)
      hasher.combine(s.program.injectedCalls[key]!)
    }
    writeNotifications(s)
  }

  /// The violations, handled errors and lines not modelled as sets, how the run stopped, and
  /// its length.
  private mutating func writeOutcomeSoFar(_ trace: Trace) {
    hasher.combine(trace.schedule.threads.count)
    let signatures = Set(trace.violations.map(ViolationSignature.init)).sorted()
    hasher.combine(signatures.count)
    for signature in signatures {
      hasher.combine(signature.kind.rawValue)
      hasher.combine(signature.stepIndex)
      hasher.combine(signature.otherStepIndex)
    }
    let handled = Set(trace.handledErrors.map(HandledErrorSignature.init)).sorted()
    hasher.combine(handled.count)
    for error in handled {
      hasher.combine(error.code)
      hasher.combine(error.stepIndex)
    }
    // Which lines not modelled the run passed is part of how it ends, as its violations are.
    let unmodelled = Set(trace.unmodelled.map(\.stepIndex)).sorted()
    hasher.combine(unmodelled.count)
    for index in unmodelled { hasher.combine(index) }
    hasher.combine(trace.firstCrash != nil)
    switch trace.stop {
    case nil: hasher.combine(0)
    case .crashed: hasher.combine(1)
    case .limit(let limit):
      hasher.combine(2)
      hasher.combine(limit.reason)
    case .scheduleMismatch(let step, let thread, let runnable):
      hasher.combine(3)
      hasher.combine(step)
      hasher.combine(thread)
      hasher.combine(runnable)
    }
  }

  // MARK: Threads and queues

  private mutating func write(_ thread: SimulatedThread) {
    hasher.combine(thread.name)
    hasher.combine(thread.serves)
    write(thread.frames)
    hasher.combine(thread.held)
    hasher.combine(thread.waiting?.queue)
    if let body = thread.waiting?.body { write(body) }
    hasher.combine(thread.inFlight.sorted())
    hasher.combine(thread.postedWillSave)
  }

  private mutating func write(_ frames: [SimulatedThread.Frame]) {
    hasher.combine(frames.count)
    for frame in frames { write(frame) }
  }

  private mutating func write(_ frame: SimulatedThread.Frame) {
    write(frame.steps)
    hasher.combine(frame.next)
    write(frame.scope)
    hasher.combine(frame.acquired)
    hasher.combine(frame.opener)
    hasher.combine(frame.loop?.name)
    if let rest = frame.loop?.rest { write(Array(rest)) }
    write(frame.completion)
    hasher.combine(frame.group)
    hasher.combine(frame.delivery?.notification)
    if let observers = frame.delivery?.observers { hasher.combine(observers) }
  }

  private mutating func write(_ completion: SimulatedThread.Completion?) {
    switch completion {
    case nil: hasher.combine(0)
    case .resume(let frames, let executor):
      hasher.combine(1)
      write(frames)
      hasher.combine(executor)
    case .groupChild(let group):
      hasher.combine(2)
      hasher.combine(group)
    }
  }

  /// A list of scenario steps, by their indices: the steps themselves never change.
  private mutating func write(_ steps: [Step]) {
    hasher.combine(steps.count)
    for step in steps { hasher.combine(step.index) }
  }

  private mutating func write(_ queue: DispatchQueueModel) {
    hasher.combine(queue.name)
    hasher.combine(queue.isSerial)
    hasher.combine(queue.pending.count)
    for item in queue.pending {
      switch item {
      case .block(let block): write(block)
      case .waiter(let thread):
        hasher.combine(-1)
        hasher.combine(thread)
      }
    }
    hasher.combine(queue.owner)
    hasher.combine(queue.server)
    hasher.combine(queue.started)
    write(queue.clock)
  }

  private mutating func write(_ block: Block) {
    write(block.steps)
    write(block.scope)
    if let merge = block.merge {
      hasher.combine(merge.changes.source)
      write(merge.changes.inserted)
      write(merge.changes.updated)
      write(merge.changes.deleted)
      hasher.combine(merge.into)
      hasher.combine(merge.causedBy)
    } else {
      hasher.combine(-1)
    }
    write(block.clock)
    if let resume = block.resume { write(resume) } else { hasher.combine(-1) }
    write(block.completion)
  }

  private mutating func write(_ clock: VectorClock) {
    // Trailing zeros say nothing: a clock grows as threads appear.
    let ranks = (0..<clock.count).map { rank(clock[$0], of: $0) }
    let end = (ranks.lastIndex { $0 != 0 } ?? -1) + 1
    hasher.combine(end)
    for r in ranks[..<end] { hasher.combine(r) }
  }

  // MARK: Scopes, objects and values

  /// A scope by its number in this walk, in full the first time.
  private mutating func write(_ scope: Scope) {
    if scopeNumbers[scope.index] >= 0 {
      hasher.combine(scopeNumbers[scope.index])
      return
    }
    scopeNumbers[scope.index] = scopesSeen
    scopesSeen += 1
    hasher.combine(-1)
    write(scopes.bindings(in: scope))
  }

  /// An object by its name: its context and ID, or its place in the table.
  private mutating func write(_ ref: ObjectReference) {
    let object = graph[ref]
    if object.registration == .registered && namedByID[object.context] {
      hasher.combine(object.context)
      write(object.id)
    } else {
      hasher.combine(-1)
      hasher.combine(ref.index)
    }
  }

  /// Bindings or values by key: the sum of each entry's hash, whatever order they are in.
  private mutating func write(_ values: some Sequence<(key: String, value: Value)>) {
    writeUnordered(values) { writer, entry in
      writer.hasher.combine(entry.key)
      writer.write(entry.value)
    }
  }

  /// Items whose order is not their content: each hashed on its own, and the sum.
  private mutating func writeUnordered<S: Sequence>(
    _ items: S, _ write: (inout StateWriter, S.Element) -> Void
  ) {
    var sum = (UInt64(0), UInt64(0))
    var count = 0
    let outer = hasher
    for item in items {
      hasher = FingerprintHasher()
      write(&self, item)
      let entry = hasher.finalize()
      sum = (sum.0 &+ entry.first, sum.1 &+ entry.second)
      count += 1
    }
    hasher = outer
    hasher.combine(count)
    hasher.combine(sum.0)
    hasher.combine(sum.1)
  }

  private mutating func write(_ values: [Value]) {
    hasher.combine(values.count)
    for value in values { write(value) }
  }

  private mutating func write(_ value: Value) {
    switch value {
    case .null: hasher.combine(0)
    case .bool(let b):
      hasher.combine(1)
      hasher.combine(b)
    case .integer(let i):
      hasher.combine(2)
      hasher.combine(i)
    case .double(let d):
      hasher.combine(3)
      hasher.combine(d)
    case .string(let s):
      if !values.isEmpty, let number = values.number(of: s) {
        hasher.combine(13)
        hasher.combine(number)
      } else {
        hasher.combine(4)
        hasher.combine(s)
      }
    case .list(let items):
      hasher.combine(5)
      write(items)
    case .object(let ref):
      hasher.combine(6)
      write(ref)
    case .objectID(let id):
      hasher.combine(7)
      write(id)
    case .context(let c):
      hasher.combine(8)
      hasher.combine(c)
    case .notification(let n):
      hasher.combine(9)
      hasher.combine(n)
    case .observer(let o):
      hasher.combine(10)
      hasher.combine(o)
    case .controller(let k):
      hasher.combine(11)
      hasher.combine(k)
    case .transaction(let token):
      hasher.combine(12)
      hasher.combine(token)
    }
  }

  /// An ID by entity and number (its own hash leaves the entity out).
  private mutating func write(_ id: ObjectID) {
    hasher.combine(id.entity)
    switch id.kind {
    case .temporary(let n):
      hasher.combine(1)
      hasher.combine(n)
    case .permanent(let n):
      hasher.combine(2)
      hasher.combine(n)
    }
  }

  private mutating func write(_ ids: [ObjectID]) {
    hasher.combine(ids.count)
    for id in ids { write(id) }
  }

  private mutating func write(_ refs: [ObjectReference]) {
    hasher.combine(refs.count)
    for ref in refs { write(ref) }
  }

  // MARK: Contexts and the store

  private mutating func write(_ graph: ObjectGraph) {
    hasher.combine(graph.contexts.count)
    for (c, context) in graph.contexts.enumerated() {
      hasher.combine(context.name)
      write(context.description)
      hasher.combine(context.queue)
      hasher.combine(context.parent)
      hasher.combine(context.isRuntime)
      // In order: a save assigns permanent IDs in the order objects were registered.
      write(graph.registeredObjects(in: c))
      hasher.combine(graph.registeredIDCount(in: c))
    }
    hasher.combine(graph.nextTemporaryID)
    // Every object once, wherever it is in the table: the sum of their hashes.
    writeUnordered(graph.objects.indices) { writer, index in
      let object = writer.graph.objects[index]
      writer.write(ObjectReference(index: index))
      // Its ID too: an object a reset forgot is named by its place, and its ID still reads.
      writer.write(object.id)
      writer.hasher.combine(object.context)
      writer.hasher.combine(object.isFault)
      writer.hasher.combine(object.isInserted)
      writer.hasher.combine(object.isDeleted)
      writer.hasher.combine(object.registration.rawValue)
      writer.write(object.snapshot)
      writer.hasher.combine(object.snapshotVersion)
      writer.write(object.changes)
    }
  }

  /// A context's settings, field by field: its hash value would differ from process to
  /// process.
  private mutating func write(_ description: ContextDescription) {
    hasher.combine(description.name)
    hasher.combine(description.concurrencyType.rawValue)
    switch description.parent {
    case .store: hasher.combine(0x5EED as UInt64)
    case .context(let name): hasher.combine(name)
    }
    hasher.combine(description.mergePolicy.rawValue)
    hasher.combine(description.automaticallyMergesChangesFromParent)
    hasher.combine(description.shouldDeleteInaccessibleFaults)
    hasher.combine(description.nameProperty)
    hasher.combine(description.transactionAuthor)
    hasher.combine(description.hasUndoManager)
  }

  private mutating func write(_ store: PersistentStore) {
    hasher.combine(store.rows.count)
    for row in store.rows {
      write(row.id)
      write(row.values)
      hasher.combine(row.version)
    }
    hasher.combine(store.nextPrimaryKey.count)
    for entity in store.nextPrimaryKey.keys.sorted() {
      hasher.combine(entity)
      hasher.combine(store.nextPrimaryKey[entity]!)
    }
    hasher.combine(store.history.count)
    for transaction in store.history {
      hasher.combine(transaction.token)
      hasher.combine(transaction.author)
      hasher.combine(transaction.contextName)
      write(transaction.inserted)
      write(transaction.updated)
      write(transaction.deleted)
    }
  }

  // MARK: Happens-before

  private mutating func write(_ detector: RaceDetector) {
    hasher.combine(detector.clocks.count)
    for clock in detector.clocks { write(clock) }
    write(detector.storeClock)
    write(detector.notificationCenterClock)
    hasher.combine(detector.histories.count)
    for history in detector.histories {
      if let write = history.lastWrite { self.write(write) } else { hasher.combine(-1) }
      hasher.combine(history.reads.count)
      for read in history.reads { write(read) }
    }
    hasher.combine(detector.reported.count)
    let reported = detector.reported.keys.map { [$0.variable, $0.first, $0.second] }
    for key in reported.sorted(by: { $0.lexicographicallyPrecedes($1) }) { hasher.combine(key) }
  }

  /// An access by who made it, when, and at which scenario step: what a later race report
  /// says of it.
  private mutating func write(_ access: RaceDetector.VarAccess) {
    hasher.combine(access.thread)
    hasher.combine(rank(access.time, of: access.thread))
    hasher.combine(access.isWrite)
    hasher.combine(access.stepIndex)
  }

  // MARK: Notifications and controllers

  private mutating func writeNotifications(_ s: Simulation) {
    hasher.combine(s.center.observers.count)
    for observer in s.center.observers {
      hasher.combine(observer.name.rawValue)
      hasher.combine(observer.object)
      hasher.combine(observer.queue)
      hasher.combine(observer.bind)
      write(observer.body)
      write(observer.scope)
      hasher.combine(observer.step)
      hasher.combine(observer.controller)
      hasher.combine(observer.isActive)
    }
    hasher.combine(s.center.posted.count)
    for notification in s.center.posted {
      hasher.combine(notification.name.rawValue)
      hasher.combine(notification.context)
      write(notification.inserted)
      write(notification.updated)
      write(notification.deleted)
      hasher.combine(notification.historyToken)
    }
    hasher.combine(s.center.undelivered.count)
    for delivery in s.center.undelivered {
      hasher.combine(delivery.notification)
      hasher.combine(delivery.observers)
    }
    hasher.combine(s.changes.unprocessed.count)
    for c in s.changes.unprocessed.keys.sorted() {
      let pending = s.changes.unprocessed[c]!
      hasher.combine(c)
      write(pending.inserted)
      write(pending.updated)
      write(pending.deleted)
    }
    hasher.combine(s.changes.controllers.count)
    for controller in s.changes.controllers {
      hasher.combine(controller.name)
      hasher.combine(controller.context)
      // Controllers are rare: their request and resolved predicate go in as text, with
      // objects by ID (the table's positions are not names this walk keeps).
      hasher.combine(String(describing: controller.request))
      hasher.combine(String(describing: controller.predicate?.map { graph.idForm($0) }))
      write(controller.objects)
    }
  }
}

/// Every stored property of the state a stateful search compares, owner by owner, and what
/// the fingerprint does with it: written, or left out and why. `FingerprintCoverageTests`
/// holds this to the owners' own properties, read by reflection while scenarios run, so a
/// property added to the state needs a line here, and cannot be forgotten by the
/// fingerprint without a test saying so.
enum FingerprintCoverage {
  enum Field: Equatable {
    case written
    /// Left out: no step reads it, or it is set afresh before any step reads it.
    case leftOut(String)
  }

  static let step = Field.leftOut("the step in progress: set afresh when a step starts")
  static let report = Field.leftOut("kept for reports only (step numbers, backtraces)")
  static let index = Field.leftOut("an index for lookups, made from the fields written")
  static let constant = Field.leftOut("the same in every state of a search")

  static let owners: [String: [String: Field]] = [
    "Simulation": [
      "script": constant, "trace": .written, "store": .written, "graph": .written,
      "runtime": .written, "program": .written, "now": step, "raceDetector": .written,
      "center": .written, "changes": .written,
    ],
    "Runtime": [
      "queues": .written, "threads": .written, "taskGroups": .written, "origins": report,
      "events": .written,
    ],
    "ProgramState": ["sharedVars": .written, "scopes": .written, "injectedCalls": .written],
    "StepInProgress": [
      "thread": step, "number": report, "index": step, "queue": step, "siteOverride": report,
      "trapped": step, "accesses": step, "runnable": step,
    ],

    "SimulatedThread": [
      "name": .written, "serves": .written, "frames": .written, "held": .written,
      "waiting": .written, "waitingQueue": index, "inFlight": .written,
      "postedWillSave": .written, "startedFrom": report,
    ],
    "Frame": [
      "steps": .written, "next": .written, "scope": .written, "acquired": .written,
      "opener": .written, "loop": .written, "completion": .written, "group": .written,
      "delivery": .written, "origin": report,
    ],
    "QueueTable": ["queues": .written],
    "DispatchQueueModel": [
      "name": .written, "isSerial": .written, "pending": .written, "owner": .written,
      "server": .written, "started": .written, "clock": .written, "releasedAt": report,
    ],
    "Block": [
      "steps": .written, "scope": .written, "merge": .written, "clock": .written,
      "resume": .written, "completion": .written, "enqueuedAt": report, "origin": report,
    ],
    "ObjectGraph": [
      "contexts": .written, "objects": .written, "registrations": .written,
      "nextTemporaryID": .written, "declared": index,
    ],
    "ManagedObjectContext": [
      "name": .written, "description": .written, "queue": .written, "parent": .written,
      "isRuntime": .written,
    ],
    "ManagedObject": [
      "id": .written, "context": .written, "isFault": .written, "isInserted": .written,
      "isDeleted": .written, "registration": .written, "snapshot": .written,
      "snapshotVersion": .written, "changes": .written,
    ],
    "PersistentStore": [
      "entities": constant, "rows": .written, "nextPrimaryKey": .written, "history": .written,
      "positions": index, "idsByEntity": index,
    ],
    "RaceDetector": [
      "clocks": .written, "storeClock": .written, "notificationCenterClock": .written,
      "histories": .written, "reported": .written, "variables": constant,
    ],
    "ScopeTable": [
      "bindings": .written, "records": .leftOut("written as the bindings each scope sees"),
    ],
    "TaskGroupState": ["results": .written, "outstanding": .written, "waiting": .written],
    "NotificationCenterModel": [
      "observers": .written, "posted": .written, "undelivered": .written,
    ],
    "Observer": [
      "name": .written, "object": .written, "queue": .written, "bind": .written,
      "body": .written, "scope": .written, "step": .written, "controller": .written,
      "isActive": .written,
    ],
    "PostedNotification": [
      "name": .written, "context": .written, "inserted": .written, "updated": .written,
      "deleted": .written, "historyToken": .written,
    ],
    "ChangeTracking": ["unprocessed": .written, "controllers": .written],
    "PendingChanges": ["inserted": .written, "updated": .written, "deleted": .written],
    "FetchedResultsController": [
      "name": .written, "context": .written, "request": .written, "predicate": .written,
      "objects": .written,
    ],
  ]

  /// The values inside an owner's properties: whether they go in is the owner's entry.
  static let parts: Set<String> = [
    "Access", "Attribute", "Binding", "ChangeSet", "ContextDescription", "Entity", "EntityRows",
    "FetchRequest", "History", "HistoryTransaction", "Merge", "NamedNumber", "NamedValue",
    "ObjectID", "ObjectReference", "Origin", "OriginTable", "Record", "RegisteredID",
    "Relationship", "Row", "RowPosition", "Scope", "VarAccess",
    "VectorClock", "Registrations", "ReportedPair",
  ]
}
