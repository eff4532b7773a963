import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

@Suite("Data races on shared vars")
struct DataRaceTests {
  private func counter(_ main: String, queues: String = #"{"serial": "serial"}"#) throws -> Scenario
  {
    try scenario(
      #"""
      {"title": "race", "vars": {"count": 0}, "queues": \#(queues),
       "contexts": {"background": {"queue": "private"}},
       "main": \#(main)}
      """#)
  }

  private func kinds(_ s: Scenario, seeds: ClosedRange<UInt64> = 0...20) -> Set<[ViolationKind]> {
    var seen: Set<[ViolationKind]> = [run(s).kinds]
    for seed in seeds {
      var scheduler = RandomScheduler(seed: seed)
      seen.insert(
        simulate(s, options: SimulationOptions(concurrencyDebug: true), scheduler: &scheduler).kinds
      )
    }
    return seen
  }

  @Test("Two unsynchronised writers race, whichever order the schedule runs them in")
  func unorderedWrites() throws {
    let s = try counter(
      #"""
      [{"async": "global", "do": [{"write": "count", "value": 1, "label": "a"}]},
       {"async": "global", "do": [{"write": "count", "value": 2, "label": "b"}]}]
      """#)
    #expect(kinds(s) == [[.dataRace]])
    let race = try #require(run(s).violations.first)
    #expect(Set(race.labels) == ["a", "b"])
    #expect(
      race.headline.hasPrefix(
        "data race on self.count: global#2 writes, unordered with global#1's write at step"))
  }

  @Test("A read on main against a write in a global block races")
  func readAgainstWrite() throws {
    let s = try counter(
      #"[{"async": "global", "do": [{"write": "count", "value": 1}]}, {"read": "count"}]"#)
    #expect(kinds(s) == [[.dataRace]])
  }

  @Test(
    "A pair ordered by each kind of synchronisation is not a race",
    arguments: [
      // Enqueueing happens before the block runs.
      #"[{"write": "count", "value": 1}, {"async": "global", "do": [{"read": "count"}]}]"#,
      // A serial queue runs its blocks one after another.
      #"[{"async": "serial", "do": [{"write": "count", "value": 1}]}, {"async": "serial", "do": [{"write": "count", "value": 2}]}]"#,
      // sync waits for the block.
      #"[{"sync": "serial", "do": [{"write": "count", "value": 1}]}, {"read": "count"}]"#,
      // perform blocks on one context's queue are ordered.
      #"[{"perform": "background", "do": [{"write": "count", "value": 1}]}, {"perform": "background", "do": [{"read": "count"}]}]"#,
      // performAndWait waits for the context's earlier blocks and runs the block before returning.
      #"[{"perform": "background", "do": [{"write": "count", "value": 1}]}, {"performAndWait": "background", "do": []}, {"read": "count"}]"#,
      // Handing back to the main queue orders the block after the work that enqueued it.
      #"[{"async": "global", "do": [{"write": "count", "value": 1}, {"async": "main", "do": [{"read": "count"}]}]}]"#,
    ])
  func orderedPairs(main: String) throws {
    #expect(kinds(try counter(main)) == [[]])
  }

  @Test("The same pairs without their synchronisation race")
  func unorderedPairs() throws {
    let pairs = [
      #"[{"async": "global", "do": [{"write": "count", "value": 1}]}, {"async": "global", "do": [{"read": "count"}]}]"#,
      #"[{"async": "serial", "do": [{"write": "count", "value": 1}]}, {"async": "global", "do": [{"write": "count", "value": 2}]}]"#,
      #"[{"perform": "background", "do": [{"write": "count", "value": 1}]}, {"read": "count"}]"#,
    ]
    for main in pairs {
      #expect(kinds(try counter(main)) == [[.dataRace]], "\(main)")
    }
  }
}

@Suite("Without the flag: works, or corrupts when work overlaps")
struct CorruptionTests {
  /// Main fetches in viewContext at launch, then a global block uses viewContext off-queue.
  private func offQueue() throws -> Scenario {
    try notes(
      #"""
      [{"async": "global", "do": [
         {"fetch": "Note", "in": "viewContext", "as": "all", "label": "off-queue-fetch"},
         {"save": "viewContext"}]},
       {"count": "Note", "in": "viewContext", "label": "main-count"},
       {"print": "launch goes on"}]
      """#)
  }

  @Test("The default schedule runs the off-queue block alone: it works")
  func defaultWorks() throws {
    let trace = run(try offQueue(), concurrencyDebug: false)
    #expect(trace.violations.isEmpty)
  }

  @Test("An interleaving where the global block runs inside main's launch work corrupts")
  func overlapCorrupts() throws {
    var replay = ReplayScheduler(Schedule(parsing: "0,1,0")!)
    let trace = simulate(
      try offQueue(), options: SimulationOptions(concurrencyDebug: false), scheduler: &replay)
    #expect(trace.kinds == [.corruption])
    let violation = try #require(trace.violations.first)
    #expect(violation.termination == .badAccess)
    #expect(violation.termination?.exitStatus == 139)
    #expect(
      violation.headline
        == "main touches context viewContext while global#1 is inside it off its queue: they overlap"
    )
    #expect(violation.labels == ["main-count"])
  }

  @Test("With the flag the same access traps in every schedule instead")
  func flagTraps() throws {
    for seed in UInt64(0)..<10 {
      var scheduler = RandomScheduler(seed: seed)
      let trace = simulate(
        try offQueue(), options: SimulationOptions(concurrencyDebug: true), scheduler: &scheduler)
      #expect(trace.kinds.first == .wrongQueueContext)
      #expect(!trace.kinds.contains(.corruption))
    }
  }
}
