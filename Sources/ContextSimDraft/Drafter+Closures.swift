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

  /// `getResources().map(Resource.init)`: the app's own method drafted first, its result
  /// bound, then what is called on that result.
  mutating func chainedOwnCall(
    _ e: SwiftExpression, _ call: Call, result: String?, at statement: SwiftStatement
  ) -> [JSONValue]? {
    guard let receiver = call.receiver, resolve(receiver) == nil,
      let inner = Call(receiver.unwrapped.expression),
      method(named: inner.method, receiver: inner.receiver, labels: inner.arguments.map(\.label))
        != nil,
      case .call(let callee, let arguments) = e.kind, case .member(_, let name) = callee.kind
    else { return nil }
    let made = "_" + inner.method
    let first = expressionSteps(receiver, result: made, at: statement)
    let rest = SwiftExpression(
      kind: .call(
        SwiftExpression(
          kind: .member(SwiftExpression(kind: .name(made), location: receiver.location), name),
          location: callee.location), arguments),
      location: e.location)
    return first + expressionSteps(rest, result: result, at: statement)
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
    let (closure, written) = heldClosures[index]
    return scoped { drafter in
      var out: [JSONValue] = []
      for (parameter, argument) in zip(closure.parameters, arguments) where parameter != "_" {
        if drafter.rememberCase(argument.value, as: parameter) { continue }  // `.success(s)`
        if case .closure(let given) = argument.value.kind {
          drafter.holdClosure(given, as: parameter)  // `closure(context) { try context.save() }`
        } else if let m = drafter.resolve(argument.value) {
          drafter.bind(parameter, m)
        } else if let v = drafter.value(of: argument.value) {
          let local = drafter.localName(parameter)
          drafter.bind(parameter, .value(local))
          out.append(drafter.step(["let": .string(local), "value": v], at: statement))
        }
      }
      // Its lines are labelled in the file it is written in.
      let saved = drafter.file
      drafter.file = written
      defer { drafter.file = saved }
      return out + drafter.closureSteps(closure, result: result, synchronous: true)
    }
  }

  /// Binds `name` to `closure`, held to be drafted where it runs.
  mutating func holdClosure(_ closure: SwiftClosure, as name: String) {
    heldClosures.append((closure, file))
    bind(name, .closure(heldClosures.count - 1))
  }
}
