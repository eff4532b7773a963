import ContextSimCore
import ContextSimReports

/// An attempt at an exercise, graded: each criterion with what showed it failing, and the
/// verdict. What `ctxsim exercise N --grade FILE` decides, as data.
public struct Grade: Sendable {
  /// What an attempt is held to, in the order the grade lists them.
  public enum Criterion: Sendable, CustomStringConvertible {
    /// The model, the rows at launch and ConcurrencyDebug are the exercise's own, so the
    /// rows at the end come from the app's work.
    case setup
    /// No violation of any kind, in any schedule: `ctxsim check` of a clean design.
    case noViolations
    /// A `store:` or `viewContext:` line of the brief, in every schedule.
    case rows(RowsCriterion)

    /// The criterion in words.
    public var description: String {
      switch self {
      case .setup: "the model, the store at launch and ConcurrencyDebug are the exercise's"
      case .noViolations: "no rule is broken, in any schedule"
      case .rows(let criterion): criterion.description
      }
    }
  }

  /// Why a criterion failed: the evidence, with a schedule to replay where it has one.
  public enum Failure: Sendable {
    /// The attempt changed what the exercise fixes: each change in words.
    case setupChanged([String])
    /// Violations the runs showed, each once, with the step's label and a schedule.
    case violations([Finding])
    /// Too few or too many matching rows at the end of some schedules.
    case rows(RowsEvidence)
  }

  /// One violation the attempt still shows.
  public struct Finding: Sendable {
    /// The violation, as one run showed it.
    public var violation: Violation
    /// The label of its step, if the step has one.
    public var stepLabel: String?
    /// The shortest schedule found that shows it.
    public var replay: Schedule?
    /// How many of the schedules run showed it.
    public var schedules: Int
  }

  /// What the store or viewContext held where a rows criterion failed.
  public struct RowsEvidence: Sendable {
    /// The criterion's rows in the first failing end state: every row of the entity.
    public var rows: [EndState.Row]
    /// How many of them met the conditions.
    public var matching: Int
    /// How many schedules ended without the rows.
    public var schedules: Int
    /// The shortest schedule found that ends so.
    public var replay: Schedule
  }

  /// One criterion and, if it failed, why.
  public struct Result: Sendable {
    /// What the attempt is held to.
    public var criterion: Criterion
    /// Why it failed, or nil when it held.
    public var failure: Failure?

    /// Whether it held.
    public var passed: Bool { failure == nil }
  }

  /// The exercise graded.
  public let exercise: GradedExercise
  /// The attempt's file, as replay advice names it.
  public let file: String
  /// The exploration the grade rests on.
  public let exploration: Exploration
  /// Every criterion, passed or not: setup, violations, then the brief's rows.
  public let results: [Result]
  /// What the grade decided: ``Verdict/passed`` when every criterion held in every
  /// schedule and the search covered every interleaving; ``Verdict/failed`` when some
  /// criterion failed (``results`` says which, and where); ``Verdict/limited(_:)`` when a
  /// run limit stopped a schedule; ``Verdict/incomplete(_:)`` when nothing failed but the
  /// search did not cover every interleaving, never a pass.
  public let verdict: Verdict
  /// The schedule a run limit stopped, to replay, when the verdict is limited.
  public let replay: Schedule?

  /// Whether the attempt passed.
  public var passed: Bool { verdict == .passed }
}
