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
      // `var root: NSManagedObjectContext! = nil`: none yet; what sets it is drafted where
      // it runs.
      guard property.modifiers.contains("lazy") == lazy, let value = property.value,
        !value.kind.isNil
      else { continue }

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
      if let gotten = property.gotten, let meaning = resolve(gotten), meaning.isCoreData {
        bind(property.name, meaning)
      }
    }
  }
}

/// A stored property's observers: `willSet` and `didSet` run around a set of it, on the
/// setting thread, except in an initialiser of its own type, where Swift calls neither.
extension Drafter {
  /// `write`, the steps that set the instance's `property`, with its observers' bodies
  /// drafted before and after it.
  mutating func observed(
    _ property: String, _ write: [JSONValue], at statement: SwiftStatement
  ) -> [JSONValue] {
    guard let type = subject,
      let declared = type.properties.first(where: { $0.name == property }),
      declared.willSet != nil || declared.didSet != nil, !inOwnInitializer
    else { return write }
    return observerSteps(declared, "willSet", of: type, at: statement) + write
      + observerSteps(declared, "didSet", of: type, at: statement)
  }

  private mutating func observerSteps(
    _ property: SwiftProperty, _ name: String, of type: SwiftType, at statement: SwiftStatement
  ) -> [JSONValue] {
    guard let observer = property.observerFunction(name), !inlining.contains(observer.identity)
    else { return [] }
    // No parameters: a body that reads `oldValue` or `newValue` reads a value the draft does
    // not know, as any plain local.
    let callee = SwiftExpression(kind: .name(observer.name), location: statement.location)
    guard let call = Call(SwiftExpression(kind: .call(callee, []), location: statement.location))
    else { return [] }
    return inlineMethod(
      observer, of: type, self: .instanceOf(type.name), members: instanceMembers[type.name] ?? [:],
      call: call, result: nil, at: statement)
  }

  /// A shared var changed in place (`count += 1`, an entry or a field of it): read, then
  /// written whole with a stand-in of what `value` makes, as the race detector sees it.
  mutating func mutation(
    of variable: String, to value: SwiftExpression, at statement: SwiftStatement
  )
    -> [JSONValue]
  {
    [
      step(["read": .string(variable)], at: statement),
      step(["write": .string(variable), "value": standIn(for: value).json], at: statement),
    ]
  }

  /// Whether the code drafted now is the body of an initialiser of the type whose method
  /// runs.
  private var inOwnInitializer: Bool {
    guard let last = inlining.last, let subject else { return false }
    return subject.functions.contains { $0.name == "init" && $0.identity == last }
  }
}

/// A set of a part of a value: a field of a struct, an entry of a context's `userInfo`.
extension Drafter {
  /// `context.userInfo[key] = value`, `m.version = 3` of a local struct, and
  /// `manifest.lastSweepDate = Date()` of the instance's struct; nil for anything else.
  mutating func memberAssignment(
    _ target: SwiftExpression, _ value: SwiftExpression, at statement: SwiftStatement
  ) -> [JSONValue]? {
    // The value is computed before the set begins, as Swift orders an assignment.
    func computed(_ name: String) -> [JSONValue] {
      plainReads(in: value).map { $0.map { readStep($0, at: statement) } }
        ?? expressionSteps(value, result: "_\(name)\(statement.location.line)", at: statement)
    }
    switch target.kind {
    case .subscriptAccess(let base, let keys):
      if let (property, explicit) = propertyName(base),
        case .shared(let variable)? = explicit
          ? instanceMeaning(of: property) : meaning(of: property),
        let keyReads = plainReads(in: keys.map(\.value))
      {
        // `levels[category] = level` of the instance's dictionary: read, changed and
        // written whole, as the race detector sees a collection's mutation.
        return computed(variable + "Entry") + keyReads.map { readStep($0, at: statement) }
          + observed(property, mutation(of: variable, to: value, at: statement), at: statement)
      }
      // The dictionary is the context's own; its getter is the checked touch.
      guard case .member(let owner?, "userInfo") = base.kind else { return nil }
      var getter: [JSONValue] = []
      var owned = resolve(owner)
      if owned == nil, case .member = owner.kind {
        // `self.viewContext.userInfo[…]` of a computed `viewContext`: its getter first.
        let name = "_userInfoOwner\(statement.location.line)"
        getter = expressionSteps(owner, result: name, at: statement)
        owned = meaning(of: name)
      }
      guard case .context(let c)? = owned else { return nil }
      return computed("userInfoValue") + getter + [touch(c, at: statement)]
    case .member(let base?, _):
      if case .name(let n) = base.kind, case .instanceOf(let t)? = localMeaning(of: n),
        types[t]?.keyword == "struct", let reads = plainReads(in: value)
      {
        // A local copy of a struct of the app's: nothing shared changes.
        return reads.map { readStep($0, at: statement) }
      }
      guard let (property, explicit) = propertyName(base),
        let declared = subject?.properties.first(where: { $0.name == property }),
        let type = declared.type ?? declared.value.flatMap({ Call($0)?.method }),
        types[Self.bareTypeName(type)]?.keyword == "struct"
      else { return nil }
      // The instance's struct is read, changed and written whole, and its observers run.
      var change: [JSONValue] = []
      switch explicit ? instanceMeaning(of: property) : meaning(of: property) {
      case .shared(let variable)?:
        change = mutation(of: variable, to: value, at: statement)
      case .instanceOf?: break
      default: return nil
      }
      return computed(property + "Part") + observed(property, change, at: statement)
    default:
      return nil
    }
  }
}
