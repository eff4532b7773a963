/// Steps that move work between queues: `async`, `sync`, `perform`, `performAndWait`, loops.
extension Simulation {

  /// The current frame's scope, read in place: `frames.last!` would copy the whole frame.
  var scope: Scope {
    threads[now.thread].frames[threads[now.thread].frames.count - 1].scope
  }

  mutating func queueIndex(_ name: String) -> Int {
    queues.index(named: name)!
  }

  /// A context by the name a step uses: one a step made in this scope, or a declared one.
  mutating func contextIndex(_ name: String) -> Int {
    // Without a step that can put a context in a variable, a declared name is the declared
    // context, found without hashing the name into the bindings.
    if !scenario.features.bindsContexts, let declared = graph.declaredContext(named: name) {
      return declared
    }
    if case .context(let index)? = scopes[scope, name] { return index }
    return graph.declaredContext(named: name)!
  }

  /// `DispatchQueue.async` and `perform`: the block captures the variables bound so far.
  mutating func enqueue(_ steps: [Step], on q: Int, from step: Step) {
    let origin = origin(onto: q, at: step.index)
    record(.enqueued(queue: queues[q].name))
    enqueue(Block(steps: steps, scope: capture(scope), origin: origin), on: q)
  }

  /// Puts a block on a queue: in line for a serial queue's thread, or on a thread of its
  /// own for a concurrent queue.
  mutating func enqueue(_ block: consuming Block, on q: Int) {
    touch(.queue(q), write: true)
    block.clock = raceDetector.release(by: now.thread)
    block.enqueuedAt = now.number
    if queues[q].isSerial {
      queues.enqueue(block, on: q)
      if queues[q].server == nil {
        queues.serve(q, by: startThread(named: queues[q].name, serving: q))
      }
    } else {
      let n = queues.startConcurrentBlock(on: q)
      let t = startThread(named: "\(queues[q].name)#\(n)", serving: nil)
      raceDetector.acquire(block.clock, by: t)
      threads[t].start(block, on: q)
    }
  }

  private mutating func startThread(named name: String, serving q: Int?) -> Int {
    let t = threads.count
    if t >= options.maximumThreads, trace.stop == nil {
      trace.stop = .limit(.threads(options.maximumThreads))
    }
    // A run's first change to its threads copies them from the template without spare
    // room; making room for several here saves a copy at each thread started after.
    if threads.count == threads.capacity { threads.reserveCapacity(t * 2 + 4) }
    threads.append(SimulatedThread(name: name, serves: q))
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
    let holds = threads[now.thread].held.contains(q)
    var body = SimulatedThread.Frame(steps: steps, scope: scope, acquired: nil, opener: step.index)
    if !queues[q].isSerial || (holds && reentrant) {
      if !queues[q].isSerial {
        body.acquired = q
        threads[now.thread].held.append(q)
      }
      threads[now.thread].frames.append(body)
      record(.entered(queue: queues[q].name, reentrant: holds))
      return
    }
    body.acquired = q
    touch(.queue(q), write: true)
    queues.wait(now.thread, on: q)
    threads[now.thread].waiting = (q, body)
    if queues.isTurn(of: now.thread, on: q) {
      enter(q, by: now.thread, body: body)
      record(.entered(queue: queues[q].name, reentrant: false))
    } else {
      record(.waits(queue: queues[q].name))
    }
  }

  /// `for x in sequence { … }`: the body runs once per element on this thread.
  mutating func loop(
    over sequence: Expression, as name: String, body: [Step], from step: Step
  ) {
    let elements = self.elements(of: sequence)
    record(.loop(count: elements.count))
    guard let first = elements.first, !body.isEmpty else { return }
    scopes[scope, name] = first
    threads[now.thread].frames.append(
      SimulatedThread.Frame(
        steps: body, scope: scope, opener: step.index, loop: (name, elements.dropFirst())))
  }
}
