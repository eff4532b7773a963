/// The front end's words for what a report asks its reader to do: replay a schedule, or
/// raise a bound that stopped a run or a search.
///
/// The library names no command-line option. `ctxsim` passes advice that names its own
/// (`ctxsim run FILE --schedule 0x2,1`, `--max-steps raises it`); a package that uses the
/// library gets ``plain``, which shows the schedule to give a ``ReplayScheduler`` and
/// leaves raising a bound to the caller, who set it.
public struct Advice: Sendable {
  /// How to replay `schedule` of the scenario in `file` and see the whole run.
  public var replay: @Sendable (_ file: String, _ schedule: Schedule) -> String
  /// How to raise `bound`, or nil to say nothing.
  public var raise: @Sendable (_ bound: Bound) -> String?

  /// Advice that words a replay with `replay` and the way to raise a bound with `raise`.
  public init(
    replay: @escaping @Sendable (_ file: String, _ schedule: Schedule) -> String,
    raise: @escaping @Sendable (_ bound: Bound) -> String?
  ) {
    self.replay = replay
    self.raise = raise
  }

  /// Advice for library users: `schedule 0x2,1`, and nothing about options.
  public static let plain = Advice(
    replay: { _, schedule in "schedule \(schedule)" }, raise: { _ in nil })

  /// `reason`, followed by how to raise `bound` in parentheses when there is a way.
  public func explain(_ reason: String, raising bound: Bound) -> String {
    raise(bound).map { "\(reason) (\($0))" } ?? reason
  }
}

/// A bound that can stop a run, a search, or the reading of a scenario.
public enum Bound: Sendable, Hashable, CaseIterable {
  /// Steps one run may take.
  case steps
  /// Threads one run may start.
  case threads
  /// Queues one run may make (private-queue contexts included).
  case queues
  /// Schedules one exploration may run.
  case schedules
  /// States one stateful search may keep.
  case states
  /// Time one exploration, or one scenario's check, may take.
  case time
  /// How deeply a scenario file's JSON may nest.
  case nesting
}
