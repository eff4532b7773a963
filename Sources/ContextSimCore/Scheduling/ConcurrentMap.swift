import Dispatch
import Foundation

/// `body(i)` for every `i` in `0..<count`, run on up to `workers` threads at once, with the
/// results in index order whatever thread ran them.
///
/// It is ``concurrentChunks(_:workers:callerRuns:state:_:deliver:)`` with one item a chunk:
/// each worker takes the next index not yet taken, so one slow item does not hold up the
/// ones a fixed share would have put behind it on the same worker.
///
/// The workers are threads of its own, not `DispatchQueue.concurrentPerform`'s, so that a
/// map inside another one's body can use the cores the outer one has left: `check` runs each
/// scenario's split search (``SplitSearch``) inside its map over scenarios. Threads beyond
/// the one that stands in for each waiting caller, in all the maps running at once, stay
/// within `workers - 1`, so the last scenario gets the cores the others are done with, and
/// no core runs two busy threads.
package func concurrentMap<T: Sendable>(
  _ count: Int, workers: Int, _ body: @Sendable (Int) -> T
) -> [T] {
  var results: [T] = []
  results.reserveCapacity(count)
  // The results are kept to the end, so the caller can run items too (see below).
  concurrentChunks(
    count, workers: workers, callerRuns: true, state: {}, { _, i in body(i) },
    deliver: { result in
      results.append(result)
      return true
    })
  return results
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
/// Made for long runs of small work, as random schedules are: no core waits at a barrier
/// between batches, and what a worker builds once, such as the run every execution starts
/// from a copy of, is its own, so two cores do not fight over its reference counts.
///
/// Unless `callerRuns`, the calling thread runs no chunk while another core is free: it waits
/// for results and delivers them, and a thread of its own stands in for it. A result's
/// memory is made on the worker that ran the chunk and let go of by the caller once
/// delivered, and a thread that lets go of memory takes it for its next allocations (glibc's
/// per-thread cache). A caller that ran chunks too would put its runs' objects among a
/// worker's, on cache lines that two cores then write at once (docs/exploration.md,
/// Figures). A caller that keeps every result, as ``concurrentMap(_:workers:_:)`` does, lets
/// go of nothing, and spares the handing over.
package func concurrentChunks<State, T: Sendable>(
  _ count: Int, workers: Int, callerRuns: Bool = false, state makeState: @Sendable () -> State,
  _ body: @Sendable (inout State, Int) -> T, deliver: (T) -> Bool
) {
  guard count > 0 else { return }
  withoutActuallyEscaping(makeState) { makeState in
    withoutActuallyEscaping(body) { body in
      let work = ChunkedWork(count: count, state: makeState, body: body)
      // The closures must not outlive this call: the work lets go of them before returning.
      defer { work.finish() }
      let spare = HelperThreads.shared.reserve(min(workers, count) - 1, within: workers - 1)
      let standIn = spare > 0 && !callerRuns
      let helpers = DispatchGroup()
      // The stand-in, the last helper, runs on the core its waiting caller leaves idle.
      for helper in 0..<spare + (standIn ? 1 : 0) {
        helpers.enter()
        Thread {
          work.runChunks()
          if helper < spare { HelperThreads.shared.release() }
          helpers.leave()
        }.start()
      }
      var delivering = true
      /// Delivers results in order: those ready, or, `waiting`, all of them as they come.
      func deliverResults(waiting: Bool) {
        while delivering, let result = work.nextResult(waiting: waiting) {
          if !deliver(result) {
            delivering = false
            work.stop()
          }
        }
      }
      if !standIn {
        var state = makeState()
        while delivering, let i = work.take() {
          work.store(body(&state, i), at: i)
          deliverResults(waiting: false)
        }
      }
      deliverResults(waiting: true)
      helpers.wait()
    }
  }
}

/// The chunks of one ``concurrentChunks(_:workers:callerRuns:state:_:deliver:)``: the
/// closures, the next chunk to hand out, the results not yet delivered, and whether to stop,
/// all under a serial queue (which ThreadSanitizer understands as synchronisation).
private final class ChunkedWork<State, T>: @unchecked Sendable {
  private let count: Int
  private var makeState: (@Sendable () -> State)?
  private var body: (@Sendable (inout State, Int) -> T)?
  private var next = 0
  private var delivered = 0
  private var stopped = false
  private var results: [Int: T] = [:]
  private let queue = DispatchQueue(label: "ctxsim.concurrentChunks")
  /// Signalled once for each result stored.
  private let stored = DispatchSemaphore(value: 0)

  init(
    count: Int, state: @escaping @Sendable () -> State,
    body: @escaping @Sendable (inout State, Int) -> T
  ) {
    self.count = count
    self.makeState = state
    self.body = body
  }

  /// A helper's work: state of its own, then chunks until none is left or the work stopped.
  func runChunks() {
    guard let makeState, let body else { return }
    var state = makeState()
    while let i = take() { store(body(&state, i), at: i) }
  }

  /// The next chunk no worker has taken, or nil when all are taken or the work stopped.
  func take() -> Int? {
    queue.sync {
      guard next < count, !stopped else { return nil }
      defer { next += 1 }
      return next
    }
  }

  func store(_ result: T, at i: Int) {
    queue.sync { results[i] = result }
    stored.signal()
  }

  /// The result of the first chunk not yet delivered: nil if it is not done, unless
  /// `waiting`, which waits for it, and nil when every result has been delivered or the
  /// work has stopped.
  func nextResult(waiting: Bool) -> T? {
    while true {
      let next: T?? = queue.sync {
        if let result = results.removeValue(forKey: delivered) {
          delivered += 1
          return .some(result)
        }
        return !waiting || delivered == count || stopped ? .some(nil) : nil
      }
      if let next { return next }
      // Every store signals once, so a wait ends at the next store after this look.
      stored.wait()
    }
  }

  func stop() { queue.sync { stopped = true } }

  /// Lets go of the closures, once every helper is done.
  func finish() {
    makeState = nil
    body = nil
  }
}
