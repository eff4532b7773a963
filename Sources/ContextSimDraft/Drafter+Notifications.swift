import ContextSimCore
import ContextSimReports

/// Notification observers and merges: `addObserver(forName:object:queue:)` with a closure
/// or a selector, `removeObserver`, and `mergeChanges(fromContextDidSave:)`.
extension Drafter {
  /// Core Data's notification names, as Swift spells them, by the scenario's name.
  static let notificationNames: [(String, [String])] = [
    (
      "didSave",
      [
        "NSManagedObjectContextDidSave", "NSManagedObjectContextDidSaveNotification",
        "didSaveObjectsNotification",
      ]
    ),
    (
      "willSave",
      [
        "NSManagedObjectContextWillSave", "NSManagedObjectContextWillSaveNotification",
        "willSaveObjectsNotification",
      ]
    ),
    ("didSaveObjectIDs", ["didSaveObjectIDsNotification"]),
    (
      "objectsDidChange",
      [
        "NSManagedObjectContextObjectsDidChange",
        "NSManagedObjectContextObjectsDidChangeNotification", "didChangeObjectsNotification",
      ]
    ),
    ("remoteChange", ["NSPersistentStoreRemoteChange"]),
  ]

  static func notificationName(_ e: SwiftExpression?) -> String? {
    guard let text = e?.source else { return nil }
    return notificationNames.first { _, spellings in
      spellings.contains { text.hasSuffix($0) }
    }?.0
  }

  /// The method a selector names: `#selector(didSave(_:))`, `#selector(Stack.didSave)`,
  /// Swift 2's `Selector("didSave:")`, or a local bound to one.
  func selectorMethod(_ e: SwiftExpression) -> String? {
    if case .name(let n) = e.kind { return selectors[n] }
    if let call = Call(e), call.method == "Selector", call.receiver == nil,
      case .string(let text, _)? = call.arguments.first?.value.kind
    {
      return String(text.prefix { $0 != ":" })
    }
    guard e.source.hasPrefix("#selector(") else { return nil }
    let inside = e.source.dropFirst("#selector(".count).prefix { $0 != "(" && $0 != ")" }
    return inside.split(separator: ".").last.map(String.init)
  }

  /// Notifications of the store's coordinator and of iCloud imports, which the model never
  /// posts: it adds and removes no store while the app runs.
  static func isUnpostedNotification(_ text: String) -> Bool {
    ["StoresWillChange", "StoresDidChange", "WillRemoveStore", "DidImportUbiquitousContentChanges"]
      .contains { text.contains($0) }
  }

  func isNotificationCenter(_ call: Call) -> Bool {
    guard let receiver = call.receiver else { return false }
    if case .name(let n) = receiver.kind, notificationCenters.contains(n) { return true }
    return Self.isNotificationCenter(receiver)
  }

  /// `NotificationCenter.default`, or Swift 2's `NSNotificationCenter.defaultCenter()`.
  static func isNotificationCenter(_ e: SwiftExpression) -> Bool {
    e.source.hasSuffix("NotificationCenter.default")
      || e.source.hasSuffix("NSNotificationCenter.defaultCenter()")
  }

  /// `NotificationCenter.default.addObserver(…)`, `removeObserver(token)`.
  mutating func notificationSteps(_ call: Call, result: String?, at statement: SwiftStatement)
    -> [JSONValue]?
  {
    guard isNotificationCenter(call) else { return nil }
    switch call.method {
    case "addObserver", "addObserverForName":  // Swift 2: `addObserverForName(n, object:…)`
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
    let named =
      call.argument("forName") ?? call.argument("name")
      ?? (call.method == "addObserverForName" ? call.arguments.first?.value : nil)
    var local: String?
    if case .name(let n)? = named?.kind { local = notificationNames[n] }
    if local == "" || local == nil && named.map({ Self.isUnpostedNotification($0.source) }) == true
    {
      // A store's coordinator or iCloud import: the model never posts it, so its observer
      // never runs (docs/draft.md).
      return []
    }
    guard let name = local ?? Self.notificationName(named) else { return nil }
    var context: JSONValue?
    if let object = call.argument("object"), case .context(let c)? = resolve(object) {
      context = .string(c)
    }
    let queue: JSONValue? = call.argument("queue").flatMap(operationQueue).map { .string($0) }
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
    } else if let method = call.argument("selector").flatMap(selectorMethod),
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

  /// `OperationQueue.main` (Swift 2's `NSOperationQueue.mainQueue()`), a name given it, or
  /// `flag ? OperationQueue.main : …` of a parameter given `true`: the main queue; nil for
  /// any other (an observer without one runs on the posting thread).
  func operationQueue(_ e: SwiftExpression) -> String? {
    switch e.unwrapped.expression.kind {
    case .name(let n):
      if case .queue("main")? = meaning(of: n) { return "main" }
    case .ternary(let condition, let then, let otherwise):
      var truth = staticTruth(condition)
      if truth == nil, case .name(let n) = condition.kind, case .value(let v)? = meaning(of: n),
        case .bool(let b)? = literals[v]?.kind
      {
        truth = b  // a parameter's literal: it holds the whole call
      }
      return truth.flatMap { operationQueue($0 ? then : otherwise) }
    default:
      let text = e.source
      if text.hasSuffix("OperationQueue.main") || text.hasSuffix("OperationQueue.mainQueue()") {
        return "main"
      }
    }
    return nil
  }

  /// `context.mergeChanges(fromContextDidSave: notification)`.
  mutating func mergeSteps(_ call: Call, into context: String, at statement: SwiftStatement)
    -> [JSONValue]?
  {
    // Swift 2's `mergeChangesFromContextDidSaveNotification(n)` has no label.
    guard let argument = call.argument("fromContextDidSave") ?? call.arguments.first?.value,
      case .notification(let name)? = resolve(argument)
    else { return nil }
    return [step(["mergeChanges": .string("$" + name), "into": .string(context)], at: statement)]
  }
}
