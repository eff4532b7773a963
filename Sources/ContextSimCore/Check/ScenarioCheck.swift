/// One scenario explored and held to its declared `expect`: what `ctxsim check` decides,
/// as data.
///
/// Its description (in ContextSimReports, which words it) is what a test failure should
/// say: the verdict, how far the search went, and each difference with the schedule that
/// shows it, to give a ``ReplayScheduler``.
public struct ScenarioCheck: Sendable {
  /// One difference between the runs and the declared `expect`.
  public enum Finding: Sendable {
    /// A declared violation that did not show where it had to, with a schedule where it
    /// does not show, if one was kept.
    case missing(ExpectedViolation, counterexample: Schedule?)
    /// A declared handled error that did not show where it had to, with a schedule where
    /// it does not show, if one was kept.
    case missingHandled(ExpectedHandledError, counterexample: Schedule?)
    /// A violation nothing declared, the label of its step if it has one, and the shortest
    /// schedule that shows it.
    case unexpected(Violation, stepLabel: String?, replay: Schedule?)
  }

  /// The scenario's file, as replay advice names it.
  public let file: String
  /// The scenario's title.
  public let title: String
  /// The exploration the verdict rests on.
  public let exploration: Exploration
  /// What ran once the complete search ran out of budget, if it did.
  public let fallback: Fallback?
  /// What the check decided; only ``Verdict/passed`` counts as holding. It passes when the
  /// runs showed exactly what the scenario declares; only a complete search
  /// (``Exploration/isComplete``) proves that of every interleaving, and a design declared
  /// clean whose search was not complete is ``Verdict/incomplete`` (or
  /// ``Verdict/bounded(preemptions:states:)``). ``Verdict/noExpectation`` when the scenario
  /// declares no `expect`; ``Verdict/unmodelled`` when the runs passed lines of the app's
  /// Swift it does not model (a drafted scenario's `notModelled` steps).
  public let verdict: Verdict
  /// Each difference with the declared `expect`, when the check failed.
  public let findings: [Finding]
  /// A schedule to replay what the verdict rests on: the run a limit stopped, or the first
  /// that passed a line not modelled.
  public let replay: Schedule?
  /// The lines not modelled the runs passed, when the verdict is ``Verdict/unmodelled``.
  public let unmodelledLines: [UnmodelledLine]

  /// What `check` runs when the complete search with reduction does not fit its budget.
  public enum Fallback: Sendable, Equatable {
    /// For a design declared buggy, DPOR within a preemption bound of 0, 1, 2, … (iterative
    /// context bounding) until the budget ended: the largest bound whose search finished,
    /// and the schedules it ran. It looks for the declared violations and proves nothing:
    /// DPOR within a bound can miss a class the bound allows.
    case bounded(preemptions: Int, schedules: Int)
    /// For a design declared clean, the stateful search within a preemption bound of 0, 1,
    /// 2, … until one did not finish in the state budget: the largest bound whose search
    /// finished, and the states it visited, every one a run within the bound reaches.
    case statefulBounded(preemptions: Int, states: Int)
    /// Not even the search without preemptions finished in its share of the budget, so PCT
    /// (depth 3) ran the rest: `schedules` of them.
    case pct(schedules: Int)
  }

  /// Whether the search with reduction ran out of budget and another search took over.
  public var fellBack: Bool { fallback != nil }

  /// Whether the scenario held: the check passed.
  public var passed: Bool {
    if case .passed = verdict { true } else { false }
  }

  /// The kinds of violation the runs showed, sorted by name.
  public var kindsSeen: [ViolationKind] {
    Set(exploration.outcomes.flatMap { $0.example.violations.map(\.kind) })
      .sorted { $0.rawValue < $1.rawValue }
  }

  /// The codes of the errors `catch` bodies handled in any run, in order.
  public var handledCodes: [Int] {
    Set(exploration.outcomes.flatMap { $0.handled.map(\.code) }).sorted()
  }
}
