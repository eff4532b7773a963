/// `{"observe": NAME, "object": CONTEXT, "queue": QUEUE, "as": VAR, "token": VAR, "do": [steps]}`,
/// `{"removeObserver": "$token"}` and `{"mergeChanges": "$notification", "into": CONTEXT}`:
/// observing a context's notifications, and merging a did-save into another context.
///
/// The observer's body is an escaping closure: it captures what is bound when it is added,
/// sees the notification under `as`, and what it binds stays inside it. Without `queue` it
/// runs on the posting thread, as a selector observer or `queue: nil` does (semantics-2 §2).
struct NotificationVerbs: VerbFamily {
  enum Verb: String, CaseIterable {
    case observe, removeObserver, mergeChanges
  }

  static func schema(of verb: Verb) -> StepSchema {
    switch verb {
    case .observe:
      StepSchema(
        .oneOf(NotificationName.allCases.map(\.rawValue)),
        [
          .init("object", .string), .init("queue", .string), .init("as", .string, required: true),
          .init("token", .string), .body,
        ])
    case .removeObserver: StepSchema(.string)
    case .mergeChanges: StepSchema(.string, [.init("into", .string, required: true)])
    }
  }

  var verb: Verb
  var name: Field<NotificationName>
  var argument: Field<String>
  var object: Field<String>
  var queue: Field<String>
  var bind: Field<String>
  var token: Field<String>
  var into: Field<String>
  var body: Field<[RawStep]>

  func statement(_ step: StepSite, scope: inout StepScope, in decoder: inout ScenarioDecoder)
    -> Statement?
  {
    switch verb {
    case .observe: return observe(step, scope: &scope, in: &decoder)
    case .removeObserver:
      guard let token = typed(argument, .observer, "an observer token", step, scope, &decoder)
      else { return nil }
      return Statement(
        .removeObserver(token: token), swift: "NotificationCenter.default.removeObserver(\(token))")
    case .mergeChanges:
      guard
        let notification = typed(
          argument, .notification, "a notification or a history transaction", step, scope,
          &decoder),
        let context = decoder.required(into, "into", step, what: "the context that merges")
          .flatMap({ decoder.contextName($0, path: step.path, scope: scope) })
      else { return nil }
      // A history transaction merges as the did-save its objectIDNotification() makes.
      let argument =
        scope.bindings[notification] == .transaction
        ? "\(notification).objectIDNotification()" : notification
      return Statement(
        .mergeChanges(notification: notification, into: context),
        swift: "\(context).mergeChanges(fromContextDidSave: \(argument))")
    }
  }

  private func observe(
    _ step: StepSite, scope: inout StepScope, in decoder: inout ScenarioDecoder
  ) -> Statement? {
    guard let name = decoder.read(self.name)?.value else { return nil }
    if name == .remoteChange, let object = decoder.read(object) {
      decoder.fail(
        "a remote-change notification's object is the persistent store coordinator, not a context",
        fix: "drop \"object\": every store write reaches the observer", at: object.location,
        path: step.path)
      return nil
    }
    let object = decoder.read(object).flatMap {
      decoder.contextName($0, path: step.path, scope: scope)
    }
    let queue = decoder.read(queue).flatMap { decoder.queueName($0, path: step.path) }
    if let queue, !decoder.isSerialQueue(queue) {
      decoder.fail(
        "an observer's queue must be serial: \"\(queue)\" is concurrent",
        fix: "use \"main\" or a serial queue declared in \"queues\"", at: step.location,
        path: step.path)
      return nil
    }
    guard !bind.isAbsent else {
      decoder.fail(
        "\"observe\" needs \"as\": the name the body calls the notification",
        fix: "add \"as\": \"notification\"", at: step.location, path: step.path)
      return nil
    }
    // The token is bound before the body, so the body can remove its own observer.
    let token = token.isAbsent ? nil : decoder.binding(token, .observer, step, scope: &scope)
    var inner = scope
    let type: BindingType = name == .remoteChange ? .remoteChangeNotification : .notification
    guard let bind = decoder.binding(bind, type, step, scope: &inner) else { return nil }
    let body = decoder.blockBody(self.body, step, scope: &inner, synchronous: false)
    for (name, location) in inner.boundInBlocks where scope.bindings[name] == nil {
      scope.boundInBlocks[name] = scope.boundInBlocks[name] ?? location
    }
    let queueSwift = queue.map { $0 == "main" ? ".main" : "\($0)OperationQueue" } ?? "nil"
    return Statement(
      .observe(name, object: object, queue: queue, bind: bind, token: token, body: body),
      swift: "\(SwiftSource.assign(token))NotificationCenter.default.addObserver(forName: "
        + "\(name.swift), object: \(object ?? "nil"), queue: \(queueSwift)) { \(bind) in")
  }

  /// A variable that must hold a value of one kind: a token, a notification.
  private func typed(
    _ field: Field<String>, _ type: BindingType, _ what: String, _ step: StepSite,
    _ scope: StepScope, _ decoder: inout ScenarioDecoder
  ) -> String? {
    guard let text = decoder.read(field),
      let name = decoder.variableName(text, path: step.path, scope: scope)
    else { return nil }
    if type == .notification && scope.bindings[name] == .remoteChangeNotification {
      decoder.fail(
        "\"\(name)\" is a remote-change notification, which carries no changes to merge",
        fix: "fetch the history after its token on a background context, and merge each "
          + "transaction: {\"mergeChanges\": \"$tx\", \"into\": …}", at: text.location,
        path: step.path)
      return nil
    }
    // A history transaction merges as its objectIDNotification() (semantics-2 §6.4).
    let accepted =
      scope.bindings[name] == type
      || (type == .notification && scope.bindings[name] == .transaction)
    guard accepted else {
      decoder.fail(
        "\"\(name)\" does not hold \(what)",
        fix: type == .observer
          ? "bind the token with \"token\" on the observe step"
          : "use the name an observe step's \"as\" gives the notification, or a history transaction",
        at: text.location, path: step.path)
      return nil
    }
    return name
  }
}

extension NotificationVerbs {
  /// Reads a step's arguments from its JSON; the memberwise initializer builds them directly.
  init(_ verb: Verb, _ arguments: StepArguments) {
    self.verb = verb
    name =
      verb == .observe
      ? arguments.choice(what: "a notification", as: NotificationName.self) : .absent
    argument = verb == .observe ? .absent : arguments.string(what: "a variable")
    object = arguments.string("object", what: "a context name")
    queue = arguments.string("queue", what: "a queue name")
    bind = arguments.string("as", what: "\"as\"")
    token = arguments.string("token", what: "\"token\"")
    into = arguments.string("into", what: "a context name")
    body = arguments.steps()
  }
}
