import ContextSim

/// Every exit status ctxsim uses, decided here and nowhere else.
///
/// A run exits as the simulated app would: 0 when it ends cleanly, the crash's own status
/// when it would crash. ctxsim's own failures use the sysexits(3) numbers, which no
/// simulated crash (128 + signal) can be mistaken for.
enum ExitStatus {
  /// The run was clean, or every checked scenario held.
  static let success: Int32 = 0
  /// Violations that do not crash the app were found, or a check did not hold.
  static let violations: Int32 = 1
  /// No violation was found, but the run passed lines of the app's Swift that ctxsim could
  /// not model, so it cannot say the app is clean: a verdict of its own, never 0 or 1.
  static let unmodelled: Int32 = 3
  /// The command line was wrong (EX_USAGE).
  static let usage: Int32 = 64
  /// A scenario file or schedule is invalid (EX_DATAERR).
  static let invalidInput: Int32 = 65
  /// A file is missing or unreadable, or a folder holds no scenarios (EX_NOINPUT).
  static let noInput: Int32 = 66
  /// A limit stopped the run, such as the step limit (EX_TEMPFAIL: retry with a higher one).
  static let limitReached: Int32 = 75

  /// The status for one finished run.
  static func of(_ trace: Trace) -> Int32 {
    switch trace.stop {
    case .limit?: return limitReached
    case .scheduleMismatch?: return invalidInput
    default: break
    }
    if let termination = trace.firstCrash?.termination { return termination.exitStatus }
    if trace.isUnmodelled { return unmodelled }
    return trace.violations.isEmpty ? success : violations
  }

  /// The status for a scan: findings, then lines not modelled, then a search cut short.
  static func of(_ scan: Scan) -> Int32 {
    if scan.entryPoints.isEmpty { return noInput }
    if scan.results.contains(where: { $0.error != nil }) { return invalidInput }
    if !scan.findings.isEmpty { return violations }
    if scan.isUnmodelled { return unmodelled }
    return scan.isComplete ? success : limitReached
  }

  /// The status for an exploration: as for one run, a limit comes first.
  static func of(_ exploration: Exploration) -> Int32 { of(exploration.verdict) }

  /// The status for a check of several files: an unreadable file first, then a limit, an
  /// incomplete search or a bounded proof, then a scenario that did not hold, then one whose
  /// runs passed lines not modelled (no verdict: 3, never a pass).
  ///
  /// A bounded proof (clean for every schedule with at most k preemptions) is not a pass: a
  /// bug that needs more is not excluded, and a larger budget may give a complete proof, so
  /// it exits as an incomplete search does, 75, "raise a bound and retry". Never 1: nothing
  /// was found wrong. `acceptingBounded` is the user's own threshold: a bounded proof of at
  /// least that many preemptions then counts as holding. It names a depth rather than "any
  /// bound" because the bound reached depends on the budget and on `--time-limit`, and a
  /// proof within 0 preemptions says little.
  static func of(_ results: [CheckResult], acceptingBounded: Int? = nil) -> Int32 {
    if results.contains(where: { $0.status == .error }) { return invalidInput }
    let open = results.filter { !$0.holds(acceptingBounded: acceptingBounded) }
    if open.contains(where: \.status.isCutShort) { return limitReached }
    if open.isEmpty { return success }
    return open.allSatisfy { $0.status == .unmodelled } ? unmodelled : violations
  }

  /// The status for a graded attempt: a pass 0, a failed criterion 1, and a limit or an
  /// incomplete search 75, since the attempt was not graded.
  static func of(_ grade: Grade) -> Int32 { of(grade.verdict) }

  /// The status for a verdict: a pass 0, a failure 1, lines not modelled 3, and a limit,
  /// an incomplete search or a bounded proof 75, since nothing was decided.
  static func of(_ verdict: Verdict) -> Int32 {
    switch verdict {
    case .passed: success
    case .failed, .noExpectation: violations
    case .unmodelled: unmodelled
    case .limited, .incomplete, .bounded: limitReached
    }
  }

  /// The status for `ctxsim lesson --check` and `ctxsim exercise --check`.
  static func of(lessonProblems failed: Int) -> Int32 {
    failed == 0 ? success : violations
  }
}
