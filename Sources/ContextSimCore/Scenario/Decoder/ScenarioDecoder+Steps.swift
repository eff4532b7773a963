/// What the decoder knows about a variable bound with `"as"`, to check the names used on it.
enum BindingType: Equatable {
  case object(entity: String)
  case objects(entity: String)
  case objectID(entity: String)
  /// A list of object IDs, as a batch request's result binds them.
  case objectIDs(entity: String)
  /// A plain value: a count, an attribute, a loop over literals. Never an object.
  case value
  /// Anything, as far as the decoder can tell: a shared var, an ID of unknown entity.
  case unknown
  /// A context made by a `newContext` or `newBackgroundContext` step.
  case context
  /// The notification an observer's body receives.
  case notification
  /// An `NSPersistentStoreRemoteChange`, which carries a history token, not changes.
  case remoteChangeNotification
  /// `fetchHistory`'s result: a list of history transactions.
  case transactions
  /// One history transaction, as `forEach` over that list binds it.
  case transaction
  /// The token `observe` returns, for `removeObserver`.
  case observer
  /// A fetched results controller of an entity's objects.
  case controller(entity: String)
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

/// Validation of steps: one walk over the raw steps, in file order, with the scope.
extension ScenarioDecoder {
  mutating func validateSteps(
    _ steps: Field<[RawStep]>, scope: inout StepScope, enclosingLabels: [String]
  ) -> [Step] {
    guard let steps = read(steps) else { return [] }
    return steps.value.compactMap {
      validateStep($0, scope: &scope, enclosingLabels: enclosingLabels)
    }
  }

  private mutating func validateStep(
    _ raw: RawStep, scope: inout StepScope, enclosingLabels: [String]
  ) -> Step? {
    errors += raw.problems
    guard let (verb, arguments) = raw.verb else { return nil }
    let index = stepCount
    stepCount += 1
    var label: String?
    if let name = read(raw.label) {
      if let first = labels[name.value] {
        fail(
          "the label \"\(name.value)\" is already used at \(first)",
          fix: "give each step its own label", at: name.location, path: raw.path)
      } else {
        labels[name.value] = name.location
      }
      label = name.value
    }
    let note = read(raw.note)?.value
    let stepLabels = (label.map { [$0] } ?? []) + enclosingLabels
    let condition = read(raw.when).flatMap {
      self.condition($0.value, path: raw.path, scope: scope)
    }
    let site = StepSite(verb: verb, path: raw.path, location: raw.location, labels: stepLabels)
    guard let statement = arguments.statement(site, scope: &scope, in: &self) else { return nil }
    return Step(
      index: index, path: raw.path, location: raw.location, verb: verb, label: label, note: note,
      labels: stepLabels, condition: condition, action: statement.action,
      statement: statement.swift, source: read(raw.swift)?.value,
      handler: handler(raw.handler, of: statement.action, site, scope: &scope))
  }

  /// `"catch": [steps]`: Swift's `catch` block, which sees the thrown `error` and binds
  /// into the scope around it, as code after a `do`/`catch` sees what the catch assigned.
  private mutating func handler(
    _ raw: Field<[RawStep]>, of action: Action, _ step: StepSite, scope: inout StepScope
  ) -> [Step]? {
    guard !raw.isAbsent else { return nil }
    if action.tryMode != .do {
      fail(
        "\"catch\" handles the error of a plain try, but this step is try\(action.tryMode?.rawValue ?? "")",
        fix: "remove \"try\" (or write \"try\": \"do\") to catch the error, or drop \"catch\"",
        at: step.location, path: step.path)
    }
    var inner = scope
    inner.bindings["error"] = .value
    let steps = blockBody(raw, key: "catch", step, scope: &inner, synchronous: true)
    inner.bindings["error"] = scope.bindings["error"]
    scope.bindings = inner.bindings
    scope.boundInBlocks = inner.boundInBlocks
    return steps
  }

  /// The steps of a block. A synchronous block binds into the scope around it; an
  /// asynchronous one works on a copy, so its bindings stay inside it.
  ///
  /// - Parameter inTask: whether the block's steps run in a Swift task; nil keeps the scope's.
  mutating func blockBody(
    _ body: Field<[RawStep]>, key: String = "do", _ step: StepSite, scope: inout StepScope,
    synchronous: Bool, inTask: Bool? = nil
  ) -> [Step] {
    if body.isAbsent {
      fail(
        "\"\(step.verb)\" needs \"\(key)\"", fix: "add \"\(key)\": [ … ], the steps of the block",
        at: step.location, path: step.path)
      return []
    }
    var inner = scope
    if let inTask { inner.isAsync = inTask }
    let steps = validateSteps(body, scope: &inner, enclosingLabels: step.labels)
    if synchronous {
      scope.bindings = inner.bindings
      scope.boundInBlocks = inner.boundInBlocks
    } else {
      for (name, location) in inner.boundInBlocks where scope.bindings[name] == nil {
        scope.boundInBlocks[name] = scope.boundInBlocks[name] ?? location
      }
      for name in inner.bindings.keys where scope.bindings[name] == nil {
        scope.boundInBlocks[name] = scope.boundInBlocks[name] ?? step.location
      }
    }
    return steps
  }

  /// `"when": {"value": "VAR", "equals": v}` or `"notEquals"`; or a list of them, which
  /// must all hold (added to v1).
  private mutating func condition(_ json: JSONValue, path: String, scope: StepScope) -> Condition? {
    if case .array(let items) = json.kind {
      guard !items.isEmpty else {
        fail(
          "\"when\" lists no test", fix: "write {\"value\": \"data\", \"equals\": null}",
          at: json.location, path: path)
        return nil
      }
      let tests = items.map { condition($0, path: path, scope: scope) }
      guard var first = tests[0], tests.allSatisfy({ $0 != nil }) else { return nil }
      first.also = tests.dropFirst().compactMap { $0 }
      return first
    }
    guard let members = object(json, path: path, what: "\"when\"") else { return nil }
    checkKeys(members, allowed: ["value", "equals", "notEquals"], path: path, what: "\"when\"")
    guard let valueJSON = json["value"],
      let name = locatedString(valueJSON, path: path, what: "a variable name"),
      let variable = variableName(name, path: path, scope: scope)
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

  // MARK: Arguments

  /// An argument written with the right shape; reports the shape problem of one that was not.
  mutating func read<T>(_ field: Field<T>) -> Located<T>? {
    switch field {
    case .absent: return nil
    case .present(let located): return located
    case .malformed(let error):
      errors.append(error)
      return nil
    }
  }

  /// An argument the verb cannot do without: reports it missing, or its shape problem.
  mutating func required<T>(_ field: Field<T>, _ key: String, _ step: StepSite, what: String)
    -> Located<T>?
  {
    if field.isAbsent {
      fail(
        "this \"\(step.verb)\" step has no \"\(key)\"",
        fix: "add \"\(key)\": \(what)", at: step.location, path: step.path)
    }
    return read(field)
  }

  /// Whether steps here run in a Swift task; reports `what` when they do not.
  mutating func insideTask(
    _ scope: StepScope, _ step: StepSite, _ what: String, fix: String
  ) -> Bool {
    if scope.isAsync { return true }
    fail(
      "\(what) only allowed inside a Swift task", fix: fix, at: step.location, path: step.path)
    return false
  }

  /// `"try"`, `do` when not written or written wrong.
  mutating func tryMode(_ field: Field<TryMode>) -> TryMode {
    read(field)?.value ?? .do
  }

  /// Binds `"as"` to a new local name of the given type.
  mutating func binding(
    _ field: Field<String>, _ type: BindingType, _ step: StepSite, scope: inout StepScope
  ) -> String? {
    guard let name = read(field) else { return nil }
    let bare = name.value.hasPrefix("$") ? String(name.value.dropFirst()) : name.value
    guard isIdentifier(bare) else {
      fail(
        "\"\(name.value)\" is not a variable name", fix: "use letters, digits and _",
        at: name.location, path: step.path)
      return nil
    }
    if sharedVars.contains(bare) {
      fail(
        "\"\(bare)\" is a shared var declared in \"vars\"; \"as\" binds a new local name",
        fix: "pick another name, or use a \"write\" step to change the shared var",
        at: name.location, path: step.path)
      return nil
    }
    scope.bindings[bare] = type
    return bare
  }
}
