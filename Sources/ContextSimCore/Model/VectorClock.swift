/// A vector clock: for each thread, how far along it was when something happened.
///
/// One event happens before another when the later one's clock has caught up with the
/// earlier one's thread at the earlier one's time. Threads are numbered as the simulation
/// starts them, so clocks grow as threads appear.
struct VectorClock: Equatable {
  /// The first eight threads' times, held inline; later threads' in `more`. Every enqueue
  /// copies a clock and then moves its own on, and with an array each of those copies was
  /// an allocation; few runs start more than eight threads.
  private var first = SIMD8<Int>()
  private var more: [Int] = []
  /// One past the highest thread the clock has a time for: clocks grow as threads appear.
  private(set) var count = 0

  subscript(thread: Int) -> Int {
    get {
      if thread < first.scalarCount { return first[thread] }
      let i = thread - first.scalarCount
      return i < more.count ? more[i] : 0
    }
    set {
      count = Swift.max(count, thread + 1)
      if thread < first.scalarCount {
        first[thread] = newValue
        return
      }
      let i = thread - first.scalarCount
      if i >= more.count { more += repeatElement(0, count: i - more.count + 1) }
      more[i] = newValue
    }
  }

  /// Takes in everything another clock has seen.
  mutating func join(_ other: VectorClock) {
    // Lane by lane up to the other's count: a run has a few threads, and the generic
    // eight-lane `pointwiseMax` cost more than the rest of a join.
    for t in 0..<Swift.min(other.count, first.scalarCount) where other.first[t] > first[t] {
      first[t] = other.first[t]
    }
    if other.more.count > more.count {
      more += repeatElement(0, count: other.more.count - more.count)
    }
    for i in other.more.indices where other.more[i] > more[i] {
      more[i] = other.more[i]
    }
    count = Swift.max(count, other.count)
  }

  /// Whether the event of `thread` at `time` happened before this clock.
  func hasSeen(thread: Int, time: Int) -> Bool {
    self[thread] >= time
  }
}

/// What a step touched, for telling which steps can be reordered without changing the
/// outcome: two steps are independent when neither writes what the other touches and they
/// do not both take the same lock.
struct Access: Hashable {
  enum Resource: Hashable {
    case context(Int)
    case store
    case queue(Int)
    case variable(Int)
    /// The table of contexts and queues, which making a context at run time extends.
    case registry
    /// A task group's results and waiting parent.
    case taskGroup(Int)
    /// The notification center's observers, which adding, removing and posting use.
    case observers
    /// Whether the run goes on, in a run that ends at its first crash: every step reads it
    /// and the crash writes it, so a crash is ordered against every step of every thread
    /// (which of two crashes comes first, and what happens before it, is the outcome).
    case runGoesOn
  }

  var resource: Resource
  var isWrite: Bool

  /// The resource as a small number, unique among resources: the kind in the low bits, the
  /// number (context, queue, variable, group) above them. Partial-order reduction looks
  /// resources up on every step, and an array indexed by this costs no hashing.
  var slot: Int {
    switch resource {
    case .store: 0
    case .registry: 1
    case .observers: 2
    case .runGoesOn: 3
    case .context(let n): 4 + 4 * n
    case .queue(let n): 5 + 4 * n
    case .variable(let n): 6 + 4 * n
    case .taskGroup(let n): 7 + 4 * n
    }
  }

  func conflicts(with other: Access) -> Bool {
    resource == other.resource && (orders || other.orders)
  }

  /// Whether this access orders the ones after it: a write, or any use of a lock, which the
  /// race detector counts as a release the next user acquires. Two reads of the store in
  /// the other order order two threads' other accesses the other way, and can decide
  /// whether those race (found by SoundnessTests' generated programs).
  var orders: Bool { isWrite || resource == .store || resource == .observers }
}
