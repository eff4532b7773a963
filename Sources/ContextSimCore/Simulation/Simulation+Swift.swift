/// Plain Swift steps: shared properties, `print`, and `expect` assertions.
extension Simulation {
  /// `let name = value`: a local of the current frame.
  mutating func runLetValue(name: String, value: Expression) {
    let bound = evaluate(value)
    program.scopes[scope, name] = bound
    record(.bound(name: name, value: shown(bound)))
  }

  /// A read of a shared property, seen by the race detector.
  mutating func runRead(variable name: String, bind: String?) {
    accessVar(name, write: false)
    let value = program.sharedVars[name] ?? .null
    record(.varRead(name: name, value: value))
    bind.map { program.scopes[scope, $0] = value }
  }

  /// A write of a shared property, seen by the race detector.
  mutating func runWrite(variable name: String, value expression: Expression) {
    let value = evaluate(expression)
    accessVar(name, write: true)
    program.sharedVars[name] = value
    record(.varWritten(name: name, value: value))
  }

  /// `print(…)`: reads the shared properties it names.
  mutating func runPrint(_ parts: [TemplatePart]) {
    // The text is made only for a trace that keeps it; a shared var it reads is still read.
    var text = ""
    for part in parts {
      switch part {
      case .text(let words):
        if options.recordsEvents { text += words }
      case .variable(let name):
        let value = value(of: name)
        if options.recordsEvents { text += describe(value) }
      }
    }
    record(.printed(text))
  }

  /// A line of drafted Swift ctxsim could not model: the run can no longer say clean.
  mutating func runNotModelled(why: String) {
    if !trace.unmodelled.contains(where: { $0.stepIndex == now.index }) {
      trace.unmodelled.append(site)
    }
    record(.notModelled(why: why))
  }

  /// The value of an expression on the current thread: locals first, then shared vars.
  mutating func evaluate(_ expression: Expression) -> Value {
    switch expression {
    case .literal(let value): value
    case .variable(let name): value(of: name)
    case .list(let items): .list(items.map { evaluate($0) })
    }
  }

  /// A variable's value: a binding in scope, or else a shared var.
  mutating func value(of variable: String) -> Value {
    if let local = program.scopes[scope, variable] { local } else { readShared(variable) }
  }

  /// A shared var read through `$name`: a read the race checker sees.
  private mutating func readShared(_ name: String) -> Value {
    guard let value = program.sharedVars[name] else { return .null }
    accessVar(name, write: false)
    return value
  }

  /// What a `forEach` or a task group runs over: a list's items, nothing for nil, or else
  /// the one value.
  mutating func elements(of sequence: Expression) -> [Value] {
    switch evaluate(sequence) {
    case .list(let items): items
    case .null: []
    case let single: [single]
    }
  }

  mutating func evaluate(_ pairs: [(key: String, value: Expression)]) -> [(String, Value)] {
    pairs.map { ($0.key, evaluate($0.value)) }
  }

  /// A predicate's operands evaluated once, in the order written, on the current thread;
  /// an object operand becomes its ID, as rows hold relationships.
  mutating func evaluate(_ predicate: Predicate<Expression>) -> Predicate<Value> {
    predicate.map { graph.idForm(evaluate($0)) }
  }

  /// A value as `print` shows it. Objects print their entity and ID without touching their
  /// data, so printing never trips the queue check.
  func describe(_ value: Value) -> String {
    switch value {
    case .object(let ref): "\(graph[ref].entity) \(graph[ref].id)"
    case .objectID(let id): uri(id)
    case .list(let items): "[" + items.map { describe($0) }.joined(separator: ", ") + "]"
    case .context(let c): graph.contexts[c].name
    case .notification(let n):
      "\(center.posted[n].name.rawValue) from \(graph.contexts[center.posted[n].context].name)"
    case .transaction(let token): "transaction \(token)"
    default: value.plainDescription
    }
  }

  /// An `expect` step looks at what the app can see now, as a test would; it is an
  /// observation, not app code, so it is not held to the queue rule.
  mutating func check(_ assertion: Assertion) {
    if case .count(_, let context, _) = assertion {
      touch(.context(contextIndex(context)), write: false)
    }
    // What was seen; nil when the expectation held. The descriptions are built only when
    // shown: exploration runs this on every schedule without recording it.
    let actual: String?
    // Whether a `.value` expectation read a key of an object, which its description names.
    var readKey = false
    switch assertion {
    case .count(let request, let context, let bound):
      let predicate = evaluate(request.predicate)
      let n = matchingIDs(request.entity, in: contextIndex(context), where: predicate).count
      actual = bound.holds(n) ? nil : "\(n)"
    case .relationshipCount(let variable, let key, let bound):
      var n = 0
      if case .object(let ref) = value(of: variable), fireFault(ref) {
        n = members(graph[ref].value(key)).count
      }
      actual = bound.holds(n) ? nil : "\(n)"
    case .value(let variable, let key, let equals):
      var value = self.value(of: variable)
      if let key, case .object(let ref) = value {
        fireFault(ref)
        value = shown(graph[ref].value(key))
        readKey = true
      } else if key != nil {
        value = .null
      }
      actual = value.matches(equals) ? nil : value.swiftDescription
    }
    guard let actual else {
      if options.recordsEvents {
        record(.expectationHeld(Self.expected(assertion, readKey: readKey)))
      }
      return
    }
    record(.expectationFailed)
    report(.expectationFailed(expected: Self.expected(assertion, readKey: readKey), actual: actual))
  }

  /// What an `expect` step expects, as its report says it.
  private static func expected(_ assertion: Assertion, readKey: Bool) -> String {
    switch assertion {
    case .count(let request, let context, let bound):
      let filter = request.predicate.description
      return
        "\(bound.description) \(request.entity)\(filter.isEmpty ? "" : " where " + filter) in \(context)"
    case .relationshipCount(let variable, let key, let bound):
      return "\(variable).\(key) to hold \(bound.description)"
    case .value(let variable, let key, let equals):
      let subject = readKey ? "\(variable).\(key ?? "")" : variable
      return "\(subject) == \(equals.swiftDescription)"
    }
  }
}
