/// How a scenario's runs compare with its declared `expect`.
public struct ExpectationCheck: Sendable {
  /// Declared violations that did not show where they had to.
  public var missing: [ExpectedViolation] = []
  /// Declared handled errors that did not show where they had to.
  public var missingHandled: [ExpectedHandledError] = []
  /// Violations that no declared one accounts for, each with the run it came from.
  public var unexpected: [Violation] = []

  /// Whether every declared violation showed where it had to and nothing undeclared did.
  public var passed: Bool { missing.isEmpty && missingHandled.isEmpty && unexpected.isEmpty }

  /// Compares the runs of one scenario with what it declares.
  ///
  /// An expectation `in: every` must match a violation in each run, `in: some` in at least
  /// one; any violation in any run that matches no expectation is unexpected. Each
  /// unexpected kind and step is listed once, however many runs showed it.
  public init(_ expectation: Expectation, traces: [Trace]) {
    for expected in expectation.violations {
      let hits = traces.filter { trace in trace.violations.contains(where: expected.matches) }
      let holds = expected.quantifier == .every ? hits.count == traces.count : !hits.isEmpty
      if !holds { missing.append(expected) }
    }
    // Handled errors are only held to what is declared: handling one is never a failure.
    for expected in expectation.handled {
      let hits = traces.filter { trace in trace.handledErrors.contains(where: expected.matches) }
      let holds = expected.quantifier == .every ? hits.count == traces.count : !hits.isEmpty
      if !holds { missingHandled.append(expected) }
    }
    for trace in traces {
      for violation in trace.violations
      where !expectation.violations.contains(where: { $0.matches(violation) })
        && !unexpected.contains(where: {
          $0.kind == violation.kind && $0.site.stepIndex == violation.site.stepIndex
        })
      {
        unexpected.append(violation)
      }
    }
  }
}
