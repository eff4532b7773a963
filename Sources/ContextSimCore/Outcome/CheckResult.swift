/// One scenario file's row in a check report: its check, or why it could not be read.
public struct CheckResult: Sendable {
  /// What became of the file.
  public enum Outcome: Sendable {
    /// The scenario was read and checked.
    case checked(ScenarioCheck)
    /// The file could not be read or decoded: the message says where and why.
    case unreadable(String)
  }

  /// The scenario file, as the report lists it.
  public var file: String
  /// Its check, or why there is none.
  public var outcome: Outcome

  /// A row for `file`.
  public init(file: String, outcome: Outcome) {
    self.file = file
    self.outcome = outcome
  }

  /// The scenario's title, once it was read.
  public var title: String? {
    if case .checked(let check) = outcome { check.title } else { nil }
  }

  /// Whether the scenario held.
  public var passed: Bool { status == .pass }

  /// Whether the scenario held, or, when bounded proofs of at least `preemptions` are
  /// accepted, is clean for every schedule with that many preemptions or fewer. A bounded
  /// proof is still not a pass: this is the caller's policy, not the check's verdict.
  public func holds(acceptingBounded preemptions: Int?) -> Bool {
    if passed { return true }
    guard let preemptions, case .checked(let check) = outcome,
      case .bounded(let proven, _) = check.verdict
    else { return false }
    return proven >= preemptions
  }

  /// What the row says of the file, as one word.
  public enum Status: String, Sendable {
    case pass = "PASS"
    case fail = "FAIL"
    case limit = "LIMIT"
    case incomplete = "INCOMPLETE"
    /// Clean within a preemption bound only: the complete search did not fit its budget.
    case bounded = "BOUNDED"
    /// The runs passed lines of the app's Swift the scenario does not model: no verdict.
    case unmodelled = "UNMODELLED"
    case error = "ERROR"

    /// Whether a bound, not the design, kept the check from a full answer.
    public var isCutShort: Bool { [.limit, .incomplete, .bounded].contains(self) }
  }

  /// The row's word, from the check's verdict.
  public var status: Status {
    guard case .checked(let check) = outcome else { return .error }
    return Status(rawValue: check.verdict.word) ?? .fail
  }
}
