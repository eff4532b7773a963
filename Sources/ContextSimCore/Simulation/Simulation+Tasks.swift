/// Swift concurrency: tasks on the main actor or the global executor, `await` on a context's
/// `perform`, and task groups. A task that awaits gives its thread back; its frames wait
/// in the block it awaits and resume as a new job on its executor when that block ends.
extension Simulation {
  /// `Task { @MainActor in … }` (a job on the main queue) or `Task.detached { … }` (a job
  /// on the global executor).
  mutating func startTask(_ executor: TaskExecutor, body: [Step], from step: Step) {
    let q = executor == .main ? Self.mainQueue : Self.globalQueue
    record(.taskStarted(queue: runtime.queues[q].name))
    enqueue(
      Block(steps: body, scope: capture(scope), origin: origin(onto: q, at: step.index)), on: q)
  }

  /// `try await context.perform(schedule:) { … }`.
  ///
  /// `.immediate` runs the block inline when the thread is already on the context's queue;
  /// otherwise, and always for `.enqueued`, the block is enqueued on the context's queue
  /// and the task waits without holding its thread (semantics §2.4). What the block binds
  /// is its return value, seen after the await.
  mutating func performAwait(
    _ context: String, schedule: ScheduledTaskType, body: [Step], from step: Step
  ) {
    let c = contextIndex(context)
    let q = graph.contexts[c].queue
    if schedule == .immediate && runtime.threads[now.thread].held.contains(q) {
      runtime.threads[now.thread].frames.append(
        SimulatedThread.Frame(steps: body, scope: scope, opener: step.index))
      record(.ranInline(queue: runtime.queues[q].name))
      return
    }
    record(.awaits(queue: runtime.queues[q].name))
    let sharedScope = scope
    let origin = origin(onto: q, at: step.index)
    let (frames, executor) = suspend(now.thread)
    var block = Block(steps: body, scope: sharedScope, origin: origin)
    block.completion = .resume(frames: frames, executor: executor)
    enqueue(block, on: q)
  }

  /// `withTaskGroup`: one child task per element on the global executor; the parent runs
  /// `then` for each child as it finishes, in the order they finish.
  mutating func startTaskGroup(
    over sequence: Expression, as name: String, child: [Step], then: [Step], from step: Step
  ) {
    let elements = self.elements(of: sequence)
    let g = runtime.taskGroups.count
    runtime.taskGroups.append(TaskGroupState(outstanding: elements.count))
    touch(.taskGroup(g), write: true)
    record(.groupStarted(children: elements.count))
    for element in elements {
      let childScope = capture(scope)
      program.scopes[childScope, name] = element
      var block = Block(
        steps: child, scope: childScope, origin: origin(onto: Self.globalQueue, at: step.index))
      block.completion = .groupChild(g)
      enqueue(block, on: Self.globalQueue)
    }
    // The `then` frame starts finished, so unwinding takes the first result or waits.
    var frame = SimulatedThread.Frame(steps: then, scope: scope, opener: step.index)
    frame.next = then.count
    frame.group = g
    runtime.threads[now.thread].frames.append(frame)
  }

  /// Takes a task off its thread: its frames and its executor's queue, to resume later.
  mutating func suspend(_ t: Int) -> (frames: [SimulatedThread.Frame], executor: Int) {
    let frames = runtime.threads[t].frames
    let executor = frames.first?.acquired ?? Self.mainQueue
    for frame in frames.reversed() {
      if let q = frame.acquired { release(q, by: t) }
    }
    runtime.threads[t].frames = []
    runtime.threads[t].held = []
    endWork(of: t)
    return (frames, executor)
  }

  /// What the end of a block hands on: a waiting task resumes, or a group gets a result.
  mutating func complete(_ completion: SimulatedThread.Completion, scope: Scope) {
    switch completion {
    case .resume(let frames, let executor):
      var block = Block(steps: [], scope: scope, origin: nil)
      block.resume = frames
      enqueue(block, on: executor)
    case .groupChild(let g):
      touch(.taskGroup(g), write: true)
      runtime.taskGroups[g].results.append(
        (program.scopes.values(in: scope), raceDetector.release(by: now.thread)))
      runtime.taskGroups[g].outstanding -= 1
      if let waiting = runtime.taskGroups[g].waiting {
        runtime.taskGroups[g].waiting = nil
        var block = Block(steps: [], scope: scope, origin: nil)
        block.resume = waiting.frames
        enqueue(block, on: waiting.executor)
      }
    }
  }

  /// Whether a step's `"when"` holds now.
  mutating func holds(_ condition: Condition) -> Bool {
    condition.all.allSatisfy { test in
      value(of: test.variable).matches(test.value) != test.negated
    }
  }

  /// The store error injected into this run of the current step, if one is.
  mutating func injectedError() -> CoreDataError? {
    guard let label = scenario.allSteps[now.index].label else { return nil }
    for (i, injection) in scenario.injections.enumerated() where injection.label == label {
      if let condition = injection.condition, !holds(condition) { continue }
      program.injectedCalls[i, default: 0] += 1
      if program.injectedCalls[i] == injection.call {
        return CoreDataError(
          code: injection.code,
          message: "The operation couldn’t be completed. (Cocoa error \(injection.code).)")
      }
    }
    return nil
  }
}

extension Block {
  /// The frame a thread runs for this block on queue `q`, unless it resumes a task.
  func frame(on q: Int) -> SimulatedThread.Frame {
    var frame = SimulatedThread.Frame(steps: steps, scope: scope, acquired: q, origin: origin)
    frame.completion = completion
    return frame
  }
}
