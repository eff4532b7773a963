/// What a search shows, in one vocabulary for every command: a run and `explore` (did any
/// run break a rule?), `check` (did the runs show what the scenario declares?), a grade (did
/// every criterion hold?) and a game level's fix (does any interleaving break a rule?).
/// Each asks its own question; the answers are these, from the strongest down. Only
/// ``passed`` after a complete search proves the answer for every interleaving.
public enum Verdict: Sendable, Equatable {
  /// No run answered no: no violation, exactly what `expect` declares, every criterion held.
  case passed
  /// Some run answered no: a violation, a difference from `expect`, a failed criterion.
  case failed
  /// A run limit stopped a run before it ended: what lies past it is unknown.
  case limited(Limit)
  /// A bound stopped the search before it covered every interleaving it meant to, and no
  /// run answered no: never a pass.
  case incomplete(Exploration.Stop?)
  /// No run answered no, and the stateful search visited every state a run with at most
  /// `preemptions` preemptions reaches (`states` of them); the complete search did not fit
  /// its budget. Not a proof: a bug that needs more preemptions is not excluded.
  case bounded(preemptions: Int, states: Int)
  /// No run answered no, but some passed lines of the app's Swift the scenario does not
  /// model: ctxsim cannot say.
  case unmodelled
  /// `check` of a scenario that declares no `expect`: nothing to hold it to.
  case noExpectation

  /// How bad it is, to rank several answers (a draft's paths, a scan's jobs): failed, then
  /// cut short, then unmodelled, then passed.
  public var severity: Int {
    switch self {
    case .failed, .noExpectation: 3
    case .limited, .incomplete, .bounded: 2
    case .unmodelled: 1
    case .passed: 0
    }
  }

  /// Whether a bound, not the design, kept the search from a full answer.
  public var isCutShort: Bool {
    switch self {
    case .limited, .incomplete, .bounded: true
    default: false
    }
  }

  /// The verdict's name in a run's and an exploration's output (`--format json`):
  /// `clean`, `failing`, `limited`, `incomplete`, `unmodelled`; the question there is
  /// whether any run broke a rule.
  public var name: String {
    switch self {
    case .passed: "clean"
    case .failed, .noExpectation: "failing"
    case .limited: "limited"
    case .incomplete, .bounded: "incomplete"
    case .unmodelled: "unmodelled"
    }
  }

  /// The verdict's word in `check`'s and a grade's report: `PASS`, `FAIL`, `LIMIT`,
  /// `INCOMPLETE`, `BOUNDED`, `UNMODELLED`.
  public var word: String {
    switch self {
    case .passed: "PASS"
    case .failed, .noExpectation: "FAIL"
    case .limited: "LIMIT"
    case .incomplete: "INCOMPLETE"
    case .bounded: "BOUNDED"
    case .unmodelled: "UNMODELLED"
    }
  }
}
