/// What one verb's step looks like in JSON: the verb's own value and the keys it takes, each
/// with the JSON Schema of its value. Families declare it once per verb; the shape pass's key
/// table and `docs/scenario.schema.json` are both made from it, so they cannot disagree.
struct StepSchema: Sendable {
  /// The schema of the verb's own value (`"fetch": ENTITY`).
  var value: Shape
  /// The keys besides the verb, `label`, `note`, `swift`, `when` and `catch`, in the order
  /// an error lists them.
  var keys: [Key] = []

  /// One key of a step.
  struct Key: Sendable {
    var name: String
    var shape: Shape
    var required = false

    init(_ name: String, _ shape: Shape, required: Bool = false) {
      self.name = name
      self.shape = shape
      self.required = required
    }

    /// `"as": NAME`, the variable a step binds.
    static let bind = Key("as", .string)
    /// `"try": "?"` or `"!"`: how a call that throws is tried.
    static let `try` = Key("try", .definition("try"))
    /// `"do": [STEP]`, a block's steps.
    static let body = Key("do", .definition("steps"), required: true)
    /// `"where": PREDICATE`.
    static let predicate = Key("where", .definition("predicate"))
    /// `"in": CONTEXT`, the context a request runs in.
    static let context = Key("in", .string, required: true)
  }

  /// A JSON Schema, in the few forms steps use.
  indirect enum Shape: Sendable {
    case string, boolean, integer
    /// Any JSON value: a value or expression the decoder reads by the attribute it fills.
    case anything
    /// An integer of at least this.
    case atLeast(Int)
    /// A definition of the schema's own `$defs`: `steps`, `predicate`, `try`, `values`….
    case definition(String)
    /// One of these strings.
    case oneOf([String])
    /// A value of any of these JSON types: `["array", "string"]`.
    case types([String])
    /// An array of these, with at least `minItems`.
    case list(Shape, minItems: Int = 0)
    /// An object with exactly these keys, those `required` among them, and at least
    /// `minProperties` of them.
    case object([(String, Shape)], required: [String] = [], minProperties: Int = 0)
    /// Any of these schemas.
    case anyOf([Shape])
    /// A schema with a sentence for editors that show it.
    case described(Shape, String)
  }
}

extension StepSchema.Shape {
  /// The schema as JSON on one line, spaced as docs/scenario.schema.json is.
  var json: String {
    switch self {
    case .string: #"{ "type": "string" }"#
    case .boolean: #"{ "type": "boolean" }"#
    case .integer: #"{ "type": "integer" }"#
    case .anything: "{}"
    case .atLeast(let n): #"{ "type": "integer", "minimum": \#(n) }"#
    case .definition(let name): ##"{ "$ref": "#/$defs/\##(name)" }"##
    case .oneOf(let names): #"{ "enum": \#(Self.strings(names)) }"#
    case .types(let names): #"{ "type": \#(Self.strings(names)) }"#
    case .list(let item, let minItems):
      #"{ "type": "array", "#
        + (minItems > 0 ? #""minItems": \#(minItems), "# : "") + #""items": \#(item.json) }"#
    case .object(let keys, let required, let minProperties):
      #"{ "type": "object", "#
        + (required.isEmpty ? "" : #""required": \#(Self.strings(required)), "#)
        + #""additionalProperties": false, "#
        + (minProperties > 0 ? #""minProperties": \#(minProperties), "# : "")
        + #""properties": \#(Self.properties(keys)) }"#
    case .anyOf(let shapes): #"{ "oneOf": [\#(shapes.map(\.json).joined(separator: ", "))] }"#
    case .described(let shape, let sentence):
      String(shape.json.dropLast(2))
        + #", "description": "\#(Self.escaped(sentence))" }"#
    }
  }

  static func properties(_ keys: [(String, StepSchema.Shape)]) -> String {
    "{ " + keys.map { #""\#($0.0)": \#($0.1.json)"# }.joined(separator: ", ") + " }"
  }

  private static func escaped(_ text: String) -> String {
    String(text.flatMap { $0 == "\"" || $0 == "\\" ? ["\\", $0] : [$0] })
  }

  private static func strings(_ names: [String]) -> String {
    "[" + names.map { #""\#($0)""# }.joined(separator: ", ") + "]"
  }
}

extension StepSchema {
  /// A step that takes only its verb's value.
  init(_ value: Shape) { self.value = value }

  init(_ value: Shape, _ keys: [Key]) {
    self.value = value
    self.keys = keys
  }

  /// The step's variant of the schema's `step` definition, on one line.
  func json(verb: String) -> String {
    let required = [verb] + keys.filter(\.required).map(\.name)
    let properties = [(verb, value)] + keys.map { ($0.name, $0.shape) }
    return #"{ "required": [\#(required.map { #""\#($0)""# }.joined(separator: ", "))], "#
      + #""properties": \#(Shape.properties(properties)) }"#
  }
}
