import ContextSimCore
import ContextSimReports

/// Expressions written back as Swift, in one canonical spelling: what drafts show for a
/// value or a call, and what the parser's tests compare.
extension SwiftExpression {
  var source: String {
    switch kind {
    case .name(let n): n
    case .string(let text, _): JSONWriter.quoted(text)
    case .number(let n): n
    case .bool(let b): b ? "true" : "false"
    case .nil: "nil"
    case .member(let base, let name): (base?.source ?? "") + "." + name
    case .call(let callee, let arguments): callee.source + Self.argumentList(arguments)
    case .subscriptAccess(let base, let arguments):
      base.source + "[" + arguments.map(\.source).joined(separator: ", ") + "]"
    case .closure(let closure): closure.source
    case .tuple(let items): "(" + items.map(\.source).joined(separator: ", ") + ")"
    case .array(let items): "[" + items.map(\.source).joined(separator: ", ") + "]"
    case .dictionary(let pairs):
      pairs.isEmpty
        ? "[:]" : "[" + pairs.map { "\($0.0.source): \($0.1.source)" }.joined(separator: ", ") + "]"
    case .optionalChain(let e): e.source + "?"
    case .forceUnwrap(let e): e.source + "!"
    case .prefix(let op, let e): op + e.source
    case .binary(let op, let a, let b): "\(a.source) \(op) \(b.source)"
    case .ternary(let c, let a, let b): "\(c.source) ? \(a.source) : \(b.source)"
    case .try(let mark, let e): "try\(mark) \(e.source)"
    case .await(let e): "await \(e.source)"
    case .cast(let op, let e, let type): "\(e.source) \(op) \(type)"
    case .generic(let e, let arguments): e.source + "<" + arguments.joined(separator: ", ") + ">"
    case .other(let text): text
    }
  }

  /// `(a, label: b)` followed by trailing closures, as they were written.
  private static func argumentList(_ arguments: [SwiftArgument]) -> String {
    let firstTrailing =
      arguments.lastIndex { argument in
        guard case .closure = argument.value.kind else { return true }
        return false
      }.map { $0 + 1 } ?? 0
    let plain = arguments[..<firstTrailing]
    let trailing = arguments[firstTrailing...]
    let list =
      plain.isEmpty && !trailing.isEmpty
      ? "" : "(" + plain.map(\.source).joined(separator: ", ") + ")"
    return list
      + trailing.map { " " + ($0.label.map { "\($0): " } ?? "") + $0.value.source }.joined()
  }
}

extension SwiftArgument {
  var source: String { (label.map { "\($0): " } ?? "") + value.source }
}

extension SwiftClosure {
  var source: String {
    var head = attributes.joined(separator: " ")
    if !captures.isEmpty {
      head += (head.isEmpty ? "" : " ") + "[" + captures.joined(separator: ", ") + "]"
    }
    if !parameters.isEmpty {
      head += (head.isEmpty ? "" : " ") + parameters.joined(separator: ", ")
    }
    let inPart = head.isEmpty ? "" : " \(head) in"
    return "{\(inPart) … }"
  }
}
