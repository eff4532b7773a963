import ContextSimCore
import ContextSimReports

/// `switch` on what the draft knows: a context's `concurrencyType`, a literal, an enum
/// case written out (`.background`). A `switch` on anything else is not modelled.
extension Drafter {
  /// The case a `switch` on `subject` runs; one of no case, when none matches and there is
  /// no `default`; nil when the draft cannot tell.
  func switchCase(_ subject: SwiftExpression, _ cases: [SwiftSwitchCase]) -> SwiftSwitchCase? {
    guard let value = switchValue(subject.unwrapped.expression) else { return nil }
    func matches(_ pattern: String) -> Bool {
      var p = pattern.replacingOccurrences(of: " ", with: "").lowercased()
      // `.success(let stack)`: the case, whatever it binds (``payloadBinding(_:)``).
      if p.hasPrefix("."), let open = p.firstIndex(of: "(") { p = String(p[..<open]) }
      return p == "_" || p == value.lowercased()
    }
    return cases.first { $0.patterns.contains(where: matches) }
      ?? cases.first(where: \.isDefault) ?? SwiftSwitchCase(patterns: [], body: [])
  }

  /// `case .success(let stack)` on a name given `.success(s)`: `stack` bound to what `s`
  /// is, for the case's body.
  mutating func bindPayload(of subject: SwiftExpression, in chosen: SwiftSwitchCase) {
    guard case .name(let n) = subject.unwrapped.expression.kind, let payload = enumPayloads[n]
    else { return }
    for pattern in chosen.patterns {
      let compact = pattern.replacingOccurrences(of: " ", with: "")
      guard let open = compact.firstIndex(of: "("), compact.hasSuffix(")") else { continue }
      var inner = compact[compact.index(after: open)..<compact.index(before: compact.endIndex)]
      if inner.hasPrefix("let") { inner = inner.dropFirst(3) }
      if let colon = inner.firstIndex(of: ":") { inner = inner[inner.index(after: colon)...] }
      guard !inner.isEmpty, inner.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }),
        let m = payload
      else { continue }
      bind(String(inner), m)
    }
  }

  /// The case and payload of `.success(stack)`: `.success`, and what `stack` means.
  mutating func rememberCase(_ e: SwiftExpression, as name: String) -> Bool {
    guard case .call(let callee, let arguments) = e.unwrapped.expression.kind,
      case .member(nil, let caseName) = callee.kind
    else { return false }
    enumArguments[name] = "." + caseName
    enumPayloads[name] = arguments.first.map { resolve($0.value) } ?? nil
    return true
  }

  /// What the draft knows `e` to be, as a pattern would spell it.
  func switchValue(_ e: SwiftExpression) -> String? {
    switch e.kind {
    case .member(let base?, "concurrencyType"):
      guard case .context(let c)? = resolve(base) else { return nil }
      let main = c == "viewContext" || mainQueueContexts.contains(c)
      return main ? ".mainQueueConcurrencyType" : ".privateQueueConcurrencyType"
    case .member(nil, let name): return "." + name
    case .name(let n): return enumArguments[n]  // a parameter given `.package`
    case .string(let text, let interpolations) where interpolations.isEmpty: return "\"\(text)\""
    case .number(let n): return n
    case .bool(let b): return b ? "true" : "false"
    default: return nil
    }
  }
}
