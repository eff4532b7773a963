/// `{"task": "main"|"detached", "do": [steps]}` and
/// `{"taskGroup": SEQUENCE, "as": NAME, "child": [steps], "then": [steps]}`: Swift tasks.
///
/// Steps inside a task may `await`; a task's bindings stay inside it. A task group runs a
/// child task per element, then `then` on the parent's executor for each finished child.
struct TaskVerbs: VerbFamily {
  enum Verb: String, CaseIterable {
    case task, taskGroup
  }

  static func schema(of verb: Verb) -> StepSchema {
    switch verb {
    case .task: StepSchema(.oneOf(TaskExecutor.allCases.map(\.rawValue)), [.body])
    case .taskGroup:
      StepSchema(
        .types(["array", "string"]),
        [
          .init("as", .string, required: true),
          .init("child", .definition("steps"), required: true),
          .init("then", .definition("steps"), required: true),
        ])
    }
  }

  var verb: Verb
  var executor: Field<TaskExecutor>
  var sequence: JSONValue
  var bind: Field<String>
  var body: Field<[RawStep]>
  var child: Field<[RawStep]>
  var then: Field<[RawStep]>

  func statement(_ step: StepSite, scope: inout StepScope, in decoder: inout ScenarioDecoder)
    -> Statement?
  {
    switch verb {
    case .task:
      guard let executor = decoder.read(executor)?.value else { return nil }
      let body = decoder.blockBody(body, step, scope: &scope, synchronous: false, inTask: true)
      return Statement(
        .task(executor, body: body),
        swift: executor == .main ? "Task { @MainActor in" : "Task.detached {")
    case .taskGroup:
      return group(step, scope: scope, in: &decoder)
    }
  }

  /// `await withTaskGroup { group in for x in sequence { group.addTask { … } } … }`.
  private func group(_ step: StepSite, scope: StepScope, in decoder: inout ScenarioDecoder)
    -> Statement?
  {
    guard
      decoder.insideTask(
        scope, step, "a task group is", fix: "put it inside {\"task\": \"main\", \"do\": [ … ]}")
    else { return nil }
    guard
      let sequence = decoder.expression(sequence, path: step.path, scope: scope, attribute: nil),
      let bind = decoder.required(
        bind, "as", step, what: "the name each child gets its element as")?.value
    else { return nil }
    var child = scope
    child.bindings[bind] = .unknown
    let childSteps = decoder.blockBody(
      self.child, key: "child", step, scope: &child, synchronous: true)
    var then = child
    then.isAsync = true
    let thenSteps = decoder.blockBody(
      self.then, key: "then", step, scope: &then, synchronous: false)
    return Statement(
      .taskGroup(sequence: sequence, bind: bind, child: childSteps, then: thenSteps),
      swift: "await withTaskGroup { group in for \(bind) in \(sequence.swift) { group.addTask {")
  }
}

extension TaskVerbs {
  /// Reads a step's arguments from its JSON; the memberwise initializer builds them directly.
  init(_ verb: Verb, _ arguments: StepArguments) {
    self.verb = verb
    executor = arguments.choice(what: "the task's executor", as: TaskExecutor.self)
    sequence = arguments.verbValue
    bind = arguments.string("as", what: "\"as\"")
    body = arguments.steps()
    child = arguments.steps("child")
    then = arguments.steps("then")
  }
}
