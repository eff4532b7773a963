/// Decoding of what `ctxsim check` holds the scenario to, and of the store errors it injects.
extension ScenarioDecoder {
  /// `"inject": [{"at": LABEL, "error": CODE, "call": N}]`: store errors for given calls.
  mutating func validateInjections(_ raw: Field<[Field<RawInjection>]>) -> [Injection] {
    var result: [Injection] = []
    for (i, item) in (read(raw)?.value ?? []).enumerated() {
      let path = "inject[\(i)]"
      guard let item = read(item)?.value else { continue }
      errors += item.problems
      if item.label.isAbsent {
        fail(
          "an injected error has no \"at\"", fix: "add \"at\": the label of the step that fails",
          at: item.location, path: path)
        continue
      }
      guard let label = read(item.label) else { continue }
      if labels[label.value] == nil {
        if writtenLabels.contains(label.value) { continue }
        fail(
          "no step has the label \"\(label.value)\"",
          fix: nearestName(to: label.value, in: Array(labels.keys)).map {
            "did you mean \"\($0)\"?"
          } ?? "label the step that should fail",
          at: label.location, path: path)
        continue
      }
      guard let code = item.code else {
        fail(
          "an injected error needs \"error\": a Cocoa error code",
          fix: "write \"error\": 134030, say",
          at: item.location, path: path)
        continue
      }
      var call = 1
      if !item.call.isAbsent {
        guard let n = read(item.call)?.value else { continue }
        call = n
      }
      var condition: Condition?
      if !item.condition.isAbsent {
        errors += item.conditionProblems
        guard let found = read(item.condition)?.value else { continue }
        condition = found
      }
      result.append(Injection(label: label.value, code: code, call: call, condition: condition))
    }
    return result
  }

  mutating func validateExpectation(_ raw: Field<RawExpectation>) -> Expectation? {
    guard let expectation = read(raw)?.value else { return nil }
    errors += expectation.problems
    if expectation.violations.isAbsent {
      fail(
        "\"expect\" has no \"violations\"",
        fix: "write \"violations\": [] for a clean design, or list the violations it must show",
        at: expectation.location, path: "expect")
      return nil
    }
    guard let items = read(expectation.violations)?.value else { return nil }
    var expected: [ExpectedViolation] = []
    for (i, item) in items.enumerated() {
      let path = "expect.violations[\(i)]"
      guard let item = read(item)?.value else { continue }
      errors += item.problems
      if item.kind.isAbsent {
        fail(
          "an expected violation has no \"kind\"", fix: "add \"kind\": \"wrongQueueContext\", say",
          at: item.location, path: path)
        continue
      }
      guard let kind = read(item.kind)?.value else { continue }
      let label = read(item.label).map { name in
        checkLabel(name, path: path)
        return name.value
      }
      let quantifier = read(item.quantifier)?.value ?? .every
      expected.append(
        ExpectedViolation(kind: kind, label: label, quantifier: quantifier, location: item.location)
      )
    }
    var handled: [ExpectedHandledError] = []
    for (i, item) in (read(expectation.handled)?.value ?? []).enumerated() {
      let path = "expect.handled[\(i)]"
      guard let item = read(item)?.value else { continue }
      errors += item.problems
      guard let code = item.code else {
        fail(
          "an expected handled error needs \"error\": a Cocoa error code",
          fix: "write \"error\": 133000, say", at: item.location, path: path)
        continue
      }
      let label = read(item.label).map { name in
        checkLabel(name, path: path)
        return name.value
      }
      handled.append(
        ExpectedHandledError(
          code: code, label: label, quantifier: read(item.quantifier)?.value ?? .every,
          location: item.location))
    }
    return Expectation(violations: expected, handled: handled)
  }

  /// Reports a label no step carries, with the nearest one.
  private mutating func checkLabel(_ name: Located<String>, path: String) {
    guard labels[name.value] == nil, !writtenLabels.contains(name.value) else { return }
    let fix =
      nearestName(to: name.value, in: Array(labels.keys)).map { "did you mean \"\($0)\"?" }
      ?? "add \"label\": \"\(name.value)\" to the step where it happens"
    fail("no step has the label \"\(name.value)\"", fix: fix, at: name.location, path: path)
  }
}
