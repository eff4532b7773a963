import Testing

@testable import ContextSim

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
