import ContextSimCore

/// One step of a scenario written in Swift: a verb of the scenario format, its keys, and
/// where in the Swift source it was written.
///
/// Each verb is a type named after it (`Fetch`, `PerformAndWait`, `Async` …) that builds
/// the same keys the JSON step has, so a scenario written in Swift goes through the same
/// checks as a file and errors point at the Swift line that wrote the step.
public protocol ScenarioStep: Sendable {
  /// The step as the decoder reads it.
  var json: StepJSON { get }
}

/// A step's keys in the order written, and its place in the Swift source.
public struct StepJSON: Sendable {
  var members: [(String, JSONValue)]
  let location: SourceLocation

  /// A step `{verb: argument, key: value …}` written at `line`:`column`.
  init(
    _ verb: String, _ argument: Literal, _ keys: KeyValuePairs<String, Literal?> = [:],
    body: [(String, [any ScenarioStep])] = [], line: Int, column: Int
  ) {
    location = SourceLocation(line: line, column: column)
    let at = location
    members = [(verb, argument.json(at: at))]
    for (key, value) in keys { if let value { members.append((key, value.json(at: at))) } }
    for (key, steps) in body { members.append((key, Self.list(steps, at: at))) }
  }

  /// A list of steps as JSON.
  static func list(_ steps: [any ScenarioStep], at location: SourceLocation) -> JSONValue {
    JSONValue(.array(steps.map { $0.json.value }), at: location)
  }

  /// The step as one JSON object.
  var value: JSONValue {
    JSONValue(
      .object(members.map { JSONValue.Member(key: $0.0, keyLocation: location, value: $0.1) }),
      at: location)
  }

  func adding(_ key: String, _ value: Literal) -> StepJSON {
    var copy = self
    copy.members.append((key, value.json(at: location)))
    return copy
  }
}

/// A step with a label, a note or a condition added: what `.label(_:)` and its kin return.
public struct ModifiedStep: ScenarioStep {
  /// The step with the modifier's key added.
  public let json: StepJSON
}

extension ScenarioStep {
  /// Names the step, for `expect`, `inject` and lessons.
  public func label(_ name: String) -> ModifiedStep {
    ModifiedStep(json: json.adding("label", .string(name)))
  }

  /// A sentence the reports show beside the step.
  public func note(_ text: String) -> ModifiedStep {
    ModifiedStep(json: json.adding("note", .string(text)))
  }

  /// The app's own line of Swift, shown instead of the one the verb spells.
  public func swift(_ line: String) -> ModifiedStep {
    ModifiedStep(json: json.adding("swift", .string(line)))
  }

  /// Runs the step only when `variable` holds `value`: Swift's `if`.
  public func when(_ variable: String, equals value: Literal) -> ModifiedStep {
    ModifiedStep(json: json.adding("when", ["value": .string(variable), "equals": value]))
  }

  /// The `catch { … }` that handles the error the step's call throws, with `$error`
  /// bound: a handled error, not a violation.
  public func `catch`(@StepsBuilder _ body: () -> [any ScenarioStep]) -> ModifiedStep {
    var json = self.json
    json.members.append(("catch", StepJSON.list(body(), at: json.location)))
    return ModifiedStep(json: json)
  }

  /// Runs the step only when `variable` does not hold `value`.
  public func when(_ variable: String, notEquals value: Literal) -> ModifiedStep {
    ModifiedStep(json: json.adding("when", ["value": .string(variable), "notEquals": value]))
  }
}

/// Collects the steps of a block, with `if` and `for` as Swift writes them.
@resultBuilder
public enum StepsBuilder {
  /// One step.
  public static func buildExpression(_ step: any ScenarioStep) -> [any ScenarioStep] { [step] }
  /// The steps of a block, in order.
  public static func buildBlock(_ parts: [any ScenarioStep]...) -> [any ScenarioStep] {
    parts.flatMap { $0 }
  }
  /// The steps of an `if` without `else`, or none.
  public static func buildOptional(_ part: [any ScenarioStep]?) -> [any ScenarioStep] { part ?? [] }
  /// The steps of an `if`'s first branch.
  public static func buildEither(first: [any ScenarioStep]) -> [any ScenarioStep] { first }
  /// The steps of the other branch.
  public static func buildEither(second: [any ScenarioStep]) -> [any ScenarioStep] { second }
  /// The steps of every pass of a `for` loop.
  public static func buildArray(_ parts: [[any ScenarioStep]]) -> [any ScenarioStep] {
    parts.flatMap { $0 }
  }
}

/// How a throwing call is written in a step: `try` in a `do`, `try?` or `try!`.
extension TryMode {
  var literal: Literal? { self == .do ? nil : .string(rawValue) }
}
