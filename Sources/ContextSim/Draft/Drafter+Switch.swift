/// `switch` on what the draft knows: a context's `concurrencyType`, a literal, an enum
/// case written out (`.background`). A `switch` on anything else is not modelled.
extension Drafter {
  /// The case a `switch` on `subject` runs; one of no case, when none matches and there is
  /// no `default`; nil when the draft cannot tell.
  func switchCase(_ subject: SwiftExpression, _ cases: [SwiftSwitchCase]) -> SwiftSwitchCase? {
    guard let value = switchValue(subject.unwrapped.expression) else { return nil }
    func matches(_ pattern: String) -> Bool {
      let p = pattern.replacingOccurrences(of: " ", with: "").lowercased()
      return p == "_" || p == value.lowercased()
    }
    return cases.first { $0.patterns.contains(where: matches) }
      ?? cases.first(where: \.isDefault) ?? SwiftSwitchCase(patterns: [], body: [])
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
