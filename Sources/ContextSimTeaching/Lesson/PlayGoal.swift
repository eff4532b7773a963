import ContextSimCore
import ContextSimReports

/// What "you are the scheduler" asks the learner to do with their choices: make a given
/// violation happen, or steer the app to its end without any.
///
/// A goal is only worth playing when it takes a choice: ``LessonCheck`` rejects one that
/// every schedule meets, or that pressing one key at every choice meets.
public enum PlayGoal: Sendable, Equatable, CustomStringConvertible {
  /// Reach a violation of a kind, optionally at a labelled step.
  case reach(Lesson.CrashGoal)
  /// Run to the end with no violation at all: find the interleaving that gets through.
  case survive

  /// Whether a run meets the goal; `ended` says whether the run is over.
  public func isMet(by trace: Trace, ended: Bool) -> Bool {
    switch self {
    case .reach(let crash): trace.violations.contains(where: crash.isReached)
    case .survive: ended && trace.stop == nil && trace.violations.isEmpty
    }
  }

  /// Whether a run can no longer meet the goal: it ended without the violation, or, when
  /// surviving, something already went wrong.
  public func isLost(by trace: Trace, ended: Bool) -> Bool {
    switch self {
    case .reach: ended && !isMet(by: trace, ended: ended)
    case .survive: !trace.violations.isEmpty || (ended && trace.stop != nil)
    }
  }

  /// What the play line asks for.
  public var instruction: String {
    switch self {
    case .reach(let crash): "Reach \(crash)."
    case .survive: "Get to the end with no violation."
    }
  }

  /// `reach wrongQueueContext at fetch`, or `survive`, as the header's `play:` writes it.
  public var description: String {
    switch self {
    case .reach(let crash): "reach \(crash)"
    case .survive: "survive"
    }
  }
}
