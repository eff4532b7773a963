import ContextSimCore
import ContextSimReports

/// `DispatchSemaphore`, as apps use one to wait for a callback: `let s =
/// DispatchSemaphore(value: 0)`, a handler that calls `s.signal()`, then `s.wait()`. When the
/// signal is drafted on the waiting thread's own path before the wait (the store's load
/// handler, which runs at once), the wait goes straight through. A wait for a signal from a
/// block that runs later, or that never comes, blocks the thread in the app; the model has
/// no semaphore, so that wait is a line not modelled, never a wait that passes.
extension Drafter {
  /// What the draft knows of one semaphore: signals not yet taken, and how deep in blocks
  /// that run later it was made.
  struct SemaphoreDraft {
    var count: Int
    var depth: Int
  }

  /// Steps for a semaphore made, signalled or waited on; nil for any other call.
  mutating func semaphoreSteps(_ call: Call, result: String?, at statement: SwiftStatement)
    -> [JSONValue]?
  {
    if call.receiver == nil, call.method == "DispatchSemaphore" {
      guard let result, case .integer(let count)? = call.argument("value").flatMap(literal)?.kind
      else { return nil }
      semaphores[result] = SemaphoreDraft(count: count, depth: asyncDepth)
      return []
    }
    guard case .name(let name)? = call.receiver?.kind, meaning(of: name) == nil,
      var semaphore = semaphores[name]
    else { return nil }
    switch call.method {
    case "signal":
      // A signal from a block that runs later is not one the wait can count on here.
      if semaphore.depth == asyncDepth { semaphore.count += 1 }
      semaphores[name] = semaphore
      return []
    case "wait":
      guard semaphore.count > 0, semaphore.depth == asyncDepth else {
        return notModelled(
          statement, why: "a wait on a semaphore that a later block or another queue signals")
      }
      semaphore.count -= 1
      semaphores[name] = semaphore
      return []
    default:
      return nil
    }
  }
}
