import ContextSim
import Testing

/// A scenario written in Swift with the DSL, and the JSON it must run exactly as.
///
/// Each twin lives in a `Twins*.swift` file as a static property, so the tests below can run
/// them one by one and also read them together, for the verbs they cover.
struct Twin: Sendable, CustomTestStringConvertible {
  /// The JSON twin: a file in scenarios/, by name without `.json`.
  let file: String
  let build: @Sendable () throws -> Scenario

  /// The twin of scenarios/`name`.json.
  init(_ name: String, build: @escaping @Sendable () throws -> Scenario) {
    file = name
    self.build = build
  }

  var testDescription: String { "scenarios/\(file).json" }
}
