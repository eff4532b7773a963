/// `{"async": QUEUE, "do": [steps]}` and `sync`: a block onto a dispatch queue.
///
/// An async block starts from a copy of the variables when it is enqueued, so what it binds
/// stays inside it; a sync block binds into the scope around it, as a block assigning to an
/// outer `var` does.
struct DispatchVerbs: VerbFamily {
  enum Verb: String, CaseIterable {
    case async, sync
  }

  static func schema(of verb: Verb) -> StepSchema { StepSchema(.string, [.body]) }

  var verb: Verb
  var queue: Field<String>
  var body: Field<[RawStep]>

  func statement(_ step: StepSite, scope: inout StepScope, in decoder: inout ScenarioDecoder)
    -> Statement?
  {
    guard let name = decoder.read(queue), let queue = decoder.queueName(name, path: step.path)
    else { return nil }
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
