/// A place in a source file, counted from 1, as editors show it.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
  public var line: Int
  public var column: Int

  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  public var description: String { "\(line):\(column)" }

  public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
    (a.line, a.column) < (b.line, b.column)
  }
}

/// A JSON value that remembers where it was written.
///
/// Foundation's decoders on Linux say neither where malformed JSON breaks nor where a
/// well-formed value has the wrong meaning; scenario errors need both, so ctxsim reads
/// JSON itself into this tree.
public struct JSONValue: Sendable, Equatable {
  public indirect enum Kind: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    /// Members in the order written, so errors and listings follow the file.
    case object([Member])
  }

  /// One `"key": value` pair of an object.
  public struct Member: Sendable, Equatable {
    public var key: String
    public var keyLocation: SourceLocation
    public var value: JSONValue
  }

  public var kind: Kind
  public var location: SourceLocation

  public init(_ kind: Kind, at location: SourceLocation) {
    self.kind = kind
    self.location = location
  }

  /// The JSON type's name as an error message says it: `a string`, `an object`.
  public var typeDescription: String {
    switch kind {
    case .null: "null"
    case .bool: "a boolean"
    case .integer: "an integer"
    case .double: "a number"
    case .string: "a string"
    case .array: "a list"
    case .object: "an object"
    }
  }

  public var string: String? {
    if case .string(let s) = kind { s } else { nil }
  }

  public var bool: Bool? {
    if case .bool(let b) = kind { b } else { nil }
  }

  public var members: [Member]? {
    if case .object(let m) = kind { m } else { nil }
  }

  public var elements: [JSONValue]? {
    if case .array(let a) = kind { a } else { nil }
  }

  /// The member named `key`, if this is an object that has one.
  public subscript(key: String) -> JSONValue? {
    members?.first { $0.key == key }?.value
  }
}
