/// Copies of one run at some of its choice points, for a search that goes back to an
/// earlier choice: it carries on from the latest copy before that choice instead of running
/// every step from the start again. A run is a value, so a copy shares most of its memory
/// with the run it came from.
struct Checkpoints {
  /// How many copies are kept at most: past it every other one goes, so a long run keeps
  /// copies spread along it and memory stays bounded whatever its length.
  static let limit = 64

  /// A copy is kept at every this many choice points offered. A copy shares the run's
  /// buffers, so the run copies each buffer it writes next: at every choice point that
  /// costs more than the few steps a closer copy saves a resumed run (callgrind, DPOR within
  /// one preemption on photo-downloader-relationship-fixed: 3.45 G instructions keeping
  /// every one, 3.13 G every second, 3.01 G every fourth, 3.04 G every eighth).
  static let spacing = 4

  private var runs: [Execution] = []
  /// Each copy's steps taken, apart: reading them from `runs` would copy a whole run.
  private var steps: [Int] = []
  private var offered = 0

  /// Keeps a copy of the run as it is now, later than every copy kept so far, if this is
  /// the ``spacing``-th choice point offered since the last one kept.
  mutating func keep(_ run: Execution) {
    if steps.last == run.stepsTaken { return }
    offered += 1
    guard offered >= Self.spacing else { return }
    offered = 0
    runs.append(run)
    steps.append(run.stepsTaken)
    if runs.count > Self.limit {
      let newest = runs.count - 1
      let kept = runs.indices.filter { (newest - $0) % 2 == 0 }
      runs = kept.map { runs[$0] }
      steps = kept.map { steps[$0] }
    }
  }

  /// The latest copy no further along than `shared` steps, dropping every later one: the runs
  /// after it have left the path they were made on.
  mutating func latest(sharing shared: Int) -> Execution? {
    while let last = steps.last, last > shared {
      runs.removeLast()
      steps.removeLast()
    }
    return runs.last
  }
}
