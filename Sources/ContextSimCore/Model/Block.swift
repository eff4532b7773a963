/// A closure handed to a queue, with the variables it captured.
struct Block {
  var steps: [Step]
  var scope: Scope
  /// Where it was enqueued from, for backtraces: Xcode's "enqueued from" section. A block
  /// that resumes a task has none: the frames it resumes keep theirs.
  var origin: OriginTable.Origin?
  /// A merge Core Data enqueued on a context's queue after another context saved.
  var merge: Merge?
  /// The enqueuing thread's vector clock: enqueueing happens before the block starts.
  var clock = VectorClock()
  /// A suspended task's frames, which this block resumes instead of running `steps`.
  var resume: [SimulatedThread.Frame]?
  /// What the block's end hands on.
  var completion: SimulatedThread.Completion?
  /// The step that enqueued it, for the happens-before arrows of a timeline.
  var enqueuedAt = 0
}

/// A task group: its children's results not yet taken, and the parent if it waits.
struct TaskGroupState: Sendable {
  var results: [(values: NamedValues, clock: VectorClock)] = []
  var outstanding: Int
  var waiting: (frames: [SimulatedThread.Frame], executor: Int)?
}

/// Variables bound with `as`, shared by a block and the synchronous bodies inside it.
///
/// A scope is a number into the run's table of bindings (``Simulation/scopes``) rather than
/// an object, so a run is a plain value: a search copies it at a choice point and carries on
/// from the copy instead of running the steps before it again.
struct Scope: Hashable {
  let index: Int
}
