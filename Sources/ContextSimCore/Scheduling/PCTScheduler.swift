/// Probabilistic concurrency testing (Burckhardt et al., 2010): a bug that needs `depth`
/// ordering constraints shows with probability at least 1/(n·k^(depth−1)) per run, for n
/// threads and k steps.
///
/// Each thread gets a random priority above `depth` when it first appears; `depth − 1`
/// change points are spread at random over the first `steps` steps. The highest-priority
/// runnable thread always runs; at the i-th change point the thread about to run drops to
/// priority `depth − i`, below every thread that has not dropped.
///
/// Alone (``init(seed:depth:steps:)``) its first execution is seeded with `seed`; exploring
/// (``exploring(seed:depth:steps:)``) execution `n` is seeded from `seed` and `n`.
public struct PCTScheduler: SeededScheduler {
  private var seeds: ExecutionSeeds
  private var generator = SplitMix64(seed: 0)
  private var priorities: [Int: UInt64] = [:]
  private var changePoints: [Int: Int] = [:]
  private let depth: Int
  private let steps: Int

  /// - Parameters:
  ///   - depth: the number of ordering constraints the bugs sought need, from 1.
  ///   - steps: how many steps a run takes, as a first run measured it.
  public init(seed: UInt64, depth: Int, steps: Int) {
    self.init(seeds: ExecutionSeeds(base: seed, mixesFirst: false), depth: depth, steps: steps)
  }

  /// A scheduler for an exploration: execution `n` gets a seed made from `seed` and `n`.
  public static func exploring(seed: UInt64, depth: Int, steps: Int) -> PCTScheduler {
    PCTScheduler(seeds: ExecutionSeeds(base: seed, mixesFirst: true), depth: depth, steps: steps)
  }

  /// How many steps `scenario`'s default schedule takes: the estimate of a run's length
  /// that PCT spreads its change points over.
  public static func typicalSteps(of scenario: Scenario, options: SimulationOptions) -> Int {
    var quiet = options
    quiet.recordsEvents = false
    var scheduler = RunToCompletionScheduler()
    return simulate(scenario, options: quiet, scheduler: &scheduler).schedule.threads.count
  }

  /// Chooses by priority alone, without looking at what steps touched.
  public var readsFootprints: Bool { false }

  private init(seeds: ExecutionSeeds, depth: Int, steps: Int) {
    self.seeds = seeds
    self.depth = max(1, depth)
    self.steps = max(1, steps)
  }

  /// This scheduler with execution `n` next, its seed made from the base seed and `n`.
  public func startingAt(execution n: Int) -> PCTScheduler {
    var copy = self
    copy.seeds = seeds.startingAt(n)
    return copy
  }

  /// Draws the change points of the next execution; priorities are drawn as threads appear.
  public mutating func startExecution() -> Bool {
    generator = SplitMix64(seed: seeds.next())
    priorities = [:]
    changePoints = [:]
    var points: Set<Int> = []
    while points.count < min(depth - 1, steps) {
      points.insert(1 + Int(generator.next() % UInt64(steps)))
    }
    for (i, step) in points.sorted().enumerated() { changePoints[step] = i + 1 }
    return true
  }

  /// The highest-priority runnable thread; at a change point that thread drops, and the
  /// next-highest goes instead.
  public mutating func nextThread(runnable: [Int], previous: Int?, step: Int) -> Int? {
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
