import ContextSimCore

/// A JSON value written as a Swift literal, for the scenario DSL: `"private"`, `3`, `true`,
/// `nil`, `["a", "b"]`, `["title": "Buy milk"]`. Dictionaries keep the order written.
public indirect enum Literal: Sendable {
  case null
  case bool(Bool)
  case integer(Int)
  case double(Double)
  case string(String)
  case array([Literal])
  case object([(String, Literal)])

  /// The JSON tree the decoder reads, every value placed at `location`.
  func json(at location: SourceLocation) -> JSONValue {
    let kind: JSONValue.Kind
    switch self {
    case .null: kind = .null
    case .bool(let b): kind = .bool(b)
    case .integer(let n): kind = .integer(n)
    case .double(let d): kind = .double(d)
    case .string(let s): kind = .string(s)
    case .array(let items): kind = .array(items.map { $0.json(at: location) })
    case .object(let members):
      kind = .object(
        members.map {
          JSONValue.Member(key: $0.0, keyLocation: location, value: $0.1.json(at: location))
        })
    }
    return JSONValue(kind, at: location)
  }
}

extension Literal: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral,
  ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral
{
  /// `nil`: JSON `null`.
  public init(nilLiteral: ()) { self = .null }
  /// `true` or `false`.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  /// A whole number.
  public init(integerLiteral value: Int) { self = .integer(value) }
  /// A number with a fraction.
  public init(floatLiteral value: Double) { self = .double(value) }
  /// A string; `"$name"` names a variable where the format allows one.
  public init(stringLiteral value: String) { self = .string(value) }
  /// A list, in order.
  public init(arrayLiteral elements: Literal...) { self = .array(elements) }
  /// An object, its keys in the order written.
  public init(dictionaryLiteral elements: (String, Literal)...) { self = .object(elements) }
}
