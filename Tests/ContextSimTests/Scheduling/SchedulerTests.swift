import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

@Suite("Schedules and schedulers")
struct SchedulerTests {
  /// Three global blocks and main racing to print: many interleavings are possible.
  private func racing() throws -> Scenario {
    try scenario(
      #"""
      {"title": "race", "vars": {"n": 0}, "main": [
        {"forEach": ["a", "b", "c"], "as": "name", "do": [
          {"async": "global", "do": [{"print": "$name 1"}, {"print": "$name 2"}, {"write": "n", "value": "$name"}]}
        ]},
        {"print": "main 1"}, {"print": "main 2"}
      ]}
      """#)
  }

  private func run(_ scenario: Scenario, _ scheduler: inout some Scheduler) -> Trace {
    simulate(scenario, options: SimulationOptions(concurrencyDebug: true), scheduler: &scheduler)
  }

  @Test("A schedule's text form is run-length encoded and parses back to itself")
  func textForm() throws {
    let schedule = Schedule([0, 0, 0, 1, 2, 2, 0])
    #expect(schedule.description == "0x3,1,2x2,0")
    #expect(Schedule(parsing: "0x3,1,2x2,0") == schedule)
    #expect(Schedule(parsing: "") == Schedule())
  }

  @Test(
    "Text that is not a schedule does not parse",
    arguments: ["x", "0x", "0,,1", "-1", "0x0", "a,b", "1x2x3"])
  func invalidText(text: String) {
    #expect(Schedule(parsing: text) == nil)
  }

  @Test("The default schedule runs each block to its end: main first, then threads in start order")
  func defaultSchedule() throws {
    var scheduler = RunToCompletionScheduler()
    let trace = run(try racing(), &scheduler)
    #expect(
      trace.lines.filter { $0.hasPrefix("print") } == [
        "print: main 1", "print: main 2", "print: a 1", "print: a 2", "print: b 1", "print: b 2",
        "print: c 1",
        "print: c 2",
      ])
    #expect(trace.threads == ["main", "global#1", "global#2", "global#3"])
  }

  @Test("The same seed gives the same schedule; different seeds give different ones")
  func seeds() throws {
    let scenario = try racing()
    var schedules: Set<String> = []
    for seed in UInt64(0)..<20 {
      var first = RandomScheduler(seed: seed)
      var second = RandomScheduler(seed: seed)
      let a = run(scenario, &first).schedule
      #expect(a == run(scenario, &second).schedule)
      schedules.insert(a.description)
    }
    #expect(schedules.count > 10)
  }

  @Test("Replaying a run's schedule reproduces the run exactly")
  func replay() throws {
    let scenario = try racing()
    for seed in UInt64(0)..<20 {
      var random = RandomScheduler(seed: seed)
      let original = run(scenario, &random)
      var replay = ReplayScheduler(original.schedule)
      let replayed = run(scenario, &replay)
      #expect(replayed.schedule == original.schedule)
      #expect(replayed.lines == original.lines)
      #expect(replayed.events.map(\.site.thread) == original.events.map(\.site.thread))
    }
  }

  @Test("A replayed schedule that names a thread that cannot run stops the run and says where")
  func replayMismatch() throws {
    var replay = ReplayScheduler(Schedule(parsing: "0,7")!)
    let trace = run(try racing(), &replay)
    #expect(trace.stop == .scheduleMismatch(step: 2, thread: 7, runnable: [0]))
  }

  @Test("A schedule shorter than the run is finished by the default schedule")
  func shortSchedule() throws {
    var replay = ReplayScheduler(Schedule(parsing: "0x2")!)
    var plain = RunToCompletionScheduler()
    let scenario = try racing()
    #expect(run(scenario, &replay).schedule == run(scenario, &plain).schedule)
  }

  @Test("A block that re-enqueues itself forever stops at the step limit")
  func stepLimit() throws {
    let scenario = try scenario(
      #"{"title": "loop", "main": [{"forEach": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], "as": "i", "do": [{"print": "$i"}]}]}"#
    )
    var scheduler = RunToCompletionScheduler()
    let trace = simulate(
      scenario, options: SimulationOptions(concurrencyDebug: true, maximumSteps: 5),
      scheduler: &scheduler)
    #expect(trace.stop == .limit(.steps(5)))
    #expect(trace.schedule.threads.count == 5)
  }
}

/// A strategy of a user's own: the highest-numbered thread always, in three executions.
private struct HighestFirst: Scheduler {
  var executions = 0

  mutating func startExecution() -> Bool {
    executions += 1
    return executions <= 3
  }

  mutating func nextThread(runnable: [Int], previous: Int?, step: Int) -> Int? {
    runnable.last
  }
}

@Suite("One scheduler protocol across executions")
struct SchedulerProtocolTests {
  private let race = """
    {"title": "race", "model": {"Note": {"attributes": {"title": "string"}}}, "vars": {"n": 0},
     "main": [{"async": "global", "do": [{"write": "n", "value": 1}]},
              {"async": "global", "do": [{"write": "n", "value": 2}]}]}
    """

  @Test(
    "A scheduler of the caller's own plugs into explore and runs until it has no execution left")
  func customScheduler() throws {
    let s = try scenario(race)
    let e = explore(s, scheduler: HighestFirst())
    #expect(e.schedulesRun == 3)
    #expect(e.strategyName == "HighestFirst")
    #expect(e.strategy == nil)
    #expect(e.searchFinished && !e.isComplete)
    // It does not prove every interleaving ran, so nothing is reported clean by it.
    #expect(e.verdict != .passed)
  }

  @Test("DPOR as a plain scheduler explores exactly as the dpor strategy does")
  func dporThroughTheProtocol() throws {
    let s = try scenario(race)
    let direct = explore(s, scheduler: DPORScheduler())
    let strategy = explore(s, strategy: .dpor(preemptionBound: nil))
    #expect(direct.schedulesRun == strategy.schedulesRun)
    #expect(direct.outcomes.map(\.signature) == strategy.outcomes.map(\.signature))
    #expect(direct.isComplete && strategy.isComplete)
  }

  @Test("A preemption bound covers only what it allows: the search is incomplete, not clean")
  func boundedSearch() throws {
    let s = try scenario(
      #"{"title": "t", "model": {"Note": {"attributes": {"title": "string"}}}, "queues": {"q": "serial"}, "vars": {"n": 0}, "main": [{"async": "global", "do": [{"sync": "q", "do": [{"write": "n", "value": 1}]}]}, {"async": "global", "do": [{"sync": "q", "do": [{"write": "n", "value": 2}]}]}]}"#
    )
    let bounded = explore(s, strategy: .dpor(preemptionBound: 0))
    #expect(bounded.searchFinished && !bounded.isComplete)
    #expect(bounded.verdict == .incomplete(.searchBound))
    #expect(explore(s, strategy: .dpor(preemptionBound: nil)).verdict == .passed)
  }

  @Test(
    "A random scheduler alone uses its seed for its first run; exploring, run n is the same on any core"
  )
  func seededExecutions() throws {
    let s = try scenario(race)
    var alone = RandomScheduler(seed: 5)
    var again = RandomScheduler(seed: 5)
    #expect(simulate(s, scheduler: &alone).schedule == simulate(s, scheduler: &again).schedule)
    var sequential = RandomScheduler.exploring(seed: 5)
    var schedules: [Schedule] = []
    for _ in 0..<6 { schedules.append(simulate(s, scheduler: &sequential).schedule) }
    for n in 0..<6 {
      var jumped = RandomScheduler.exploring(seed: 5).startingAt(execution: n)
      #expect(simulate(s, scheduler: &jumped).schedule == schedules[n])
    }
  }

  @Test("A budget exactly the size of a systematic search leaves it complete")
  func exactBudget() throws {
    let s = try scenario(race)
    let full = explore(s, strategy: .dpor(preemptionBound: nil))
    #expect(full.isComplete)
    let exact = explore(s, strategy: .dpor(preemptionBound: nil), maxSchedules: full.schedulesRun)
    #expect(exact.isComplete && exact.stop == nil)
    if full.schedulesRun > 1 {
      let short = explore(
        s, strategy: .dpor(preemptionBound: nil), maxSchedules: full.schedulesRun - 1)
      #expect(!short.isComplete && short.stop == .maxSchedules(full.schedulesRun - 1))
    }
  }

  @Test("Asking an ended execution for runnable threads again reports its deadlock once")
  func deadlockReportedOnce() throws {
    let s = try scenario(
      #"{"title": "t", "model": {"Note": {"attributes": {"title": "string"}}}, "main": [{"sync": "main", "do": [{"print": "never"}]}]}"#
    )
    var execution = Execution(s)
    while let runnable = execution.runnableThreads() { execution.step(runnable[0]) }
    #expect(execution.trace.violations.map(\.kind) == [.deadlock])
    #expect(execution.runnableThreads() == nil)
    #expect(execution.trace.violations.count == 1)
  }

  /// Runs each execution to completion and notes whether any step's footprint named
  /// something it touched.
  private struct FootprintWatcher: Scheduler {
    var readsFootprints: Bool
    var runs = 0
    var sawAccesses = false

    mutating func startExecution() -> Bool {
      runs += 1
      return runs <= 3
    }

    mutating func nextThread(runnable: [Int], previous: Int?, step: Int) -> Int? { runnable[0] }

    mutating func stepTaken(by thread: Int, footprint: Footprint) {
      if !footprint.accesses.isEmpty { sawAccesses = true }
    }
  }

  @Test("An explorer records footprints only for a scheduler that reads them")
  func footprintsOnlyWhenRead() throws {
    let scenario = try scenario(race)
    let options = SimulationOptions(concurrencyDebug: true)
    for reads in [true, false] {
      var explorer = Explorer(
        scenario: scenario, scheduler: FootprintWatcher(readsFootprints: reads), strategy: nil,
        options: options)
      while explorer.runNext() {}
      #expect(explorer.scheduler.sawAccesses == reads)
    }
    #expect(!RandomScheduler(seed: 1).readsFootprints)
    #expect(!PCTScheduler.exploring(seed: 1, depth: 2, steps: 10).readsFootprints)
    #expect(DPORScheduler(preemptionBound: nil).readsFootprints)
  }
}
