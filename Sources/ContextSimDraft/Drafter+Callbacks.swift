import ContextSimCore
import ContextSimReports

/// Completion handlers of code the files do not declare, a network layer above all:
/// `URLSession.shared.dataTask(with: url) { data, response, error in … }`,
/// `manager.GET(url, success: { … }, failure: { … })`. The call returns at once; one of its
/// closures runs later. Which one, and on which queue, the library decides, so ctxsim drafts
/// every way as paths (``Draft/paths(_:options:limit:)``): success or failure, and the main
/// queue or a background one, except `URLSession`'s, whose handlers run on the session's
/// delegate queue, a background one. The closures' parameters are stand-ins.
extension Drafter {
  /// Closure labels that say a library calls back.
  static let callbackLabels: Set<String> = [
    "success", "failure", "completion", "completionHandler", "handler", "onSuccess",
    "onFailure", "onError", "onCompletion", "onComplete", "callback", "resultHandler",
    "reply", "then",
  ]

  /// The steps of a call whose closures are a library's callbacks, or nil when it is not one:
  /// a method no file declares, on a receiver the draft does not follow (not a context,
  /// object or app instance), given closures labelled as callbacks or a trailing closure to
  /// a `URLSession` task.
  mutating func callbackSteps(_ call: Call, result: String?, at statement: SwiftStatement)
    -> [JSONValue]?
  {
    if call.method == "resume", call.arguments.isEmpty,
      let task = call.receiver.flatMap({ Call($0.unwrapped.expression) })
    {
      return callbackSteps(task, result: result, at: statement)  // `dataTask(…) { … }.resume()`
    }
    guard options.decidesValues, let receiver = call.receiver,
      Self.mayCallBack(resolve(receiver)),
      method(named: call.method, receiver: call.receiver) == nil
    else { return nil }
    let isSession =
      receiver.source.contains("URLSession")
      || ["dataTask", "downloadTask", "uploadTask"].contains(call.method)
    let callbacks = call.arguments.filter { argument in
      guard case .closure = argument.value.kind else { return false }
      if let label = argument.label { return Self.callbackLabels.contains(label) }
      return isSession  // `dataTask(with: url) { data, response, error in … }`
    }
    guard !callbacks.isEmpty,
      call.arguments.allSatisfy({ a in
        if case .closure = a.value.kind { return true }
        return plainReads(in: a.value) != nil
      })
    else { return nil }
    // Which closure runs: with two or more, the first (success) on one path, the others on
    // the next.
    var chosen = callbacks[0]
    if callbacks.count > 1 {
      let what = "\(call.method)(…) calls `\(callbacks[0].label ?? "its closure")`"
      if !choose(what, at: statement, suffix: "callback") { chosen = callbacks[1] }
    }
    let onMain =
      !isSession && choose("\(call.method)(…) calls back on main", at: statement, suffix: "queue")
    guard case .closure(let closure) = chosen.value.kind else { return nil }
    let body = onThread(main: onMain) { drafter in
      drafter.scoped { inner in
        // What the library passes: stand-ins.
        var steps: [JSONValue] = []
        for parameter in closure.parameters where parameter != "_" {
          steps.append(
            inner.standInValue(
              parameter, what: "what \(call.method) passes its closure", at: statement))
        }
        return steps + inner.closureSteps(closure, result: nil)
      }
    }
    var steps = [
      step(["async": .string(onMain ? "main" : "global"), "do": .array(body)], at: statement)
    ]
    if let result {
      // `let task = manager.GET(…)`: what the call gives, a stand-in.
      steps.insert(standInValue(result, what: "what \(call.method) gives", at: statement), at: 0)
    }
    return steps
  }

  /// Whether a receiver the draft knows as this may be a library's that calls back: one it
  /// does not follow, a network client, or a stand-in for what a line not modelled gave.
  static func mayCallBack(_ receiver: Meaning?) -> Bool {
    switch receiver {
    case nil, .networkClient?, .value?: true
    default: false
    }
  }

  /// Getters of a type's one shared instance: `MageSessionManager.shared()`, `Session.default`.
  static let sharedGetters: Set<String> = [
    "shared", "sharedInstance", "sharedManager", "sharedClient", "sharedSession", "default",
    "instance",
  ]

  /// Whether `e` makes or gets a network library's client, of a type no file declares:
  /// `AFHTTPSessionManager()`, `MageSessionManager.shared()`, `URLSession.shared`,
  /// `Session.default`.
  func isNetworkClient(_ e: SwiftExpression) -> Bool {
    let type: SwiftExpression
    switch e.kind {
    case .call(let callee, let arguments):
      if case .name = callee.kind {
        type = callee
      } else if case .member(let base?, let getter) = callee.kind, arguments.isEmpty,
        Self.sharedGetters.contains(getter)
      {
        type = base
      } else {
        return false
      }
    case .member(let base?, let getter) where Self.sharedGetters.contains(getter):
      type = base
    default:
      return false
    }
    guard case .name(let name) = type.kind, meaning(of: name) == nil else { return false }
    return Self.isNetworkType(name) && !files.contains { $0.types.contains { $0.name == name } }
  }

  /// A type's name that says it talks to a server and nothing of storage:
  /// `AFHTTPSessionManager`, `MageSessionManager`, `APIClient`; not `SyncSessionStore`.
  static func isNetworkType(_ name: String) -> Bool {
    let network = ["Session", "HTTP", "Http", "Network", "API", "Api", "Alamofire"]
    let storage = [
      "Store", "Persist", "CoreData", "Context", "Database", "Cache", "Storage", "Repository",
      "Stack", "Container", "Record", "Sync", "Managed",
    ]
    return name.first?.isUppercase == true && network.contains { name.contains($0) }
      && !storage.contains { name.contains($0) }
  }
}
