/// Steps that move work between queues: `async`, `sync`, `perform`, `performAndWait`, loops.
extension Simulation {

  /// The current frame's scope, read in place: `frames.last!` would copy the whole frame.
  var scope: Scope {
    runtime.threads[now.thread].frames[runtime.threads[now.thread].frames.count - 1].scope
  }

  mutating func queueIndex(_ name: String) -> Int {
    runtime.queues.index(named: name)!
  }

  /// A context by the name a step uses: one a step made in this scope, or a declared one.
  mutating func contextIndex(_ name: String) -> Int {
    // Without a step that can put a context in a variable, a declared name is the declared
    // context, found without hashing the name into the bindings.
    if !scenario.features.bindsContexts, let declared = graph.declaredContext(named: name) {
      return declared
    }
    if case .context(let index)? = program.scopes[scope, name] { return index }
    return graph.declaredContext(named: name)!
  }

  /// `DispatchQueue.async` and `perform`: the block captures the variables bound so far.
  mutating func enqueue(_ steps: [Step], on q: Int, from step: Step) {
    let origin = origin(onto: q, at: step.index)
    record(.enqueued(queue: runtime.queues[q].name))
    enqueue(Block(steps: steps, scope: capture(scope), origin: origin), on: q)
  }

  /// Posts a later event to the main run loop: the block waits, outside the main queue's
  /// line, until the app is idle (``isIdle()``), and then runs on the main thread.
  mutating func postEvent(_ steps: [Step], from step: Step) {
    let origin = origin(onto: Self.mainQueue, at: step.index)
    record(.postedEvent)
    touch(.queue(Self.mainQueue), write: true)
    var block = Block(steps: steps, scope: capture(scope), origin: origin)
    block.clock = raceDetector.release(by: now.thread)
    block.enqueuedAt = now.number
    runtime.events.append(block)
  }

  /// Whether nothing but the main run loop has work: no thread but main in a block or
  /// waiting, and no block or waiter in any queue's line. Only then is an event delivered.
  func isIdle() -> Bool {
    runtime.threads.indices.allSatisfy { t in
      t == 0 || (runtime.threads[t].frames.isEmpty && runtime.threads[t].waitingQueue == nil)
    } && runtime.queues.isDrained
  }

  /// Puts a block on a queue: in line for a serial queue's thread, or on a thread of its
  /// own for a concurrent queue.
  mutating func enqueue(_ block: consuming Block, on q: Int) {
    touch(.queue(q), write: true)
    block.clock = raceDetector.release(by: now.thread)
    block.enqueuedAt = now.number
    if runtime.queues[q].isSerial {
      runtime.queues.enqueue(block, on: q)
      if runtime.queues[q].server == nil {
        runtime.queues.serve(q, by: startThread(named: runtime.queues[q].name, serving: q))
      }
    } else {
      let n = runtime.queues.startConcurrentBlock(on: q)
      let t = startThread(named: "\(runtime.queues[q].name)#\(n)", serving: nil)
      raceDetector.acquire(block.clock, by: t)
      runtime.threads[t].start(block, on: q)
    }
  }

  private mutating func startThread(named name: String, serving q: Int?) -> Int {
    let t = runtime.threads.count
    if t >= options.maximumThreads, trace.stop == nil {
      trace.stop = .limit(.threads(options.maximumThreads))
    }
    // A run's first change to its threads copies them from the template without spare
    // room; making room for several here saves a copy at each thread started after.
    if runtime.threads.count == runtime.threads.capacity {
      runtime.threads.reserveCapacity(t * 2 + 4)
    }
    runtime.threads.append(SimulatedThread(name: name, serves: q))
    trace.threads.append(name)
    _ = raceDetector.addThread()
    return t
  }

  /// `sync` and `performAndWait`: the caller's thread runs the block once the queue is free.
  ///
  /// A serial queue takes the caller in FIFO order behind blocks already enqueued. A `sync`
  /// onto the serial queue the thread is already on waits for itself, forever: a deadlock.
  mutating func runSynchronously(
    _ steps: [Step], on q: Int, from step: Step, reentrant: Bool
  ) {
    let holds = runtime.threads[now.thread].held.contains(q)
    var body = SimulatedThread.Frame(steps: steps, scope: scope, acquired: nil, opener: step.index)
    if !runtime.queues[q].isSerial || (holds && reentrant) {
      if !runtime.queues[q].isSerial {
        body.acquired = q
        runtime.threads[now.thread].held.append(q)
      }
      runtime.threads[now.thread].frames.append(body)
      record(.entered(queue: runtime.queues[q].name, reentrant: holds))
      return
    }
    body.acquired = q
    touch(.queue(q), write: true)
    runtime.queues.wait(now.thread, on: q)
    runtime.threads[now.thread].waiting = (q, body)
    if runtime.queues.isTurn(of: now.thread, on: q) {
      enter(q, by: now.thread, body: body)
      record(.entered(queue: runtime.queues[q].name, reentrant: false))
    } else {
      record(.waits(queue: runtime.queues[q].name))
    }
  }

  /// `for x in sequence { … }`: the body runs once per element on this thread.
  mutating func loop(
    over sequence: Expression, as name: String, body: [Step], from step: Step
  ) {
    let elements = self.elements(of: sequence)
    record(.loop(count: elements.count))
    guard let first = elements.first, !body.isEmpty else { return }
    program.scopes[scope, name] = first
    runtime.threads[now.thread].frames.append(
      SimulatedThread.Frame(
        steps: body, scope: scope, opener: step.index, loop: (name, elements.dropFirst())))
  }
}
