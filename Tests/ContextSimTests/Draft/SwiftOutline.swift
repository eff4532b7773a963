@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// A parsed file as an indented outline, one line per declaration and statement, for
/// tests to compare with what the Swift says.
extension SwiftFile {
  var outline: String {
    var lines: [String] = []
    for type in types { type.outline(into: &lines, indent: "") }
    for function in functions { function.outline(into: &lines, indent: "") }
    for statement in statements { statement.outline(into: &lines, indent: "") }
    return lines.joined(separator: "\n")
  }
}

extension SwiftType {
  func outline(into lines: inout [String], indent: String) {
    let head = (attributes + [keyword, name]).joined(separator: " ")
    lines.append(indent + head + (inherits.isEmpty ? "" : ": " + inherits.joined(separator: ", ")))
    for p in properties {
      lines.append(
        indent + "  " + (p.modifiers + [p.isLet ? "let" : "var", p.name]).joined(separator: " ")
          + (p.type.map { ": \($0)" } ?? "") + (p.value.map { " = \($0.source)" } ?? ""))
    }
    for f in functions { f.outline(into: &lines, indent: indent + "  ") }
    for t in types { t.outline(into: &lines, indent: indent + "  ") }
  }
}

extension SwiftFunction {
  func outline(into lines: inout [String], indent: String) {
    let parameters = parameters.map { "\($0.label ?? "_") \($0.name): \($0.type)" }
    var head = (attributes + modifiers + ["func", name]).joined(separator: " ")
    head += "(" + parameters.joined(separator: ", ") + ")"
    if isAsync { head += " async" }
    if isThrowing { head += " throws" }
    if let returnType { head += " -> \(returnType)" }
    lines.append(indent + head + " @\(location)")
    for s in body ?? [] { s.outline(into: &lines, indent: indent + "  ") }
  }
}

extension SwiftStatement {
  func outline(into lines: inout [String], indent: String) {
    let at = " @\(location.line)"
    func block(_ title: String, _ body: [SwiftStatement]) {
      lines.append(indent + title + at)
      for s in body { s.outline(into: &lines, indent: indent + "  ") }
    }
    switch kind {
    case .declaration(let isLet, let pattern, let type, let value):
      lines.append(
        indent + (isLet ? "let " : "var ") + pattern.source + (type.map { ": \($0)" } ?? "")
          + (value.map { " = \($0.source)" } ?? "") + at)
      if let value { value.closures(into: &lines, indent: indent + "  ") }
    case .asyncLet(let pattern, let value):
      lines.append(indent + "async let " + pattern.source + " = " + value.source + at)
      value.closures(into: &lines, indent: indent + "  ")
    case .expression(let e):
      lines.append(indent + e.source + at)
      e.closures(into: &lines, indent: indent + "  ")
    case .if(let conditions, let then, let otherwise):
      block("if " + conditions.map(\.source).joined(separator: ", "), then)
      if let otherwise { block("else", otherwise) }
    case .guard(let conditions, let otherwise):
      block("guard " + conditions.map(\.source).joined(separator: ", ") + " else", otherwise)
    case .forIn(let pattern, let sequence, let body):
      block("for \(pattern.source) in \(sequence.source)", body)
    case .while(let conditions, let body):
      block("while " + conditions.map(\.source).joined(separator: ", "), body)
    case .do(let body, let catches):
      block("do", body)
      for c in catches { block("catch", c) }
    case .return(let e): lines.append(indent + "return" + (e.map { " " + $0.source } ?? "") + at)
    case .throw(let e): lines.append(indent + "throw " + e.source + at)
    case .break: lines.append(indent + "break" + at)
    case .continue: lines.append(indent + "continue" + at)
    case .defer(let body): block("defer", body)
    case .switch(let subject, let cases):
      lines.append(indent + "switch " + subject.source + at)
      for c in cases {
        block(c.isDefault ? "default" : "case " + c.patterns.joined(separator: ", "), c.body)
      }
    case .function(let f): f.outline(into: &lines, indent: indent)
    case .unknown: lines.append(indent + "?" + at)
    }
  }
}

extension SwiftExpression {
  /// The bodies of the closures inside, each under its own `{ … }` line.
  func closures(into lines: inout [String], indent: String) {
    switch kind {
    case .closure(let c):
      lines.append(indent + c.source)
      for s in c.body { s.outline(into: &lines, indent: indent + "  ") }
    case .call(let callee, let arguments):
      callee.closures(into: &lines, indent: indent)
      for a in arguments { a.value.closures(into: &lines, indent: indent) }
    case .member(let base?, _), .optionalChain(let base), .forceUnwrap(let base),
      .try(_, let base), .await(let base), .prefix(_, let base), .cast(_, let base, _):
      base.closures(into: &lines, indent: indent)
    case .binary(_, let a, let b):
      a.closures(into: &lines, indent: indent)
      b.closures(into: &lines, indent: indent)
    default: break
    }
  }
}

extension SwiftPattern {
  var source: String {
    switch self {
    case .name(let n): n
    case .wildcard: "_"
    case .tuple(let items): "(" + items.map(\.source).joined(separator: ", ") + ")"
    }
  }
}

extension SwiftCondition {
  var source: String {
    switch self {
    case .expression(let e): e.source
    case .binding(let p, let v): "let \(p.source)" + (v.map { " = \($0.source)" } ?? "")
    case .other: "case …"
    }
  }
}
