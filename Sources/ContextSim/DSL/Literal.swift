/// A JSON value written as a Swift literal, for the scenario DSL: `"private"`, `3`, `true`,
/// `nil`, `["a", "b"]`, `["title": "Buy milk"]`. Dictionaries keep the order written.
public indirect enum Literal: Sendable, Equatable {
  case null
  case bool(Bool)
  case integer(Int)
  case double(Double)
  case string(String)
  case array([Literal])
  case object([(String, Literal)])

  public static func == (a: Literal, b: Literal) -> Bool {
    a.json(at: SourceLocation(line: 0, column: 0)) == b.json(at: SourceLocation(line: 0, column: 0))
  }

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
  public init(nilLiteral: ()) { self = .null }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(integerLiteral value: Int) { self = .integer(value) }
  public init(floatLiteral value: Double) { self = .double(value) }
  public init(stringLiteral value: String) { self = .string(value) }
  public init(arrayLiteral elements: Literal...) { self = .array(elements) }
  public init(dictionaryLiteral elements: (String, Literal)...) { self = .object(elements) }
}
