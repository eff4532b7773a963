/// A seeded random schedule: at every step, any runnable thread with equal chance.
///
/// Alone (``init(seed:)``) its first execution is seeded with `seed` itself, which is
/// what a single seeded run replays; exploring (``exploring(seed:)``) execution `n` is
/// seeded from `seed` and `n`, so any core can run any execution.
public struct RandomScheduler: SeededScheduler {
  private var seeds: ExecutionSeeds
  private var generator = SplitMix64(seed: 0)

  /// A scheduler for single runs: its first execution is seeded with `seed` itself.
  public init(seed: UInt64) {
    seeds = ExecutionSeeds(base: seed, mixesFirst: false)
  }

  /// A scheduler for an exploration: execution `n` gets a seed made from `seed` and `n`.
  public static func exploring(seed: UInt64) -> RandomScheduler {
    RandomScheduler(seeds: ExecutionSeeds(base: seed, mixesFirst: true))
  }

  private init(seeds: ExecutionSeeds) {
    self.seeds = seeds
  }

  /// This scheduler with execution `n` next, its seed made from the base seed and `n`.
  public func startingAt(execution n: Int) -> RandomScheduler {
    RandomScheduler(seeds: seeds.startingAt(n))
  }

  /// Chooses without looking at what steps touched.
  public var readsFootprints: Bool { false }

  /// Seeds the next execution; never runs out.
  public mutating func startExecution() -> Bool {
    generator = SplitMix64(seed: seeds.next())
    return true
  }

  /// Any runnable thread, each with equal chance.
  public mutating func nextThread(runnable: [Int], previous: Int?, step: Int) -> Int? {
    runnable[Int(generator.next() % UInt64(runnable.count))]
  }
}

/// The seed of each execution of a seeded scheduler: execution `n` gets `base` mixed with
/// `n`, except that a scheduler made for one run uses `base` itself first.
struct ExecutionSeeds: Sendable {
  let base: UInt64
  let mixesFirst: Bool
  private var execution = 0

  init(base: UInt64, mixesFirst: Bool) {
    self.base = base
    self.mixesFirst = mixesFirst
  }

  func startingAt(_ n: Int) -> ExecutionSeeds {
    var copy = self
    copy.execution = n
    return copy
  }

  /// The next execution's seed.
  mutating func next() -> UInt64 {
    defer { execution += 1 }
    if execution == 0 && !mixesFirst { return base }
    var mixer = SplitMix64(seed: UInt64(truncatingIfNeeded: execution) &* 0x9E37_79B9_7F4A_7C15)
    return base ^ mixer.next()
  }
}
