import ContextSimCore
import ContextSimReports

/// Rewriting names in parsed Swift: what lets the drafter read a method of an extension of
/// `NSManagedObjectContext` as the context's own, `hasChanges` as `self.hasChanges`.
extension SwiftExpression {
  /// The expression with each bare name `rename` answers for replaced by its answer,
  /// closures' bodies included; members after a dot are not names and stay.
  func renaming(_ rename: (String) -> SwiftExpression.Kind?) -> SwiftExpression {
    func r(_ e: SwiftExpression) -> SwiftExpression { e.renaming(rename) }
    func args(_ items: [SwiftArgument]) -> [SwiftArgument] {
      items.map { SwiftArgument(label: $0.label, value: r($0.value)) }
    }
    let kind: Kind
    switch self.kind {
    case .name(let n): kind = rename(n) ?? .name(n)
    case .member(let base, let name): kind = .member(base.map(r), name)
    case .call(let callee, let arguments): kind = .call(r(callee), args(arguments))
    case .subscriptAccess(let base, let arguments):
      kind = .subscriptAccess(r(base), args(arguments))
    case .closure(var closure):
      closure.body = closure.body.map { $0.renaming(rename) }
      kind = .closure(closure)
    case .tuple(let items): kind = .tuple(args(items))
    case .array(let items): kind = .array(items.map(r))
    case .dictionary(let pairs): kind = .dictionary(pairs.map { (r($0.0), r($0.1)) })
    case .optionalChain(let e): kind = .optionalChain(r(e))
    case .forceUnwrap(let e): kind = .forceUnwrap(r(e))
    case .prefix(let op, let e): kind = .prefix(op, r(e))
    case .binary(let op, let a, let b): kind = .binary(op, r(a), r(b))
    case .ternary(let c, let a, let b): kind = .ternary(r(c), r(a), r(b))
    case .try(let mark, let e): kind = .try(mark, r(e))
    case .await(let e): kind = .await(r(e))
    case .cast(let op, let e, let type): kind = .cast(op, r(e), type)
    case .generic(let e, let arguments): kind = .generic(r(e), arguments)
    case .string, .number, .bool, .nil, .other: kind = self.kind
    }
    return SwiftExpression(kind: kind, location: location)
  }
}

extension SwiftStatement {
  /// The statement with its expressions' bare names renamed (``SwiftExpression/renaming(_:)``).
  func renaming(_ rename: (String) -> SwiftExpression.Kind?) -> SwiftStatement {
    func e(_ x: SwiftExpression) -> SwiftExpression { x.renaming(rename) }
    func body(_ items: [SwiftStatement]) -> [SwiftStatement] { items.map { $0.renaming(rename) } }
    func conditions(_ items: [SwiftCondition]) -> [SwiftCondition] {
      items.map { condition in
        switch condition {
        case .expression(let x): .expression(e(x))
        case .binding(let pattern, let value): .binding(pattern, value.map(e))
        case .other: condition
        }
      }
    }
    let kind: Kind
    switch self.kind {
    case .declaration(let isLet, let pattern, let type, let value):
      kind = .declaration(isLet: isLet, pattern, type: type, value.map(e))
    case .asyncLet(let pattern, let value): kind = .asyncLet(pattern, e(value))
    case .expression(let x): kind = .expression(e(x))
    case .if(let c, let then, let otherwise):
      kind = .if(conditions(c), then: body(then), else: otherwise.map(body))
    case .guard(let c, let otherwise): kind = .guard(conditions(c), else: body(otherwise))
    case .forIn(let pattern, let sequence, let inner):
      kind = .forIn(pattern, e(sequence), body: body(inner))
    case .while(let c, let inner): kind = .while(conditions(c), body: body(inner))
    case .do(let inner, let catches): kind = .do(body(inner), catches: catches.map(body))
    case .return(let x): kind = .return(x.map(e))
    case .throw(let x): kind = .throw(e(x))
    case .defer(let inner): kind = .defer(body(inner))
    case .switch(let subject, let cases):
      kind = .switch(
        e(subject), cases: cases.map { SwiftSwitchCase(patterns: $0.patterns, body: body($0.body)) }
      )
    case .break, .continue, .function, .unknown: kind = self.kind
    }
    return SwiftStatement(kind: kind, location: location)
  }
}

extension SwiftStatement {
  /// Whether a `return` sits in this statement's blocks (an `if`'s, a loop's, a `switch`'s),
  /// not counting its own closures': the function may end inside it.
  var returnsInside: Bool {
    blocks.contains { $0.contains { $0.isReturn || $0.returnsInside } }
  }

  /// Whether a closure written in this statement, at any depth, has a `return` of its own.
  var closuresReturn: Bool {
    closures.contains { closure in
      closure.body.contains { $0.isReturn || $0.returnsInside || $0.closuresReturn }
    } || blocks.contains { $0.contains(where: \.closuresReturn) }
  }

  private var isReturn: Bool {
    if case .return = kind { true } else { false }
  }

  /// The statement's own blocks.
  private var blocks: [[SwiftStatement]] {
    switch kind {
    case .if(_, let then, let otherwise): [then] + (otherwise.map { [$0] } ?? [])
    case .guard(_, let otherwise): [otherwise]
    case .forIn(_, _, let body), .while(_, let body), .defer(let body): [body]
    case .do(let body, let catches): [body] + catches
    case .switch(_, let cases): cases.map(\.body)
    default: []
    }
  }

  /// The closures written in the statement's own expressions.
  private var closures: [SwiftClosure] {
    var found: [SwiftClosure] = []
    func visit(_ e: SwiftExpression) { collect(e, into: &found) }
    switch kind {
    case .declaration(_, _, _, let value?): visit(value)
    case .asyncLet(_, let value), .expression(let value), .throw(let value): visit(value)
    case .return(let value?): visit(value)
    case .if(let conditions, _, _), .guard(let conditions, _), .while(let conditions, _):
      for case .expression(let e) in conditions { visit(e) }
      for case .binding(_, let e?) in conditions { visit(e) }
    case .forIn(_, let sequence, _): visit(sequence)
    case .switch(let subject, _): visit(subject)
    default: break
    }
    return found
  }
}

/// Each closure in `e`, outermost first, not those inside them.
private func collect(_ e: SwiftExpression, into found: inout [SwiftClosure]) {
  switch e.kind {
  case .closure(let closure): found.append(closure)
  case .member(let base?, _): collect(base, into: &found)
  case .call(let callee, let arguments):
    collect(callee, into: &found)
    for a in arguments { collect(a.value, into: &found) }
  case .subscriptAccess(let base, let arguments):
    collect(base, into: &found)
    for a in arguments { collect(a.value, into: &found) }
  case .tuple(let items): for a in items { collect(a.value, into: &found) }
  case .array(let items): for item in items { collect(item, into: &found) }
  case .dictionary(let pairs):
    for (k, v) in pairs {
      collect(k, into: &found)
      collect(v, into: &found)
    }
  case .optionalChain(let inner), .forceUnwrap(let inner), .prefix(_, let inner),
    .try(_, let inner), .await(let inner), .cast(_, let inner, _), .generic(let inner, _):
    collect(inner, into: &found)
  case .binary(_, let a, let b):
    collect(a, into: &found)
    collect(b, into: &found)
  case .ternary(let c, let a, let b):
    collect(c, into: &found)
    collect(a, into: &found)
    collect(b, into: &found)
  case .member(nil, _), .name, .string, .number, .bool, .nil, .other: break
  }
}

extension SwiftStatement {
  /// Whether the bare name `name` is used in the statement, closures' bodies included: a
  /// function that names itself calls itself.
  func mentionsName(_ name: String) -> Bool {
    var found = false
    _ = renaming { n in
      if n == name { found = true }
      return nil
    }
    return found
  }
}
