import Dispatch
import Foundation

/// `body(i)` for every `i` in `0..<count`, run on up to `workers` threads at once (the
/// caller's and new ones), with the results in index order whatever thread ran them.
///
/// It is ``concurrentChunks(_:workers:state:_:deliver:)`` with one item a chunk: each worker
/// takes the next index not yet taken, so one slow item does not hold up the ones a fixed
/// share would have put behind it on the same worker.
///
/// The workers are the caller and threads of its own, not `DispatchQueue.concurrentPerform`'s,
/// so that a map inside another one's body can use the cores the outer one has left: `check`
/// runs each scenario's split search (``SplitSearch``) inside its map over scenarios. New
/// threads, in all the maps running at once, stay within `workers - 1`, so the last scenario
/// gets the cores the others are done with, and no core runs two threads.
package func concurrentMap<T: Sendable>(
  _ count: Int, workers: Int, _ body: @Sendable (Int) -> T
) -> [T] {
  var results: [T] = []
  results.reserveCapacity(count)
  concurrentChunks(
    count, workers: workers, state: {}, { _, i in body(i) },
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
package func concurrentChunks<State, T: Sendable>(
  _ count: Int, workers: Int, state makeState: @Sendable () -> State,
  _ body: @Sendable (inout State, Int) -> T, deliver: (T) -> Bool
) {
  guard count > 0 else { return }
  withoutActuallyEscaping(makeState) { makeState in
    withoutActuallyEscaping(body) { body in
      let work = ChunkedWork(count: count, state: makeState, body: body)
      // The closures must not outlive this call: the work lets go of them before returning.
      defer { work.finish() }
      let helpers = DispatchGroup()
      for _ in 0..<HelperThreads.shared.reserve(min(workers, count) - 1, within: workers - 1) {
        helpers.enter()
        Thread {
          work.runChunks()
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
  }
}

/// The chunks of one ``concurrentChunks(_:workers:state:_:deliver:)``: the closures, the next
/// chunk to hand out, the results not yet delivered, and whether to stop, all under a serial
/// queue (which ThreadSanitizer understands as synchronisation).
private final class ChunkedWork<State, T>: @unchecked Sendable {
  private let count: Int
  private var makeState: (@Sendable () -> State)?
  private var body: (@Sendable (inout State, Int) -> T)?
  private var next = 0
  private var delivered = 0
  private var stopped = false
  private var results: [Int: T] = [:]
  private let queue = DispatchQueue(label: "ctxsim.concurrentChunks")

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

  /// Lets go of the closures, once every helper is done.
  func finish() {
    makeState = nil
    body = nil
  }
}
