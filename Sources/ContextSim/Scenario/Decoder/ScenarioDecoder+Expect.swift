/// Decoding of what `ctxsim check` holds the scenario to, and of the store errors it injects.
extension ScenarioDecoder {
  /// `"inject": [{"at": LABEL, "error": CODE, "call": N}]`: store errors for given calls.
  mutating func decodeInjections(_ json: JSONValue) -> [Injection] {
    guard let items = list(json, path: "inject", what: "\"inject\"") else { return [] }
    var result: [Injection] = []
    for (i, item) in items.enumerated() {
      let path = "inject[\(i)]"
      guard let members = object(item, path: path, what: "an injected error") else { continue }
      checkKeys(
        members, allowed: ["at", "error", "call", "when"], path: path, what: "an injected error")
      guard let atJSON = item["at"], let label = string(atJSON, path: path, what: "\"at\"") else {
        if item["at"] == nil {
          fail(
            "an injected error has no \"at\"", fix: "add \"at\": the label of the step that fails",
            at: item.location, path: path)
        }
        continue
      }
      if labels[label] == nil {
        if writtenLabels.contains(label) { continue }
        fail(
          "no step has the label \"\(label)\"",
          fix: nearestName(to: label, in: Array(labels.keys)).map { "did you mean \"\($0)\"?" }
            ?? "label the step that should fail",
          at: atJSON.location, path: path)
        continue
      }
      guard let errorJSON = item["error"], case .integer(let code) = errorJSON.kind else {
        fail(
          "an injected error needs \"error\": a Cocoa error code",
          fix: "write \"error\": 134030, say",
          at: item.location, path: path)
        continue
      }
      var call = 1
      if let callJSON = item["call"] {
        guard case .integer(let n) = callJSON.kind, n > 0 else {
          fail(
            "\"call\" must be a whole number from 1",
            fix: "write \"call\": 2 for the second time the step runs", at: callJSON.location,
            path: path)
          continue
        }
        call = n
      }
      var condition: Condition?
      if let when = item["when"] {
        guard let members = object(when, path: path, what: "\"when\""),
          let variable = when["value"]?.string,
          let compared = when["equals"] ?? when["notEquals"], let value = Value(literal: compared)
        else {
          fail(
            "\"when\" needs \"value\" and \"equals\" or \"notEquals\"",
            fix: "write {\"value\": \"url\", \"equals\": \"…\"}",
            at: when.location, path: path)
          continue
        }
        checkKeys(members, allowed: ["value", "equals", "notEquals"], path: path, what: "\"when\"")
        condition = Condition(
          variable: variable.hasPrefix("$") ? String(variable.dropFirst()) : variable, value: value,
          negated: when["notEquals"] != nil)
      }
      result.append(Injection(label: label, code: code, call: call, condition: condition))
    }
    return result
  }

  mutating func decodeExpectation(_ json: JSONValue) -> Expectation? {
    guard let members = object(json, path: "expect", what: "\"expect\"") else { return nil }
    checkKeys(members, allowed: ["violations"], path: "expect", what: "\"expect\"")
    guard let value = json["violations"] else {
      fail(
        "\"expect\" has no \"violations\"",
        fix: "write \"violations\": [] for a clean design, or list the violations it must show",
        at: json.location, path: "expect")
      return nil
    }
    guard let items = list(value, path: "expect.violations", what: "\"violations\"") else {
      return nil
    }
    var expected: [ExpectedViolation] = []
    for (i, item) in items.enumerated() {
      let path = "expect.violations[\(i)]"
      guard let members = object(item, path: path, what: "an expected violation") else { continue }
      checkKeys(members, allowed: ["kind", "at", "in"], path: path, what: "an expected violation")
      guard let kindJSON = item["kind"] else {
        fail(
          "an expected violation has no \"kind\"", fix: "add \"kind\": \"wrongQueueContext\", say",
          at: item.location, path: path)
        continue
      }
      guard
        let kind = choice(kindJSON, path: path, what: "the violation kind", as: ViolationKind.self)
      else { continue }
      var label: String?
      if let at = item["at"], let name = string(at, path: path, what: "\"at\"") {
        if labels[name] == nil, !writtenLabels.contains(name) {
          let fix =
            nearestName(to: name, in: Array(labels.keys)).map { "did you mean \"\($0)\"?" }
            ?? "add \"label\": \"\(name)\" to the step where the violation happens"
          fail("no step has the label \"\(name)\"", fix: fix, at: at.location, path: path)
        }
        label = name
      }
      let quantifier =
        item["in"].flatMap {
          choice($0, path: path, what: "\"in\"", as: ExpectedViolation.Quantifier.self)
        } ?? .every
      expected.append(
        ExpectedViolation(kind: kind, label: label, quantifier: quantifier, location: item.location)
      )
    }
    return Expectation(violations: expected)
  }
}
