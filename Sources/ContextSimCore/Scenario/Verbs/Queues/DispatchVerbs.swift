/// `{"async": QUEUE, "do": [steps]}` and `sync`: a block onto a dispatch queue; and
/// `{"whenIdle": "main", "do": [steps]}`: a later event the main run loop delivers once the
/// app is idle (a user's tap after earlier work settled).
///
/// An async block or event starts from a copy of the variables when it is enqueued, so what
/// it binds stays inside it; a sync block binds into the scope around it, as a block
/// assigning to an outer `var` does.
struct DispatchVerbs: VerbFamily {
  enum Verb: String, CaseIterable {
    case async, sync, whenIdle
  }

  static func schema(of verb: Verb) -> StepSchema { StepSchema(.string, [.body]) }

  var verb: Verb
  var queue: Field<String>
  var body: Field<[RawStep]>

  func statement(_ step: StepSite, scope: inout StepScope, in decoder: inout ScenarioDecoder)
    -> Statement?
  {
    guard let name = decoder.read(queue) else { return nil }
    if verb == .whenIdle {
      guard name.value == "main" else {
        decoder.fail(
          "only the main run loop delivers events, not \"\(name.value)\"",
          fix: "write \"whenIdle\": \"main\"", at: name.location, path: step.path)
        return nil
      }
      let body = decoder.blockBody(body, step, scope: &scope, synchronous: false, inTask: false)
      return Statement(.whenIdle(body: body), swift: "// later, once the app is idle: an event")
    }
    guard let queue = decoder.queueName(name, path: step.path) else { return nil }
    let body = decoder.blockBody(
      body, step, scope: &scope, synchronous: verb == .sync, inTask: false)
    let swiftQueue =
      switch queue {
      case "main": "DispatchQueue.main"
      case "global": "DispatchQueue.global()"
      default: queue
      }
    switch verb {
    case .async: return Statement(.async(queue: queue, body: body), swift: "\(swiftQueue).async {")
    case .sync: return Statement(.sync(queue: queue, body: body), swift: "\(swiftQueue).sync {")
    case .whenIdle: return nil  // decided above
    }
  }
}

extension DispatchVerbs {
  /// Reads a step's arguments from its JSON; the memberwise initializer builds them directly.
  init(_ verb: Verb, _ arguments: StepArguments) {
    self.verb = verb
    queue = arguments.string(what: "a queue name")
    body = arguments.steps()
  }
}
