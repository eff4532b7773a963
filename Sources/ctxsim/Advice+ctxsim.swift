import ContextSim

extension Advice {
  /// ctxsim's own words: the command that replays a schedule, and the option that raises
  /// each bound.
  ///
  /// - Parameter runFlags: options `ctxsim run` needs to reproduce the run, such as
  ///   `--no-concurrency-debug` when the exploration overrode the scenario's own setting.
  static func ctxsim(runFlags: [String] = []) -> Advice {
    Advice(
      replay: { file, schedule in
        (["ctxsim", "run", file] + runFlags + ["--schedule", schedule.description])
          .joined(separator: " ")
      },
      raise: { bound in
        switch bound {
        case .steps: "--max-steps raises it"
        case .threads: "--max-threads raises it"
        case .queues: "--max-threads raises it too"
        case .schedules: "--max-schedules raises it"
        case .states: "--max-states raises it"
        case .time: "--time-limit raises it"
        case .nesting: "--max-nesting raises it"
        }
      })
  }
}
