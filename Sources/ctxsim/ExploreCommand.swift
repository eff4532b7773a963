import ContextSim
import Foundation

/// `ctxsim explore FILE`: many schedules of one scenario, the outcomes they reach, and the
/// command that replays the shortest schedule of each failing one.
struct ExploreCommand {
  var options: ExploreOptions
  var console: Console

  func execute() -> Int32 {
    let loaded = loadScenario(
      [options.file] + options.moreFiles, limits: options.limits, drafting: options.draft,
      console: console)
    guard case .success(let scenario) = loaded else { return reportFailure(loaded, on: console) }
    let concurrencyDebug = options.concurrencyDebug ?? scenario.concurrencyDebug
    let simulation = options.limits.simulation(concurrencyDebug: concurrencyDebug)
    let clock = ContinuousClock()
    let start = clock.now
    let progress = ProgressLine(console: console)
    let timeIsUp = timeUp(after: options.timeLimit)
    let explored = ContextSim.explore(
      scenario, strategy: options.strategy, options: simulation, maxSchedules: options.maxSchedules,
      workers: options.jobs, shrinking: false,
      shouldStop: {
        progress.tick()
        return timeIsUp()
      })
    progress.finish()
    let elapsed = start.duration(to: clock.now)
    let exploration = shrinkFailingOutcomes(of: explored, scenario: scenario, options: simulation)
    var flags: [String] = []
    if concurrencyDebug != scenario.concurrencyDebug {
      flags.append(concurrencyDebug ? "--concurrency-debug" : "--no-concurrency-debug")
    }
    // A drafted scenario replays only drafted the same way.
    if !options.moreFiles.isEmpty || Drafted.isSwift(options.file, console) {
      flags += options.draft.flags
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
