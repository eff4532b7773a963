/// Notification observers and merges: `addObserver(forName:object:queue:)` with a closure
/// or a selector, `removeObserver`, and `mergeChanges(fromContextDidSave:)`.
extension Drafter {
  /// Core Data's notification names, as Swift spells them, by the scenario's name.
  static let notificationNames: [(String, [String])] = [
    ("didSave", ["NSManagedObjectContextDidSave", "didSaveObjectsNotification"]),
    ("willSave", ["NSManagedObjectContextWillSave", "willSaveObjectsNotification"]),
    ("didSaveObjectIDs", ["didSaveObjectIDsNotification"]),
    (
      "objectsDidChange",
      ["NSManagedObjectContextObjectsDidChange", "didChangeObjectsNotification"]
    ),
    ("remoteChange", ["NSPersistentStoreRemoteChange"]),
  ]

  static func notificationName(_ e: SwiftExpression?) -> String? {
    guard let text = e?.source else { return nil }
    return notificationNames.first { _, spellings in
      spellings.contains { text.hasSuffix($0) }
    }?.0
  }

  static func isNotificationCenter(_ call: Call) -> Bool {
    call.receiver?.source.hasSuffix("NotificationCenter.default") == true
  }

  /// `NotificationCenter.default.addObserver(…)`, `removeObserver(token)`.
  mutating func notificationSteps(_ call: Call, result: String?, at statement: SwiftStatement)
    -> [JSONValue]?
  {
    guard Self.isNotificationCenter(call) else { return nil }
    switch call.method {
    case "addObserver":
      return observe(call, result: result, at: statement)
    case "removeObserver":
      guard let token = call.arguments.first.flatMap({ value(of: $0.value) }) else { return nil }
      return [step(["removeObserver": token], at: statement)]
    default:
      return nil
    }
  }

  private mutating func observe(_ call: Call, result: String?, at statement: SwiftStatement)
    -> [JSONValue]?
  {
    guard let name = Self.notificationName(call.argument("forName") ?? call.argument("name"))
    else { return nil }
    var context: JSONValue?
    if let object = call.argument("object"), case .context(let c)? = resolve(object) {
      context = .string(c)
    }
    let queueText = call.argument("queue")?.source ?? "nil"
    let queue: JSONValue? = queueText.hasSuffix("main") ? .string("main") : nil
    let body: [JSONValue]
    let parameter: String
    if let closure = call.closure {
      parameter = closure.parameters.first.map { $0 == "_" ? "notification" : $0 } ?? "notification"
      // Without a queue the body runs on the posting thread, whichever that is.
      body = onThread(main: queue == nil ? nil : true) { outer in
        outer.scoped { drafter in
          drafter.bind(parameter, .notification(parameter))
          return drafter.closureSteps(closure, result: nil)
        }
      }
    } else if case .other(let selector)? = call.argument("selector")?.kind,
      let method = selector.split(separator: "(").dropFirst().first.map(String.init),
      let (type, function) = self.method(named: method, receiver: nil)
    {
      parameter = function.parameters.first?.name ?? "notification"
      let saved = subject
      subject = type ?? subject
      defer { subject = saved }
      body = onThread(main: nil) { outer in
        outer.scoped { drafter in
          drafter.bind(parameter, .notification(parameter))
          return drafter.steps(function.body ?? [])
        }
      }
    } else {
      return nil
    }
    if let result { bind(result, .value(result)) }
    return [
      step(
        [
          "observe": .string(name), "object": context, "queue": queue, "as": .string(parameter),
          "token": result.map { .string($0) }, "do": .array(body),
        ], at: statement)
    ]
  }

  /// `context.mergeChanges(fromContextDidSave: notification)`.
  mutating func mergeSteps(_ call: Call, into context: String, at statement: SwiftStatement)
    -> [JSONValue]?
  {
    guard let argument = call.argument("fromContextDidSave"),
      case .notification(let name)? = resolve(argument)
    else { return nil }
    return [step(["mergeChanges": .string("$" + name), "into": .string(context)], at: statement)]
  }
}
