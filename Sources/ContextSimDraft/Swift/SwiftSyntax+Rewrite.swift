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
