import ContextSimCore
import ContextSimReports

/// Statements into steps: declarations bind names, control flow becomes `forEach` and
/// `when`, and each line the drafter cannot follow stays as a "not modelled" step.
extension Drafter {
  /// What a condition tests in the scenario: a variable, equal (or not) to a value.
  struct Test {
    var variable: String
    var value: JSONValue
    /// The condition holds when the variable equals the value; else when it does not.
    var holdsWhenEqual: Bool

    /// `if let x`: x is not nil.
    static func notNil(_ variable: String) -> Test {
      Test(variable: variable, value: .null, holdsWhenEqual: false)
    }
  }

  mutating func steps(_ statements: [SwiftStatement]) -> [JSONValue] {
    let statements = Self.deferredLast(statements)
    var out: [JSONValue] = []
    for (k, statement) in statements.enumerated() {
      if case .guard(let conditions, let otherwise) = statement.kind {
        // `guard let self = self else { return }`: known to hold, or known not to.
        if let truth = decide(conditions) {
          if truth { continue }
          return out + steps(otherwise)
        }
        guard let (bindSteps, test) = guardBinding(conditions, at: statement) else {
          // `guard FileManager.default.fileExists(…) else { return }`: on this path, on or out.
          guard let (reads, holds) = decision(conditions, at: statement) else {
            // The first condition is computed whatever the rest: what its call does runs
            // (`guard let rows = try? context.fetch(r), …`), then the guard is not modelled.
            if case .binding(_, let value?)? = conditions.first,
              Call(value.unwrapped.expression) != nil
            {
              out += expressionSteps(
                value, result: "_guarded\(statement.location.line)", at: statement)
            }
            out += steps(statement)
            // What it binds is given what the draft did not follow: never a name free
            // for a stand-in of its own (the screen's object, on main).
            for case .binding(let pattern, _) in conditions {
              for name in pattern.names where meaning(of: name) == nil { bind(name, .opaque) }
            }
            continue
          }
          out += reads
          if holds { continue }
          return out + steps(otherwise)
        }
        // `guard let x = … else { exit }`: what follows runs only when x is not nil, unless
        // x is a stand-in's value, which never is.
        out += bindSteps
        if Self.isStandIn(bindSteps) { return out + steps(Array(statements[(k + 1)...])) }
        let exits = otherwise.last.map(Self.exits) ?? false
        var elseSteps = steps(exits ? Array(otherwise.dropLast()) : otherwise)
        if let last = otherwise.last, case .throw = last.kind { elseSteps += throwSteps(at: last) }
        out += elseSteps.map { when($0, test, holds: false) }
        let rest = steps(Array(statements[(k + 1)...]))
        return out + (exits ? rest.map { when($0, test, holds: true) } : rest)
      }
      // `if let x = … { …; return }`, `if !note.isValid { return }`: what follows runs only
      // when the condition does not hold; after one that always holds, nothing does.
      if case .if(let conditions, let then, nil) = statement.kind,
        then.last.map(Self.exits) == true
      {
        switch decide(conditions) {
        case true?: return out + steps(then)
        case false?: continue
        case nil: break
        }
        guard let (bindSteps, test) = guardBinding(conditions, at: statement) else {
          if let (reads, holds) = decision(conditions, at: statement) {
            out += reads
            if holds { return out + steps(then) }
            continue
          }
          // Not modelled, the `if` bound nothing to test: what follows runs unconditioned.
          out += notModelled(statement)
          continue
        }
        out += bindSteps + steps(then).map { when($0, test, holds: true) }
        let rest = steps(Array(statements[(k + 1)...]))
        return out + rest.map { when($0, test, holds: false) }
      }
      if case .asyncLet = statement.kind {
        let run = statements[k...].prefix {
          if case .asyncLet = $0.kind { true } else { false }
        }
        out += asyncLetSteps(Array(run))
        return out + steps(Array(statements[(k + run.count)...]))
      }
      if statement.returnsInside, !statement.closuresReturn {
        // `if a { if b { return x } }`: a `return` inside sets a flag of the statement's own,
        // and what follows runs only while it is unset.
        let flag = "_returned\(statement.location.line)"
        let saved = returnFlag
        returnFlag = flag
        let drafted = steps(statement)
        returnFlag = saved
        // A `return` never reached (in a `catch` that never runs) sets nothing.
        let returns = drafted.contains(where: { Self.binds(flag, $0) })
        let throwsOut = drafted.contains(where: Self.mayThrow)
        guard returns || throwsOut else {
          out += drafted
          continue
        }
        var rest = steps(Array(statements[(k + 1)...]))
        if returns {
          out.append(step(["let": .string(flag), "value": .bool(false)], at: statement))
          let returned = Test(variable: flag, value: .bool(true), holdsWhenEqual: true)
          rest = rest.map { when($0, returned, holds: false) }
        }
        return out + (throwsOut ? throwing(drafted, then: rest) : drafted + rest)
      }
      let drafted = steps(statement)
      if drafted.contains(where: Self.mayThrow) {
        // `try load()` where load may throw: the rest runs only when it did not.
        return out + throwing(drafted, then: steps(Array(statements[(k + 1)...])))
      }
      out += drafted
    }
    return out
  }

  /// Whether `step`, or a step in its blocks, binds `name` with `let`.
  static func binds(_ name: String, _ step: JSONValue) -> Bool {
    guard case .object(let members) = step.kind else { return false }
    return members.contains { member in
      if member.key == "let", case .string(name) = member.value.kind { return true }
      guard case .array(let inner) = member.value.kind else { return false }
      return inner.contains { binds(name, $0) }
    }
  }

  /// A block with its `defer` bodies moved to its end, the last written first, when nothing
  /// after them leaves the block early: what runs is then the same. With an early exit
  /// after one, the `defer` stays where it is, a line not modelled.
  static func deferredLast(_ statements: [SwiftStatement]) -> [SwiftStatement] {
    guard
      let first = statements.firstIndex(where: { if case .defer = $0.kind { true } else { false } })
    else { return statements }
    let after = statements[(first + 1)...]
    let leavesEarly = after.dropLast().contains { statement in
      switch statement.kind {
      case .return, .throw, .break, .continue, .guard: true
      case .if(_, let then, let otherwise): (then + (otherwise ?? [])).contains(where: exits)
      default: false
      }
    }
    guard !leavesEarly else { return statements }
    var kept: [SwiftStatement] = []
    var deferred: [SwiftStatement] = []
    for statement in statements {
      if case .defer(let body) = statement.kind {
        deferred = body + deferred
      } else {
        kept.append(statement)
      }
    }
    return kept + deferred
  }

  /// One `let` of a value that is not nil: what a stand-in binds.
  static func isStandIn(_ steps: [JSONValue]) -> Bool {
    guard steps.count == 1, case .object(let members) = steps[0].kind, members.first?.key == "let"
    else { return false }
    return members.first?.value != .null
  }

  /// A step that takes `"catch"`: a call that throws.
  static func throwsCatchably(_ step: JSONValue) -> Bool {
    guard case .object(let members) = step.kind, let verb = members.first?.key else { return false }
    return ["save", "fetch", "count", "existingObject", "performFetch"].contains(verb)
  }

  /// A `performAndWait` or `sync` step with a throwing call inside, at any depth.
  static func throwsInsideWait(_ step: JSONValue) -> Bool {
    guard case .object(let members) = step.kind, let verb = members.first?.key,
      verb == "performAndWait" || verb == "sync",
      case .array(let body)? = members.first(where: { $0.key == "do" })?.value.kind
    else { return false }
    return body.contains { throwsCatchably($0) || throwsInsideWait($0) }
  }

  /// `fatalError(…)`, `preconditionFailure(…)`: the app ends here.
  func isFatal(_ statement: SwiftStatement) -> Bool {
    guard case .expression(let e) = statement.kind, let call = Call(e) else { return false }
    return call.receiver == nil && ["fatalError", "preconditionFailure"].contains(call.method)
  }

  static func exits(_ statement: SwiftStatement) -> Bool {
    switch statement.kind {
    case .return, .continue, .break, .throw: true
    default: false
    }
  }

  /// The binding steps of a `guard let` / `if let` with one binding, and its name.
  ///
  /// With several conditions, each binding is drafted in order and what the statement
  /// guards is conditioned on the last one; a boolean condition that reads an object's
  /// property is drafted as that read (the access is what the queue rules judge), one
  /// the draft can decide (`Thread.isMainThread`) is decided; any other makes the
  /// statement not modelled.
  private mutating func guardBinding(_ conditions: [SwiftCondition], at statement: SwiftStatement)
    -> ([JSONValue], Test)?
  {
    // A statement not modelled binds nothing: names its conditions bound are forgotten.
    let saved = (scopes, unmodelled, preamble)
    guard let result = conditionSteps(conditions, at: statement) else {
      (scopes, unmodelled, preamble) = saved
      return nil
    }
    return result
  }

  private mutating func conditionSteps(_ conditions: [SwiftCondition], at statement: SwiftStatement)
    -> ([JSONValue], Test)?
  {
    var steps: [JSONValue] = []
    var variable: String?
    // `if context.hasChanges` alone: the read, and what it read is the test.
    if conditions.count == 1, case .expression(let e) = conditions[0], staticTruth(e) == nil {
      if let (reads, test) = booleanRead(e, at: statement) { return (reads, test) }
      if let test = valueTest(e) { return ([], test) }
      if let (steps, test) = methodTest(e, at: statement) { return (steps, test) }
    }
    for condition in conditions {
      switch condition {
      case .binding(.name("self"), _) where isKnownPresent(condition):
        continue  // `guard let self = self, let rows = …`: the weak `self` is there
      case .binding(.name(let name), let value?):
        steps += expressionSteps(value, result: name, at: statement)
        // The condition tests the scenario's variable; a binding that made none cannot be.
        if case .context(name)? = meaning(of: name) {
          variable = name  // a variable that holds a context: `note.object as? …Context`
          continue
        }
        if meaning(of: name)?.isContainerOrInstance == true {
          // `guard let container = AppContainer.initialize()`: made, so never nil; the
          // test is of a variable that says so.
          let present = "_present\(statement.location.line)"
          steps.append(step(["let": .string(present), "value": .bool(true)], at: statement))
          variable = variable ?? present
          continue
        }
        guard let bound = meaning(of: name)?.variable else { return nil }
        variable = bound
      case .binding(.name(let name), nil):
        // `guard let data`: a step bound it already, or the draft cannot test it.
        switch meaning(of: name) {
        case .value?, .object?, .objectID?: variable = meaning(of: name)?.variable ?? name
        default: return nil
        }
      case .expression(let e) where staticTruth(e) == true:
        continue
      case .expression(let e):
        let reads = objectReads(in: e, at: statement)
        guard !reads.isEmpty else { return nil }
        steps += reads
      default:
        return nil
      }
    }
    return variable.map { (steps, .notNil($0)) }
  }

  /// `x.flag` or `!x.flag` on an object or a context: the read into a variable of the
  /// statement's own, and the test that it holds.
  private mutating func booleanRead(_ e: SwiftExpression, at statement: SwiftStatement)
    -> ([JSONValue], Test)?
  {
    var holds = true
    var e = e
    if case .prefix("!", let inner) = e.kind {
      holds = false
      e = inner
    }
    guard case .member(let base?, let key) = e.kind else { return nil }
    let target: String
    let variable = "_condition\(statement.location.line)"
    switch resolve(base) {
    case .object(let name, let entity)?:
      if let computed = computedProperty(
        key, of: name, entity: entity, result: variable, at: statement)
      {
        // What the getter returns, the getter's own lines before.
        return (computed, Test(variable: variable, value: .bool(true), holdsWhenEqual: holds))
      }
      if let entity { model.add(key: key, to: entity, type: "boolean") }
      target = name
    case .context(let c)?
    where ["hasChanges", "automaticallyMergesChangesFromParent"].contains(key):
      target = c
    default:
      return nil
    }
    let read = step(["get": .string("\(target).\(key)"), "as": .string(variable)], at: statement)
    return ([read], Test(variable: variable, value: .bool(true), holdsWhenEqual: holds))
  }

  /// `if !canSave(note)`, `guard store.isReady() else { … }`: the app's own method drafted
  /// in place, what it returns into a variable of the statement's own, and the test that it
  /// is true.
  private mutating func methodTest(_ e: SwiftExpression, at statement: SwiftStatement)
    -> ([JSONValue], Test)?
  {
    var holds = true
    var e = e.unwrapped.expression
    if case .prefix("!", let inner) = e.kind {
      holds = false
      e = inner.unwrapped.expression
    }
    guard let call = Call(e),
      method(named: call.method, receiver: call.receiver, labels: call.arguments.map(\.label))
        != nil
        || extensionMethod(call.method, on: call.receiver.flatMap(resolve)) != nil
    else { return nil }
    let variable = "_condition\(statement.location.line)"
    let steps = expressionSteps(e, result: variable, at: statement)
    guard case .value? = meaning(of: variable) else { return nil }
    return (steps, Test(variable: variable, value: .bool(true), holdsWhenEqual: holds))
  }

  /// `inMemory`, `!inMemory`, `kind == "x"`, `count != 0` on a value a step bound: the test
  /// of that variable, which the scenario's `when` makes.
  private func valueTest(_ e: SwiftExpression) -> Test? {
    switch e.kind {
    case .prefix("!", let inner):
      guard var test = valueTest(inner), test.value == .bool(true) else { return nil }
      test.holdsWhenEqual.toggle()
      return test
    case .name(let n):
      guard case .value(let variable)? = meaning(of: n) else { return nil }
      return Test(variable: variable, value: .bool(true), holdsWhenEqual: true)
    case .binary(let op, let a, let b) where op == "==" || op == "!=":
      guard case .name(let n) = a.kind, case .value(let variable)? = meaning(of: n),
        let compared = literal(b)
      else { return nil }
      return Test(variable: variable, value: compared, holdsWhenEqual: op == "==")
    default:
      return nil
    }
  }

  /// `printer.isOn` inside a condition: the reads of objects' properties, as `get` steps.
  private mutating func objectReads(in e: SwiftExpression, at statement: SwiftStatement)
    -> [JSONValue]
  {
    switch e.kind {
    case .member(let base?, let key):
      if case .object(let name, let entity)? = resolve(base) {
        // Read as a condition on its own, the key is a boolean attribute.
        if let entity { model.add(key: key, to: entity, type: "boolean") }
        return [
          step(["get": .string("\(name).\(key)"), "as": .string("_condition")], at: statement)
        ]
      }
      return []
    case .prefix(_, let inner), .optionalChain(let inner), .forceUnwrap(let inner):
      return objectReads(in: inner, at: statement)
    case .binary(_, let a, let b):
      return objectReads(in: a, at: statement) + objectReads(in: b, at: statement)
    default:
      return []
    }
  }

  /// Adds `"when": {"value": variable, "notEquals"|"equals": null}` to a step; a step that
  /// already has one keeps it, with a note (the format takes one condition per step).
  func when(_ step: JSONValue, _ variable: String, equals isNotNil: Bool) -> JSONValue {
    when(step, .notNil(variable), holds: isNotNil)
  }

  /// Adds `"when"` for a test, holding or not; a step that already has one, inside another
  /// `if`, gets the list of both, which must all hold.
  func when(_ step: JSONValue, _ test: Test, holds: Bool) -> JSONValue {
    guard case .object(var members) = step.kind else { return step }
    let equal = test.holdsWhenEqual == holds
    let condition = JSONValue.object([
      "value": .string(test.variable), equal ? "equals" : "notEquals": test.value,
    ])
    if let k = members.firstIndex(where: { $0.key == "when" }) {
      var tests = [members[k].value]
      if case .array(let items) = members[k].value.kind { tests = items }
      members[k].value = JSONValue(.array(tests + [condition]), at: JSONValue.nowhere)
    } else {
      members.append(.init(key: "when", keyLocation: JSONValue.nowhere, value: condition))
    }
    return JSONValue(.object(members), at: step.location)
  }

  /// `if let q = queue` where `queue` is a queue, a context or the container: never nil.
  func isKnownPresent(_ condition: SwiftCondition) -> Bool {
    // `guard let self = self`, `guard let self`: a closure's weak `self`, which the draft's
    // one instance of each type outlives.
    if case .binding(.name("self"), let value) = condition, value?.source ?? "self" == "self" {
      return true
    }
    // `guard let apiService else { return }`: the shorthand binds the name itself.
    guard case .binding(.name(let name), let given) = condition else { return false }
    let value = given ?? SwiftExpression(kind: .name(name), location: JSONValue.nowhere)
    // `if let parent = parent` of a parameter given a case (`.context(root)`): it is there.
    if case .name(let n) = value.kind, enumArguments[n] != nil { return true }
    switch resolve(value) {
    // The draft's one instance of an app type, like a context or queue it knows, is there.
    case .queue?, .context?, .container?, .instanceOf?: return true
    default: return false
    }
  }

  /// Whether `name` is nil wherever the draft reads it: ``knownNil``, or a static not set yet.
  func isNil(_ name: String) -> Bool {
    knownNil.contains(name) || nilStatics.contains(name)
      || (name.hasPrefix("Self.") && nilStatics.contains(String(name.dropFirst(5))))
  }

  /// `if let error`, `if let e = error`, `error != nil` on a name ``knownNil`` holds: false.
  func isKnownNil(_ condition: SwiftCondition) -> Bool {
    switch condition {
    case .binding(.name(let n), nil): isNil(n)
    case .binding(_, let value?): isNil(value.unwrapped.expression.source)
    case .expression(let e):
      if case .binary("!=", let l, let r) = e.kind, r.kind.isNil {
        isNil(l.source)
      } else {
        false
      }
    default: false
    }
  }

  mutating func steps(_ statement: SwiftStatement) -> [JSONValue] {
    if let flag = returnFlag, case .return = statement.kind {
      // Inside a statement that sets a flag when the function ends in it.
      returnFlag = nil
      defer { returnFlag = flag }
      return steps(statement) + [step(["let": .string(flag), "value": .bool(true)], at: statement)]
    }
    switch statement.kind {
    case .declaration(_, let pattern, _, let value):
      if pattern == .wildcard {
        // `let _ = self.saveInternal()`: as `_ = …`, the value computed and dropped. None:
        // a local `typealias` or `import`, which runs nothing.
        guard let value else { return [] }
        let isCall = Call(value.unwrapped.expression) != nil
        return expressionSteps(value, result: isCall ? nil : "_discarded", at: statement)
      }
      if case .tuple(let parts) = pattern, let value {
        return tupleBinding(parts.flatMap(\.names), to: value, at: statement)
      }
      guard case .name(let name) = pattern else { return notModelled(statement) }
      guard let value else {
        let local = localName(name)
        bind(name, .value(local))
        return [step(["let": .string(local), "value": .null], at: statement)]
      }
      return expressionSteps(value, result: name, at: statement)
    case .expression(let e):
      return expressionSteps(e, result: nil, at: statement)
    case .function(let function):
      localFunctions.append(function)
      return []
    case .forIn(var pattern, var sequence, let body):
      // `for note in (try? context.fetch(request)) ?? []`: the fetch into a list of its own,
      // then the loop over it.
      if value(of: sequence) == nil, let call = Self.computedCall(sequence),
        ["fetch", "executeFetchRequest"].contains(call.method),
        case .context? = call.receiver.flatMap(resolve)
      {
        let list = "_fetched\(statement.location.line)"
        let made = expressionSteps(sequence, result: list, at: statement)
        guard case .objects? = meaning(of: list) else { return made + notModelled(statement) }
        let loop = SwiftStatement(
          kind: .forIn(
            pattern, SwiftExpression(kind: .name(list), location: sequence.location), body: body),
          location: statement.location)
        return made + steps([loop])
      }
      // `for (i, note) in notes.enumerated()`: the objects, each with a stand-in index.
      var index: String?
      if case .tuple(let parts) = pattern, parts.count == 2, let call = Call(sequence),
        call.method == "enumerated", call.arguments.isEmpty, let list = call.receiver,
        case .objects? = resolve(list)
      {
        if case .name(let i) = parts[0] { index = i }
        (pattern, sequence) = (parts[1], list)
      }
      if case .tuple(let parts) = pattern, case .value? = resolve(sequence),
        let list = value(of: sequence)
      {
        // `for (key, level) in config` of a plain dictionary: each part a stand-in.
        let element = "_element\(statement.location.line)"
        let inner = scoped { drafter in
          drafter.bind(element, .value(element))
          let named = drafter.standInParts(parts.flatMap(\.names), of: sequence, at: statement)
          return drafter.guardingPasses(named + drafter.steps(body), at: statement)
        }
        return [
          step(["forEach": list, "as": .string(element), "do": .array(inner)], at: statement)
        ]
      }
      var name = "_i\(statement.location.line)"  // `for _ in 1...3`
      if case .name(let n) = pattern {
        name = n
      } else if pattern != .wildcard {
        return notModelled(statement)
      }
      if case .instances(let types)? = resolve(sequence), pattern != .wildcard {
        // `for command in commands` of the app's instances: the body once for each, with
        // the loop's name bound to that instance, so its methods are that type's.
        return types.flatMap { type in
          scoped { drafter in
            drafter.bind(name, .instanceOf(type))
            return drafter.guardingPasses(drafter.steps(body), at: statement)
          }
        }
      }
      guard let list = value(of: sequence) ?? Self.range(sequence) else {
        return notModelled(statement)
      }
      // The scenario's name for it: another when a shared var has this one.
      let local = localName(name)
      let inner = scoped { drafter in
        drafter.bind(name, drafter.elementMeaning(of: sequence, name: local))
        var counted: [JSONValue] = []
        if let index {
          let i = drafter.localName(index)
          drafter.bind(index, .value(i))
          counted.append(
            drafter.step(
              [
                "let": .string(i), "value": .integer(0),
                "note": .string("Stood in: the object's place in the list."),
              ],
              at: statement))
        }
        return drafter.guardingPasses(counted + drafter.steps(body), at: statement)
      }
      return [step(["forEach": list, "as": .string(local), "do": .array(inner)], at: statement)]
    case .if(let conditions, let then, let otherwise):
      if let truth = decide(conditions) { return steps(truth ? then : otherwise ?? []) }
      guard let (bindSteps, test) = guardBinding(conditions, at: statement) else {
        if let reads = inertBranches(conditions, then, otherwise ?? []) {
          // `if config.showTimestamps { parts.append(stamp) }`: neither branch does anything
          // the model sees, so which one runs is no path of its own.
          return reads.map { readStep($0, at: statement) } + steps(then)
        }
        if let (reads, holds) = decision(conditions, at: statement) {
          return reads + steps(holds ? then : otherwise ?? [])
        }
        return notModelled(statement)
      }
      // Unscoped, as the scenario flattens them: an outer `var` set in a branch stays set.
      let thenSteps = steps(then).map { when($0, test, holds: true) }
      let elseSteps = steps(otherwise ?? []).map { when($0, test, holds: false) }
      return bindSteps + thenSteps + elseSteps
    case .switch(let subject, let cases):
      var out: [JSONValue] = []
      guard
        let chosen = switchCase(subject, cases)
          ?? decidedCase(subject, cases, at: statement, steps: &out)
      else { return notModelled(statement) }
      bindPayload(of: subject, in: chosen)
      return out + steps(chosen.body.filter { if case .break = $0.kind { false } else { true } })
    case .do(let body, let catches):
      return doCatch(body, catches, at: statement)
    case .while(let conditions, let body):
      return whileSteps(conditions, body, at: statement)
    case .return(let e?) where returnTarget != nil:
      return expressionSteps(e, result: returnTarget, at: statement)
    case .return(let e?):
      // What an entry point returns goes to its caller, outside the draft; a call that
      // computes it still runs: `return (try? context.count(for: request)) ?? 0`.
      var computed = e
      if case .binary("??", let first, _) = e.unwrapped.expression.kind { computed = first }
      guard Call(computed.unwrapped.expression) != nil else {
        // `return note.title`: the read is the entry point's, on its thread.
        if let reads = plainReads(in: computed) { return reads.map { readStep($0, at: statement) } }
        return expressionSteps(computed, result: "_returned", at: statement)
      }
      // `return .init(query: title)`: a value made, in a value's place.
      if case .call(let callee, _) = computed.unwrapped.expression.kind,
        case .member(nil, _) = callee.kind
      {
        return expressionSteps(computed, result: "_returned", at: statement)
      }
      return expressionSteps(computed, result: nil, at: statement)
    case .return:
      return []
    case .throw:
      return throwSteps(at: statement)
    default:
      return notModelled(statement)
    }
  }

  /// Whether conditions hold wherever the draft runs them, binding what a known-present
  /// `if let` binds; nil when that depends on the run.
  private mutating func decide(_ conditions: [SwiftCondition]) -> Bool? {
    if conditions.count == 1, case .expression(let e) = conditions[0], let truth = staticTruth(e) {
      return truth
    }
    if conditions.contains(where: isKnownNil) { return false }
    // `if shared == nil` of a static not set yet: true.
    if conditions.count == 1, case .expression(let e) = conditions[0],
      case .binary("==", let l, let r) = e.kind, r.kind.isNil, isNil(l.source)
    {
      return true
    }
    if conditions.allSatisfy(isKnownPresent) {
      // `if let queue = queue` of a queue or context the draft knows: it is there.
      for case .binding(.name(let name), let value?) in conditions {
        if let m = resolve(value) { bind(name, m) }
        if case .name(let n) = value.kind, let given = enumArguments[n] {
          (enumArguments[name], enumPayloads[name]) = (given, enumPayloads[n] ?? nil)
        }
      }
      return true
    }
    if conditions.count == 1, case .other(let text) = conditions[0],
      let truth = enumCaseTruth(text)
    {
      return truth
    }
    if conditions.count == 1, case .other(let text) = conditions[0], text.hasPrefix("#") {
      // `#available(iOS 13, *)`: the app runs on a current OS.
      if text.hasPrefix("#available") { return true }
      if text.hasPrefix("#unavailable") { return false }
    }
    return nil
  }

  /// `if case let .tag(tag) = filter`, `if case .archive = kind` of a parameter given (or
  /// defaulted to) a case: whether it is that case; nil when the case is not known. A case's
  /// payload is not bound: a body that uses it is not modelled there.
  private func enumCaseTruth(_ text: String) -> Bool? {
    guard text.hasPrefix("case "), let equals = text.firstIndex(of: "=") else { return nil }
    let subject = text[text.index(after: equals)...].trimmingCharacters(in: .whitespaces)
    guard subject.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }),
      let given = enumArguments[subject], given.hasPrefix(".")
    else { return nil }
    var pattern = text.dropFirst("case ".count).prefix { $0 != "=" }
      .trimmingCharacters(in: .whitespaces)
    if pattern.hasPrefix("let ") { pattern = String(pattern.dropFirst(4)) }
    let name = { (s: String) in String(s.prefix { $0 != "(" }) }
    guard pattern.hasPrefix(".") else { return nil }
    return name(pattern) == name(given)
  }

  /// `do { … } catch { … }`. Each throwing call's `catch` runs the handler when it throws.
  /// After the last one nothing in the body is left to skip; after an earlier one the rest
  /// of the body would be skipped, which a step's `catch` does not do, so that path also
  /// passes a line not modelled: a run where such a call throws is never clean, and one
  /// where none throws is exact. `catch { fatalError(…) }` makes each call `try!`. A
  /// `catch` that only logs, after one throwing call at the block's end, is the format's
  /// plain `try`: the error is reported and the app carries on, as it does.
  /// The reads an `if`'s conditions make, when they are plain tests and neither branch
  /// names anything of Core Data's or a shared var, assigns, or leaves the method: no path
  /// of its own. Nil otherwise.
  private func inertBranches(
    _ conditions: [SwiftCondition], _ then: [SwiftStatement], _ otherwise: [SwiftStatement]
  ) -> [PlainRead]? {
    var reads: [PlainRead] = []
    for condition in conditions {
      guard case .expression(let e) = condition, let found = plainReads(in: e) else { return nil }
      reads += found
    }
    let exits = (then + otherwise).contains { Self.exits($0) }
    // An assignment (`wait = true`) may be what a later test reads at run time, so the
    // branch not drafted would be a path lost.
    let assigns = (then + otherwise).contains { statement in
      guard case .expression(let e) = statement.kind, case .binary(let op, _, _) = e.kind else {
        return false
      }
      return op.hasSuffix("=") && !Self.comparisons.contains(op)
    }
    guard !exits, !assigns, !mentionsCoreData(then), !mentionsCoreData(otherwise) else {
      return nil
    }
    return reads
  }

  /// `let (data, response) = try await session.data(for: request)`: the value computed,
  /// then each name a stand-in of a plain value; a value that is anything of Core Data's
  /// (a context, objects) is not modelled.
  private mutating func tupleBinding(
    _ names: [String], to value: SwiftExpression, at statement: SwiftStatement
  ) -> [JSONValue] {
    let whole = "_tuple\(statement.location.line)"
    var steps = expressionSteps(value, result: whole, at: statement)
    switch meaning(of: whole) {
    case .value?: break
    default: return steps + notModelled(statement)
    }
    return steps + standInParts(names, of: value, at: statement)
  }

  /// Each name of a tuple pattern bound to a stand-in of a plain value, part of `whole`.
  private mutating func standInParts(
    _ names: [String], of whole: SwiftExpression, at statement: SwiftStatement
  ) -> [JSONValue] {
    names.filter { $0 != "_" }.map { name in
      let local = localName(name)
      bind(name, .value(local))
      return step(
        [
          "let": .string(local), "value": .string("stand-in"),
          "note": .string("Stood in: part of `\(whole.source)`."),
        ], at: statement)
    }
  }

  private mutating func doCatch(
    _ body: [SwiftStatement], _ catches: [[SwiftStatement]], at statement: SwiftStatement
  ) -> [JSONValue] {
    let drafted = modelErrorCatch(body, catches, at: statement)
    // An error the app's own code throws (`throw`): its handler, when there is one.
    guard let handler = catches.first, drafted.contains(where: Self.mayThrow) else {
      return drafted
    }
    guard catches.count == 1 else {
      return drafted
        + notModelled(
          statement, why: "which of several `catch` blocks takes an error is not modelled")
    }
    return caughtThrow(drafted, handler: handler, at: statement)
  }

  /// The `do` block as the model's own errors go: a step's `catch` (a save or fetch that
  /// fails) runs the handler.
  private mutating func modelErrorCatch(
    _ body: [SwiftStatement], _ catches: [[SwiftStatement]], at statement: SwiftStatement
  ) -> [JSONValue] {
    var inner = scoped { $0.steps(body) }
    guard let handler = catches.first else { return inner }
    // A `try?` or `try!` call inside the block never reaches its `catch`.
    let throwing = inner.indices.filter { index in
      guard Self.throwsCatchably(inner[index]), case .object(let members) = inner[index].kind
      else { return false }
      return !members.contains { $0.key == "try" }
    }
    if throwing.isEmpty, catches.count == 1, !touchesCoreData(handler) {
      // Nothing in the block that the model lets throw (the store it sets up loads, as the
      // scenario's does at launch), and a handler that touches nothing: it never runs. A
      // line of the block not modelled is said so where it is, and keeps the run unclean.
      return inner
    }
    if throwing.isEmpty, catches.count == 1, inner.contains(where: Self.throwsInsideWait) {
      // `try context.performAndWait { try context.count(for: r) }`: the call that throws is
      // inside the block, whose error the wait hands back. The scenario's store does not
      // fail, so the handler never runs; a step's `catch` would run it on the context's
      // queue instead of the caller's, so none is added.
      return inner
    }
    guard catches.count == 1, !throwing.isEmpty else {
      // Errors only the app's own code raises, with `throw` (caught in `doCatch`), or none
      // on this path: the handler runs only for those.
      if catches.count == 1, throwing.isEmpty, triesOnlyAppCode(body) { return inner }
      return inner + notModelled(statement)
    }
    if let crash = handler.last, isFatal(crash), !mentionsCoreData(handler.dropLast()) {
      // `catch { fatalError(…) }`: an error crashes the app, as `try!` does.
      for index in throwing { inner[index] = adding("try", .string("!"), to: inner[index]) }
      return inner
    }
    if throwing == [inner.count - 1], handler.allSatisfy(isLogging) {
      return inner  // `catch { NSLog("…\(error)") }`: the save failed, and only a log says so
    }
    let handlerSteps = scoped { drafter in
      drafter.bind("error", .value("error"))  // Swift's implicit `error`, the step's `$error`
      return drafter.steps(handler.filter { !Self.exits($0) })
    }
    for index in throwing {
      var steps = handlerSteps
      if index != inner.indices.last {
        steps += notModelled(
          statement,
          why: "after this error the rest of the `do` block is skipped, which ctxsim does not model"
        )
      }
      inner[index] = adding("catch", .array(steps), to: inner[index])
    }
    return inner
  }

  /// Whether every `try` among the lines calls the app's own code, whose `throw`s the draft
  /// follows: a `try` on a call passed over (`try FileManager.default.removeItem(…)`) may
  /// throw where the draft cannot see.
  func triesOnlyAppCode(_ statements: [SwiftStatement]) -> Bool {
    statements.allSatisfy { statement in
      let e: SwiftExpression
      switch statement.kind {
      case .expression(let x), .declaration(_, _, _, let x?): e = x
      case .declaration(_, _, _, nil), .throw: return true
      default: return false
      }
      let (inner, mark, _) = e.unwrapped
      switch mark {
      case "?"?, "!"?: return true  // never reaches the `catch`
      case nil: return !e.source.contains("try ")  // no `try`, nor one inside
      default:
        guard let call = Call(inner) else { return false }
        return method(named: call.method, receiver: call.receiver) != nil
      }
    }
  }

  /// Whether lines, drafted on a copy of the drafter, make any step but plain Swift ones
  /// (`let`, `print`, shared vars, blocks sent to a queue) or pass a line not modelled.
  func touchesCoreData(_ statements: [SwiftStatement]) -> Bool {
    var copy = self
    let drafted = copy.scoped { drafter in
      drafter.bind("error", .value("error"))  // a handler's implicit `error`
      return drafter.steps(statements.filter { !Self.exits($0) })
    }
    func plain(_ step: JSONValue) -> Bool {
      guard case .object(let members) = step.kind, let verb = members.first?.key else {
        return false
      }
      guard ["let", "print", "read", "write", "async", "sync", "task"].contains(verb) else {
        return false
      }
      if case .array(let body)? = members.first(where: { $0.key == "do" })?.value.kind {
        return body.allSatisfy(plain)
      }
      return true
    }
    return !drafted.allSatisfy(plain)
  }

  /// `print(…)`, `NSLog(…)`, `logger.error(…)`: a line that only logs.
  private func isLogging(_ statement: SwiftStatement) -> Bool {
    guard case .expression(let e) = statement.kind else { return false }
    return passRule(e.unwrapped.expression) == .logging
  }

  // MARK: Steps

  /// A step with its label (file and line) and the Swift it stands for.
  mutating func step(_ members: KeyValuePairs<String, JSONValue?>, at statement: SwiftStatement)
    -> JSONValue
  {
    var step = JSONValue.object(members)
    // Made unique once the draft is whole: see `uniqueLabels`.
    step = adding("label", .string("\(file.name):\(statement.location.line)"), to: step)
    return adding("swift", .string(line(of: statement)), to: step)
  }

  func adding(_ key: String, _ value: JSONValue, to step: JSONValue) -> JSONValue {
    guard case .object(var members) = step.kind else { return step }
    members.removeAll { $0.key == key }
    members.append(.init(key: key, keyLocation: JSONValue.nowhere, value: value))
    return JSONValue(.object(members), at: step.location)
  }

  /// The statement's first line as written, without its trailing comment.
  func line(of statement: SwiftStatement) -> String {
    let index = statement.location.line - 1
    guard file.lines.indices.contains(index) else { return "" }
    var text = Substring(file.lines[index])
    var inString = false
    var previous: Character = " "
    for (offset, c) in text.enumerated() {
      if c == "\"" && previous != "\\" { inString.toggle() }
      if !inString && c == "/" && previous == "/" {
        text = text.prefix(offset - 1)
        break
      }
      previous = c
    }
    return text.trimmingCharacters(in: .whitespaces)
  }

}
