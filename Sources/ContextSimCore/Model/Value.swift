/// A value a scenario's variables, attributes and literals hold.
///
/// Managed objects are held by reference (``ObjectReference``), as a Swift variable holds
/// an `NSManagedObject`; object IDs are plain values that are safe on any queue.
public enum Value: Sendable, Hashable {
  case null
  case bool(Bool)
  case integer(Int)
  case double(Double)
  case string(String)
  case list([Value])
  case object(ObjectReference)
  case objectID(ObjectID)
  /// A context made at run time, by its index in the ``ObjectGraph``.
  case context(Int)
  /// A notification an observer received, by its index among the run's posts.
  case notification(Int)
  /// The token `addObserver` returned, by the observer's index.
  case observer(Int)
  /// A fetched results controller, by its index among the run's controllers.
  case controller(Int)
  /// An `NSPersistentHistoryTransaction`, by its token.
  case transaction(Int)

  /// The value as Swift would print it, for reports: `"Groceries"`, `3`, `nil`.
  public var swiftDescription: String {
    switch self {
    case .null: "nil"
    case .bool(let b): b ? "true" : "false"
    case .integer(let i): String(i)
    case .double(let d): String(d)
    case .string(let s): "\"\(s)\""
    case .list(let items): "[" + items.map(\.swiftDescription).joined(separator: ", ") + "]"
    case .object(let ref): "<managed object #\(ref.index)>"
    case .objectID(let id): id.description
    case .context(let index): "<context #\(index)>"
    case .notification(let index): "<notification #\(index)>"
    case .observer(let index): "<observer #\(index)>"
    case .controller(let index): "<fetched results controller #\(index)>"
    case .transaction(let token): "<history transaction \(token)>"
    }
  }

  /// The value as it reads inside narration: strings without quotes.
  public var plainDescription: String {
    if case .string(let s) = self { s } else { swiftDescription }
  }

  /// Builds a value from a JSON literal; objects are not values.
  init?(literal json: JSONValue) {
    switch json.kind {
    case .null: self = .null
    case .bool(let b): self = .bool(b)
    case .integer(let i): self = .integer(i)
    case .double(let d): self = .double(d)
    case .string(let s): self = .string(s)
    case .array(let items):
      var values: [Value] = []
      for item in items {
        guard let value = Value(literal: item) else { return nil }
        values.append(value)
      }
      self = .list(values)
    case .object: return nil
    }
  }

  /// Equality as an `NSPredicate` `==` sees it: integers and doubles compare by number.
  func matches(_ other: Value) -> Bool {
    switch (self, other) {
    case (.integer(let a), .double(let b)), (.double(let b), .integer(let a)): Double(a) == b
    default: self == other
    }
  }
}

/// One managed object instance, by its index in the ``ObjectGraph``.
///
/// Two contexts that hold the same row hold two different instances, as in Core Data.
public struct ObjectReference: Sendable, Hashable {
  /// The object's place in the run's object graph.
  public var index: Int
}
