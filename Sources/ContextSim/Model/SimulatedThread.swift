/// A thread of the simulated app and the stack of step lists it is working through.
struct SimulatedThread {
  /// One list of steps being run, and what ends when it does.
  struct Frame {
    var steps: [Step]
    var next = 0
    var scope: Scope
    /// The queue this frame took and gives back when it ends.
    var acquired: Int?
    /// The step that opened this frame (`performAndWait`, `sync`, `forEach`), for backtraces.
    var opener: Int?
    /// For a block's bottom frame: where the block was enqueued from.
    var origin: [BacktraceEntry]?
    /// For a `forEach` body: the remaining elements and the name each is bound to.
    var loop: (name: String, rest: ArraySlice<Value>)?
  }

  let name: String
  /// The serial queue this thread serves; nil for a thread started for one concurrent block.
  let serves: Int?
  var frames: [Frame] = []
  /// Queues this thread is running on, outermost first: its block's queue, then any it
  /// entered with `sync` or `performAndWait`. A context is usable when its queue is here.
  var held: [Int] = []
  /// The queue this thread is blocked on, and the body it runs once it gets it.
  var waiting: (queue: Int, body: Frame)?
  /// Contexts this thread's current block has touched: work in flight on them.
  var inFlight: Set<Int> = []

  var isIdle: Bool { frames.isEmpty && waiting == nil }
}
