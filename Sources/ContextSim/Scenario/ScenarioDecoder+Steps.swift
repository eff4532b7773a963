/// What the decoder knows about a variable bound with `"as"`, to check the names used on it.
enum BindingType: Equatable {
  case object(entity: String)
  case objects(entity: String)
  case objectID(entity: String)
  /// A plain value: a count, an attribute, a loop over literals. Never an object.
  case value
  /// Anything, as far as the decoder can tell: a shared var, an ID of unknown entity.
  case unknown
  /// A context made by a `newContext` or `newBackgroundContext` step.
  case context
}

/// The variables a step can see, as a Swift closure sees them.
///
/// Synchronous bodies (`performAndWait`, `sync`, `forEach`) bind into the scope around
/// them, as a block assigning to an outer `var` does; an asynchronous block starts from a
/// copy taken when it is enqueued, so what it binds stays inside it.
struct StepScope {
  var bindings: [String: BindingType] = [:]
  /// Whether steps here run in a Swift task, where `await` is allowed.
  var isAsync = false
  /// Names bound only inside an asynchronous block enqueued from here, with the block's
  /// place, so an error can say why they are out of reach.
  var boundInBlocks: [String: SourceLocation] = [:]
}

extension ScenarioDecoder {
  /// Verbs this version runs, and the keys each accepts besides `label` and `note`.
  static let verbKeys: [String: [String]] = [
    "async": ["do"], "sync": ["do"], "perform": ["do", "await", "schedule"],
    "performAndWait": ["do"], "task": ["do"], "taskGroup": ["as", "child", "then"],
    "let": ["value"],
    "insert": ["into", "as", "values"], "fetch": ["in", "where", "as", "first", "try"],
    "count": ["in", "where", "as", "try"], "get": ["as"], "set": ["to"], "save": ["try"],
    "objectID": ["as"], "existingObject": ["in", "as", "try"], "object": ["in", "as"],
    "read": ["as"], "write": ["value"], "forEach": ["as", "do"], "print": [], "expect": [],
    "newContext": contextOptionKeys, "newBackgroundContext": [], "delete": [], "refresh": ["merge"],
    "reset": [], "rollback": [], "obtainPermanentIDs": ["try"],
    "batchUpdate": ["in", "where", "set", "mergeInto"],
  ]

  mutating func decodeSteps(
    _ json: JSONValue, path: String, scope: inout StepScope, enclosingLabels: [String]
  ) -> [Step] {
    guard let items = list(json, path: path, what: "the steps at \(path)") else { return [] }
    var steps: [Step] = []
    for (i, item) in items.enumerated() {
      if let step = decodeStep(
        item, path: "\(path)[\(i)]", scope: &scope, enclosingLabels: enclosingLabels)
      {
        steps.append(step)
      }
    }
    return steps
  }

  private mutating func decodeStep(
    _ json: JSONValue, path: String, scope: inout StepScope, enclosingLabels: [String]
  ) -> Step? {
    guard let members = object(json, path: path, what: "a step") else { return nil }
    let known = Set(Self.verbKeys.keys)
    // A verb's own argument may share a verb's name (`batchUpdate` takes `set`).
    let present = members.filter { known.contains($0.key) }
    let verbs = present.filter { member in
      !present.contains { Self.verbKeys[$0.key]?.contains(member.key) == true }
    }
    guard let verbMember = verbs.first else {
      collectLabels(json)
      let unknown = members.first { !["label", "note"].contains($0.key) }
      let suggestion = unknown.flatMap {
        nearestName(to: $0.key, in: Array(Self.verbKeys.keys).sorted())
      }
      if let unknown {
        fail(
          "unknown verb \"\(unknown.key)\"",
          fix: suggestion.map { "did you mean \"\($0)\"?" }
            ?? "a step starts with a verb such as \"fetch\", \"perform\" or \"async\"; see docs/scenario-format.md",
          at: unknown.keyLocation, path: path)
      } else {
        fail(
          "this step has no verb", fix: "add one verb key, such as \"fetch\" or \"perform\"",
          at: json.location, path: path)
      }
      return nil
    }
    if verbs.count > 1 {
      collectLabels(json)
      fail(
        "a step has one verb, but this one has \"\(verbs[0].key)\" and \"\(verbs[1].key)\"",
        fix: "split it into two steps", at: verbs[1].keyLocation, path: path)
      return nil
    }
    let verb = verbMember.key
    checkKeys(
      members, allowed: [verb, "label", "note", "when"] + Self.verbKeys[verb]!, path: path,
      what: "a \"\(verb)\" step")

    let index = stepCount
    stepCount += 1
    var label: String?
    if let labelJSON = json["label"], let name = string(labelJSON, path: path, what: "\"label\"") {
      if let first = labels[name] {
        fail(
          "the label \"\(name)\" is already used at \(first)", fix: "give each step its own label",
          at: labelJSON.location, path: path)
      } else {
        labels[name] = labelJSON.location
      }
      label = name
    }
    let note = json["note"].flatMap { string($0, path: path, what: "\"note\"") }
    let stepLabels = (label.map { [$0] } ?? []) + enclosingLabels
    let condition = json["when"].flatMap { self.condition($0, path: path, scope: scope) }
    var context = StepContext(
      verb: verb, json: json, verbValue: verbMember.value, path: path, labels: stepLabels)
    guard let action = decodeAction(verb, &context, scope: &scope) else {
      collectLabels(json)
      return nil
    }
    return Step(
      index: index, path: path, location: json.location, label: label, note: note,
      labels: stepLabels, condition: condition, action: action)
  }

  /// What decoding one step's action needs to know about the step.
  struct StepContext {
    var verb: String
    var json: JSONValue
    var verbValue: JSONValue
    var path: String
    var labels: [String]
  }

  // MARK: Actions

  private mutating func decodeAction(
    _ verb: String, _ step: inout StepContext, scope: inout StepScope
  ) -> Action? {
    let path = step.path
    switch verb {
    case "async", "sync":
      guard let queue = queueName(step.verbValue, path: path) else { return nil }
      let body = blockBody(step, scope: &scope, synchronous: verb == "sync")
      return verb == "sync" ? .sync(queue: queue, body: body) : .async(queue: queue, body: body)

    case "perform" where step.json["await"] != nil || step.json["schedule"] != nil:
      guard let context = contextName(step.verbValue, path: path, scope: scope) else { return nil }
      guard step.json["await"].flatMap({ bool($0, path: path, what: "\"await\"") }) == true else {
        fail(
          "\"schedule\" belongs to the async perform",
          fix: "add \"await\": true, or remove \"schedule\"",
          at: step.json.location, path: path)
        return nil
      }
      guard scope.isAsync else {
        fail(
          "await is only allowed inside a Swift task",
          fix: "put this step inside {\"task\": \"main\", \"do\": [ … ]}",
          at: step.json.location, path: path)
        return nil
      }
      let schedule =
        step.json["schedule"].flatMap {
          choice($0, path: path, what: "the schedule", as: ScheduledTaskType.self)
        } ?? .immediate
      // The closure is synchronous; what it binds is its return value, seen after the await.
      var inner = scope
      inner.isAsync = false
      let body = blockBody(step, scope: &inner, synchronous: true)
      for (name, type) in inner.bindings where scope.bindings[name] == nil {
        scope.bindings[name] = type
      }
      return .performAwait(context: context, schedule: schedule, body: body)

    case "task":
      guard
        let executor = choice(
          step.verbValue, path: path, what: "the task's executor", as: TaskExecutor.self)
      else { return nil }
      var inner = scope
      inner.isAsync = true
      return .task(executor, body: blockBody(step, scope: &inner, synchronous: false))

    case "taskGroup":
      guard scope.isAsync else {
        fail(
          "a task group is only allowed inside a Swift task",
          fix: "put it inside {\"task\": \"main\", \"do\": [ … ]}",
          at: step.json.location, path: path)
        return nil
      }
      guard let sequence = expression(step.verbValue, path: path, scope: scope, attribute: nil),
        let bindJSON = required("as", step, what: "the name each child gets its element as"),
        let bind = string(bindJSON, path: path, what: "\"as\"")
      else { return nil }
      var child = scope
      child.bindings[bind] = .unknown
      let childSteps = blockBody(step, key: "child", scope: &child, synchronous: true)
      var then = child
      then.isAsync = true
      let thenSteps = blockBody(step, key: "then", scope: &then, synchronous: false)
      return .taskGroup(sequence: sequence, bind: bind, child: childSteps, then: thenSteps)

    case "let":
      guard let valueJSON = required("value", step, what: "the value to bind"),
        let value = expression(valueJSON, path: path, scope: scope, attribute: nil),
        let name = string(step.verbValue, path: path, what: "a variable name")
      else { return nil }
      guard isIdentifier(name), !sharedVars.contains(name) else {
        fail(
          "\"\(name)\" cannot be bound with let",
          fix: "use letters, digits and _, and not the name of a shared var",
          at: step.verbValue.location, path: path)
        return nil
      }
      scope.bindings[name] = .value
      return .letValue(name: name, value: value)

    case "perform", "performAndWait":
      guard let context = contextName(step.verbValue, path: path, scope: scope) else { return nil }
      var inner = scope
      inner.isAsync = false
      let body = blockBody(step, scope: &inner, synchronous: verb == "performAndWait")
      if verb == "performAndWait" { scope.bindings = inner.bindings }
      return verb == "performAndWait"
        ? .performAndWait(context: context, body: body) : .perform(context: context, body: body)

    case "insert" where step.verbValue.string?.hasPrefix("$") == true:
      guard let variable = variableName(step.verbValue, path: path, scope: scope),
        let context = required("into", step, what: "the context to insert into").flatMap({
          contextName($0, path: path, scope: scope)
        })
      else { return nil }
      return .insertObject(variable: variable, context: context)

    case "insert":
      let entity = entityName(step.verbValue, path: path)
      let context = required("into", step, what: "the context to insert into").flatMap {
        contextName($0, path: path, scope: scope)
      }
      guard let entity, let context else { return nil }
      var values: [(key: String, value: Expression)] = []
      if let valuesJSON = step.json["values"] {
        values = attributeValues(valuesJSON, entity: entity, path: path, scope: scope)
      }
      let bind = binding(step, .object(entity: entity.name), scope: &scope)
      return .insert(entity: entity.name, context: context, values: values, bind: bind)

    case "fetch", "count":
      let entity = entityName(step.verbValue, path: path)
      let context = required("in", step, what: "the context to \(verb) in").flatMap {
        contextName($0, path: path, scope: scope)
      }
      guard let entity, let context else { return nil }
      let predicate =
        step.json["where"].map {
          attributeValues($0, entity: entity, path: path, scope: scope)
        } ?? []
      let tryMode = self.tryMode(step, path: path)
      if verb == "count" {
        let bind = binding(step, .value, scope: &scope)
        return .count(
          entity: entity.name, context: context, predicate: predicate, bind: bind, try: tryMode)
      }
      let first = step.json["first"].flatMap { bool($0, path: path, what: "\"first\"") } ?? false
      let bind = binding(
        step, first ? .object(entity: entity.name) : .objects(entity: entity.name), scope: &scope)
      return .fetch(
        entity: entity.name, context: context, predicate: predicate, first: first, bind: bind,
        try: tryMode)

    case "get":
      guard let (variable, key, property) = keyPath(step.verbValue, path: path, scope: scope) else {
        return nil
      }
      let bind = binding(step, property?.bindingType ?? .unknown, scope: &scope)
      return .get(variable: variable, key: key, bind: bind)

    case "set":
      guard let (variable, key, property) = keyPath(step.verbValue, path: path, scope: scope) else {
        return nil
      }
      guard let valueJSON = required("to", step, what: "the new value") else { return nil }
      let value: Expression?
      switch property {
      case .relationship(let relationship)?:
        value = relationshipValue(valueJSON, relationship, path: path, scope: scope)
      case .attribute(let attribute)?:
        value = expression(valueJSON, path: path, scope: scope, attribute: attribute)
      case nil:
        value = expression(valueJSON, path: path, scope: scope, attribute: nil)
      }
      return value.map { .set(variable: variable, key: key, value: $0) }

    case "save":
      guard let context = contextName(step.verbValue, path: path, scope: scope) else { return nil }
      return .save(context: context, try: tryMode(step, path: path))

    case "objectID":
      guard let variable = variableName(step.verbValue, path: path, scope: scope) else {
        return nil
      }
      guard step.json["as"] != nil else {
        fail(
          "\"objectID\" needs \"as\"", fix: "add \"as\": \"\(variable)ID\"", at: step.json.location,
          path: path)
        return nil
      }
      let entity: String? =
        switch scope.bindings[variable] {
        case .object(let entity)?: entity
        default: nil
        }
      let bind = binding(step, entity.map { .objectID(entity: $0) } ?? .unknown, scope: &scope)
      return bind.map { .objectID(variable: variable, bind: $0) }

    case "existingObject", "object":
      guard let id = expression(step.verbValue, path: path, scope: scope, attribute: nil) else {
        return nil
      }
      guard
        let context = required("in", step, what: "the context to look the object up in").flatMap({
          contextName($0, path: path, scope: scope)
        })
      else { return nil }
      var type = BindingType.unknown
      if case .variable(let name) = id, case .objectID(let entity)? = scope.bindings[name] {
        type = .object(entity: entity)
      }
      let bind = binding(step, type, scope: &scope)
      if verb == "object" {
        return .object(id: id, context: context, bind: bind)
      }
      return .existingObject(id: id, context: context, bind: bind, try: tryMode(step, path: path))

    case "read":
      guard let variable = sharedVariable(step.verbValue, path: path) else { return nil }
      return .read(variable: variable, bind: binding(step, .unknown, scope: &scope))

    case "write":
      guard let variable = sharedVariable(step.verbValue, path: path) else { return nil }
      guard let valueJSON = required("value", step, what: "the value to write"),
        let value = expression(valueJSON, path: path, scope: scope, attribute: nil)
      else { return nil }
      return .write(variable: variable, value: value)

    case "forEach":
      guard let sequence = expression(step.verbValue, path: path, scope: scope, attribute: nil)
      else {
        return nil
      }
      var elementType = BindingType.value
      if case .variable(let name) = sequence {
        switch scope.bindings[name] {
        case .objects(let entity)?: elementType = .object(entity: entity)
        case .value?: elementType = .value
        default: elementType = .unknown
        }
      }
      guard step.json["as"] != nil else {
        fail(
          "\"forEach\" needs \"as\"", fix: "add \"as\": the name each element is bound to",
          at: step.json.location, path: path)
        return nil
      }
      guard let bind = binding(step, elementType, scope: &scope) else { return nil }
      let body = blockBody(step, scope: &scope, synchronous: true)
      return .forEach(sequence: sequence, bind: bind, body: body)

    case "print":
      guard let text = string(step.verbValue, path: path, what: "\"print\"") else { return nil }
      let parts = template(text)
      for case .variable(let name) in parts where !isVisible(name, scope) {
        unknownVariable(name, at: step.verbValue.location, path: path, scope: scope)
      }
      return .print(parts)

    case "expect":
      return assertion(step.verbValue, path: path, scope: scope).map { .expect($0) }

    case "newContext", "newBackgroundContext":
      guard let name = string(step.verbValue, path: path, what: "the new context's name") else {
        return nil
      }
      guard isIdentifier(name), !["main", "global"].contains(name) else {
        fail(
          "\"\(name)\" cannot name a context",
          fix: "use letters, digits and _, and not main or global",
          at: step.verbValue.location, path: path)
        return nil
      }
      let background = verb == "newBackgroundContext"
      let json = background ? JSONValue.object(["queue": .string("private")]) : step.json
      guard var context = contextOptions(json, name: name, requiresQueue: true, path: path) else {
        return nil
      }
      if let parent = step.json["parent"], case .context = context.parent,
        contextName(parent, path: path, scope: scope) == nil
      {
        return nil
      }
      if background { context.parent = .store }
      scope.bindings[name] = .context
      return .newContext(context, background: background)

    case "delete":
      guard let variable = variableName(step.verbValue, path: path, scope: scope) else {
        return nil
      }
      return .delete(variable: variable)

    case "refresh":
      guard let variable = variableName(step.verbValue, path: path, scope: scope) else {
        return nil
      }
      let merge = step.json["merge"].flatMap { bool($0, path: path, what: "\"merge\"") } ?? false
      return .refresh(variable: variable, merge: merge)

    case "obtainPermanentIDs":
      guard let context = contextName(step.verbValue, path: path, scope: scope) else { return nil }
      return .obtainPermanentIDs(context: context, try: tryMode(step, path: path))

    case "reset", "rollback":
      guard let context = contextName(step.verbValue, path: path, scope: scope) else { return nil }
      return verb == "reset" ? .reset(context: context) : .rollback(context: context)

    case "batchUpdate":
      let entity = entityName(step.verbValue, path: path)
      let context = required("in", step, what: "the context that runs the request").flatMap {
        contextName($0, path: path, scope: scope)
      }
      let valuesJSON = required("set", step, what: "the attribute values to write")
      guard let entity, let context, let valuesJSON else { return nil }
      let predicate =
        step.json["where"].map { attributeValues($0, entity: entity, path: path, scope: scope) }
        ?? []
      let values = attributeValues(valuesJSON, entity: entity, path: path, scope: scope)
      var mergeInto: [String] = []
      if let list = step.json["mergeInto"].flatMap({ list($0, path: path, what: "\"mergeInto\"") })
      {
        mergeInto = list.compactMap { contextName($0, path: path, scope: scope) }
      }
      return .batchUpdate(
        entity: entity.name, context: context, predicate: predicate, values: values,
        mergeInto: mergeInto)

    default:
      return nil
    }
  }

  /// The steps of a block. A synchronous block binds into the scope around it; an
  /// asynchronous one works on a copy, so its bindings stay inside it.
  private mutating func blockBody(
    _ step: StepContext, key: String = "do", scope: inout StepScope, synchronous: Bool
  ) -> [Step] {
    guard let body = step.json[key] else {
      fail(
        "\"\(step.verb)\" needs \"\(key)\"", fix: "add \"\(key)\": [ … ], the steps of the block",
        at: step.json.location, path: step.path)
      return []
    }
    var inner = scope
    // A dispatch block or a context's block is plain synchronous code, not a task.
    if ["async", "sync", "perform", "performAndWait"].contains(step.verb) { inner.isAsync = false }
    let steps = decodeSteps(
      body, path: "\(step.path).\(step.verb).\(key)", scope: &inner, enclosingLabels: step.labels)
    if synchronous {
      scope.bindings = inner.bindings
      scope.boundInBlocks = inner.boundInBlocks
    } else {
      for (name, location) in inner.boundInBlocks where scope.bindings[name] == nil {
        scope.boundInBlocks[name] = scope.boundInBlocks[name] ?? location
      }
      for name in inner.bindings.keys where scope.bindings[name] == nil {
        scope.boundInBlocks[name] = scope.boundInBlocks[name] ?? step.json.location
      }
    }
    return steps
  }

  /// Remembers the labels written in a step that failed to decode, and in the steps of its
  /// blocks, so a reference to one is not reported again as a label no step has.
  private mutating func collectLabels(_ json: JSONValue) {
    guard let members = json.members else { return }
    for member in members {
      if member.key == "label", let name = member.value.string {
        labelsOfFailedSteps.insert(name)
      } else if ["do", "child", "then"].contains(member.key), let steps = member.value.elements {
        steps.forEach { collectLabels($0) }
      }
    }
  }

  /// `"when": {"value": "VAR", "equals": v}` or `"notEquals"`.
  private mutating func condition(_ json: JSONValue, path: String, scope: StepScope) -> Condition? {
    guard let members = object(json, path: path, what: "\"when\"") else { return nil }
    checkKeys(members, allowed: ["value", "equals", "notEquals"], path: path, what: "\"when\"")
    guard let valueJSON = json["value"],
      let variable = variableName(valueJSON, path: path, scope: scope)
    else {
      if json["value"] == nil {
        fail(
          "\"when\" needs \"value\": the variable to test",
          fix: "write {\"value\": \"data\", \"equals\": null}",
          at: json.location, path: path)
      }
      return nil
    }
    let negated = json["notEquals"] != nil
    guard let compared = json["equals"] ?? json["notEquals"], let value = Value(literal: compared)
    else {
      fail(
        "\"when\" needs \"equals\" or \"notEquals\": a literal", fix: "add \"equals\": null, say",
        at: json.location, path: path)
      return nil
    }
    return Condition(variable: variable, value: value, negated: negated)
  }

  private mutating func required(_ key: String, _ step: StepContext, what: String) -> JSONValue? {
    if let value = step.json[key] { return value }
    fail(
      "this \"\(step.verb)\" step has no \"\(key)\"",
      fix: "add \"\(key)\": \(what)", at: step.json.location, path: step.path)
    return nil
  }

  private mutating func tryMode(_ step: StepContext, path: String) -> TryMode {
    guard let json = step.json["try"] else { return .do }
    guard let text = string(json, path: path, what: "\"try\""), let mode = TryMode(rawValue: text)
    else {
      if json.string != nil {
        fail(
          "\"try\" must be \"do\", \"?\" or \"!\"",
          fix: "write \"try\": \"?\" for try?, \"!\" for try!",
          at: json.location, path: path)
      }
      return .do
    }
    return mode
  }

  // MARK: Names

  private mutating func binding(_ step: StepContext, _ type: BindingType, scope: inout StepScope)
    -> String?
  {
    guard let json = step.json["as"], let name = string(json, path: step.path, what: "\"as\"")
    else {
      return nil
    }
    let bare = name.hasPrefix("$") ? String(name.dropFirst()) : name
    guard isIdentifier(bare) else {
      fail(
        "\"\(name)\" is not a variable name", fix: "use letters, digits and _", at: json.location,
        path: step.path)
      return nil
    }
    if sharedVars.contains(bare) {
      fail(
        "\"\(bare)\" is a shared var declared in \"vars\"; \"as\" binds a new local name",
        fix: "pick another name, or use a \"write\" step to change the shared var",
        at: json.location, path: step.path)
      return nil
    }
    scope.bindings[bare] = type
    return bare
  }

  private func isVisible(_ name: String, _ scope: StepScope) -> Bool {
    scope.bindings[name] != nil || sharedVars.contains(name)
  }

  private mutating func unknownVariable(
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
  private mutating func variableName(_ json: JSONValue, path: String, scope: StepScope) -> String? {
    guard let text = string(json, path: path, what: "a variable name") else { return nil }
    let name = text.hasPrefix("$") ? String(text.dropFirst()) : text
    guard isVisible(name, scope) else {
      unknownVariable(name, at: json.location, path: path, scope: scope)
      return nil
    }
    return name
  }

  private mutating func sharedVariable(_ json: JSONValue, path: String) -> String? {
    guard let text = string(json, path: path, what: "a shared var") else { return nil }
    let name = text.hasPrefix("$") ? String(text.dropFirst()) : text
    guard sharedVars.contains(name) else {
      let fix =
        nearestName(to: name, in: sharedVars).map { "did you mean \"\($0)\"?" }
        ?? "declare \"\(name)\" in \"vars\" with its initial value"
      fail("\"\(name)\" is not a shared var", fix: fix, at: json.location, path: path)
      return nil
    }
    return name
  }

  /// `"note.title"`: a variable and a key, checked against the entity when it is known.
  private mutating func keyPath(_ json: JSONValue, path: String, scope: StepScope) -> (
    String, String, Property?
  )? {
    guard let text = string(json, path: path, what: "a key path") else { return nil }
    let bare = text.hasPrefix("$") ? String(text.dropFirst()) : text
    let parts = bare.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
      fail(
        "\"\(text)\" is not VARIABLE.key",
        fix: "write the object's variable and the key: \"note.title\"",
        at: json.location, path: path)
      return nil
    }
    let (variable, key) = (parts[0], parts[1])
    guard isVisible(variable, scope) else {
      unknownVariable(variable, at: json.location, path: path, scope: scope)
      return nil
    }
    switch scope.bindings[variable] {
    case .value?:
      fail(
        "\"\(variable)\" holds a plain value, not a managed object",
        fix: "read keys of an object bound by fetch, insert or a lookup",
        at: json.location, path: path)
      return nil
    case .objects?:
      fail(
        "\"\(variable)\" is a list of objects",
        fix: "loop over it with forEach and read the key of each",
        at: json.location, path: path)
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
    guard let attribute = knownAttribute(key, of: entity, at: json.location, path: path) else {
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

  /// The value a relationship is set to or compared with: objects named by variables, or null.
  private mutating func relationshipValue(
    _ json: JSONValue, _ relationship: Relationship, path: String, scope: StepScope
  ) -> Expression? {
    if case .null = json.kind, !relationship.isToMany { return .literal(.null) }
    if let text = json.string, text.hasPrefix("$") {
      return expression(json, path: path, scope: scope, attribute: nil)
    }
    if relationship.isToMany, let items = json.elements,
      items.allSatisfy({ $0.string?.hasPrefix("$") == true })
    {
      return expression(json, path: path, scope: scope, attribute: nil)
    }
    fail(
      "the relationship \"\(relationship.name)\" takes "
        + (relationship.isToMany ? "a list of objects" : "an object or null")
        + ", not \(json.typeDescription)",
      fix: relationship.isToMany
        ? "write [\"$photo\", …] or a $variable holding a list"
        : "write \"$object\", a variable holding a \(relationship.destination), or null",
      at: json.location, path: path)
    return nil
  }

  private mutating func entityName(_ json: JSONValue, path: String) -> Entity? {
    guard let name = string(json, path: path, what: "an entity name") else { return nil }
    return knownEntity(name, at: json.location, path: path)
  }

  private mutating func contextName(_ json: JSONValue, path: String, scope: StepScope) -> String? {
    guard let name = string(json, path: path, what: "a context name") else { return nil }
    if scope.bindings[name] == .context || contexts.contains(where: { $0.name == name }) {
      return name
    }
    let names = contexts.map(\.name) + scope.bindings.filter { $0.value == .context }.keys.sorted()
    let fix =
      nearestName(to: name, in: names).map { "did you mean \"\($0)\"?" }
      ?? "declare it in \"contexts\" with \"queue\": \"private\", or use viewContext"
    fail("unknown context \"\(name)\"", fix: fix, at: json.location, path: path)
    return nil
  }

  private mutating func queueName(_ json: JSONValue, path: String) -> String? {
    guard let name = string(json, path: path, what: "a queue name") else { return nil }
    let names = ["main", "global"] + queues.map(\.name)
    if names.contains(name) { return name }
    if contexts.contains(where: { $0.name == name }) {
      fail(
        "\"\(name)\" is a context; its private queue is reached with perform, not dispatched to",
        fix: "write { \"perform\": \"\(name)\", \"do\": [ … ] }", at: json.location, path: path)
      return nil
    }
    let fix =
      nearestName(to: name, in: names).map { "did you mean \"\($0)\"?" }
      ?? "use \"main\", \"global\", or declare the queue in \"queues\""
    fail("unknown queue \"\(name)\"", fix: fix, at: json.location, path: path)
    return nil
  }

  // MARK: Values

  /// A literal or `$variable`; literals for a known attribute are checked against its type.
  private mutating func expression(
    _ json: JSONValue, path: String, scope: StepScope, attribute: Attribute?
  ) -> Expression? {
    if let text = json.string, text.hasPrefix("$"), text.count > 1 {
      let name = String(text.dropFirst())
      guard isVisible(name, scope) else {
        unknownVariable(name, at: json.location, path: path, scope: scope)
        return nil
      }
      return .variable(name)
    }
    if let elements = json.elements {
      var items: [Expression] = []
      for element in elements {
        guard let item = expression(element, path: path, scope: scope, attribute: nil) else {
          return nil
        }
        items.append(item)
      }
      return .list(items)
    }
    if let attribute {
      return typedLiteral(json, for: attribute, path: path).map { .literal($0) }
    }
    guard let value = Value(literal: json) else {
      fail(
        "a value cannot be an object",
        fix: "use a string, number, boolean, null, list or $variable",
        at: json.location, path: path)
      return nil
    }
    return .literal(value)
  }

  /// `"values"` of an insert or `"where"` of a fetch: attribute name → value.
  private mutating func attributeValues(
    _ json: JSONValue, entity: Entity, path: String, scope: StepScope
  ) -> [(key: String, value: Expression)] {
    guard let members = object(json, path: path, what: "attribute values") else { return [] }
    var result: [(key: String, value: Expression)] = []
    for member in members {
      if let relationship = entity.relationship(named: member.key) {
        if let value = relationshipValue(member.value, relationship, path: path, scope: scope) {
          result.append((member.key, value))
        }
        continue
      }
      guard
        let attribute = knownAttribute(member.key, of: entity, at: member.keyLocation, path: path),
        let value = expression(member.value, path: path, scope: scope, attribute: attribute)
      else { continue }
      result.append((member.key, value))
    }
    return result
  }

  /// Splits `print` text into words and `$variables`: `"saved $n notes"`.
  private func template(_ text: String) -> [TemplatePart] {
    var parts: [TemplatePart] = []
    var literal = ""
    var scalars = text.unicodeScalars[...]
    while let scalar = scalars.popFirst() {
      let isNameStart = { (s: Unicode.Scalar) in s == "_" || s.properties.isAlphabetic }
      guard scalar == "$", let next = scalars.first, isNameStart(next) else {
        literal.unicodeScalars.append(scalar)
        continue
      }
      var name = ""
      while let s = scalars.first, s == "_" || s.properties.isAlphabetic || ("0"..."9").contains(s)
      {
        name.unicodeScalars.append(s)
        scalars.removeFirst()
      }
      if !literal.isEmpty {
        parts.append(.text(literal))
        literal = ""
      }
      parts.append(.variable(name))
    }
    if !literal.isEmpty { parts.append(.text(literal)) }
    return parts
  }

  /// `"equals": 3`, `"atLeast": 1` or `"atMost": 1`.
  private mutating func countBound(_ json: JSONValue, path: String) -> CountBound? {
    for (key, make) in [
      ("equals", CountBound.equals), ("atLeast", CountBound.atLeast), ("atMost", CountBound.atMost),
    ] {
      if let value = json[key] {
        guard case .integer(let n) = value.kind, n >= 0 else {
          fail(
            "\"\(key)\" takes a whole number from 0", fix: "write \"\(key)\": 3, say",
            at: value.location, path: path)
          return nil
        }
        return make(n)
      }
    }
    fail(
      "\"expect\" count needs \"equals\", \"atLeast\" or \"atMost\": a whole number",
      fix: "add \"equals\": 3, say", at: json.location, path: path)
    return nil
  }

  private mutating func assertion(_ json: JSONValue, path: String, scope: StepScope) -> Assertion? {
    guard let members = object(json, path: path, what: "\"expect\"") else { return nil }
    if let countJSON = json["count"], countJSON.string?.contains(".") == true {
      checkKeys(
        members, allowed: ["count", "equals", "atLeast", "atMost"], path: path,
        what: "an expect count")
      guard let (variable, key, property) = keyPath(countJSON, path: path, scope: scope) else {
        return nil
      }
      if case .attribute? = property {
        fail(
          "\"\(key)\" is an attribute; count takes a to-many relationship",
          fix: "write {\"value\": \"\(variable).\(key)\", \"equals\": …} to compare a value",
          at: countJSON.location, path: path)
        return nil
      }
      guard let bound = countBound(json, path: path) else { return nil }
      return .relationshipCount(variable: variable, key: key, bound: bound)
    }
    if json["count"] != nil {
      checkKeys(
        members, allowed: ["count", "in", "where", "equals", "atLeast", "atMost"], path: path,
        what: "an expect count")
      guard let entity = entityName(json["count"]!, path: path) else { return nil }
      guard let inJSON = json["in"] else {
        fail(
          "\"expect\" count needs \"in\"", fix: "add \"in\": the context to count in",
          at: json.location, path: path)
        return nil
      }
      guard let context = contextName(inJSON, path: path, scope: scope) else { return nil }
      let predicate =
        json["where"].map { attributeValues($0, entity: entity, path: path, scope: scope) } ?? []
      guard let bound = countBound(json, path: path) else { return nil }
      return .count(entity: entity.name, context: context, predicate: predicate, bound: bound)
    }
    if let valueJSON = json["value"] {
      checkKeys(members, allowed: ["value", "equals"], path: path, what: "an expect value")
      guard let text = string(valueJSON, path: path, what: "\"value\"") else { return nil }
      guard let equalsJSON = json["equals"], let equals = Value(literal: equalsJSON) else {
        fail(
          "\"expect\" value needs \"equals\": a literal",
          fix: "add \"equals\": the value the app should see", at: json.location, path: path)
        return nil
      }
      if text.contains(".") {
        guard let (variable, key, _) = keyPath(valueJSON, path: path, scope: scope) else {
          return nil
        }
        return .value(variable: variable, key: key, equals: equals)
      }
      guard let variable = variableName(valueJSON, path: path, scope: scope) else { return nil }
      return .value(variable: variable, key: nil, equals: equals)
    }
    fail(
      "\"expect\" needs \"count\" or \"value\"",
      fix:
        "write {\"count\": ENTITY, \"in\": CONTEXT, \"equals\": n} or {\"value\": \"VAR.key\", \"equals\": v}",
      at: json.location, path: path)
    return nil
  }
}
