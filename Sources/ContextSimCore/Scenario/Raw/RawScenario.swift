/// A scenario file as written, its shape read: what validation turns into a ``Scenario``.
///
/// The steps are raw (``RawStep``), and so are the contexts, queues, vars, `expect` and
/// `inject` (``SectionShape``), the model (``SectionShape``) and the store (``RawStoreRows``),
/// whose values stay located JSON: their meaning depends on the model.
struct RawScenario {
  var location: SourceLocation
  /// The file is not an object, or has keys format v1 does not know.
  var problems: [Diagnostic] = []
  /// Whether the file is an object at all; when it is not, nothing else is read.
  var isObject = true
  var title: Field<String> = .absent
  var about: Field<String> = .absent
  var concurrencyDebug: Field<Bool> = .absent
  var model: Field<[RawEntity]> = .absent
  /// `"model"` written as the path of an `.xcdatamodeld` or `.xcdatamodel` (a ctxsim addition
  /// to format v1), which validation reads; ``model`` stays absent then.
  var modelFile: Field<String> = .absent
  var store: Field<[RawStoreRows]> = .absent
  var contexts: Field<[RawContext]> = .absent
  var queues: Field<[RawQueue]> = .absent
  var vars: Field<[RawVar]> = .absent
  var main: Field<[RawStep]> = .absent
  /// Every label written on a step, valid or not.
  var writtenLabels: Set<String> = []
  var expect: Field<RawExpectation> = .absent
  var inject: Field<[Field<RawInjection>]> = .absent
  /// `"persistentHistory"`, a ctxsim addition to format v1.
  var persistentHistory: Field<RawPersistentHistory> = .absent
}

extension RawScenario {
  /// The top-level keys of scenario format v1, and ctxsim's `persistentHistory`.
  static let keys = [
    "title", "about", "concurrencyDebug", "persistentHistory", "model", "store", "contexts",
    "queues", "vars", "main", "expect", "inject",
  ]

  /// Reads a scenario file's JSON for its shape.
  init(_ json: JSONValue, file: String) {
    location = json.location
    switch ShapeCheck.object(json, what: "a scenario") {
    case .failure(let problem):
      problems = [Diagnostic(problem, file: file, path: "scenario")]
      isObject = false
      return
    case .success(let members):
      problems = ShapeCheck.unknownKeys(members, allowed: Self.keys, what: "the scenario").map {
        Diagnostic($0, file: file, path: "scenario")
      }
    }
    let sections = SectionShape(file: file)
    title = sections.field(json["title"], path: "title") {
      ShapeCheck.string($0, what: "\"title\"")
    }
    about = sections.field(json["about"], path: "about") {
      ShapeCheck.string($0, what: "\"about\"")
    }
    concurrencyDebug = sections.field(json["concurrencyDebug"], path: "concurrencyDebug") {
      ShapeCheck.bool($0, what: "\"concurrencyDebug\"")
    }
    if let json = json["model"], let path = json.string {
      modelFile = .present(Located(value: path, location: json.location))
    } else {
      model = json["model"].map(sections.model) ?? .absent
    }
    store = json["store"].map(sections.store) ?? .absent
    contexts = json["contexts"].map(sections.contexts) ?? .absent
    queues = json["queues"].map(sections.queues) ?? .absent
    vars = json["vars"].map(sections.vars) ?? .absent
    if let steps = json["main"] {
      main = StepShape(file: file).steps(steps, path: "main")
      writtenLabels = StepShape.labels(in: steps)
    }
    expect = json["expect"].map(sections.expectation) ?? .absent
    inject = json["inject"].map(sections.injections) ?? .absent
    persistentHistory = json["persistentHistory"].map(sections.persistentHistory) ?? .absent
  }
}

extension Field {
  /// Checks a value's shape; `absent` when it was not written.
  init(
    _ json: JSONValue?, file: String, path: String,
    _ check: (JSONValue) -> Result<Value, ShapeProblem>
  ) {
    guard let json else {
      self = .absent
      return
    }
    switch check(json) {
    case .success(let value): self = .present(Located(value: value, location: json.location))
    case .failure(let problem): self = .malformed(Diagnostic(problem, file: file, path: path))
    }
  }
}
