import ContextSimCore

// Plain Swift: shared properties, constants, narration and what the app sees.

/// Reading a shared property from `vars`.
public struct Read: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// `line` and `column` default to the call's place, where errors about the step point.
  public init(_ variable: String, as name: String? = nil, line: Int = #line, column: Int = #column)
  {
    json = StepJSON(
      "read", .string(variable), ["as": name.map(Literal.string)], line: line, column: column)
  }
}

/// Writing a shared property from `vars`.
public struct Write: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// `line` and `column` default to the call's place, where errors about the step point.
  public init(_ variable: String, value: Literal, line: Int = #line, column: Int = #column) {
    json = StepJSON("write", .string(variable), ["value": value], line: line, column: column)
  }
}

/// `let name = value`.
public struct Let: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// `line` and `column` default to the call's place, where errors about the step point.
  public init(_ name: String, _ value: Literal, line: Int = #line, column: Int = #column) {
    json = StepJSON("let", .string(name), ["value": value], line: line, column: column)
  }
}

/// Narration in the output, with `$vars` interpolated.
public struct Print: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// `line` and `column` default to the call's place, where errors about the step point.
  public init(_ text: String, line: Int = #line, column: Int = #column) {
    json = StepJSON("print", .string(text), line: line, column: column)
  }
}

/// A line of the app's Swift the scenario stands in for without modelling it: a run that
/// passes it is never clean (``Trace/unmodelled``). `ctxsim draft` writes these.
public struct NotModelled: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// - Parameters:
  ///   - why: why the line is not modelled, as reports show it.
  ///   - at: where the line is written, `Store.swift:14:9`.
  public init(_ why: String, at: String? = nil, line: Int = #line, column: Int = #column) {
    json = StepJSON(
      "notModelled", .string(why), ["at": at.map(Literal.string)], line: line, column: column)
  }
}

/// What the app can see at that moment: a count (`equals`, `atLeast` or `atMost`) or one
/// value. A stale screen shows up here.
public struct Expect: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// - Parameter assertion: `["count": "Note", "in": "viewContext", "equals": 2]` or
  ///   `["value": "note.title", "equals": "Buy milk"]`, as in a scenario file.
  public init(_ assertion: Literal, line: Int = #line, column: Int = #column) {
    json = StepJSON("expect", assertion, line: line, column: column)
  }
}
