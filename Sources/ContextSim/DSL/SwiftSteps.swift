// Plain Swift: shared properties, constants, narration and what the app sees.

/// Reading a shared property from `vars`.
public struct Read: ScenarioStep {
  public let json: StepJSON
  public init(_ variable: String, as name: String? = nil, line: Int = #line, column: Int = #column)
  {
    json = StepJSON(
      "read", .string(variable), ["as": name.map(Literal.string)], line: line, column: column)
  }
}

/// Writing a shared property from `vars`.
public struct Write: ScenarioStep {
  public let json: StepJSON
  public init(_ variable: String, value: Literal, line: Int = #line, column: Int = #column) {
    json = StepJSON("write", .string(variable), ["value": value], line: line, column: column)
  }
}

/// `let name = value`.
public struct Let: ScenarioStep {
  public let json: StepJSON
  public init(_ name: String, _ value: Literal, line: Int = #line, column: Int = #column) {
    json = StepJSON("let", .string(name), ["value": value], line: line, column: column)
  }
}

/// Narration in the output, with `$vars` interpolated.
public struct Print: ScenarioStep {
  public let json: StepJSON
  public init(_ text: String, line: Int = #line, column: Int = #column) {
    json = StepJSON("print", .string(text), line: line, column: column)
  }
}

/// What the app can see at that moment: a count (`equals`, `atLeast` or `atMost`) or one
/// value. A stale screen shows up here.
public struct Expect: ScenarioStep {
  public let json: StepJSON
  /// - Parameter assertion: `["count": "Note", "in": "viewContext", "equals": 2]` or
  ///   `["value": "note.title", "equals": "Buy milk"]`, as in a scenario file.
  public init(_ assertion: Literal, line: Int = #line, column: Int = #column) {
    json = StepJSON("expect", assertion, line: line, column: column)
  }
}
