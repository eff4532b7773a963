extension Violation {
  /// What went wrong, in one line.
  public var headline: String {
    switch detail {
    case .wrongQueue(let w):
      switch w.subject {
      case .context(let name):
        return "context \(name) (queue \(w.ownerQueue)) touched from \(w.touchingQueue)"
      case .object(let id, let context):
        return "\(id) (context \(context), queue \(w.ownerQueue)) used on \(w.touchingQueue)"
      }
    case .deadlock(let blocked):
      return blocked.map { b in
        "\(b.thread) waits for \(b.waitsFor)" + (b.heldBy.map { ", held by \($0)" } ?? "")
      }.joined(separator: "; ")
    case .expectationFailed(let expected, let actual):
      return "expected \(expected), saw \(actual)"
    case .caughtError(let error, let call):
      return "\(call) threw \(error.code): \(error.message)"
    case .discardedError(let error, let call):
      return "try? threw away the error from \(call): \(error.code) \(error.message)"
    case .uncaughtError(let error, let call):
      return "try! \(call) crashed: \(error.code) \(error.message)"
    case .uncaughtException(let kind, let exception):
      switch kind {
      case .crossContextRelationship: return "relationship across contexts: \(exception.name)"
      case .objectInAnotherContext:
        return "one object inserted into a second context: \(exception.name)"
      case .faultOnDeletedObject: return "a fault that cannot be fulfilled: \(exception.name)"
      case .invalidRequest: return "a request Core Data refuses: \(exception.name)"
      default: return exception.name
      }
    case .faultOnDeletedObject(let id):
      return "the fault for \(id) fired on a deleted row: the app reads nil"
    case .dataRace(let variable, let access, let previous):
      return
        "data race on self.\(variable): \(access.thread) \(access.isWrite ? "writes" : "reads"), "
        + "unordered with \(previous.thread)'s \(previous.isWrite ? "write" : "read") at step \(previous.step)"
    case .corruption(let context, let other, _, let offQueue):
      let me = site.thread
      return "\(me) touches context \(context)\(offQueue == me ? " off its queue" : "") while "
        + "\(other) is inside it\(offQueue == other ? " off its queue" : ""): they overlap"
    }
  }
}
