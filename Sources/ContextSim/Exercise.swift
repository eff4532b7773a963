/// Everything ctxsim does with a scenario file, in one call, within small limits: decode
/// it, run it, render every report, explore a few schedules and check its expectations,
/// and read the same bytes as a lesson and as Swift to draft (whose scenario goes through
/// the same).
///
/// The fuzzer (`ctxsim-fuzz`) feeds it arbitrary bytes, and its regression tests replay the
/// inputs that once crashed it. Bad input must come back as errors, never as a crash.
package enum Exercise {
  /// Small limits, so that each input takes milliseconds.
  static let maximumSteps = 3_000
  static let schedules = 6

  package static func run(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    _ = try? LessonParser.parse(text, file: "fuzz.md")
    let draft = Draft([Draft.Source(name: "fuzz.swift", text: text)])
    exercise(Array(draft.json.utf8))
    exercise(bytes)
  }

  private static func exercise(_ bytes: [UInt8]) {
    let scenario: Scenario
    do {
      scenario = try ScenarioDecoder.decode(bytes, file: "fuzz.json")
    } catch {
      _ = error.description
      return
    }
    let options = SimulationOptions(
      concurrencyDebug: scenario.concurrencyDebug, maximumSteps: maximumSteps)
    var scheduler = RunToCompletionScheduler()
    let trace = simulate(scenario, options: options, scheduler: &scheduler)
    _ = TextRenderer(scenario: scenario, options: .init(allSteps: true, verbose: true)).render(
      trace)
    _ = JSONRenderer(scenario: scenario).render(trace)
    _ = HTMLTimeline(scenario: scenario).render(trace)
    if let expectation = scenario.expectation {
      _ = ExpectationCheck(expectation, traces: [trace])
    }
    var replay = ReplayScheduler(trace.schedule)
    _ = simulate(scenario, options: options, scheduler: &replay)
    for strategy in [ExplorationStrategy.random(seed: 1), .dpor(preemptionBound: 1)] {
      let exploration = explore(
        scenario, strategy: strategy, options: options, maxSchedules: schedules)
      _ = ExplorationRenderer(scenario: scenario).render(exploration)
    }
  }
}
