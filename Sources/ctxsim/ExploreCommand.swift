import ContextSim
import Foundation

/// `ctxsim explore FILE`: many schedules of one scenario, the outcomes they reach, and the
/// command that replays the shortest schedule of each failing one.
struct ExploreCommand {
  var options: ExploreOptions
  var console: Console

  func execute() -> Int32 {
    let loaded = loadScenarios(
      [options.file] + options.moreFiles, limits: options.limits, drafting: options.draft,
      console: console)
    guard case .success(let paths) = loaded else { return reportFailure(loaded, on: console) }
    let clock = ContinuousClock()
    let start = clock.now
    let progress = ProgressLine(console: console)
    let timeIsUp = timeUp(after: options.timeLimit)
    let shown = paths.worst(
      { path in
        let options = self.options.limits.simulation(
          concurrencyDebug: self.options.concurrencyDebug ?? path.scenario.concurrencyDebug)
        return ContextSim.explore(
          path.scenario, strategy: self.options.strategy, options: options,
          maxSchedules: self.options.maxSchedules, workers: self.options.jobs, shrinking: false,
          shouldStop: {
            progress.tick()
            return timeIsUp()
          })
      }, severity: \.verdict.severity)
    progress.finish()
    let elapsed = start.duration(to: clock.now)
    paths.announce(shown.path, replayHint: false, on: console)
    let scenario = shown.path.scenario
    let concurrencyDebug = options.concurrencyDebug ?? scenario.concurrencyDebug
    let simulation = options.limits.simulation(concurrencyDebug: concurrencyDebug)
    let exploration = shrinkFailingOutcomes(
      of: shown.result, scenario: scenario, options: simulation)
    var flags: [String] = []
    if concurrencyDebug != scenario.concurrencyDebug {
      flags.append(concurrencyDebug ? "--concurrency-debug" : "--no-concurrency-debug")
    }
    // A drafted scenario replays only drafted the same way.
    if !options.moreFiles.isEmpty || Drafted.isSwift(options.file, console) {
      var draft = options.draft
      if paths.count > 1 { draft.path = shown.path.number }
      flags += draft.flags
    }
    let renderer = ExplorationRenderer(scenario: scenario, advice: .ctxsim(runFlags: flags))
    switch options.format {
    case .json: console.write(JSONWriter.write(renderer.document(exploration)))
    case .text: console.write(renderer.render(exploration))
    }
    // Timing varies from run to run, so it goes to standard error and stdout stays the same.
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    // A stateful search is measured in states, the work it does; any other in schedules.
    let (work, unit) =
      exploration.statesVisited.map { ($0, "states") }
      ?? (exploration.schedulesRun, "schedules")
    let rate = seconds > 0 ? Int(Double(work) / seconds) : work
    // A systematic search runs on one core whatever --jobs says.
    let cores = exploration.isSystematic ? 1 : options.jobs
    console.writeError(
      "explored in \(String(format: "%.2f", seconds)) s: \(rate) \(unit)/s on \(cores) core\(cores == 1 ? "" : "s")\n"
    )
    return ExitStatus.of(exploration)
  }
}

/// Whether `--time-limit` seconds have passed since this was called; never, without one.
/// A limit of a billion seconds or more (over 31 years) is none: its milliseconds could
/// overflow a clock's count.
func timeUp(after seconds: Double?) -> () -> Bool {
  let clock = ContinuousClock()
  let deadline = seconds.flatMap { $0 < 1e9 ? clock.now + .milliseconds(Int($0 * 1000)) : nil }
  return { deadline.map { clock.now >= $0 } ?? false }
}
