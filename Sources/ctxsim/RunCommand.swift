import ContextSim

/// `ctxsim run FILE`: one scenario on one schedule, reported in full.
struct RunCommand {
  var options: RunOptions
  var console: Console

  func execute() -> Int32 {
    let loaded = loadScenarios(
      [options.file] + options.moreFiles, limits: options.limits, drafting: options.draft,
      console: console)
    guard case .success(let paths) = loaded else { return reportFailure(loaded, on: console) }
    let shown = paths.worst({ run($0.scenario) }, severity: \.severity)
    paths.announce(shown.path, replayHint: true, on: console)
    let (scenario, trace) = (shown.path.scenario, shown.result)
    if let html = options.html {
      let page = HTMLTimeline(scenario: scenario, advice: .ctxsim()).render(trace)
      let status = writeTimeline(page, to: html, console: console)
      if status != ExitStatus.success { return status }
    }
    switch options.format {
    case .json:
      console.write(JSONRenderer(scenario: scenario).render(trace))
    case .text:
      let text = TextRenderer.Options(
        allSteps: options.allSteps, verbose: options.verbose,
        colour: console.useColour(options.colour), advice: .ctxsim())
      console.write(TextRenderer(scenario: scenario, options: text).render(trace))
    }
    return ExitStatus.of(trace)
  }

  /// One run of `scenario` on the schedule the options choose.
  private func run(_ scenario: Scenario) -> Trace {
    let simulation = options.limits.simulation(
      concurrencyDebug: options.concurrencyDebug ?? scenario.concurrencyDebug,
      stopAtFirstCrash: options.stopAtFirst)
    if let schedule = options.schedule {
      var scheduler = ReplayScheduler(schedule)
      return simulate(scenario, options: simulation, scheduler: &scheduler)
    } else if let seed = options.seed {
      var scheduler = RandomScheduler(seed: seed)
      return simulate(scenario, options: simulation, scheduler: &scheduler)
    } else {
      var scheduler = RunToCompletionScheduler()
      return simulate(scenario, options: simulation, scheduler: &scheduler)
    }
  }
}
