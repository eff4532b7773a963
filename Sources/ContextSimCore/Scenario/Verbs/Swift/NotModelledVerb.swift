/// `{"notModelled": "why", "at": "Importer.swift:42:9"}`: a line of the app's Swift that
/// the scenario stands in for without modelling it. `ctxsim draft` writes one for each line
/// it could not follow (a call it cannot resolve, a closure it cannot follow, a `switch`);
/// the step's `"swift"` holds the line itself.
///
/// It touches nothing, but a run that passes it is never clean: what the line does is
/// unknown, so a run without violations ends *unmodelled* (``Trace/unmodelled``), its own
/// verdict in `run`, `explore` and `check`, never a pass.
struct NotModelledVerb: VerbFamily {
  enum Verb: String, CaseIterable {
    case notModelled
  }

  static func schema(of verb: Verb) -> StepSchema {
    StepSchema(.string, [.init("at", .string)])
  }

  var why: Field<String>
  var at: Field<String>

  func statement(_ step: StepSite, scope: inout StepScope, in decoder: inout ScenarioDecoder)
    -> Statement?
  {
    guard let why = decoder.read(why) else { return nil }
    let at = decoder.read(at)?.value
    return Statement(.notModelled(why: why.value, at: at), swift: "// not modelled: \(why.value)")
  }
}

extension NotModelledVerb {
  /// Reads a step's arguments from its JSON; the memberwise initializer builds them directly.
  init(_ verb: Verb, _ arguments: StepArguments) {
    why = arguments.string(what: "why the line is not modelled")
    at = arguments.string("at", what: "the line's place, FILE:LINE:COLUMN")
  }
}
