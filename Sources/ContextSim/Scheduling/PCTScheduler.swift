/// Probabilistic concurrency testing (Burckhardt et al., 2010): a bug that needs `depth`
/// ordering constraints shows with probability at least 1/(n·k^(depth−1)) per run, for n
/// threads and k steps.
///
/// Each thread gets a random priority above `depth` when it first appears; `depth − 1`
/// change points are spread at random over the first `steps` steps. The highest-priority
/// runnable thread always runs; at the i-th change point the thread about to run drops to
/// priority `depth − i`, below every thread that has not dropped.
public struct PCTScheduler: Scheduler {
  private var generator: SplitMix64
  private var priorities: [Int: UInt64] = [:]
  private var changePoints: [Int: Int] = [:]
  private let depth: Int

  /// - Parameters:
  ///   - depth: the number of ordering constraints the bugs sought need, from 1.
  ///   - steps: how many steps a run takes, as a first run measured it.
  public init(seed: UInt64, depth: Int, steps: Int) {
    generator = SplitMix64(seed: seed)
    self.depth = max(1, depth)
    let span = max(1, steps)
    var points: Set<Int> = []
    while points.count < min(self.depth - 1, span) {
      points.insert(1 + Int(generator.next() % UInt64(span)))
    }
    for (i, step) in points.sorted().enumerated() { changePoints[step] = i + 1 }
  }

  public mutating func nextThread(runnable: [Int], previous: Int?, step: Int) -> Int {
    for t in runnable where priorities[t] == nil {
      // Initial priorities sit above every change point's priority.
      priorities[t] = UInt64(depth) + 1 + generator.next() % (UInt64.max / 2)
    }
    var chosen = runnable.max { priorities[$0]! < priorities[$1]! }!
    if let i = changePoints[step] {
      priorities[chosen] = UInt64(depth - i)
      chosen = runnable.max { priorities[$0]! < priorities[$1]! }!
    }
    return chosen
  }
}
