import ContextSimCore
import ContextSimReports

/// Stand-ins: values for what the draft does not compute, each of the type the model or the
/// code says (a date for `Date()`, an integer for `payloads.count`), never the Swift text as
/// a string, and each step that binds one says it is a stand-in.
extension Drafter {
  /// A stand-in value, what it stands for in words, and its attribute type if known.
  struct StandIn {
    var json: JSONValue
    var what: String
    var type: String?
  }

  /// The stand-in for `e`: its value where the draft knows it, else a sample of the type
  /// `attribute` names (the model's attribute it is set to), else of the type `e` makes.
  func standIn(for e: SwiftExpression, attribute: String? = nil) -> StandIn {
    let e = e.unwrapped.expression
    if let known = value(of: e) { return StandIn(json: known, what: "`\(e.source)`", type: nil) }
    if let call = Call(e), call.receiver == nil, call.method == "Data" {
      // Bytes from a file or the network: their source's value, as a fake would answer.
      let source = call.arguments.first.flatMap { value(of: $0.value) } ?? .string("stand-in")
      return StandIn(json: source, what: "Data gives a value at once", type: "binary")
    }
    let type = attribute ?? Self.type(of: e)
    return StandIn(
      json: Self.sample(ofAttribute: type, count: count(of: e)),
      what: "a \(type == "uuid" ? "UUID" : type) for `\(e.source)`", type: type)
  }

  /// The number of items `xs.count` counts, when `xs` is a list the draft made.
  private func count(of e: SwiftExpression) -> Int? {
    guard case .member(let base?, "count") = e.kind, let list = value(of: base) else { return nil }
    if case .array(let items) = list.kind { return items.count }
    if case .string(let name) = list.kind, name == "$" + (resolve(base)?.variable ?? "") {
      return listLengths[String(name.dropFirst())]
    }
    return nil
  }

  /// The attribute type a Swift expression makes, from its shape; `string` when nothing says.
  static func type(of e: SwiftExpression) -> String {
    switch e.kind {
    case .bool, .prefix("!", _): return "boolean"
    case .binary(let op, let a, let b):
      if comparisons.contains(op) || ["&&", "||", "<", ">"].contains(op) { return "boolean" }
      let left = type(of: a)
      return left == "string" ? type(of: b) : left
    case .number(let n): return n.contains(".") ? "double" : "integer"
    case .string: return "string"
    case .member(_, let key):
      if ["count", "hashValue", "year", "month", "day", "hour", "minute"].contains(key) {
        return "integer"
      }
      if key.hasPrefix("is") || key.hasPrefix("has") || key == "isEmpty" { return "boolean" }
      if key == "now" || key.hasSuffix("Date") || key == "distantPast" || key == "distantFuture" {
        return "date"
      }
      if key == "timeIntervalSince1970" || key == "timeIntervalSinceNow" { return "double" }
      if key == "uuidString" { return "string" }
      if case .member(let base?, _) = e.kind, case .name(let n) = base.kind {
        return attributeTypes[n] ?? "string"
      }
      return "string"
    case .call(let callee, _):
      // `Date()`, `TimeInterval.random(in:)`: the type that makes it.
      if case .name(let n) = root(of: callee).kind, let type = attributeTypes[n] {
        return type
      }
      if case .member(_, let method) = callee.kind {
        if method.hasPrefix("date") || method == "addingTimeInterval" { return "date" }
        if method == "contains" || method.hasPrefix("is") { return "boolean" }
      }
      return "string"
    case .ternary(_, let a, _): return type(of: a)
    default: return "string"
    }
  }

  /// Swift's value types by the attribute type they make.
  static let attributeTypes: [String: String] = [
    "Date": "date", "UUID": "uuid", "Int": "integer", "Int16": "integer", "Int32": "integer",
    "Int64": "integer", "Double": "double", "Float": "double", "CGFloat": "double",
    "TimeInterval": "double", "Bool": "boolean", "Data": "binary", "String": "string",
    "URL": "string", "Decimal": "double", "NSNumber": "integer",
  ]

  /// A sample of an attribute type, as a scenario writes it: dates as ISO 8601 text.
  static func sample(ofAttribute type: String, count: Int? = nil) -> JSONValue {
    switch type {
    case "integer": .integer(count ?? 1)
    case "double": .double(1.5)
    case "boolean": .bool(true)
    case "date": .string("2001-01-01T00:00:00Z")
    case "uuid": .string("00000000-0000-0000-0000-000000000001")
    case "binary": .string("stand-in bytes")
    default: .string("stand-in")
    }
  }
}
