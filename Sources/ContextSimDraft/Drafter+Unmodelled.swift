import ContextSimCore
import ContextSimReports

/// Lines the drafter cannot model: each becomes a `notModelled` step saying why, so a run
/// that passes it is never clean. docs/draft.md lists the reasons.
extension Drafter {
  /// A line kept without modelling it, where it is and why.
  struct Unmodelled: Equatable {
    var file: String
    var location: SourceLocation
    var swift: String
    var why: String

    /// `Store.swift:14:9`.
    var place: String { "\(file):\(location.line):\(location.column)" }
  }

  /// The line as a `notModelled` step: why, where (`FILE:LINE:COLUMN`), its label and text.
  /// The place is the expression the drafter could not follow when one is given, else the
  /// statement's start.
  mutating func notModelled(
    _ statement: SwiftStatement, why: String? = nil, at expression: SwiftExpression? = nil
  ) -> [JSONValue] {
    let why = why ?? reason(statement)
    let text = line(of: statement)
    let location = expression?.location ?? statement.location
    let line = Unmodelled(file: file.name, location: location, swift: text, why: why)
    if !unmodelled.contains(line) { unmodelled.append(line) }
    return contextTouch(statement)
      + [step(["notModelled": .string(why), "at": .string(line.place)], at: statement)]
  }

  /// A context's method the drafter cannot model (`context.fetch(filter.request())`), or a
  /// checked property it has no step for (`context.userInfo[key] = value`), still touches
  /// the context on this thread, which is what Core Data's checker traps: a read of its
  /// `hasChanges` stands for that touch, at the same line, before the line is kept as not
  /// modelled.
  mutating func contextTouch(_ statement: SwiftStatement) -> [JSONValue] {
    var e: SwiftExpression
    switch statement.kind {
    case .expression(let x), .return(let x?), .declaration(_, _, _, let x?): e = x
    default: return []
    }
    e = e.unwrapped.expression
    if case .binary("=", let target, let value) = e.kind {
      // `context.userInfo[key] = value` reads `userInfo` first.
      if case .subscriptAccess(let base, _) = target.kind, let c = checkedMember(base) {
        return [touch(c, at: statement)]
      }
      e = value.unwrapped.expression
    }
    if case .binary("??", let value, _) = e.kind { e = value.unwrapped.expression }
    if let c = checkedMember(e) { return [touch(c, at: statement)] }  // `let x = ctx.userInfo`
    if case .subscriptAccess(let base, _) = e.kind, let c = checkedMember(base) {
      return [touch(c, at: statement)]
    }
    guard let call = Call(e), let receiver = call.receiver,
      case .context(let c)? = resolve(receiver)
    else { return [] }
    return [touch(c, at: statement)]
  }

  /// Getters of a context the checker traps off its queue (coredata-semantics-2.md, the
  /// table of accessors), which the scenario has no property for.
  static let checkedContextGetters: Set<String> = [
    "userInfo", "undoManager", "retainsRegisteredObjects", "propagatesDeletesAtEndOfEvent",
    "shouldRefreshAfterSave",
  ]

  /// The context `e` reads a checked getter of: `context.userInfo` is `context`.
  private func checkedMember(_ e: SwiftExpression) -> String? {
    guard case .member(let base?, let name) = e.kind, Self.checkedContextGetters.contains(name),
      case .context(let c)? = resolve(base)
    else { return nil }
    return c
  }

  mutating func touch(_ context: String, at statement: SwiftStatement) -> JSONValue {
    step(["get": .string("\(context).hasChanges"), "as": .string("_touch")], at: statement)
  }

  /// Why a statement of a kind the drafter does not follow is not modelled.
  func reason(_ statement: SwiftStatement) -> String {
    switch statement.kind {
    case .while: "a `while` loop whose test ctxsim cannot decide"
    case .defer: "`defer` is not modelled"
    case .throw: "`throw` is not modelled"
    case .break, .continue: "`break` and `continue` are not modelled"
    case .function: "a local function is not modelled"
    case .declaration: "a binding of several names at once is not modelled"
    case .forIn: "a loop over a sequence ctxsim cannot follow"
    case .if, .guard: "a condition ctxsim cannot decide"
    case .do: "a `catch` around a throwing call ctxsim does not follow, or several `catch`es"
    case .expression(let e): reason(e)
    case .switch: "a `switch` on a value ctxsim cannot decide"
    case .unknown: "ctxsim's Swift reader could not read this statement"
    case .asyncLet, .return: "an expression ctxsim cannot follow"
    }
  }

  /// Why an expression the drafter could not turn into steps is not modelled: the call it
  /// cannot resolve, the receiver it does not know, the closure it cannot follow.
  func reason(_ expression: SwiftExpression) -> String {
    let e = expression.unwrapped.expression
    if case .binary("=", let target, let value) = e.kind {
      if Call(value.unwrapped.expression) != nil { return reason(value) }
      return "an assignment to `\(target.source)` that ctxsim cannot follow"
    }
    if case .binary("??", let first, _) = e.kind { return reason(first) }
    if case .member(let base?, _) = e.kind, Call(base.unwrapped.expression) != nil {
      return reason(base)  // `f().description`: what `f()` is
    }
    guard let call = Call(e) else { return "an expression ctxsim cannot follow" }
    let name = call.method + "()"
    if let receiver = call.receiver {
      switch resolve(receiver) {
      case nil where !Self.isTypeName(receiver):
        return "a call on `\(receiver.source)`, which ctxsim does not know"
      case .context?: return "`\(name)` on a context is not modelled"
      case .object?, .objects?: return "`\(name)` on a managed object is not modelled"
      case .container?: return "`\(name)` on the container is not modelled"
      default: break
      }
    }
    if call.receiver == nil, ["fatalError", "preconditionFailure"].contains(call.method) {
      return "`\(name)` ends the app here; ctxsim does not model it outside a `catch`"
    }
    if call.closure != nil { return "a closure passed to `\(name)` that ctxsim cannot follow" }
    if call.receiver == nil, method(named: call.method, receiver: nil) == nil {
      return "a call ctxsim cannot resolve: `\(name)` is declared in no file read"
    }
    return "a call ctxsim cannot resolve: `\(call.receiver.map { $0.source + "." } ?? "")\(name)`"
  }

  /// `Foo` or `Foo.Bar`: a type's name, which a static call is made on.
  static func isTypeName(_ e: SwiftExpression) -> Bool {
    switch e.kind {
    case .name(let n): n.first?.isUppercase == true
    case .member(let base?, _): isTypeName(base)
    case .generic(let base, _): isTypeName(base)
    default: false
    }
  }
}
