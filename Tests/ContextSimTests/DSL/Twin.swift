import ContextSim
import Testing

/// A scenario written in Swift with the DSL, and the JSON it must run exactly as.
///
/// Each twin lives in a `Twins*.swift` file as a static property, so the tests below can run
/// them one by one and also read them together, for the verbs they cover.
struct Twin: Sendable, CustomTestStringConvertible {
  /// Where the JSON twin is.
  enum Source: Sendable {
    /// A file in scenarios/, by name without `.json`.
    case file(String)
    /// JSON written in the test, for a verb no file in scenarios/ uses yet.
    case inline(String)
  }

  let source: Source
  let build: @Sendable () throws -> Scenario

  /// The twin of scenarios/`name`.json.
  init(_ name: String, build: @escaping @Sendable () throws -> Scenario) {
    source = .file(name)
    self.build = build
  }

  /// The twin of a scenario written as JSON in the test.
  init(json: String, build: @escaping @Sendable () throws -> Scenario) {
    source = .inline(json)
    self.build = build
  }

  var testDescription: String {
    switch source {
    case .file(let name): "scenarios/\(name).json"
    case .inline: (try? build().title) ?? "inline JSON"
    }
  }
}
