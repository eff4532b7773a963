/// `{"perform": CONTEXT, "do": [steps]}`, `performAndWait`, and the async
/// `{"perform": CONTEXT, "await": true, "schedule": …}` inside a Swift task.
///
/// A context's block is plain synchronous code, not a task. `performAndWait` binds into the
/// scope around it; `perform` works on a copy; the awaited perform's bindings are its return
/// value, seen after the `await`.
struct PerformVerbs: VerbFamily {
  enum Verb: String, CaseIterable {
    case perform, performAndWait
  }

  static func schema(of verb: Verb) -> StepSchema {
    switch verb {
    case .perform:
      StepSchema(
        .string,
        [
          .body, .init("await", .boolean),
          .init("schedule", .oneOf(ScheduledTaskType.allCases.map(\.rawValue))),
        ])
    case .performAndWait: StepSchema(.string, [.body])
    }
  }

  var verb: Verb
  var context: Field<String>
  var awaits: Field<Bool>
  var schedule: Field<ScheduledTaskType>
  var body: Field<[RawStep]>

  func statement(_ step: StepSite, scope: inout StepScope, in decoder: inout ScenarioDecoder)
    -> Statement?
  {
    guard let context = decoder.context(context, step, scope: scope) else { return nil }
    if verb == .perform, !awaits.isAbsent || !schedule.isAbsent {
      return awaited(context, step, scope: &scope, in: &decoder)
    }
    let synchronous = verb == .performAndWait
    let body = decoder.blockBody(body, step, scope: &scope, synchronous: synchronous, inTask: false)
    if synchronous {
      return Statement(
        .performAndWait(context: context, body: body), swift: "\(context).performAndWait {")
    }
    return Statement(.perform(context: context, body: body), swift: "\(context).perform {")
  }

  /// `try await context.perform(schedule:) { … }`.
  private func awaited(
    _ context: String, _ step: StepSite, scope: inout StepScope, in decoder: inout ScenarioDecoder
  ) -> Statement? {
    guard decoder.read(awaits)?.value == true else {
      decoder.fail(
        "\"schedule\" belongs to the async perform",
        fix: "add \"await\": true, or remove \"schedule\"", at: step.location, path: step.path)
      return nil
    }
    guard
      decoder.insideTask(
        scope, step, "await is", fix: "put this step inside {\"task\": \"main\", \"do\": [ … ]}")
    else { return nil }
    let schedule = decoder.read(schedule)?.value ?? .immediate
    // The closure is synchronous; what it binds is its return value, seen after the await.
    var inner = scope
    inner.isAsync = false
    let body = decoder.blockBody(body, step, scope: &inner, synchronous: true, inTask: false)
    for (name, type) in inner.bindings where scope.bindings[name] == nil {
      scope.bindings[name] = type
    }
    scope.boundInBlocks.merge(inner.boundInBlocks) { outer, _ in outer }
    return Statement(
      .performAwait(context: context, schedule: schedule, body: body),
      swift: "try await \(context).perform(schedule: .\(schedule.rawValue)) {")
  }
}

extension PerformVerbs {
  /// Reads a step's arguments from its JSON; the memberwise initializer builds them directly.
  init(_ verb: Verb, _ arguments: StepArguments) {
    self.verb = verb
    context = arguments.string(what: "a context name")
    awaits = arguments.bool("await", what: "\"await\"")
    schedule = arguments.choice("schedule", what: "the schedule", as: ScheduledTaskType.self)
    body = arguments.steps()
  }
}
