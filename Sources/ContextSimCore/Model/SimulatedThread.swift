/// A thread of the simulated app and the stack of step lists it is working through.
struct SimulatedThread: Sendable {
  /// One list of steps being run, and what ends when it does.
  struct Frame: Sendable {
    var steps: [Step]
    var next = 0
    var scope: Scope
    /// The queue this frame took and gives back when it ends.
    var acquired: Int?
    /// The step that opened this frame (`performAndWait`, `sync`, `forEach`), for backtraces.
    var opener: Int?
    /// For a block's bottom frame: where the block was enqueued from.
    var origin: OriginTable.Origin?
    /// For a `forEach` body: the remaining elements and the name each is bound to.
    var loop: (name: String, rest: ArraySlice<Value>)?
    /// What happens when this bottom frame of a block ends: a task waiting for it resumes,
    /// or a task group receives a child's result.
    var completion: Completion?
    /// For a task group's `then` body: the group whose results it takes one by one.
    var group: Int?
    /// For a frame delivering a notification: which one, and the observers whose `observe`
    /// steps make up the frame, in order.
    var delivery: (notification: Int, observers: [Int])?
  }

  /// What the end of a block hands on.
  enum Completion {
    /// A task suspended in `await`: its frames, and the executor's queue it resumes on.
    case resume(frames: [Frame], executor: Int)
    /// A task group's child: its bindings go to the group.
    case groupChild(Int)
  }

  let name: String
  /// The serial queue this thread serves; nil for a thread started for one concurrent block.
  let serves: Int?
  var frames: [Frame] = []
  /// Queues this thread is running on, outermost first: its block's queue, then any it
  /// entered with `sync` or `performAndWait`. A context is usable when its queue is here.
  var held: [Int] = []
  /// The queue this thread is blocked on, and the body it runs once it gets it.
  var waiting: (queue: Int, body: Frame)? {
    didSet { waitingQueue = waiting?.queue }
  }
  /// The queue of ``waiting`` alone. Every step asks every thread whether it waits, and
  /// reading the tag of an optional tuple holding a frame cost more than the rest of the check.
  private(set) var waitingQueue: Int?
  /// Contexts this thread's current block has touched: work in flight on them.
  var inFlight: Set<Int> = []
  /// The step this thread's next step is ordered after, until that step runs: the one that
  /// enqueued the block it has just started, or that gave back the queue it waited for.
  var startedFrom: Int?
  /// The save step that has posted will-save and runs again once its observers are done.
  var postedWillSave: Int?

  /// Starts a block taken from queue `q`, which is then the one queue the thread holds. Its
  /// first step is ordered after the step that enqueued the block.
  ///
  /// A thread serving a serial queue runs block after block: it keeps its lists' storage.
  mutating func start(_ block: Block, on q: Int) {
    held.removeAllKeepingCapacity()
    // A new thread's lists get room for the queues and bodies a block nests at their first
    // use: growing them from one entry cost an allocation at each doubling.
    if held.capacity == 0 { held.reserveCapacity(4) }
    held.append(q)
    if let resume = block.resume {
      frames = resume
    } else {
      frames.removeAllKeepingCapacity()
      if frames.capacity == 0 { frames.reserveCapacity(4) }
      frames.append(block.frame(on: q))
    }
    startedFrom = block.enqueuedAt
  }

  /// Runs the body of a `sync` or `performAndWait` once it has queue `q`: it stops waiting
  /// and holds the queue, inside whatever it held already.
  mutating func enter(_ q: Int, body: Frame) {
    held.append(q)
    frames.append(body)
    waiting = nil
  }
}
