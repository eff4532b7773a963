/// The app's dispatch queues: who runs each serial queue, what waits for it, and what its
/// last owner hands to the next.
///
/// A serial queue runs one piece of work at a time, in FIFO order: a block enqueued with
/// `async` or `perform`, or a thread blocked in `sync` or `performAndWait` that runs its
/// body on its own thread once the queue reaches it. The table keeps that rule: work
/// leaves the line only from its front, only while the queue is free, and the thread that
/// takes it owns the queue until it releases it. A release leaves the owner's vector
/// clock on the queue, and the next owner acquires it, so the end of one block happens
/// before the start of the next (as loom's `rt/mutex.rs` does for a lock).
///
/// Queue 0 is the main queue, owned by the main thread at launch; queue 1 is the global
/// concurrent queue.
struct QueueTable: Sendable {
  /// Every queue, by index: the main and global queues, then the scenario's, then each
  /// private-queue context's, in the order they were made.
  private(set) var queues: [DispatchQueueModel] = []

  static let main = 0
  static let global = 1

  /// A table holding the main queue, owned and served by the main thread (thread 0), and
  /// the global concurrent queue.
  init() {
    queues.append(DispatchQueueModel(name: "main", isSerial: true))
    queues[Self.main].owner = 0
    queues[Self.main].server = 0
    queues.append(DispatchQueueModel(name: "global", isSerial: false))
  }

  subscript(q: Int) -> DispatchQueueModel { queues[q] }

  var count: Int { queues.count }

  /// The queue with this name, if there is one.
  func index(named name: String) -> Int? {
    queues.firstIndex { $0.name == name }
  }

  /// Adds a queue, free and with no work, and returns its index.
  @discardableResult
  mutating func add(named name: String, isSerial: Bool) -> Int {
    queues.append(DispatchQueueModel(name: name, isSerial: isSerial))
    return queues.count - 1
  }

  // MARK: Serial queues: the FIFO line

  /// Whether no queue has a block or a waiter in its line.
  var isDrained: Bool { queues.allSatisfy { $0.pending.isEmpty } }

  /// Whether the queue is free and a block is at the front of its line.
  func hasBlockReady(_ q: Int) -> Bool {
    guard queues[q].isFree, case .block? = queues[q].pending.first else { return false }
    return true
  }

  /// Whether the queue is free and thread `t`, waiting for it, is at the front of its line.
  func isTurn(of t: Int, on q: Int) -> Bool {
    guard queues[q].isFree, case .waiter(let waiter)? = queues[q].pending.first else {
      return false
    }
    return waiter == t
  }

  /// Puts a block at the back of a serial queue's line.
  mutating func enqueue(_ block: consuming Block, on q: Int) {
    precondition(queues[q].isSerial, "a concurrent queue runs each block on a thread of its own")
    queues[q].pending.append(.block(block))
  }

  /// Puts thread `t`, blocked in `sync` or `performAndWait`, at the back of the line.
  mutating func wait(_ t: Int, on q: Int) {
    precondition(queues[q].isSerial, "only a serial queue makes a caller wait")
    queues[q].pending.append(.waiter(thread: t))
  }

  /// Gives the queue to thread `t`, whose turn it is, and returns the clock it acquires.
  mutating func handOff(_ q: Int, to t: Int) -> VectorClock {
    precondition(isTurn(of: t, on: q), "a waiter takes the queue only at the front of the line")
    queues[q].pending.removeFirst()
    queues[q].owner = t
    return queues[q].clock
  }

  /// Takes the block at the front of the line for thread `t`, which now owns the queue, and
  /// returns it with the clock the thread acquires.
  mutating func startBlock(_ q: Int, on t: Int) -> (block: Block, clock: VectorClock) {
    precondition(hasBlockReady(q), "a block starts only at the front of a free queue's line")
    // Moved out, not copied: a trivial item takes its place before the front is dropped.
    var front = DispatchQueueModel.Item.waiter(thread: t)
    swap(&front, &queues[q].pending[0])
    queues[q].pending.removeFirst()
    guard case .block(let block) = consume front else { preconditionFailure() }
    queues[q].owner = t
    return (block, queues[q].clock)
  }

  /// Thread `t` gives the queue back at a scheduler step: the next owner sees `clock`, the
  /// owner's clock at the release, and is ordered after `step` in a timeline.
  mutating func release(_ q: Int, by t: Int, clock: VectorClock, at step: Int) {
    precondition(queues[q].owner == t, "only the thread that owns a queue releases it")
    queues[q].owner = nil
    queues[q].clock = clock
    queues[q].releasedAt = step
  }

  /// Records the thread that runs a serial queue's blocks, once one is needed.
  mutating func serve(_ q: Int, by t: Int) {
    precondition(queues[q].isSerial && queues[q].server == nil, "one thread serves a queue")
    queues[q].server = t
  }

  // MARK: Concurrent queues

  /// Counts a block a concurrent queue starts, and returns its number, from 1, which names
  /// its thread: `global#1`, `global#2` …
  mutating func startConcurrentBlock(on q: Int) -> Int {
    precondition(!queues[q].isSerial, "a serial queue's blocks run on its one thread")
    queues[q].started += 1
    return queues[q].started
  }
}

/// A dispatch queue: FIFO work for the thread (serial) or threads (concurrent) serving it.
///
/// Only ``QueueTable`` changes one, so its owner and line keep the table's rules.
struct DispatchQueueModel: Sendable {
  /// Work waiting on a serial queue: a block to run, or a thread blocked in `sync` or
  /// `performAndWait` that runs its block on its own thread once the queue reaches it.
  enum Item {
    case block(Block)
    case waiter(thread: Int)
  }

  let name: String
  let isSerial: Bool
  fileprivate(set) var pending: [Item] = []
  /// The thread running on this serial queue now, if any.
  fileprivate(set) var owner: Int?
  /// The thread that runs this serial queue's blocks, once one has been needed.
  fileprivate(set) var server: Int?
  /// How many blocks a concurrent queue has started, to number their threads.
  fileprivate(set) var started = 0
  /// The scheduler step at which a thread last gave this serial queue back: a thread
  /// blocked waiting for the queue is ordered after it.
  fileprivate(set) var releasedAt = 0
  /// The vector clock of the thread that last gave this serial queue back: its next owner
  /// has seen everything done on the queue before.
  fileprivate(set) var clock = VectorClock()

  var isFree: Bool { owner == nil }
}
