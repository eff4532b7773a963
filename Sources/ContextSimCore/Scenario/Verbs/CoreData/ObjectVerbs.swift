/// `{"delete": VAR}` and `{"refresh": VAR, "merge": bool}`: methods of the object's own
/// context, called on the object.
struct ObjectVerbs: VerbFamily {
  enum Verb: String, CaseIterable {
    case delete, refresh
  }

  static func schema(of verb: Verb) -> StepSchema {
    switch verb {
    case .delete: StepSchema(.string)
    case .refresh: StepSchema(.string, [.init("merge", .boolean)])
    }
  }

  var verb: Verb
  var object: Field<String>
  var merge: Field<Bool>

  func statement(_ step: StepSite, scope: inout StepScope, in decoder: inout ScenarioDecoder)
    -> Statement?
  {
    guard let variable = decoder.variable(object, step, scope: scope) else { return nil }
    switch verb {
    case .delete:
      return Statement(
        .delete(variable: variable),
        swift: "\(variable).managedObjectContext?.delete(\(variable))")
    case .refresh:
      let merge = decoder.read(merge)?.value ?? false
      return Statement(
        .refresh(variable: variable, merge: merge),
        swift: "\(variable).managedObjectContext?.refresh(\(variable), mergeChanges: \(merge))")
    }
  }
}

extension ObjectVerbs {
  /// Reads a step's arguments from its JSON; the memberwise initializer builds them directly.
  init(_ verb: Verb, _ arguments: StepArguments) {
    self.verb = verb
    object = arguments.string(what: "a variable name")
    merge = arguments.bool("merge", what: "\"merge\"")
  }
}
