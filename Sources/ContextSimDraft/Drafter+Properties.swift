import ContextSimCore
import ContextSimReports

/// A type's contexts made by its properties: a stored or `lazy` property's initial value
/// (`lazy var background = container.newBackgroundContext()`, or a closure that makes and
/// configures one), and a computed property that answers with one (`var mainContext {
/// container.viewContext }`).
extension Drafter {
  /// The steps that give each context property of `type` its initial value: the plain
  /// ones (`lazy` false), which Swift sets before `init`'s body, or the `lazy` ones, made
  /// on first use and drafted after `init`.
  mutating func propertyValues(of type: SwiftType, lazy: Bool) -> [JSONValue] {
    var out: [JSONValue] = []
    for property in type.properties where property.getter == nil {
      guard property.modifiers.contains("lazy") == lazy, let value = property.value else {
        continue
      }

      switch meaning(of: property.name) {
      case .context(let name)? where name == Self.contextName(property.name): break
      // `lazy var store: Store = { provider.newContext() }()`: typed by one of the app's
      // protocols or types and made by its code, which may give it a context.
      case .dependency?, .shared?:
        let declared = Self.genericParts(property.type ?? "").0
        guard lazy, types[declared] != nil, value.source.contains("(") else { continue }
        out += lazyInstance(property, value)
        continue
      default: continue
      }
      let me = SwiftExpression(kind: .name("self"), location: property.location)
      let target = SwiftExpression(kind: .member(me, property.name), location: property.location)
      guard case .call(let callee, let arguments) = value.kind, arguments.isEmpty,
        case .closure(let closure) = callee.kind
      else {
        out += steps([assign(target, value, at: property.location)])
        continue
      }
      // `= { let c = container.newBackgroundContext(); …; return c }()`: the closure's
      // lines, its `return` the property's value.
      // The local it returns takes the property's name: the context is `importContext`.
      var local: String?
      if case .return(let returned?)? = closure.body.last?.kind, case .name(let n) = returned.kind {
        local = n
      }
      let body = closure.body.map { original in
        var statement = original
        if let local {
          statement = statement.renaming { $0 == local ? .name(property.name) : nil }
          if case .declaration(let isLet, .name(local), let type, let value) = statement.kind {
            statement.kind = .declaration(isLet: isLet, .name(property.name), type: type, value)
          }
        }
        guard case .return(let returned?) = statement.kind else { return statement }
        return assign(target, returned, at: statement.location)
      }
      out += scoped { $0.steps(body) }
    }
    return out
  }

  /// A `lazy var` of the app's type made by the app's code: the value drafted, and the
  /// property that instance from then on (`store.add(…)` runs the instance's method).
  private mutating func lazyInstance(_ property: SwiftProperty, _ value: SwiftExpression)
    -> [JSONValue]
  {
    var e = value
    if case .call(let callee, let arguments) = value.kind, arguments.isEmpty,
      case .closure(let closure) = callee.kind, closure.body.count == 1
    {
      // `{ provider.newContext() }()`, `{ return provider.newContext() }()`
      switch closure.body[0].kind {
      case .expression(let inner), .return(let inner?): e = inner
      default: return []
      }
    }
    guard let call = Call(e.unwrapped.expression),
      method(named: call.method, receiver: call.receiver) != nil
        || madeAppType(call) != nil
    else { return [] }
    let made = "_" + property.name
    let statement = SwiftStatement(kind: .expression(e), location: property.location)
    let steps = expressionSteps(e, result: made, at: statement)
    if let m = meaning(of: made), m.isContainerOrInstance || m.isCoreData {
      scopes[0][property.name] = m
    }
    return steps
  }

  private func assign(
    _ target: SwiftExpression, _ value: SwiftExpression, at location: SourceLocation
  )
    -> SwiftStatement
  {
    SwiftStatement(
      kind: .expression(SwiftExpression(kind: .binary("=", target, value), location: location)),
      location: location)
  }

  /// Binds each computed property whose getter is one expression Core Data's to what that
  /// expression means (`container.viewContext`), so `mainContext.save()` is the context's.
  mutating func bindComputedProperties(of type: SwiftType) {
    for property in type.properties {
      guard let getter = property.getter, getter.count == 1 else { continue }
      let expression: SwiftExpression
      switch getter[0].kind {
      case .return(let e?), .expression(let e): expression = e
      default: continue
      }
      if let meaning = resolve(expression), meaning.isCoreData { bind(property.name, meaning) }
    }
  }
}
