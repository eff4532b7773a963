extension Step {
  /// The line of Swift this step stands for, as lessons and backtraces show it.
  ///
  ///     {"fetch": "Note", "in": "background", "first": true, "as": "note"}
  ///     // let note = try background.fetch(Note.fetchRequest()).first
  public var swift: String {
    guard let condition else { return statement }
    let test =
      "\(condition.variable) \(condition.negated ? "!=" : "==") \(condition.value.swiftDescription)"
    return "if \(test) { \(statement) }"
  }

  /// The statement itself, without the `if` a `"when"` adds.
  private var statement: String {
    switch action {
    case .async(let queue, _): "\(dispatchQueue(queue)).async {"
    case .sync(let queue, _): "\(dispatchQueue(queue)).sync {"
    case .perform(let context, _): "\(context).perform {"
    case .performAndWait(let context, _): "\(context).performAndWait {"
    case .task(.main, _): "Task { @MainActor in"
    case .task(.detached, _): "Task.detached {"
    case .performAwait(let context, let schedule, _):
      "try await \(context).perform(schedule: .\(schedule.rawValue)) {"
    case .taskGroup(let sequence, let bind, _, _):
      "await withTaskGroup { group in for \(bind) in \(sequence.swift) { group.addTask {"
    case .letValue(let name, let value): "let \(name) = \(value.swift)"
    case .insert(let entity, let context, let values, let bind):
      ([
        "\(assign(bind))NSEntityDescription.insertNewObject(forEntityName: \"\(entity)\", into: \(context))"
      ]
        + values.map { "\(bind ?? "object").\($0.key) = \($0.value.swift)" }).joined(
          separator: "; ")
    case .fetch(let entity, let context, let predicate, let first, let bind, let mode):
      "\(assign(bind))\(mode.keyword) \(context).fetch(\(request(entity, predicate)))\(first ? ".first" : "")"
    case .count(let entity, let context, let predicate, let bind, let mode):
      "\(assign(bind))\(mode.keyword) \(context).count(for: \(request(entity, predicate)))"
    case .get(let variable, let key, let bind): "\(assign(bind))\(variable).\(key)"
    case .set(let variable, let key, let value): "\(variable).\(key) = \(value.swift)"
    case .save(let context, let mode): "\(mode.keyword) \(context).save()"
    case .objectID(let variable, let bind): "let \(bind) = \(variable).objectID"
    case .newContext(let context, true): "let \(context.name) = container.newBackgroundContext()"
    case .newContext(let context, false): newContext(context)
    case .insertObject(let variable, let context): "\(context).insert(\(variable))"
    case .delete(let variable): "\(variable).managedObjectContext?.delete(\(variable))"
    case .refresh(let variable, let merge):
      "\(variable).managedObjectContext?.refresh(\(variable), mergeChanges: \(merge))"
    case .reset(let context): "\(context).reset()"
    case .obtainPermanentIDs(let context, let mode):
      "\(mode.keyword) \(context).obtainPermanentIDs(for: Array(\(context).insertedObjects))"
    case .rollback(let context): "\(context).rollback()"
    case .batchUpdate(let entity, let context, let predicate, let values, let mergeInto):
      batchUpdate(entity, context, predicate, values, mergeInto)
    case .existingObject(let id, let context, let bind, let mode):
      "\(assign(bind))\(mode.keyword) \(context).existingObject(with: \(id.swift))"
    case .object(let id, let context, let bind):
      "\(assign(bind))\(context).object(with: \(id.swift))"
    case .read(let variable, let bind): "\(assign(bind))self.\(variable)"
    case .write(let variable, let value): "self.\(variable) = \(value.swift)"
    case .forEach(let sequence, let bind, _): "for \(bind) in \(sequence.swift) {"
    case .print(let parts):
      "print(\""
        + parts.map { part in
          switch part {
          case .text(let words): words
          case .variable(let name): "\\(\(name))"
          }
        }.joined() + "\")"
    case .expect(.count(let entity, let context, let predicate, let bound)):
      "#expect(try \(context).count(for: \(request(entity, predicate))) \(bound.swift))"
    case .expect(.relationshipCount(let variable, let key, let bound)):
      "#expect(\(variable).\(key).count \(bound.swift))"
    case .expect(.value(let variable, let key, let equals)):
      "#expect(\(variable)\(key.map { ".\($0)" } ?? "") == \(equals.swiftDescription))"
    }
  }

  private func assign(_ bind: String?) -> String {
    bind.map { "let \($0) = " } ?? ""
  }

  private func dispatchQueue(_ name: String) -> String {
    switch name {
    case "main": "DispatchQueue.main"
    case "global": "DispatchQueue.global()"
    default: name
    }
  }

  private func request(_ entity: String, _ predicate: [(key: String, value: Expression)]) -> String
  {
    guard !predicate.isEmpty else { return "\(entity).fetchRequest()" }
    return "\(entity).fetchRequest(\(predicateText(predicate)))"
  }

  private func predicateText(_ predicate: [(key: String, value: Expression)]) -> String {
    let format = predicate.map { "\($0.key) == %@" }.joined(separator: " AND ")
    let arguments = predicate.map(\.value.swift).joined(separator: ", ")
    return "NSPredicate(format: \"\(format)\", \(arguments))"
  }

  private func batchUpdate(
    _ entity: String, _ context: String, _ predicate: [(key: String, value: Expression)],
    _ values: [(key: String, value: Expression)], _ mergeInto: [String]
  ) -> String {
    var parts = ["let request = NSBatchUpdateRequest(entityName: \"\(entity)\")"]
    if !predicate.isEmpty { parts.append("request.predicate = \(predicateText(predicate))") }
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

  private func newContext(_ context: ContextDescription) -> String {
    let type =
      context.concurrencyType == .mainQueue
      ? ".mainQueueConcurrencyType" : ".privateQueueConcurrencyType"
    let parent =
      switch context.parent {
      case .store:
        "\(context.name).persistentStoreCoordinator = container.persistentStoreCoordinator"
      case .context(let parent): "\(context.name).parent = \(parent)"
      }
    return "let \(context.name) = NSManagedObjectContext(concurrencyType: \(type)); \(parent)"
  }
}

extension TryMode {
  /// `try`, `try?` or `try!`.
  public var keyword: String {
    switch self {
    case .do: "try"
    case .optional: "try?"
    case .force: "try!"
    }
  }
}

extension Expression {
  /// The expression as Swift source: a literal, or the variable's name.
  public var swift: String {
    switch self {
    case .literal(let value): value.swiftDescription
    case .variable(let name): name
    case .list(let items): "[" + items.map(\.swift).joined(separator: ", ") + "]"
    }
  }
}
