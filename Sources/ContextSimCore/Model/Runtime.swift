/// The app's runtime, as Dispatch and Swift concurrency keep it: the queues and who holds
/// or waits for each, the threads and the frames each is running, the task groups, where
/// each block came from, and the events waiting for the main run loop.
///
/// One owner, so `Simulation` coordinates it as a whole; each part keeps its own rules
/// (``QueueTable`` its queues' turns, ``OriginTable`` its shared lines).
struct Runtime: Sendable {
  var queues = QueueTable()
  var threads: [SimulatedThread] = []
  /// Task groups by index.
  var taskGroups: [TaskGroupState] = []
  /// Where each block came from, for backtraces.
  var origins = OriginTable()
  /// Events posted to the main run loop (`whenIdle`), in order: the main thread takes the
  /// first when the app is idle, as a user's tap comes once earlier work has settled.
  var events: [Block] = []
}
