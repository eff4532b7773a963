/// The meaning checks of names a step uses: variables, key paths, entities, contexts, queues.
extension ScenarioDecoder {
  /// The context a step's argument names, reporting its shape problem or an unknown name.
  mutating func context(_ field: Field<String>, _ step: StepSite, scope: StepScope) -> String? {
    read(field).flatMap { contextName($0, path: step.path, scope: scope) }
  }

  /// The variable a step's argument names, reporting its shape problem or an unknown name.
  mutating func variable(_ field: Field<String>, _ step: StepSite, scope: StepScope) -> String? {
    read(field).flatMap { variableName($0, path: step.path, scope: scope) }
  }

  /// The entity a step's argument names, reporting its shape problem or an unknown name.
  mutating func entity(_ field: Field<String>, _ step: StepSite) -> Entity? {
    read(field).flatMap { entityName($0, path: step.path) }
  }

  /// A name written as a plain JSON string where a step's value is read whole, as in
  /// `expect`: its shape and its meaning checked together.
  mutating func name<T>(
    _ json: JSONValue, _ what: String, path: String,
    _ check: (inout ScenarioDecoder, Located<String>) -> T?
  ) -> T? {
    locatedString(json, path: path, what: what).flatMap { check(&self, $0) }
  }
  func isVisible(_ name: String, _ scope: StepScope) -> Bool {
    scope.bindings[name] != nil || sharedVars.contains(name)
  }

  mutating func unknownVariable(
    _ name: String, at location: SourceLocation, path: String, scope: StepScope
  ) {
    let candidates = Array(scope.bindings.keys).sorted() + sharedVars
    let fix =
      scope.boundInBlocks[name].map {
        "it is bound inside the block at \($0); pass it out through a var or look it up by ID"
      }
      ?? nearestName(to: name, in: candidates).map { "did you mean \"$\($0)\"?" }
      ?? "bind it earlier with \"as\" (a block sees what was bound before it was enqueued), or declare it in \"vars\""
    fail("unknown variable \"$\(name)\"", fix: fix, at: location, path: path)
  }

  /// A variable named with or without `$` in a place that only takes a variable.
  mutating func variableName(_ text: Located<String>, path: String, scope: StepScope) -> String? {
    let name = text.value.hasPrefix("$") ? String(text.value.dropFirst()) : text.value
    guard isVisible(name, scope) else {
      unknownVariable(name, at: text.location, path: path, scope: scope)
      return nil
    }
    return name
  }

  mutating func sharedVariable(_ text: Located<String>, path: String) -> String? {
    let name = text.value.hasPrefix("$") ? String(text.value.dropFirst()) : text.value
    guard sharedVars.contains(name) else {
      let fix =
        nearestName(to: name, in: sharedVars).map { "did you mean \"\($0)\"?" }
        ?? "declare \"\(name)\" in \"vars\" with its initial value"
      fail("\"\(name)\" is not a shared var", fix: fix, at: text.location, path: path)
      return nil
    }
    return name
  }

  /// `"note.title"`: a variable and a key, checked against the entity when it is known.
  mutating func keyPath(_ text: Located<String>, path: String, scope: StepScope) -> (
    String, String, Property?
  )? {
    let bare = text.value.hasPrefix("$") ? String(text.value.dropFirst()) : text.value
    let parts = bare.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
      fail(
        "\"\(text.value)\" is not VARIABLE.key",
        fix: "write the object's variable and the key: \"note.title\"",
        at: text.location, path: path)
      return nil
    }
    let (variable, key) = (parts[0], parts[1])
    guard isVisible(variable, scope) else {
      unknownVariable(variable, at: text.location, path: path, scope: scope)
      return nil
    }
    switch scope.bindings[variable] {
    case .value?:
      fail(
        "\"\(variable)\" holds a plain value, not a managed object",
        fix: "read keys of an object bound by fetch, insert or a lookup",
        at: text.location, path: path)
      return nil
    case .objects?:
      fail(
        "\"\(variable)\" is a list of objects",
        fix: "loop over it with forEach and read the key of each",
        at: text.location, path: path)
      return nil
    default:
      break
    }
    guard case .object(let entityName)? = scope.bindings[variable],
      let entity = entities.first(where: { $0.name == entityName })
    else { return (variable, key, nil) }
    if let relationship = entity.relationship(named: key) {
      return (variable, key, .relationship(relationship))
    }
    guard let attribute = knownAttribute(key, of: entity, at: text.location, path: path) else {
      return nil
    }
    return (variable, key, .attribute(attribute))
  }

  /// What a key names on an entity the decoder knows.
  enum Property {
    case attribute(Attribute)
    case relationship(Relationship)

    /// What reading it binds.
    var bindingType: BindingType {
      switch self {
      case .attribute: .value
      case .relationship(let r):
        r.isToMany ? .objects(entity: r.destination) : .object(entity: r.destination)
      }
    }
  }

  mutating func entityName(_ name: Located<String>, path: String) -> Entity? {
    knownEntity(name.value, at: name.location, path: path)
  }

  mutating func contextName(_ name: Located<String>, path: String, scope: StepScope) -> String? {
    if scope.bindings[name.value] == .context || contexts.contains(where: { $0.name == name.value })
    {
      return name.value
    }
    let names = contexts.map(\.name) + scope.bindings.filter { $0.value == .context }.keys.sorted()
    let fix =
      nearestName(to: name.value, in: names).map { "did you mean \"\($0)\"?" }
      ?? "declare it in \"contexts\" with \"queue\": \"private\", or use viewContext"
    fail("unknown context \"\(name.value)\"", fix: fix, at: name.location, path: path)
    return nil
  }

  /// Whether a name is a context here: declared, or made by a step in scope.
  func isContext(_ name: String, scope: StepScope) -> Bool {
    scope.bindings[name] == .context
      || (scope.bindings[name] == nil && contexts.contains { $0.name == name })
  }

  /// The entity of the object a variable holds, when the decoder knows it.
  func entityName(of variable: String, _ scope: StepScope) -> String? {
    switch scope.bindings[variable] {
    case .object(let entity)?, .objects(let entity)?: entity
    default: nil
    }
  }

  /// Whether the variable's entity has an attribute or relationship of that name, which
  /// then wins over an object-state property of the same name.
  func hasKey(_ key: String, of variable: String, _ scope: StepScope) -> Bool {
    guard let name = entityName(of: variable, scope),
      let entity = entities.first(where: { $0.name == name })
    else { return false }
    return entity.attribute(named: key) != nil || entity.relationship(named: key) != nil
  }

  /// A literal a context property may be set to: a merge policy's name, a flag, a string.
  mutating func contextPropertyValue(_ json: JSONValue, _ property: ContextProperty, path: String)
    -> Value?
  {
    switch (property, json.kind) {
    case (.mergePolicy, .string(let name)) where MergePolicy(rawValue: name) != nil:
      return .string(name)
    case (.automaticallyMergesChangesFromParent, .bool(let flag)),
      (.shouldDeleteInaccessibleFaults, .bool(let flag)):
      return .bool(flag)
    case (.name, .string(let text)), (.transactionAuthor, .string(let text)):
      return .string(text)
    case (.name, .null), (.transactionAuthor, .null), (.undoManager, .null):
      return .null
    case (.undoManager, .string(let text)):
      return .string(text)
    default:
      let wanted =
        switch property {
        case .mergePolicy:
          "a merge policy: " + MergePolicy.allCases.map(\.rawValue).joined(separator: ", ")
        case .name, .transactionAuthor: "a string or null"
        case .undoManager: "null (none) or a string (one, as `UndoManager()`)"
        default: "true or false"
        }
      fail(
        "\(property.rawValue) cannot be set to this value", fix: "write \(wanted)",
        at: json.location, path: path)
      return nil
    }
  }

  /// Whether a queue runs one block at a time: main and declared serial queues.
  func isSerialQueue(_ name: String) -> Bool {
    name == "main" || queues.contains { $0.name == name && $0.attributes == .serial }
  }

  mutating func queueName(_ name: Located<String>, path: String) -> String? {
    let names = ["main", "global"] + queues.map(\.name)
    if names.contains(name.value) { return name.value }
    if contexts.contains(where: { $0.name == name.value }) {
      fail(
        "\"\(name.value)\" is a context; its private queue is reached with perform, not dispatched to",
        fix: "write { \"perform\": \"\(name.value)\", \"do\": [ … ] }", at: name.location,
        path: path)
      return nil
    }
    let fix =
      nearestName(to: name.value, in: names).map { "did you mean \"\($0)\"?" }
      ?? "use \"main\", \"global\", or declare the queue in \"queues\""
    fail("unknown queue \"\(name.value)\"", fix: fix, at: name.location, path: path)
    return nil
  }
}
