/// What orders steps: the accesses each step makes (for partial-order reduction), the
/// happens-before order of the synchronisation the app uses (for data races), and what a
/// context is in the middle of (for corruption without the flag).
extension Simulation {
  /// Records that the current step touched a resource.
  mutating func touch(_ resource: Access.Resource, write: Bool) {
    let access = Access(resource: resource, isWrite: write)
    if options.recordsFootprints, !now.accesses.contains(access) { now.accesses.append(access) }
    if resource == .store {
      // The coordinator serialises store access with a lock: acquire, then release.
      raceDetector.lockStore(by: now.thread)
    } else if resource == .observers {
      raceDetector.lockNotificationCenter(by: now.thread)
    }
  }

  // MARK: Serial queues

  /// Thread `t`, at the front of `q`'s line, takes the queue and runs the body of its `sync`
  /// or `performAndWait` on its own thread. It has seen everything done on the queue before.
  mutating func enter(_ q: Int, by t: Int, body: SimulatedThread.Frame) {
    touch(.queue(q), write: true)
    raceDetector.acquire(runtime.queues.handOff(q, to: t), by: t)
    runtime.threads[t].enter(q, body: body)
  }

  /// Serving thread `t` takes the block at the front of `q`'s line. It has seen everything
  /// done on the queue before, and what the enqueuing thread did before enqueueing.
  mutating func startBlock(_ q: Int, on t: Int) -> Block {
    let (block, clock) = runtime.queues.startBlock(q, on: t)
    touch(.queue(q), write: true)
    raceDetector.acquire(clock, by: t)
    raceDetector.acquire(block.clock, by: t)
    return block
  }

  /// A thread gives a queue back when the frame that took it ends: whoever takes a serial
  /// queue next sees what this thread did. A concurrent queue has nothing to give back.
  mutating func release(_ q: Int, by t: Int) {
    guard runtime.queues[q].isSerial else { return }
    runtime.queues.release(q, by: t, clock: raceDetector.release(by: t), at: now.number)
  }

  // MARK: Data races

  /// Checks an access to a shared var against the accesses it is not ordered with, and
  /// reports each race it makes.
  mutating func accessVar(_ name: String, write: Bool) {
    guard let v = raceDetector.variable(named: name) else { return }
    touch(.variable(v), write: write)
    for race in raceDetector.access(
      v, by: now.thread, isWrite: write, step: now.number, stepIndex: now.index)
    {
      reportRace(name, race.access, race.previous)
    }
  }

  private mutating func reportRace(
    _ name: String, _ access: RaceDetector.VarAccess, _ previous: RaceDetector.VarAccess
  ) {
    func describe(_ a: RaceDetector.VarAccess) -> Violation.RaceAccess {
      Violation.RaceAccess(
        isWrite: a.isWrite, thread: runtime.threads[a.thread].name, step: a.step,
        stepIndex: a.stepIndex)
    }
    var raceSite = site
    // Most steps have no labels: adding none still made the list unique, a copy per race.
    let ownLabels = raceSite.labels
    for label in scenario.allSteps[previous.stepIndex].labels where !ownLabels.contains(label) {
      raceSite.labels.append(label)
    }
    trace.violations.append(
      Violation(
        site: raceSite,
        detail: .dataRace(variable: name, access: describe(access), previous: describe(previous)),
        backtrace: backtrace(of: now.thread, at: raceSite.stepIndex)))
  }

  // MARK: Corruption without the flag

  /// Checks one touch of a context by the current thread.
  ///
  /// With ConcurrencyDebug on, a touch off the context's queue traps. Without it, the touch
  /// is not checked, but if another thread is in the middle of work on the same context
  /// (its current block has touched the context and not ended), the two overlap, and in
  /// that interleaving the app crashes as a corrupted context makes it crash: a bad access
  /// (semantics §10.2, §12 k). The first corruption is the crash; later overlaps in the same
  /// run would happen in an app that no longer exists, so they are not reported.
  ///
  /// The touch is of the context itself, or of `object`, one of its objects. What a report
  /// names is built only for a report: every Core Data step makes this check.
  mutating func checkQueue(_ c: Int, object: ObjectReference? = nil, method: String) {
    touch(.context(c), write: true)
    let onQueue = runtime.threads[now.thread].held.contains(graph.contexts[c].queue)
    if options.concurrencyDebug {
      guard !onQueue, !now.trapped else { return }
      now.trapped = true
      record(.trapped)
      let name = graph.contexts[c].name
      report(
        .wrongQueue(
          Violation.WrongQueue(
            subject: object.map { .object(graph[$0].id, context: name) } ?? .context(name),
            ownerQueue: runtime.queues[graph.contexts[c].queue].name,
            touchingQueue: runtime.queues[runtime.threads[now.thread].held.last ?? 0].name,
            method: method)))
      return
    }
    defer { runtime.threads[now.thread].inFlight.insert(c) }
    guard !now.trapped,
      let other = runtime.threads.indices.first(where: {
        $0 != now.thread && runtime.threads[$0].inFlight.contains(c)
      }
      )
    else { return }
    // Two threads inside one context at once; one of them must be off its queue. Overlaps
    // are rare, so the violations are looked through for an earlier one only then.
    let otherOnQueue = runtime.threads[other].held.contains(graph.contexts[c].queue)
    guard !(onQueue && otherOnQueue), !trace.violations.contains(where: { $0.kind == .corruption })
    else { return }
    now.trapped = true
    report(
      .corruption(
        context: graph.contexts[c].name, otherThread: runtime.threads[other].name, method: method,
        offQueue: onQueue ? runtime.threads[other].name : runtime.threads[now.thread].name))
  }

  /// Ends what a thread was in the middle of, when its block ends.
  mutating func endWork(of t: Int) {
    guard !runtime.threads[t].inFlight.isEmpty else { return }
    // In order, so every run lists the same accesses; most blocks touch one context, which
    // needs no sorted copy.
    if runtime.threads[t].inFlight.count == 1 {
      touch(.context(runtime.threads[t].inFlight.first!), write: true)
    } else {
      for c in runtime.threads[t].inFlight.sorted() { touch(.context(c), write: true) }
    }
    // The thread serves its queue's next block, which fills the set again.
    runtime.threads[t].inFlight.removeAll(keepingCapacity: true)
  }
}
