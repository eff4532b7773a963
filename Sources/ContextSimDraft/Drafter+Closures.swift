import ContextSimCore
import ContextSimReports

/// Closures held as values: bound to a name (`let block = { … }`), passed as an argument,
/// stored, and run later where they are called (`block(context)`, `completion()`) or handed
/// to a queue or a context (`context.perform(block)`).
extension Drafter {
  /// `e` with each argument that names a held closure replaced by the closure itself, so
  /// `context.perform(block)` is drafted as `context.perform { … }`; with the closures
  /// replaced, by their place in ``heldClosures``.
  func withHeldClosures(_ e: SwiftExpression) -> (SwiftExpression, [Int]) {
    guard case .call(let callee, let arguments) = e.kind else { return (e, []) }
    var held: [Int] = []
    let replaced = arguments.map { argument in
      guard case .name(let n) = argument.value.kind, case .closure(let index)? = meaning(of: n)
      else { return argument }
      held.append(index)
      return SwiftArgument(
        label: argument.label,
        value: SwiftExpression(
          kind: .closure(heldClosures[index].closure), location: argument.value.location))
    }
    return (SwiftExpression(kind: .call(callee, replaced), location: e.location), held)
  }

  /// Swift 2's `dispatch_async(queue) { … }` and `dispatch_sync` as today's
  /// `queue.async { … }`, `dispatch_get_main_queue()` as `DispatchQueue.main` and
  /// `dispatch_get_global_queue(…)` as `DispatchQueue.global()`.
  static func modernDispatch(_ e: SwiftExpression) -> SwiftExpression {
    guard case .call(let callee, let arguments) = e.kind, case .name(let f) = callee.kind,
      f == "dispatch_async" || f == "dispatch_sync", let queue = arguments.first?.value
    else { return e }
    func make(_ kind: SwiftExpression.Kind) -> SwiftExpression {
      SwiftExpression(kind: kind, location: e.location)
    }
    var receiver = queue
    if queue.source.hasPrefix("dispatch_get_main_queue") {
      receiver = make(.member(make(.name("DispatchQueue")), "main"))
    } else if queue.source.hasPrefix("dispatch_get_global_queue") {
      receiver = make(.call(make(.member(make(.name("DispatchQueue")), "global")), []))
    }
    let method = f == "dispatch_async" ? "async" : "sync"
    return make(.call(make(.member(receiver, method)), Array(arguments.dropFirst())))
  }

  /// `getResources().map(Resource.init)`, `notes()?.first { … }`: the app's own method
  /// drafted first, its result bound, then what is called on that result.
  mutating func chainedOwnCall(
    _ e: SwiftExpression, _ call: Call, result: String?, at statement: SwiftStatement
  ) -> [JSONValue]? {
    guard var receiver = call.receiver else { return nil }
    if case .optionalChain(let inner) = receiver.kind { receiver = inner }
    guard resolve(receiver) == nil,
      let inner = Call(receiver.unwrapped.expression),
      method(named: inner.method, receiver: inner.receiver, labels: inner.arguments.map(\.label))
        != nil || isContextFetch(inner) || givesObjects(inner),
      let rest = Self.calling(e, on: "_" + inner.method)
    else { return nil }
    let first = expressionSteps(receiver, result: "_" + inner.method, at: statement)
    return first + expressionSteps(rest, result: result, at: statement)
  }

  /// `e`, a method call, made on the name `receiver` instead: `_notes.first { … }` for
  /// `notes()?.first { … }`, once the receiver's value is in that name.
  static func calling(_ e: SwiftExpression, on receiver: String) -> SwiftExpression? {
    guard case .call(let callee, let arguments) = e.kind,
      case .member(let base?, let method) = callee.kind
    else { return nil }
    let named = SwiftExpression(kind: .name(receiver), location: base.location)
    return SwiftExpression(
      kind: .call(
        SwiftExpression(kind: .member(named, method), location: callee.location), arguments),
      location: e.location)
  }

  /// `request?.response?.toDTO()`: a method of an object's relationship, the related
  /// object read into a name first, then the method called on it.
  mutating func relatedObjectCall(
    _ e: SwiftExpression, _ call: Call, result: String?, at statement: SwiftStatement
  ) -> [JSONValue]? {
    guard var receiver = call.receiver else { return nil }
    if case .optionalChain(let inner) = receiver.kind { receiver = inner }
    guard resolve(receiver) == nil, case .member(let base?, let key) = receiver.kind,
      case .object(_, let entity?)? = resolve(base), model.has(key, of: entity),
      model.attributeType(key, of: entity) == nil, let rest = Self.calling(e, on: "_" + key)
    else { return nil }
    let first = expressionSteps(receiver, result: "_" + key, at: statement)
    guard case .object? = meaning(of: "_" + key) else { return nil }
    return first + expressionSteps(rest, result: result, at: statement)
  }

  /// `queries.filter { … }`, `queries.suffix(n)`: some of a list's objects, which the next
  /// call takes (`.forEach { context.delete($0) }`).
  func givesObjects(_ call: Call) -> Bool {
    guard case .objects? = call.receiver.flatMap(resolve) else { return false }
    return Self.sublistMethods.contains(call.method) || ["filter", "sorted"].contains(call.method)
  }

  /// `context.fetch(request)`: a fetch whose list the next call takes (`.map { … }`).
  func isContextFetch(_ call: Call) -> Bool {
    guard call.method == "fetch" || call.method == "executeFetchRequest", !call.first,
      case .context? = call.receiver.flatMap(resolve)
    else { return false }
    return true
  }

  /// `block(context)` or `completion?()` on a held closure: its body, its parameters bound
  /// to the arguments.
  mutating func heldClosureCall(_ e: SwiftExpression, result: String?, at statement: SwiftStatement)
    -> [JSONValue]?
  {
    guard case .call(let callee, let arguments) = e.kind else { return nil }
    var name: String?
    switch callee.kind {
    case .name(let n): name = n
    case .optionalChain(let inner), .forceUnwrap(let inner):
      if case .name(let n) = inner.kind { name = n }
    default: break
    }
    guard let name, case .closure(let index)? = meaning(of: name) else { return nil }
    // A closure that calls itself, or hands itself on, runs without end: not followed.
    guard !runningClosures.contains(index) else { return notModelled(statement) }
    runningClosures.insert(index)
    defer { runningClosures.remove(index) }
    let (closure, written) = (heldClosures[index].closure, heldClosures[index].file)
    return scoped { drafter in
      var out: [JSONValue] = []
      for (index, argument) in arguments.enumerated() {
        // Every argument is computed, whether or not the closure names its parameter.
        // A closure that names none uses `$0`, `$1`…
        let parameter =
          index < closure.parameters.count
          ? closure.parameters[index] : closure.parameters.isEmpty ? "$\(index)" : "_"
        if case .closure(let given) = argument.value.kind {
          // `closure(context) { try context.save() }`
          if parameter != "_" { drafter.holdClosure(given, as: parameter) }
        } else if case .name(let n) = argument.value.kind, drafter.storeSetupNames.contains(n) {
          drafter.storeSetupNames.insert(parameter)  // a coordinator handed on: store setup
        } else if let m = drafter.resolve(argument.value) {
          if parameter != "_" { drafter.bind(parameter, m) }
        } else if let v = drafter.value(of: argument.value) {
          guard parameter != "_" else { continue }
          // `$0` is no name a scenario can bind: `_arg0` holds it.
          let local =
            parameter.hasPrefix("$")
            ? "_arg" + parameter.dropFirst() : drafter.localName(parameter)
          drafter.bind(parameter, .value(local))
          out.append(drafter.step(["let": .string(local), "value": v], at: statement))
        } else {
          // `completion(.success(note.title))`: what computing it reads or does, here.
          out += drafter.argumentSteps(argument.value, at: statement)
          if parameter != "_" { _ = drafter.rememberCase(argument.value, as: parameter) }
        }
      }
      // Its lines are labelled in the file it is written in.
      let saved = drafter.file
      drafter.file = written
      defer { drafter.file = saved }
      return out + drafter.closureSteps(closure, result: result, synchronous: true)
    }
  }

  /// What computing an argument does before the call it is given to: the reads it makes
  /// (`note.title`), and the calls in it, an enum case's payload's and a list's items' too
  /// (`.success(entity.toDomain())`, `[User.createRandom()]`), each drafted into a name of
  /// its own.
  mutating func argumentSteps(_ argument: SwiftExpression, at statement: SwiftStatement)
    -> [JSONValue]
  {
    if let reads = plainReads(in: argument) { return reads.map { readStep($0, at: statement) } }
    switch argument.kind {
    case .call(let callee, let payload):
      if case .member(nil, _) = callee.kind {
        return payload.flatMap { argumentSteps($0.value, at: statement) }
      }
    case .array(let items):
      return items.flatMap { argumentSteps($0, at: statement) }  // `[User.createRandom()]`
    case .tuple(let items):
      return items.flatMap { argumentSteps($0.value, at: statement) }
    default:
      break
    }
    argumentsComputed += 1
    return expressionSteps(
      argument, result: "_argument\(statement.location.line)_\(argumentsComputed)", at: statement)
  }

  /// Binds `name` to `closure`, held to be drafted where it runs, as it was written here.
  ///
  /// `handedOn`: an inlined method's parameter is given it, so it was written by the
  /// method's caller (``caller``), in the scope below the method's two
  /// (``inMethodScopes(_:)``).
  mutating func holdClosure(_ closure: SwiftClosure, as name: String, handedOn: Bool = false) {
    var written = vantage
    var scope = scopeNumbers[scopeNumbers.count - 1]
    if handedOn, let caller, scopeNumbers.count >= 3 {
      (written, scope) = (caller, scopeNumbers[scopeNumbers.count - 3])
    }
    heldClosures.append(HeldClosure(closure: closure, file: file, vantage: written, scope: scope))
    bind(name, .closure(heldClosures.count - 1))
  }

  /// Where the code being drafted is: the type whose method it is, and so on.
  var vantage: Vantage {
    get { Vantage(subject: subject, enclosingType: enclosingType, entity: currentEntity) }
    set {
      (subject, enclosingType, currentEntity) = (
        newValue.subject, newValue.enclosingType, newValue.entity
      )
    }
  }

  /// The held closure `closure` is, when it is one: a closure handed on by name is drafted
  /// from its syntax (``withHeldClosures(_:)``), found again by where it is written.
  func held(_ closure: SwiftClosure) -> HeldClosure? {
    heldClosures.last { held in
      held.closure.file == closure.file && held.closure.body.count == closure.body.count
        && held.closure.body.first?.location == closure.body.first?.location
    }
  }

  /// `closure`'s body drafted where it runs, seeing what it sees where it was written: a
  /// closure written in one type's method and run by another's
  /// (`storage.performBackgroundTask { context in self.limit … }`) sees its own type's
  /// names and `self`, not the method's that runs it. Its parameters keep what the runner
  /// bound them to; what a synchronous one binds is bound where it was written.
  mutating func inWrittenScope(
    _ closure: SwiftClosure, synchronous: Bool, _ work: (inout Drafter) -> [JSONValue]
  ) -> [JSONValue] {
    guard let held = held(closure), let k = scopeNumbers.lastIndex(of: held.scope),
      k < scopes.count - 1
    else { return work(&self) }
    let parameters = closure.parameters + ["$0", "$1", "$2"]
    var given: [String: Meaning] = [:]
    for p in parameters { given[p] = meaning(of: p) }
    let hidden = (Array(scopes[(k + 1)...]), Array(scopeNumbers[(k + 1)...]))
    scopes.removeSubrange((k + 1)...)
    scopeNumbers.removeSubrange((k + 1)...)
    let saved = vantage
    vantage = held.vantage
    pushScope(given)
    let steps = work(&self)
    let bound = popScope()
    if synchronous {
      for (name, m) in bound where !parameters.contains(name) { scopes[k][name] = m }
    }
    vantage = saved
    scopes += hidden.0
    scopeNumbers += hidden.1
    return steps
  }
}

/// A closure held to be drafted where it runs, and where it was written: its file, the
/// type whose method wrote it, and the scope it sees (a number in ``Drafter/scopeNumbers``).
struct HeldClosure {
  var closure: SwiftClosure
  var file: SwiftFile
  var vantage: Vantage
  var scope: Int
}

/// Where drafted code is: the type whose method it is (``Drafter/subject``), the type it is
/// written in, and the entity whose method it is.
struct Vantage {
  var subject: SwiftType?
  var enclosingType: SwiftType?
  var entity: (object: String, entity: String)?
}
