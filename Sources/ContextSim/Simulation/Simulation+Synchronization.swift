/// What orders steps: the accesses each step makes (for partial-order reduction), the
/// happens-before order of the synchronisation the app uses (for data races), and what a
/// context is in the middle of (for corruption without the flag).
extension Simulation {
  /// Records that the current step touched a resource.
  mutating func touch(_ resource: Access.Resource, write: Bool) {
    let access = Access(resource: resource, isWrite: write)
    if !stepAccesses.contains(access) { stepAccesses.append(access) }
    if resource == .store {
      // The coordinator serialises store access with a lock: acquire, then release.
      clocks[current].join(storeClock)
      storeClock = clocks[current]
      tick(current)
    }
  }

  // MARK: Happens-before

  /// Moves a thread's own time on, after it released something others may acquire.
  mutating func tick(_ t: Int) {
    clocks[t][t] += 1
  }

  // MARK: Serial queues

  /// Thread `t`, at the front of `q`'s line, takes the queue and runs the body of its `sync`
  /// or `performAndWait` on its own thread. It has seen everything done on the queue before.
  mutating func enter(_ q: Int, by t: Int, body: SimulatedThread.Frame) {
    touch(.queue(q), write: true)
    clocks[t].join(queues.handOff(q, to: t))
    threads[t].held.append(q)
    threads[t].frames.append(body)
    threads[t].waiting = nil
  }

  /// Serving thread `t` takes the block at the front of `q`'s line. It has seen everything
  /// done on the queue before, and what the enqueuing thread did before enqueueing.
  mutating func startBlock(_ q: Int, on t: Int) -> Block {
    let (block, clock) = queues.startBlock(q, on: t)
    touch(.queue(q), write: true)
    clocks[t].join(clock)
    clocks[t].join(block.clock)
    return block
  }

  /// A thread gives a queue back when the frame that took it ends: whoever takes a serial
  /// queue next sees what this thread did. A concurrent queue has nothing to give back.
  mutating func release(_ q: Int, by t: Int) {
    guard queues[q].isSerial else { return }
    queues.release(q, by: t, clock: clocks[t], at: stepNumber)
    tick(t)
  }

  // MARK: Data races

  /// One read or write of a shared var, as a race report names it.
  struct VarAccess {
    var thread: Int
    var time: Int
    var isWrite: Bool
    var site: Site
  }

  /// Checks an access to a shared var against the accesses it is not ordered with.
  ///
  /// A write races with the last write and every read since it; a read races with the last
  /// write, unless happens-before orders them (ThreadSanitizer's rule).
  mutating func accessVar(_ name: String, write: Bool) {
    guard let v = varIndex[name] else { return }
    touch(.variable(v), write: write)
    let clock = clocks[current]
    var history = varHistory[v]
    let earlier = ([history.lastWrite].compactMap { $0 } + (write ? history.reads : []))
      .filter { $0.thread != current && !clock.hasSeen(thread: $0.thread, time: $0.time) }
    let access = VarAccess(thread: current, time: clock[current], isWrite: write, site: site)
    for previous in earlier {
      let key = RaceKey(variable: v, first: previous.site.stepIndex, second: site.stepIndex)
      guard reportedRaces.insert(key).inserted else { continue }
      reportRace(name, access, previous)
    }
    if write {
      history.lastWrite = access
      history.reads = []
    } else {
      history.reads.removeAll { $0.thread == current }
      history.reads.append(access)
    }
    varHistory[v] = history
  }

  private mutating func reportRace(_ name: String, _ access: VarAccess, _ previous: VarAccess) {
    func describe(_ a: VarAccess) -> Violation.RaceAccess {
      Violation.RaceAccess(
        isWrite: a.isWrite, thread: threads[a.thread].name, step: a.site.step,
        stepIndex: a.site.stepIndex)
    }
    var raceSite = site
    raceSite.labels += previous.site.labels.filter { !raceSite.labels.contains($0) }
    trace.violations.append(
      Violation(
        site: raceSite,
        detail: .dataRace(variable: name, access: describe(access), previous: describe(previous)),
        backtrace: backtrace(of: current, at: site.stepIndex)))
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
  mutating func checkQueue(_ c: Int, _ subject: Violation.WrongQueue.Subject, method: String) {
    touch(.context(c), write: true)
    let thread = threads[current]
    let onQueue = thread.held.contains(contexts[c].queue)
    if options.concurrencyDebug {
      guard !onQueue, !trappedThisStep else { return }
      trappedThisStep = true
      record(.trapped)
      report(
        .wrongQueue(
          Violation.WrongQueue(
            subject: subject, ownerQueue: queues[contexts[c].queue].name,
            touchingQueue: queues[thread.held.last ?? 0].name, method: method)))
      return
    }
    defer { threads[current].inFlight.insert(c) }
    guard !trappedThisStep, !trace.violations.contains(where: { $0.kind == .corruption }),
      let other = threads.indices.first(where: { $0 != current && threads[$0].inFlight.contains(c) }
      )
    else { return }
    // Two threads inside one context at once; one of them must be off its queue.
    let otherOnQueue = threads[other].held.contains(contexts[c].queue)
    guard !(onQueue && otherOnQueue) else { return }
    trappedThisStep = true
    report(
      .corruption(
        context: contexts[c].name, otherThread: threads[other].name, method: method,
        offQueue: onQueue ? threads[other].name : thread.name))
  }

  /// Ends what a thread was in the middle of, when its block ends.
  mutating func endWork(of t: Int) {
    for c in threads[t].inFlight.sorted() {
      touch(.context(c), write: true)
    }
    threads[t].inFlight = []
  }
}

/// One reported race, so a pair of steps is reported once per run.
struct RaceKey: Hashable {
  var variable: Int
  var first: Int
  var second: Int
}

/// The accesses to one shared var that later accesses must be ordered after.
struct VarHistory {
  var lastWrite: Simulation.VarAccess?
  var reads: [Simulation.VarAccess] = []
}
