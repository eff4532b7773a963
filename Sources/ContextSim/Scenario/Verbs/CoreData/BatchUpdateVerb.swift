/// `{"batchUpdate": ENTITY, "in": CONTEXT, "where": {…}, "set": {…}, "mergeInto": [CONTEXT]}`:
/// `NSBatchUpdateRequest`, which writes the store without touching any context, then
/// `mergeChanges(fromRemoteContextSave:into:)` for the contexts that should see it.
struct BatchUpdateVerb: VerbFamily {
  enum Verb: String, CaseIterable {
    case batchUpdate
  }

  static func keys(of verb: Verb) -> [String] { ["in", "where", "set", "mergeInto"] }

  var entity: Field<String>
  var context: Field<String>
  var predicate: Field<JSONValue>
  var values: Field<JSONValue>
  var mergeInto: Field<[Field<String>]>

  func statement(_ step: StepSite, scope: inout StepScope, in decoder: inout ScenarioDecoder)
    -> Statement?
  {
    let path = step.path
    let entity = decoder.entity(entity, step)
    let context = decoder.required(context, "in", step, what: "the context that runs the request")
      .flatMap { decoder.contextName($0, path: path, scope: scope) }
    let valuesJSON = decoder.required(values, "set", step, what: "the attribute values to write")
    guard let entity, let context, let valuesJSON else { return nil }
    let predicate =
      decoder.read(predicate).map {
        decoder.predicate($0.value, entity: entity, path: path, scope: scope)
      } ?? .all
    let values = decoder.attributeValues(valuesJSON.value, entity: entity, path: path, scope: scope)
    var mergeInto: [String] = []
    if let names = decoder.read(self.mergeInto) {
      mergeInto = names.value.compactMap { name in
        decoder.read(name).flatMap { decoder.contextName($0, path: path, scope: scope) }
      }
    }
    return Statement(
      .batchUpdate(
        entity: entity.name, context: context, predicate: predicate, values: values,
        mergeInto: mergeInto),
      swift: Self.swift(entity, context, predicate, values, mergeInto))
  }

  private static func swift(
    _ entity: Entity, _ context: String, _ predicate: Predicate<Expression>,
    _ values: [(key: String, value: Expression)], _ mergeInto: [String]
  ) -> String {
    var parts = ["let request = NSBatchUpdateRequest(entityName: \"\(entity.name)\")"]
    if !predicate.matchesEverything {
      parts.append("request.predicate = \(SwiftSource.predicate(predicate, of: entity))")
    }
    let updates = values.map { "\"\($0.key)\": \($0.value.swift)" }.joined(separator: ", ")
    parts.append("request.propertiesToUpdate = [\(updates)]")
    parts.append("try \(context).execute(request)")
    if !mergeInto.isEmpty {
      parts.append(
        "NSManagedObjectContext.mergeChanges(fromRemoteContextSave: changes, into: ["
          + mergeInto.joined(separator: ", ") + "])")
    }
    return parts.joined(separator: "; ")
  }
}

extension BatchUpdateVerb {
  /// Reads a step's arguments from its JSON; the memberwise initializer builds them directly.
  init(_ verb: Verb, _ arguments: StepArguments) {
    entity = arguments.string(what: "an entity name")
    context = arguments.string("in", what: "a context name")
    predicate = arguments.value("where")
    values = arguments.value("set")
    mergeInto = arguments.names("mergeInto", what: "\"mergeInto\"")
  }
}
