/// Batch requests, which run in the store and touch no context (semantics §7.6, part 2 §6),
/// and the call that brings their results into contexts:
///
/// - `{"batchUpdate": ENTITY, "in": CONTEXT, "where": {…}, "set": {…}, "mergeInto": [CONTEXT]}`
/// - `{"batchDelete": ENTITY, "in": CONTEXT, "where": {…}, "as": VAR}`, or
///   `{"batchDelete": "$ids", "in": CONTEXT}` for `init(objectIDs:)`
/// - `{"batchInsert": ENTITY, "in": CONTEXT, "objects": [{…}, …], "as": VAR}`
/// - `{"mergeRemoteChanges": {"deleted": "$ids", …}, "into": [CONTEXT, …]}`
struct BatchVerbs: VerbFamily {
  enum Verb: String, CaseIterable {
    case batchUpdate, batchDelete, batchInsert, mergeRemoteChanges
  }

  static func schema(of verb: Verb) -> StepSchema {
    switch verb {
    case .batchUpdate:
      StepSchema(
        .string,
        [
          .context, .predicate, .init("set", .definition("values"), required: true),
          .init("mergeInto", .list(.string)),
        ])
    case .batchDelete:
      StepSchema(
        .described(.string, "an entity, or \"$ids\" for NSBatchDeleteRequest(objectIDs:)"),
        [.context, .predicate, .bind, .try])
    case .batchInsert:
      StepSchema(
        .string,
        [
          .context, .init("objects", .list(.definition("values"), minItems: 1), required: true),
          .bind, .try,
        ])
    case .mergeRemoteChanges:
      StepSchema(
        .object(
          ["inserted", "updated", "deleted"].map { ($0, .definition("objectIDs")) },
          minProperties: 1),
        [.init("into", .list(.string, minItems: 1), required: true)])
    }
  }

  var verb: Verb
  /// The verb's own value for a request: an entity, or `"$ids"` for a delete by IDs.
  var target: Field<String>
  /// The verb's own value for a merge: the changes, as an object.
  var changes: JSONValue?
  var context: Field<String>
  var predicate: Field<JSONValue>
  var values: Field<JSONValue>
  var objects: Field<JSONValue>
  var contexts: Field<[Field<String>]>
  var bind: Field<String>
  var tryMode: Field<TryMode>

  func statement(_ step: StepSite, scope: inout StepScope, in decoder: inout ScenarioDecoder)
    -> Statement?
  {
    if verb == .mergeRemoteChanges { return mergeRemoteChanges(step, scope: scope, in: &decoder) }
    let path = step.path
    if verb == .batchDelete, case .present(let ids) = target, ids.value.hasPrefix("$") {
      return deleteByIDs(ids, step, scope: &scope, in: &decoder)
    }
    let entity = decoder.entity(target, step)
    let context = decoder.required(context, "in", step, what: "the context that runs the request")
      .flatMap { decoder.contextName($0, path: path, scope: scope) }
    guard let entity, let context else { return nil }
    let predicate =
      decoder.read(predicate).map {
        decoder.predicate($0.value, entity: entity, path: path, scope: scope)
      } ?? .all
    switch verb {
    case .batchUpdate:
      return batchUpdate(entity, context, predicate, step, scope: scope, in: &decoder)
    case .batchDelete:
      let mode = decoder.tryMode(tryMode)
      let bind = decoder.binding(self.bind, .objectIDs(entity: entity.name), step, scope: &scope)
      return Statement(
        .batchDelete(
          .request(entity: entity.name, predicate: predicate), context: context, bind: bind,
          try: mode),
        swift: Self.request(
          "NSBatchDeleteRequest(fetchRequest: \(Self.fetchRequest(entity, predicate)))",
          "NSBatchDeleteResult", bind: bind, context: context, mode: mode))
    case .batchInsert:
      return batchInsert(entity, context, step, scope: &scope, in: &decoder)
    case .mergeRemoteChanges:
      return nil
    }
  }

  // MARK: The requests

  private func batchUpdate(
    _ entity: Entity, _ context: String, _ predicate: Predicate<Expression>, _ step: StepSite,
    scope: StepScope, in decoder: inout ScenarioDecoder
  ) -> Statement? {
    guard
      let valuesJSON = decoder.required(values, "set", step, what: "the attribute values to write")
    else { return nil }
    let values = decoder.attributeValues(
      valuesJSON.value, entity: entity, path: step.path, scope: scope)
    let mergeInto = contextNames(step, scope: scope, in: &decoder) ?? []
    var parts = ["let request = NSBatchUpdateRequest(entityName: \"\(entity.name)\")"]
    if !predicate.matchesEverything {
      parts.append("request.predicate = \(SwiftSource.predicate(predicate, of: entity))")
    }
    let updates = values.map { "\"\($0.key)\": \($0.value.swift)" }.joined(separator: ", ")
    parts.append("request.propertiesToUpdate = [\(updates)]")
    parts.append("try \(context).execute(request)")
    if !mergeInto.isEmpty {
      parts.append(Self.merge("changes", into: mergeInto))
    }
    return Statement(
      .batchUpdate(
        entity: entity.name, context: context, predicate: predicate, values: values,
        mergeInto: mergeInto),
      swift: parts.joined(separator: "; "))
  }

  /// `NSBatchDeleteRequest(objectIDs:)`: the IDs must be of one entity, and a request by IDs
  /// has no predicate of its own.
  private func deleteByIDs(
    _ target: Located<String>, _ step: StepSite, scope: inout StepScope,
    in decoder: inout ScenarioDecoder
  ) -> Statement? {
    if let predicate = decoder.read(predicate) {
      decoder.fail(
        "a batch delete by object IDs takes no \"where\"",
        fix: "delete by entity with \"where\", or by IDs without it", at: predicate.location,
        path: step.path)
    }
    let context = decoder.required(context, "in", step, what: "the context that runs the request")
      .flatMap { decoder.contextName($0, path: step.path, scope: scope) }
    let json = JSONValue(.string(target.value), at: target.location)
    guard let ids = Self.objectIDs(json, path: step.path, scope: scope, in: &decoder), let context
    else { return nil }
    // One ID is deleted as a list of one.
    var (type, argument) = (BindingType.unknown, ids.swift)
    switch ids.variableName.flatMap({ scope.bindings[$0] }) {
    case .objectIDs(let entity)?: type = .objectIDs(entity: entity)
    case .objectID(let entity)?: (type, argument) = (.objectIDs(entity: entity), "[\(argument)]")
    default: break
    }
    let mode = decoder.tryMode(tryMode)
    let bind = decoder.binding(self.bind, type, step, scope: &scope)
    return Statement(
      .batchDelete(.objectIDs(ids), context: context, bind: bind, try: mode),
      swift: Self.request(
        "NSBatchDeleteRequest(objectIDs: \(argument))", "NSBatchDeleteResult", bind: bind,
        context: context, mode: mode))
  }

  /// Rows of attribute values: the dictionaries cannot set relationships (part 2 §6.2). An
  /// entity with uniqueness constraints is refused: what a batch insert does with a row
  /// that collides is not settled in the semantics, so ctxsim does not guess.
  private func batchInsert(
    _ entity: Entity, _ context: String, _ step: StepSite, scope: inout StepScope,
    in decoder: inout ScenarioDecoder
  ) -> Statement? {
    let path = step.path
    guard let json = decoder.required(objects, "objects", step, what: "a list of attribute values")
    else { return nil }
    guard let items = json.value.elements, !items.isEmpty else {
      decoder.fail(
        "\"objects\" takes a list of one or more objects of attribute values",
        fix: "write \"objects\": [{\"title\": \"…\"}]", at: json.location, path: path)
      return nil
    }
    guard entity.uniquenessConstraints.isEmpty else {
      decoder.fail(
        "a batch insert into \(entity.name), which has uniqueness constraints, is not modelled",
        fix: "insert the objects in a context and save, or drop \"unique\" from the model",
        at: json.location, path: path)
      return nil
    }
    var rows: [[(key: String, value: Expression)]] = []
    for item in items {
      for member in item.members ?? [] where entity.relationship(named: member.key) != nil {
        decoder.fail(
          "a batch insert cannot set the relationship \"\(member.key)\": its dictionaries take attributes only",
          fix: "insert the rows, then relate the objects in a context and save",
          at: member.keyLocation, path: path)
        return nil
      }
      rows.append(decoder.attributeValues(item, entity: entity, path: path, scope: scope))
    }
    let mode = decoder.tryMode(tryMode)
    let bind = decoder.binding(self.bind, .objectIDs(entity: entity.name), step, scope: &scope)
    let dictionaries = rows.map { row in
      let pairs = row.map { "\"\($0.key)\": \($0.value.swift)" }
      return pairs.isEmpty ? "[:]" : "[" + pairs.joined(separator: ", ") + "]"
    }
    return Statement(
      .batchInsert(entity: entity.name, context: context, objects: rows, bind: bind, try: mode),
      swift: Self.request(
        "NSBatchInsertRequest(entityName: \"\(entity.name)\", objects: [\(dictionaries.joined(separator: ", "))])",
        "NSBatchInsertResult", bind: bind, context: context, mode: mode))
  }

  /// `mergeChanges(fromRemoteContextSave:into:)`: lists of object IDs under `inserted`,
  /// `updated` and `deleted`, merged into the contexts listed in `into`.
  private func mergeRemoteChanges(
    _ step: StepSite, scope: StepScope, in decoder: inout ScenarioDecoder
  ) -> Statement? {
    let path = step.path
    let what = "the changes to merge"
    guard let changesJSON = self.changes,
      let members = decoder.object(changesJSON, path: path, what: what)
    else { return nil }
    decoder.checkKeys(members, allowed: ["inserted", "updated", "deleted"], path: path, what: what)
    var changes = RemoteChanges()
    for member in members {
      let ids = Self.objectIDs(member.value, path: path, scope: scope, in: &decoder)
      switch member.key {
      case "inserted": changes.inserted = ids
      case "updated": changes.updated = ids
      case "deleted": changes.deleted = ids
      default: break
      }
    }
    if members.isEmpty {
      decoder.fail(
        "\"mergeRemoteChanges\" lists no changes",
        fix: "write {\"deleted\": \"$ids\"}, with \"inserted\" or \"updated\" as needed",
        at: changesJSON.location, path: path)
    }
    if contexts.isAbsent {
      decoder.fail(
        "this \"mergeRemoteChanges\" step has no \"into\"",
        fix: "add \"into\": [\"viewContext\"], the contexts that merge", at: step.location,
        path: path)
    }
    guard let into = contextNames(step, scope: scope, in: &decoder), !members.isEmpty else {
      return nil
    }
    guard !into.isEmpty else {
      decoder.fail(
        "\"into\" names no context", fix: "list the contexts that merge: [\"viewContext\"]",
        at: step.location, path: path)
      return nil
    }
    return Statement(
      .mergeRemoteChanges(changes, into: into), swift: Self.merge(changes.swift, into: into))
  }

  // MARK: Arguments

  /// The contexts `mergeInto` or `into` lists.
  private func contextNames(
    _ step: StepSite, scope: StepScope, in decoder: inout ScenarioDecoder
  ) -> [String]? {
    decoder.read(contexts).map { names in
      names.value.compactMap { name in
        decoder.read(name).flatMap { decoder.contextName($0, path: step.path, scope: scope) }
      }
    }
  }

  /// `"$ids"` or `["$id1", "$id2"]`: object IDs, which may cross threads; objects and plain
  /// values are refused, as Core Data's dictionary and `init(objectIDs:)` take IDs.
  private static func objectIDs(
    _ json: JSONValue, path: String, scope: StepScope, in decoder: inout ScenarioDecoder
  ) -> Expression? {
    guard let ids = decoder.expression(json, path: path, scope: scope, attribute: nil) else {
      return nil
    }
    func holdsIDs(_ expression: Expression) -> Bool {
      switch expression {
      case .literal(let value): return value == .list([])
      case .list(let items): return items.allSatisfy { $0.variableName != nil && holdsIDs($0) }
      case .variable(let name):
        switch scope.bindings[name] {
        case .objectID?, .objectIDs?, .unknown?, nil: return true
        default: return false
        }
      }
    }
    guard holdsIDs(ids) else {
      decoder.fail(
        "\(json.string.map { "\"\($0)\"" } ?? "this value") does not hold object IDs",
        fix: "pass IDs: the \"as\" of a batch request, or objectID of an object",
        at: json.location, path: path)
      return nil
    }
    return ids
  }

  // MARK: Swift

  private static func fetchRequest(_ entity: Entity, _ predicate: Predicate<Expression>) -> String {
    guard !predicate.matchesEverything else { return "\(entity.name).fetchRequest()" }
    return "NSFetchRequest(entityName: \"\(entity.name)\", predicate: "
      + "\(SwiftSource.predicate(predicate, of: entity)))"
  }

  /// `let request = …; request.resultType = .…ObjectIDs; let ids = (try ctx.execute(request)
  /// as? NSBatchDeleteResult)?.result as? [NSManagedObjectID] ?? []`.
  private static func request(
    _ make: String, _ result: String, bind: String?, context: String, mode: TryMode
  ) -> String {
    guard let bind else { return "\(mode.keyword) \(context).execute(\(make))" }
    let resultType =
      result == "NSBatchDeleteResult" ? ".resultTypeObjectIDs" : ".objectIDs"
    return "let request = \(make); request.resultType = \(resultType); "
      + "let \(bind) = (\(mode.keyword) \(context).execute(request) as? \(result))?.result "
      + "as? [NSManagedObjectID] ?? []"
  }

  private static func merge(_ changes: String, into contexts: [String]) -> String {
    "NSManagedObjectContext.mergeChanges(fromRemoteContextSave: \(changes), into: ["
      + contexts.joined(separator: ", ") + "])"
  }
}

extension BatchVerbs {
  /// Reads a step's arguments from its JSON; the memberwise initializer builds them directly.
  init(_ verb: Verb, _ arguments: StepArguments) {
    self.verb = verb
    target = verb == .mergeRemoteChanges ? .absent : arguments.string(what: "an entity name")
    changes = verb == .mergeRemoteChanges ? arguments.verbValue : nil
    context = arguments.string("in", what: "a context name")
    predicate = arguments.value("where")
    values = arguments.value("set")
    objects = arguments.value("objects")
    contexts =
      verb == .mergeRemoteChanges
      ? arguments.names("into", what: "\"into\"")
      : arguments.names("mergeInto", what: "\"mergeInto\"")
    bind = arguments.string("as", what: "\"as\"")
    tryMode = arguments.tryMode()
  }
}
