/// `{"insert": ENTITY, "into": CONTEXT, "as": VAR, "values": {…}}`, a new object; or
/// `{"insert": "$object", "into": CONTEXT}`, an existing object into a second context.
struct InsertVerb: VerbFamily {
  enum Verb: String, CaseIterable {
    case insert
  }

  static func schema(of verb: Verb) -> StepSchema {
    StepSchema(
      .described(.string, "an entity, or \"$object\" to insert one that exists"),
      [.init("into", .string, required: true), .bind, .init("values", .definition("values"))])
  }

  /// The entity, or the `$variable` of an object that already exists.
  var target: Field<String>
  var context: Field<String>
  var values: Field<JSONValue>
  var bind: Field<String>

  func statement(_ step: StepSite, scope: inout StepScope, in decoder: inout ScenarioDecoder)
    -> Statement?
  {
    let path = step.path
    if let object = target.value, object.hasPrefix("$") {
      guard let variable = decoder.variable(target, step, scope: scope),
        let context = decoder.required(context, "into", step, what: "the context to insert into")
          .flatMap({ decoder.contextName($0, path: path, scope: scope) })
      else { return nil }
      return Statement(
        .insertObject(variable: variable, context: context), swift: "\(context).insert(\(variable))"
      )
    }
    let entity = decoder.entity(target, step)
    let context = decoder.required(context, "into", step, what: "the context to insert into")
      .flatMap { decoder.contextName($0, path: path, scope: scope) }
    guard let entity, let context else { return nil }
    var values: [(key: String, value: Expression)] = []
    if let json = decoder.read(self.values) {
      values = decoder.attributeValues(json.value, entity: entity, path: path, scope: scope)
    }
    let bind = decoder.binding(self.bind, .object(entity: entity.name), step, scope: &scope)
    let insert =
      "\(SwiftSource.assign(bind ?? (values.isEmpty ? nil : "object")))NSEntityDescription.insertNewObject(forEntityName: \"\(entity.name)\", into: \(context))"
    return Statement(
      .insert(entity: entity.name, context: context, values: values, bind: bind),
      swift: ([insert] + values.map { "\(bind ?? "object").\($0.key) = \($0.value.swift)" })
        .joined(separator: "; "))
  }
}

extension InsertVerb {
  /// Reads a step's arguments from its JSON; the memberwise initializer builds them directly.
  init(_ verb: Verb, _ arguments: StepArguments) {
    let isObject = arguments.verbValue.string?.hasPrefix("$") == true
    target = arguments.string(what: isObject ? "a variable name" : "an entity name")
    context = arguments.string("into", what: "a context name")
    values = arguments.value("values")
    bind = arguments.string("as", what: "\"as\"")
  }
}
