/// `{"get": "VAR.key", "as": VAR}` and `{"set": "VAR.key", "to": value}`: reading and writing
/// an attribute or relationship of a managed object; a read fires the fault.
///
/// A relationship takes objects named by `$variables` (or null for a to-one), never a
/// literal; an attribute takes a literal of its type.
struct PropertyVerbs: VerbFamily {
  enum Verb: String, CaseIterable {
    case get, set
  }

  static func schema(of verb: Verb) -> StepSchema {
    switch verb {
    case .get: StepSchema(.string, [.bind])
    case .set: StepSchema(.string, [.init("to", .anything, required: true)])
    }
  }

  var verb: Verb
  var keyPath: Field<String>
  var bind: Field<String>
  var value: Field<JSONValue>

  func statement(_ step: StepSite, scope: inout StepScope, in decoder: inout ScenarioDecoder)
    -> Statement?
  {
    let path = step.path
    guard let text = decoder.read(keyPath) else { return nil }
    if let state = stateStatement(text, step, scope: &scope, in: &decoder) { return state }
    guard let (variable, key, property) = decoder.keyPath(text, path: path, scope: scope)
    else { return nil }
    switch verb {
    case .get:
      let bind = decoder.binding(self.bind, property?.bindingType ?? .unknown, step, scope: &scope)
      return Statement(
        .get(variable: variable, key: key, bind: bind),
        swift: "\(SwiftSource.assign(bind))\(variable).\(key)")
    case .set:
      guard let json = decoder.required(value, "to", step, what: "the new value")?.value else {
        return nil
      }
      let value: Expression?
      switch property {
      case .relationship(let relationship)?:
        value = decoder.relationshipValue(json, relationship, path: path, scope: scope)
      case .attribute(let attribute)?:
        value = decoder.expression(json, path: path, scope: scope, attribute: attribute)
      case nil:
        value = decoder.expression(json, path: path, scope: scope, attribute: nil)
      }
      return value.map {
        Statement(
          .set(variable: variable, key: key, value: $0), swift: "\(variable).\(key) = \($0.swift)")
      }
    }
  }
}

extension PropertyVerbs {
  /// `context.hasChanges`, `context.mergePolicy = …`, `note.isDeleted`: a context's
  /// property, or an object's state where its entity has no attribute of that name.
  /// Returns nil for an attribute or relationship, which the caller decodes.
  private func stateStatement(
    _ text: Located<String>, _ step: StepSite, scope: inout StepScope,
    in decoder: inout ScenarioDecoder
  ) -> Statement?? {
    let parts = text.value.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 2 else { return nil }
    let (owner, key) = (parts[0], parts[1])
    if decoder.isContext(owner, scope: scope) {
      return .some(contextStatement(owner, key, at: text.location, step, scope: &scope, &decoder))
    }
    if case .controller(let entity)? = scope.bindings[owner] {
      guard verb == .get, let key = ControllerKey(rawValue: key) else {
        decoder.fail(
          "a fetched results controller has no \"\(key)\" to \(verb.rawValue)",
          fix: "read fetchedObjects or numberOfObjects with \"get\"", at: text.location,
          path: step.path)
        return .some(nil)
      }
      let type: BindingType = key == .fetchedObjects ? .objects(entity: entity) : .value
      let bind = decoder.binding(self.bind, type, step, scope: &scope)
      return .some(
        Statement(
          .controllerProperty(controller: owner, key: key, bind: bind),
          swift: "\(SwiftSource.assign(bind))\(owner).\(key.swift)"))
    }
    if scope.bindings[owner] == .notification || scope.bindings[owner] == .remoteChangeNotification
    {
      return .some(
        notificationStatement(owner, key, at: text.location, step, scope: &scope, &decoder))
    }
    if scope.bindings[owner] == .transaction {
      return .some(
        transactionStatement(owner, key, at: text.location, step, scope: &scope, &decoder))
    }
    guard let property = ObjectStateProperty(rawValue: key), !decoder.hasKey(key, of: owner, scope)
    else { return nil }
    guard verb == .get else {
      decoder.fail(
        "\"\(key)\" is read-only", fix: "read it with \"get\"; Core Data sets it itself",
        at: text.location, path: step.path)
      return .some(nil)
    }
    let type: BindingType =
      switch property {
      case .objectID: .objectID(entity: decoder.entityName(of: owner, scope) ?? "")
      case .managedObjectContext: .context
      default: .value
      }
    let bind = decoder.binding(self.bind, type, step, scope: &scope)
    return .some(
      Statement(
        .objectState(variable: owner, property: property, bind: bind),
        swift: "\(SwiftSource.assign(bind))\(owner).\(property.swift)"))
  }

  /// `notification.object` or its changed objects: plain reads of the notification.
  private func notificationStatement(
    _ notification: String, _ key: String, at location: SourceLocation, _ step: StepSite,
    scope: inout StepScope, _ decoder: inout ScenarioDecoder
  ) -> Statement? {
    // A remote-change notification's object is the coordinator, and it lists no objects.
    let isRemote = scope.bindings[notification] == .remoteChangeNotification
    guard verb == .get, let property = NotificationKey(rawValue: key),
      isRemote == (property == .historyToken)
    else {
      decoder.fail(
        "a\(isRemote ? " remote-change" : "") notification has no \"\(key)\" to \(verb.rawValue)",
        fix: isRemote
          ? "read historyToken with \"get\"; its object is the coordinator, which ctxsim does not model"
          : "read object, insertedObjects, updatedObjects or deletedObjects with \"get\"",
        at: location, path: step.path)
      return nil
    }
    let type: BindingType =
      switch property {
      case .object: .context
      case .historyToken: .value
      default: .unknown
      }
    let bind = decoder.binding(self.bind, type, step, scope: &scope)
    return Statement(
      .notificationProperty(variable: notification, key: property, bind: bind),
      swift: "\(SwiftSource.assign(bind))\(notification).\(property.swift)")
  }

  /// `tx.token`, `tx.author`, the IDs it changed: plain reads, which never trap.
  private func transactionStatement(
    _ transaction: String, _ key: String, at location: SourceLocation, _ step: StepSite,
    scope: inout StepScope, _ decoder: inout ScenarioDecoder
  ) -> Statement? {
    guard verb == .get, let property = TransactionKey(rawValue: key) else {
      decoder.fail(
        "a history transaction has no \"\(key)\" to \(verb.rawValue)",
        fix: "read "
          + TransactionKey.allCases.map(\.rawValue).joined(separator: ", ")
          + " with \"get\"", at: location, path: step.path)
      return nil
    }
    let type: BindingType =
      switch property {
      case .token, .author, .contextName: .value
      default: .unknown
      }
    let bind = decoder.binding(self.bind, type, step, scope: &scope)
    return Statement(
      .transactionProperty(variable: transaction, key: property, bind: bind),
      swift: "\(SwiftSource.assign(bind))\(transaction).\(property.swift)")
  }

  private func contextStatement(
    _ context: String, _ key: String, at location: SourceLocation, _ step: StepSite,
    scope: inout StepScope, _ decoder: inout ScenarioDecoder
  ) -> Statement? {
    guard let property = ContextProperty(rawValue: key) else {
      decoder.fail(
        "\"\(key)\" is not a context property ctxsim models",
        fix: nearestName(to: key, in: ContextProperty.allCases.map(\.rawValue)).map {
          "did you mean \"\($0)\"?"
        } ?? "see docs/scenario-format.md for the properties a step can read", at: location,
        path: step.path)
      return nil
    }
    switch verb {
    case .get:
      let type: BindingType = property == .parent ? .context : .value
      let bind = decoder.binding(self.bind, type, step, scope: &scope)
      return Statement(
        .contextProperty(context: context, property: property, bind: bind),
        swift: "\(SwiftSource.assign(bind))\(context).\(key)")
    case .set:
      guard property.isSettable else {
        decoder.fail(
          "\(context).\(key) cannot be set by a step",
          fix:
            "set mergePolicy, automaticallyMergesChangesFromParent, name, transactionAuthor, undoManager or shouldDeleteInaccessibleFaults",
          at: location, path: step.path)
        return nil
      }
      guard let json = decoder.required(value, "to", step, what: "the new value")?.value,
        let value = decoder.contextPropertyValue(json, property, path: step.path)
      else { return nil }
      let swift =
        if case .string(let policy) = value, property == .mergePolicy {
          "NSMergePolicy.\(policy)"
        } else {
          value.swiftDescription
        }
      return Statement(
        .setContextProperty(context: context, property: property, value: value),
        swift: "\(context).\(key) = \(swift)")
    }
  }

  /// Reads a step's arguments from its JSON; the memberwise initializer builds them directly.
  init(_ verb: Verb, _ arguments: StepArguments) {
    self.verb = verb
    keyPath = arguments.string(what: "a key path")
    bind = arguments.string("as", what: "\"as\"")
    value = arguments.value("to")
  }
}
