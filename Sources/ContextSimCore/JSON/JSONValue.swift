/// A place in a source file, counted from 1, as editors show it.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The line, from 1.
  public var line: Int
  /// The column, from 1, counting characters (Unicode scalars), not bytes.
  public var column: Int

  /// A location at `line` and `column`, both counted from 1.
  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  /// `line:column`, as compilers print a place: `3:14`.
  public var description: String { "\(line):\(column)" }

  /// Earlier in the file: by line, then by column.
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
  /// Which of JSON's types the value is, with its contents; integers and other numbers apart.
  public indirect enum Kind: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number without a fraction or exponent that fits in an `Int`.
    case integer(Int)
    /// Any other number.
    case double(Double)
    /// A string, unescaped.
    case string(String)
    /// Elements in the order written.
    case array([JSONValue])
    /// Members in the order written, so errors and listings follow the file.
    case object([Member])
  }

  /// One `"key": value` pair of an object.
  public struct Member: Sendable, Equatable {
    /// The key, unescaped.
    public var key: String
    /// Where the key was written: the opening quote.
    public var keyLocation: SourceLocation
    /// The member's value, with its own location.
    public var value: JSONValue

    package init(key: String, keyLocation: SourceLocation, value: JSONValue) {
      self.key = key
      self.keyLocation = keyLocation
      self.value = value
    }
  }

  /// The value itself.
  public var kind: Kind
  /// Where the value starts: in the file, or at the Swift call that built it; line 0 when
  /// there is no such place, as in a report's document.
  public var location: SourceLocation

  /// A value of `kind` that starts at `location`.
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

  /// The text, if this is a string.
  public var string: String? {
    if case .string(let s) = kind { s } else { nil }
  }

  /// The boolean, if this is `true` or `false`.
  public var bool: Bool? {
    if case .bool(let b) = kind { b } else { nil }
  }

  /// The members in the order written, if this is an object.
  public var members: [Member]? {
    if case .object(let m) = kind { m } else { nil }
  }

  /// The elements, if this is an array.
  public var elements: [JSONValue]? {
    if case .array(let a) = kind { a } else { nil }
  }

  /// The member named `key`, if this is an object that has one.
  public subscript(key: String) -> JSONValue? {
    members?.first { $0.key == key }?.value
  }
}
