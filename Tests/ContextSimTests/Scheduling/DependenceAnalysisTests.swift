import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

@Suite("DPOR's dependence analysis")
struct DependenceAnalysisTests {
  /// One step of a made-up execution: its thread and what it touched.
  private typealias MadeUpStep = (thread: Int, accesses: [Access])

  /// Steps of up to three threads over two vars, a context and the store, from `seed`.
  private func steps(_ count: Int, seed: UInt64) -> [MadeUpStep] {
    var random = SplitMix64(seed: seed)
    let resources: [Access.Resource] = [.variable(0), .variable(1), .context(0), .store]
    return (0..<count).map { _ in
      let touched = (0...Int(random.next() % 2)).map { _ in
        Access(
          resource: resources[Int(random.next() % UInt64(resources.count))],
          isWrite: random.next() % 3 == 0)
      }
      return (Int(random.next() % 3), touched)
    }
  }

  /// What the analysis makes of each step: the races it reverses, flattened for comparing.
  private func reversals(of steps: ArraySlice<MadeUpStep>, in analysis: inout DependenceAnalysis)
    -> [[Int]]
  {
    steps.map { step in
      analysis.reversals(
        step: analysis.steps, thread: step.thread, accesses: step.accesses
      ).flatMap { [$0.step, $0.thread, -1] + $0.initials }
    }
  }

  @Test(
    "Taken back to step k, it sees the next steps as if only the first k had been recorded",
    arguments: 0..<50)
  func truncateIsRecordingLess(seed: UInt64) {
    let first = steps(12, seed: seed)
    let second = steps(10, seed: seed + 1_000)
    let k = Int(seed % 13)
    var resumed = DependenceAnalysis()
    _ = reversals(of: first[...], in: &resumed)
    resumed.truncate(to: k)
    #expect(resumed.steps == k)
    var fresh = DependenceAnalysis()
    _ = reversals(of: first.prefix(k), in: &fresh)
    #expect(reversals(of: second[...], in: &resumed) == reversals(of: second[...], in: &fresh))
  }
}
