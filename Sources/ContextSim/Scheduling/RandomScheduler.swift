/// A seeded random schedule: at every step, any runnable thread with equal chance.
public struct RandomScheduler: Scheduler {
  private var generator: SplitMix64

  public init(seed: UInt64) {
    generator = SplitMix64(seed: seed)
  }

  public mutating func nextThread(runnable: [Int], previous: Int?, step: Int) -> Int {
    runnable[Int(generator.next() % UInt64(runnable.count))]
  }
}
