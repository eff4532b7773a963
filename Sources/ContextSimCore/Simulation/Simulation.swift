/// Options that change what a run models, not what it reports.
public struct SimulationOptions: Sendable {
  /// Whether the app runs with `-com.apple.CoreData.ConcurrencyDebug 1`.
  public var concurrencyDebug: Bool
  /// End the run at the first violation that would end the real app, as the app would.
  /// Off by default: a teaching run reports every violation and carries on.
  public var stopAtFirstCrash = false
  /// The most steps one run may take, so a block that re-enqueues itself forever ends.
  public var maximumSteps = SimulationOptions.defaultMaximumSteps
  /// The most threads, and separately the most queues, one run may start: each thread
  /// carries a vector clock as long as the thread count, so memory grows with its square.
  public var maximumThreads = SimulationOptions.defaultMaximumThreads
  /// Whether the trace keeps every step's effect; exploration needs only the violations.
  public var recordsEvents = true
  /// Whether each step reports what it touched, its ``Footprint``: partial-order reduction
  /// reorders steps by it, but a sampling strategy never reads it. Off, every footprint
  /// is empty. Happens-before, and so the race check, does not depend on it.
  public var recordsFootprints = true
  /// Whether the trace keeps what the run left behind (``Trace/endState``): the store's rows
  /// and what viewContext sees. Off by default, so exploration stays lean; grading turns it on.
  public var capturesEndState = false

  /// Steps a run may take unless told otherwise.
  public static let defaultMaximumSteps = 100_000
  /// Threads, and queues, a run may start unless told otherwise.
  public static let defaultMaximumThreads = 512

  /// Options for a run; limits default to the ones above.
  public init(
    concurrencyDebug: Bool, stopAtFirstCrash: Bool = false,
    maximumSteps: Int = defaultMaximumSteps, maximumThreads: Int = defaultMaximumThreads,
    recordsEvents: Bool = true
  ) {
    self.concurrencyDebug = concurrencyDebug
    self.stopAtFirstCrash = stopAtFirstCrash
    self.maximumSteps = maximumSteps
    self.maximumThreads = maximumThreads
    self.recordsEvents = recordsEvents
  }
}

/// One run's world, and the steps that move it on.
///
/// Each primitive keeps its own rules, as loom's `rt/` does: the ``QueueTable`` who holds
/// which queue and who waits for it, the ``RaceDetector`` happens-before and the races it
/// leaves, the ``ObjectGraph`` one instance per object ID in each context, and the
/// ``PersistentStore`` its rows. `Simulation` coordinates them: it runs each step on the
/// threads, checks the queue rule, and records the trace.
struct Simulation: Sendable {
  private let script: Script
  /// The scenario the run follows, held once for every copy of the run (``Script``).
  var scenario: Scenario { script.scenario }
  var options: SimulationOptions { script.options }
  var trace: Trace

  var store: PersistentStore
  /// The contexts and the object instances registered in them.
  var graph = ObjectGraph()
  /// The queues, threads and task groups, and where each block came from.
  var runtime = Runtime()
  /// The app's shared variables and scopes.
  var program = ProgramState()
  /// The store's UUID in permanent object IDs, and the coordinator's in temporary ones:
  /// made from the scenario's title, so every run prints the same IDs.
  var storeIdentifier: String { scenario.storeIdentifier }
  var temporaryIdentifier: String { scenario.temporaryIdentifier }

  /// The step being taken: its thread, where it is, and what it touched so far.
  var now = StepInProgress()

  var site: Site {
    if let siteOverride = now.siteOverride { return siteOverride }
    let step = scenario.allSteps[now.index]
    return Site(
      step: now.number, thread: runtime.threads[now.thread].name,
      queue: runtime.queues[now.queue].name,
      stepIndex: now.index, path: step.path, labels: step.labels)
  }
  /// Happens-before between threads, and the races on shared vars it leaves.
  var raceDetector: RaceDetector
  /// The observers the app added, the notifications posted to them, and what the current
  /// step posted, delivered once it is done.
  var center = NotificationCenterModel()
  /// Each context's changes not yet announced, and the fetched results controllers that
  /// listen for them.
  var changes = ChangeTracking()

  static let mainQueue = QueueTable.main
  static let globalQueue = QueueTable.global

  init(scenario: Scenario, options: SimulationOptions) {
    script = Script(scenario, options: options)
    trace = Trace(concurrencyDebug: options.concurrencyDebug)
    store = scenario.initialStore
    for variable in scenario.vars where !program.sharedVars.contains(key: variable.name) {
      program.sharedVars[variable.name] = variable.value
    }
    raceDetector = RaceDetector(variables: scenario.vars.map(\.name))

    for queue in scenario.queues {
      runtime.queues.add(named: queue.name, isSerial: queue.attributes == .serial)
    }
    for description in scenario.contexts {
      var queue = Self.mainQueue
      if description.concurrencyType == .privateQueue {
        queue = runtime.queues.add(named: description.name, isSerial: true)
      }
      var parent: Int?
      if case .context(let name) = description.parent {
        parent = scenario.contexts.firstIndex { $0.name == name }
      }
      graph.add(
        ManagedObjectContext(
          name: description.name, description: description, queue: queue, parent: parent))
    }
    var main = SimulatedThread(name: "main", serves: Self.mainQueue)
    let launch = runtime.origins.add([.launch])
    main.frames = [
      SimulatedThread.Frame(
        steps: scenario.main, scope: newScope(), acquired: Self.mainQueue, origin: launch)
    ]
    main.held = [Self.mainQueue]
    runtime.threads = [main]
    trace.threads = ["main"]
    unwind(0)
    reserveRoom()
  }

  /// Room for what a run of a few dozen steps adds. Searches copy this run at its start
  /// for every execution, and a copy keeps the room: growing the schedule, the object
  /// graph and the bindings a step at a time cost an allocation per doubling, per run.
  private mutating func reserveRoom() {
    trace.schedule.threads.reserveCapacity(64)
    trace.threads.reserveCapacity(8)
    now.runnable.reserveCapacity(8)
    graph.reserveRoom(objects: 16)
    runtime.origins.reserveCapacity(64)
    runtime.threads.reserveCapacity(8)
    program.scopes.reserveCapacity(bindings: 32, scopes: 16)
  }

  /// Copies, at a run's first step, the template's lists that the run both changes in place
  /// and grows, with room for what it adds. A copy made by a change in place keeps no spare
  /// room, so the first thread started after it cost a second copy.
  mutating func makeRoomForRun() {
    runtime.threads.reserveCapacity(8)
    runtime.threads[0].frames.reserveCapacity(4)
    raceDetector.reserveThreads(8)
  }

  /// A scope with no bindings, for a new block or task.
  mutating func newScope() -> Scope { program.scopes.open() }

  /// A new scope with the same bindings as `scope`: what an escaping closure captures.
  mutating func capture(_ scope: Scope) -> Scope { program.scopes.capture(scope) }

  /// Whether a thread can take a step now. Asked of every thread at every step, so the
  /// thread is read in place, not copied.
  func canRun(_ t: Int) -> Bool {
    if let q = runtime.threads[t].waitingQueue { return runtime.queues.isTurn(of: t, on: q) }
    if !runtime.threads[t].frames.isEmpty { return true }
    if let served = runtime.threads[t].serves {
      return runtime.queues.hasBlockReady(served) || (t == 0 && hasEventReady())
    }
    return false
  }

  /// Whether the main run loop can deliver its next posted event now.
  func hasEventReady() -> Bool { !runtime.events.isEmpty && isIdle() }

  /// Lets one thread take one step: start its next block or blocked body if it must, then
  /// run one scenario step.
  mutating func advance(_ t: Int, step: Int) {
    now.thread = t
    now.trapped = false
    // Tested before it is bound: binding copied the waiting frame at every step.
    if runtime.threads[t].waitingQueue != nil, let waiting = runtime.threads[t].waiting {
      // It waited for the queue: the thread that gave it back comes first.
      runtime.threads[t].startedFrom = runtime.queues[waiting.queue].releasedAt
      enter(waiting.queue, by: t, body: waiting.body)
    } else if runtime.threads[t].frames.isEmpty, let q = runtime.threads[t].serves {
      if !runtime.queues.hasBlockReady(q) {
        // The main run loop delivers the event it holds: it takes its turn on the main queue.
        runtime.queues.enqueue(runtime.events.removeFirst(), on: q)
      }
      let block = startBlock(q, on: t)
      if let merge = block.merge {
        // A merge Core Data enqueued runs as one step on the receiver's queue.
        (now.number, now.index, now.queue) = (step, merge.causedBy, q)
        // The save enqueued the merge: the timeline's arrow into it starts there.
        if options.recordsEvents && block.enqueuedAt > 0 {
          trace.orderings.append(Trace.Ordering(from: block.enqueuedAt, to: step))
        }
        self.merge(merge.changes, into: merge.into, automatic: true)
        guard !center.undelivered.isEmpty else {
          release(q, by: t)
          endWork(of: t)
          return
        }
        // The merge's objects-did-change observers run on the queue before it is free.
        runtime.threads[t].held = [q]
        deliverPosted(releasing: q)
        return
      }
      runtime.threads[t].start(block, on: q)
    }
    unwind(t)
    guard let top = runtime.threads[t].frames.indices.last else { return }
    let stepToRun = runtime.threads[t].frames[top].steps[runtime.threads[t].frames[top].next]
    runtime.threads[t].frames[top].next += 1
    (now.number, now.index, now.queue) = (step, stepToRun.index, runtime.threads[t].held.last ?? 0)
    if let from = runtime.threads[t].startedFrom {
      runtime.threads[t].startedFrom = nil
      if options.recordsEvents && from > 0 {
        trace.orderings.append(Trace.Ordering(from: from, to: step))
      }
    }
    if let condition = stepToRun.condition, !holds(condition) {
      record(.skipped)
    } else {
      runRequestingParents(stepToRun)
      if !center.undelivered.isEmpty {
        if case .save = stepToRun.action { endParentRequest(t, openedBy: stepToRun.index) }
        deliverPosted()
      }
    }
    unwind(t)
  }

  /// A child's save runs in a frame that holds its parent's queue, as Core Data's
  /// `performAndWait` on the parent does (``runRequestingParents(_:)``). The child's
  /// did-save Core Data posts on the saving thread once that request returned (semantics-2
  /// §1.2): so the frame ends, and the parent's queue is given back, before the observers
  /// run. (A remote merge's objects-did-change, by contrast, is posted on the context's
  /// own queue, inside the request.)
  private mutating func endParentRequest(_ t: Int, openedBy index: Int) {
    // The request's frame, and above it the frames that ran the step again after its
    // will-save observers: each holds only this step, and each has run it.
    while let last = runtime.threads[t].frames.indices.last,
      runtime.threads[t].frames[last].opener == index,
      runtime.threads[t].frames[last].steps.count == 1,
      runtime.threads[t].frames[last].steps[0].index == index,
      runtime.threads[t].frames[last].next >= 1
    {
      let top = runtime.threads[t].frames.removeLast()
      if let q = top.acquired {
        runtime.threads[t].held.removeLast()
        release(q, by: t)
      }
    }
  }

  /// Pops finished frames, moving loops on and giving back the queues frames took.
  ///
  /// A blocked thread is still inside its `sync` or `performAndWait` step, so nothing
  /// around that step may end yet: its queues stay held.
  mutating func unwind(_ t: Int) {
    guard runtime.threads[t].waitingQueue == nil else { return }
    // The top frame is read field by field and moved out only when it ends: copying it
    // whole on every check retained and released each of its lists.
    while let last = runtime.threads[t].frames.indices.last,
      runtime.threads[t].frames[last].next >= runtime.threads[t].frames[last].steps.count
    {
      if let g = runtime.threads[t].frames[last].group {
        // A task group's `then` body: take the next result, wait for one, or finish.
        touch(.taskGroup(g), write: true)
        if !runtime.taskGroups[g].results.isEmpty {
          let result = runtime.taskGroups[g].results.removeFirst()
          program.scopes.merge(result.values, into: runtime.threads[t].frames[last].scope)
          raceDetector.acquire(result.clock, by: t)
          runtime.threads[t].frames[last].next = 0
          continue
        }
        if runtime.taskGroups[g].outstanding > 0 {
          runtime.taskGroups[g].waiting = suspend(t)
          return
        }
      }
      if let loop = runtime.threads[t].frames[last].loop, let element = loop.rest.first {
        program.scopes[runtime.threads[t].frames[last].scope, loop.name] = element
        runtime.threads[t].frames[last].loop = (loop.name, loop.rest.dropFirst())
        runtime.threads[t].frames[last].next = 0
        continue
      }
      // A block's end processes its contexts' changes; their observers run first.
      if last == 0, let q = runtime.threads[t].frames[last].acquired,
        processPendingChanges(endingBlockOn: q)
      {
        continue
      }
      let top = runtime.threads[t].frames.removeLast()
      if let q = top.acquired {
        runtime.threads[t].held.removeLast()
        release(q, by: t)
      }
      if runtime.threads[t].frames.isEmpty {
        endWork(of: t)
        if let completion = top.completion { complete(completion, scope: top.scope) }
      }
    }
  }

  // MARK: Recording

  mutating func record(_ effect: Effect) {
    guard options.recordsEvents else { return }
    trace.events.append(TraceEvent(site: site, effect: effect))
  }

  mutating func report(_ detail: Violation.Detail) {
    trace.violations.append(
      Violation(site: site, detail: detail, backtrace: backtrace(of: now.thread, at: now.index)))
  }

  /// The scenario steps that led to the current one, innermost first, through the blocks
  /// that enqueued them. Capped, so a block that re-enqueues itself stays cheap.
  func backtrace(of t: Int, at stepIndex: Int) -> [BacktraceEntry] {
    var lines: [OriginEntry] = []
    lines.reserveCapacity(16)
    let origin = Self.ownLines(of: runtime.threads[t].frames, at: stepIndex) { lines.append($0) }
    if let origin { runtime.origins.lines(of: origin, into: &lines, limit: 16) }
    return lines.map { line in
      switch line {
      case .step(let index): .step(index)
      case .enqueued(let q, let thread):
        .enqueued(queue: runtime.queues[q].name, thread: runtime.threads[thread].name)
      case .launch: .launch
      }
    }
  }

  /// Where a block the current thread hands to queue `q` is enqueued from, for backtraces:
  /// Xcode's "enqueued from" section. Its lines go straight into the run's table.
  mutating func origin(onto q: Int, at stepIndex: Int) -> OriginTable.Origin {
    let origin = runtime.origins.begin()
    runtime.origins.append(.enqueued(queue: q, thread: now.thread))
    let parent = Self.ownLines(of: runtime.threads[now.thread].frames, at: stepIndex) {
      runtime.origins.append($0)
    }
    runtime.origins.end(continuing: parent)
    return origin
  }

  /// Hands `line` the step a thread is at and the steps that opened the bodies it is in,
  /// innermost first and at most 16, and returns the origin of the block they are in. It
  /// reads the thread's frames passed in, so an enqueue can write into the run's table while
  /// it reads them.
  private static func ownLines(
    of frames: [SimulatedThread.Frame], at stepIndex: Int, _ line: (OriginEntry) -> Void
  ) -> OriginTable.Origin? {
    line(.step(stepIndex))
    var count = 1
    for i in frames.indices.reversed() where count < 16 {
      if let opener = frames[i].opener {
        line(.step(opener))
        count += 1
      }
      if let origin = frames[i].origin { return origin }
    }
    return nil
  }

  mutating func reportDeadlock() {
    let blocked = runtime.threads.indices.filter { runtime.threads[$0].waiting != nil }
    guard !blocked.isEmpty else { return }
    let details = blocked.map { t in
      let q = runtime.threads[t].waiting!.queue
      return Violation.BlockedThread(
        thread: runtime.threads[t].name, waitsFor: runtime.queues[q].name,
        heldBy: runtime.queues[q].owner.map { runtime.threads[$0].name })
    }
    let first = blocked[0]
    now.thread = first
    var deadlockSite = site
    deadlockSite.thread = runtime.threads[first].name
    deadlockSite.queue = runtime.queues[runtime.threads[first].held.last ?? 0].name
    deadlockSite.labels = blocked.flatMap { t in
      runtime.threads[t].waiting.flatMap { w in w.body.opener.map { scenario.allSteps[$0].labels } }
        ?? []
    }
    if let opener = runtime.threads[first].waiting?.body.opener {
      deadlockSite.stepIndex = opener
      deadlockSite.path = scenario.allSteps[opener].path
    }
    now.siteOverride = deadlockSite
    report(.deadlock(details))
  }

}

/// The scenario a run follows and the options it runs with, which no step changes: held by reference, so a copy of a run
/// (a search copies one at every branch) does not copy and later free the scenario's many
/// buffers along with it.
final class Script: Sendable {
  let scenario: Scenario
  let options: SimulationOptions

  init(_ scenario: Scenario, options: SimulationOptions) {
    self.scenario = scenario
    self.options = options
  }
}
