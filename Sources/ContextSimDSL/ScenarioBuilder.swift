import ContextSimCore

/// A violation a scenario written in Swift declares it must show, as `expect` lists them,
/// or an error a `catch` must handle.
public struct Expected: Sendable {
  let literal: Literal
  /// Whether it goes under `handled` rather than `violations`.
  let isHandledError: Bool

  /// - Parameters:
  ///   - label: the label of the step, or of a step containing it; nil for anywhere.
  ///   - quantifier: in every schedule `check` runs (the default) or in some.
  public init(
    _ kind: ViolationKind, at label: String? = nil,
    in quantifier: ExpectedViolation.Quantifier? = nil
  ) {
    var members: [(String, Literal)] = [("kind", .string(kind.rawValue))]
    if let label { members.append(("at", .string(label))) }
    if let quantifier { members.append(("in", .string(quantifier.rawValue))) }
    literal = .object(members)
    isHandledError = false
  }

  /// An error a step's `catch` must handle: `"handled": [{"error": code, …}]`.
  public init(
    handledError code: Int, at label: String? = nil,
    in quantifier: ExpectedViolation.Quantifier? = nil
  ) {
    var members: [(String, Literal)] = [("error", .integer(code))]
    if let label { members.append(("at", .string(label))) }
    if let quantifier { members.append(("in", .string(quantifier.rawValue))) }
    literal = .object(members)
    isHandledError = true
  }
}

extension Scenario {
  /// Builds a scenario in Swift and checks it exactly as a scenario file is checked.
  ///
  /// The declarations are the file's top-level keys written as Swift literals, the main
  /// thread's steps a block of verbs; `expect: []` declares a clean design.
  ///
  ///     let scenario = try Scenario(
  ///       "A note read on the wrong queue",
  ///       model: ["Note": ["attributes": ["title": "string"]]],
  ///       store: ["Note": [["id": "note-1", "title": "Buy milk"]]],
  ///       contexts: ["background": ["queue": "private"]],
  ///       expect: [Expected(.wrongQueueObject, at: "read-on-main")]
  ///     ) {
  ///       PerformAndWait("background") { Fetch("Note", in: "background", first: true, as: "note") }
  ///       Get("note.title").label("read-on-main")
  ///     }
  ///
  /// Errors are located at the Swift line and column that wrote the step, or at this call
  /// for the declarations, in the file that called this initializer.
  public init(
    _ title: String, about: String? = nil, concurrencyDebug: Bool? = nil,
    persistentHistory: Literal? = nil, model: Literal = [:],
    store: Literal? = nil, contexts: Literal? = nil, queues: Literal? = nil, vars: Literal? = nil,
    expect: [Expected]? = nil, inject: Literal? = nil, file: String = #fileID, line: Int = #line,
    column: Int = #column, @StepsBuilder main: () -> [any ScenarioStep]
  ) throws(Diagnostics) {
    let at = SourceLocation(line: line, column: column)
    let declared: KeyValuePairs<String, Literal?> = [
      "title": .string(title), "about": about.map(Literal.string),
      "concurrencyDebug": concurrencyDebug.map(Literal.bool),
      "persistentHistory": persistentHistory, "model": model, "store": store,
      "contexts": contexts, "queues": queues, "vars": vars,
    ]
    var members = declared.compactMap { key, value in
      value.map { JSONValue.Member(key: key, keyLocation: at, value: $0.json(at: at)) }
    }
    members.append(
      JSONValue.Member(key: "main", keyLocation: at, value: StepJSON.list(main(), at: at)))
    if let expect {
      var declared: [(String, Literal)] = [
        ("violations", .array(expect.filter { !$0.isHandledError }.map(\.literal)))
      ]
      let handled = expect.filter(\.isHandledError).map(\.literal)
      if !handled.isEmpty { declared.append(("handled", .array(handled))) }
      let violations = Literal.object(declared)
      members.append(
        JSONValue.Member(key: "expect", keyLocation: at, value: violations.json(at: at)))
    }
    if let inject {
      members.append(JSONValue.Member(key: "inject", keyLocation: at, value: inject.json(at: at)))
    }
    // The tree a file would give goes through the same shape pass and validation.
    let json = JSONValue(.object(members), at: at)
    self = try ScenarioDecoder.validate(json, file: file)
  }
}
