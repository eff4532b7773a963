import ContextSimCore
import ContextSimReports

/// Task groups: `withTaskGroup { group in for x in xs { group.addTask { … } }; for await r in
/// group { … } }` is one `taskGroup` step with a child per element and a `then` per result.
extension Drafter {
  mutating func taskGroupSteps(_ closure: SwiftClosure, at statement: SwiftStatement)
    -> [JSONValue]?
  {
    var adding: (element: String, sequence: SwiftExpression, child: SwiftClosure)?
    var results: (pattern: SwiftPattern, body: [SwiftStatement])?
    var before: [SwiftStatement] = []
    for s in closure.body {
      guard case .forIn(let pattern, let sequence, let body) = s.kind else {
        if adding == nil { before.append(s) }
        continue
      }
      if case .name(let element) = pattern, body.count == 1, case .expression(let e) = body[0].kind,
        let call = Call(e), call.method == "addTask", let child = call.closure
      {
        adding = (element, sequence, child)
      } else if let group = closure.parameters.first, case .name(group) = sequence.kind {
        results = (pattern, body)
      }
    }
    guard let adding, let results, let list = value(of: adding.sequence) else { return nil }
    let head = steps(before)
    return scoped { drafter in
      drafter.bind(adding.element, .value(adding.element))
      let child = drafter.onThread(main: false) {
        $0.childSteps(adding.child, binding: results.pattern, element: adding.element)
      }
      let then = drafter.scoped { inner in
        for name in results.pattern.names where inner.meaning(of: name) == nil {
          inner.bind(name, .value(name))
        }
        return inner.steps(results.body)
      }
      return head + [
        drafter.step(
          [
            "taskGroup": list, "as": .string(adding.element), "child": .array(child),
            "then": .array(then),
          ],
          at: statement)
      ]
    }
  }

  /// `try await Task.detached { … }.value`: the block runs off the main actor while the
  /// caller awaits it, as a task group of one child does; its result is stood in.
  mutating func awaitedTaskValue(
    _ e: SwiftExpression, result: String?, at statement: SwiftStatement
  )
    -> [JSONValue]?
  {
    guard case .member(let base?, "value") = e.kind, let call = Call(base),
      call.method == "detached" && call.receiver?.source == "Task"
        || call.method == "Task" && call.receiver == nil,
      let closure = call.closure, !closure.attributes.contains("@MainActor")
    else { return nil }
    let child = onThread(main: false) { $0.closureSteps(closure, result: nil) }
    var steps = [
      step(
        [
          "taskGroup": .array([.integer(1)]), "as": .string("_task"), "child": .array(child),
          "then": .array([]),
        ], at: statement)
    ]
    if let result {
      steps.append(
        standInValue(result, what: "the task's value, computed in the task", at: statement))
    }
    return steps
  }

  /// A child task's steps: its result, element by element, bound to the names the `for await`
  /// takes them as.
  private mutating func childSteps(
    _ child: SwiftClosure, binding pattern: SwiftPattern, element: String
  )
    -> [JSONValue]
  {
    guard child.body.count == 1, case .expression(let e) = child.body[0].kind else {
      return steps(child.body)
    }
    var out: [JSONValue] = []
    switch (pattern, e.kind) {
    case (.tuple(let names), .tuple(let items)) where names.count == items.count:
      for (name, item) in zip(names, items.map(\.value)) {
        guard case .name(let n) = name else { continue }
        if case .name(n) = item.kind { continue }  // the element itself
        out += expressionSteps(item, result: n, at: child.body[0])
        bind(n, .value(n))
      }
    case (.name(let n), _):
      out += expressionSteps(e, result: n, at: child.body[0])
    default:
      out += steps(child.body)
    }
    return out
  }

  /// A run of `async let`s: child tasks that compute their values at once, off the main
  /// actor. They are one `taskGroup` with a child per name, whose steps, in a one-turn
  /// `forEach`, run only for their own name (`when`). The code after the run waits for every child there, where Swift
  /// waits for each at its `await`: docs/draft.md states the simplification.
  mutating func asyncLetSteps(_ lets: [SwiftStatement]) -> [JSONValue] {
    var names: [String] = []
    var bound: [String] = []
    var child: [JSONValue] = []
    onThread(main: false) { drafter in
      drafter.scoped { inner in
        for statement in lets {
          guard case .asyncLet(let pattern, let value) = statement.kind else { continue }
          let name = pattern.names.first ?? "_"
          names.append(name)
          bound += pattern.names
          // One block per name, run only in that name's child: a step keeps the condition
          // it has of its own (`guard let` in a method it calls).
          let own = Test(variable: "_asyncLet", value: .string(name), holdsWhenEqual: true)
          let steps = inner.expressionSteps(value, result: name, at: statement)
          let block = inner.step(
            ["forEach": .array([.string(name)]), "as": .string("_value"), "do": .array(steps)],
            at: statement)
          child.append(inner.when(block, own, holds: true))
        }
      }
    }
    for name in bound { bind(name, .value(name)) }
    return [
      step(
        [
          "taskGroup": .array(names.map(JSONValue.string)), "as": .string("_asyncLet"),
          "child": .array(child), "then": .array([]),
        ],
        at: lets[0])
    ]
  }
}
