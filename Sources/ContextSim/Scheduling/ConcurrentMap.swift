import Dispatch
import Foundation

/// `body(i)` for every `i` in `0..<count`, run on up to `workers` threads at once (the
/// caller's and new ones), with the results in index order whatever thread ran them.
///
/// Each worker takes the next index not yet taken, so one slow item does not hold up the
/// ones a fixed share would have put behind it on the same worker. Each index is written by
/// exactly one worker into its own slot, so the results need no lock.
///
/// The workers are the caller and threads of its own, not `DispatchQueue.concurrentPerform`'s,
/// so that a map inside another one's body can use the cores the outer one has left: `check`
/// runs each scenario's split search (``SplitSearch``) inside its map over scenarios. New
/// threads, in all the maps running at once, stay within `workers - 1`, so the last scenario
/// gets the cores the others are done with, and no core runs two threads.
package func concurrentMap<T: Sendable>(
  _ count: Int, workers: Int, _ body: @Sendable (Int) -> T
) -> [T] {
  guard count > 0 else { return [] }
  return withoutActuallyEscaping(body) { body in
    let work = SharedWork(count: count, body: body)
    // The body must not outlive this call: the work lets go of it before returning.
    defer { work.finish() }
    let helpers = DispatchGroup()
    for _ in 0..<HelperThreads.shared.reserve(min(workers, count) - 1, within: workers - 1) {
      helpers.enter()
      Thread {
        work.run()
        HelperThreads.shared.release()
        helpers.leave()
      }.start()
    }
    work.run()
    helpers.wait()
    return work.slots.map { $0! }
  }
}

/// The work of one ``concurrentMap(_:workers:_:)``: the body, the indices handed out one at
/// a time under a serial queue (which ThreadSanitizer understands as synchronisation), and
/// one result slot per index. Sendable because every slot is written by one worker only,
/// and read after all of them have finished.
private final class SharedWork<T>: @unchecked Sendable {
  private let count: Int
  private var body: (@Sendable (Int) -> T)?
  private var next = 0
  private let queue = DispatchQueue(label: "ctxsim.concurrentMap")
  let slots: UnsafeMutableBufferPointer<T?>

  init(count: Int, body: @escaping @Sendable (Int) -> T) {
    self.count = count
    self.body = body
    slots = .allocate(capacity: count)
    slots.initialize(repeating: nil)
  }

  /// Runs the body for indices no worker has taken, until none is left.
  func run() {
    while let i = take() {
      slots[i] = body!(i)
    }
  }

  /// The next index no worker has taken, or nil when all are taken.
  private func take() -> Int? {
    queue.sync {
      guard next < count else { return nil }
      defer { next += 1 }
      return next
    }
  }

  /// Lets go of the body and the slots, once every worker is done.
  func finish() {
    body = nil
    _ = slots.deinitialize()
    slots.deallocate()
  }
}

/// How many helper threads all the maps running in the process have.
private final class HelperThreads: @unchecked Sendable {
  static let shared = HelperThreads()
  private var running = 0
  private let queue = DispatchQueue(label: "ctxsim.helperThreads")

  /// Reserves up to `wanted` more helpers, so that no more than `limit` run in all; returns
  /// how many it reserved.
  func reserve(_ wanted: Int, within limit: Int) -> Int {
    queue.sync {
      let reserved = max(0, min(wanted, limit - running))
      running += reserved
      return reserved
    }
  }

  /// A helper has finished.
  func release() { queue.sync { running -= 1 } }
}

/// `body` for every chunk in `0..<count`, on up to `workers` threads at once, each thread
/// with state of its own made by `makeState` on that thread; `deliver` gets each chunk's
/// result on the calling thread, in chunk order, as soon as it and every earlier one are
/// done. When `deliver` returns false, no further chunk starts and no further result is
/// delivered.
///
/// Made for long runs of small work, as random schedules are: unlike
/// ``concurrentMap(_:workers:_:)`` in batches, no core waits at a barrier between batches,
/// and what a worker builds once, such as the run every execution starts from a copy of, is
/// its own, so two cores do not fight over its reference counts.
package func concurrentChunks<State, T: Sendable>(
  _ count: Int, workers: Int, state makeState: @escaping @Sendable () -> State,
  _ body: @escaping @Sendable (inout State, Int) -> T, deliver: (T) -> Bool
) {
  guard count > 0 else { return }
  let work = ChunkedWork<T>(count: count)
  let helpers = DispatchGroup()
  for _ in 0..<HelperThreads.shared.reserve(min(workers, count) - 1, within: workers - 1) {
    helpers.enter()
    Thread {
      var state = makeState()
      while let i = work.take() { work.store(body(&state, i), at: i) }
      HelperThreads.shared.release()
      helpers.leave()
    }.start()
  }
  var state = makeState()
  var delivering = true
  func deliverReady() {
    while delivering, let result = work.nextReady() {
      if !deliver(result) {
        delivering = false
        work.stop()
      }
    }
  }
  while delivering, let i = work.take() {
    work.store(body(&state, i), at: i)
    deliverReady()
  }
  helpers.wait()
  deliverReady()
}

/// The chunks of one ``concurrentChunks(_:workers:state:_:deliver:)``: the next one to hand
/// out, the results not yet delivered, and whether to stop, all under a serial queue.
private final class ChunkedWork<T>: @unchecked Sendable {
  private let count: Int
  private var next = 0
  private var delivered = 0
  private var stopped = false
  private var results: [Int: T] = [:]
  private let queue = DispatchQueue(label: "ctxsim.concurrentChunks")

  init(count: Int) { self.count = count }

  /// The next chunk no worker has taken, or nil when all are taken or the work stopped.
  func take() -> Int? {
    queue.sync {
      guard next < count, !stopped else { return nil }
      defer { next += 1 }
      return next
    }
  }

  func store(_ result: T, at i: Int) { queue.sync { results[i] = result } }

  /// The result of the first chunk not yet delivered, if it is done.
  func nextReady() -> T? {
    queue.sync {
      guard let result = results.removeValue(forKey: delivered) else { return nil }
      delivered += 1
      return result
    }
  }

  func stop() { queue.sync { stopped = true } }
}
