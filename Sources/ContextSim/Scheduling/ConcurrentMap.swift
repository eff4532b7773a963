import Dispatch

/// `body(i)` for every `i` in `0..<count`, run on up to `workers` threads at once, with the
/// results in index order whatever thread ran them.
///
/// Each worker takes the next index not yet taken, so one slow item does not hold up the
/// ones a fixed share would have put behind it on the same worker. Each index is written by
/// exactly one worker into its own slot, so the results need no lock.
package func concurrentMap<T: Sendable>(
  _ count: Int, workers: Int, _ body: @Sendable (Int) -> T
) -> [T] {
  guard count > 0 else { return [] }
  let slots = Slots<T>(count)
  defer { slots.free() }
  let next = NextIndex()
  DispatchQueue.concurrentPerform(iterations: max(1, min(workers, count))) { _ in
    while let i = next.take(below: count) {
      slots.buffer[i] = body(i)
    }
  }
  return slots.buffer.map { $0! }
}

/// The indices of a ``concurrentMap(_:workers:_:)`` handed out one at a time, under a
/// serial queue (which ThreadSanitizer understands as synchronisation).
private final class NextIndex: @unchecked Sendable {
  private var next = 0
  private let queue = DispatchQueue(label: "ctxsim.concurrentMap")

  /// The next index below `count` no worker has taken, or nil when all are taken.
  func take(below count: Int) -> Int? {
    queue.sync {
      guard next < count else { return nil }
      defer { next += 1 }
      return next
    }
  }
}

/// One result slot per index. Sendable because every slot is written by one worker only,
/// and read after all of them have finished.
private struct Slots<T>: @unchecked Sendable {
  let buffer: UnsafeMutableBufferPointer<T?>

  init(_ count: Int) {
    buffer = .allocate(capacity: count)
    buffer.initialize(repeating: nil)
  }

  func free() {
    _ = buffer.deinitialize()
    buffer.deallocate()
  }
}
