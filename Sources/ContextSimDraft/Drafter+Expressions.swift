import ContextSimCore
import ContextSimReports

/// One expression statement, or the value a `let` binds, as steps: the Core Data calls,
/// queues and tasks the drafter recognises (docs/draft.md lists them).
extension Drafter {
  mutating func expressionSteps(
    _ expression: SwiftExpression, result: String?, at statement: SwiftStatement
  ) -> [JSONValue] {
    if let result, reservedNames.contains(result) {
      // A local that hides a property: the scenario needs another name for it.
      let renamed = result + "Local"
      let out = expressionSteps(expression, result: renamed, at: statement)
      if let m = meaning(of: renamed) { bind(result, m) }
      if storeSetupNames.contains(renamed) { storeSetupNames.insert(result) }
      return out
    }
    if let result, case .cast(_, let inner, let type) = expression.kind,
      entityTypes.contains(type)
    {
      // `create(entity: .event) as? EventEntity`: the object made for the entity named
      // "Event" is of the class `EventEntity`, whose properties the entity has.
      let steps = expressionSteps(inner, result: result, at: statement)
      if case .object(_, let entity?)? = meaning(of: result), entity != type,
        !entityTypes.contains(entity)
      {
        model.adopt(type, as: entity)
      }
      return steps
    }
    let (held, tryMark, awaited) = expression.unwrapped
    // A closure held in a name, handed on (`context.perform(block)`): the closure itself.
    let (e, handedOn) = withHeldClosures(Self.modernDispatch(held))
    // A closure that hands itself on (`let b = { c.perform(b) }`) would be drafted without end.
    if handedOn.contains(where: runningClosures.contains) { return notModelled(statement) }
    runningClosures.formUnion(handedOn)
    defer { runningClosures.subtract(handedOn) }
    if let result, case .closure(let closure) = e.kind {
      holdClosure(closure, as: result)  // `let block = { … }`: drafted where it runs
      return []
    }
    if let called = heldClosureCall(e, result: result, at: statement) { return called }
    if awaited, let steps = awaitedTaskValue(e, result: result, at: statement) { return steps }
    if let result, let name = Self.notificationName(e), Call(e) == nil {
      notificationNames[result] = name  // `let didSaveName = ….NSManagedObjectContextDidSave`
      return []
    }
    if let result, Self.isUnpostedNotification(e.source), Call(e) == nil {
      notificationNames[result] = ""  // a notification the model never posts
      return []
    }
    if let result, let method = selectorMethod(e) {
      selectors[result] = method  // `let didSave = #selector(…)`
      return []
    }
    if let result, Self.isNotificationCenter(e) {
      notificationCenters.insert(result)  // `let center = NotificationCenter.default`
      return []
    }
    let call = Call(e)
    if let call, let receiver = call.receiver, let made = Call(receiver.unwrapped.expression),
      madeAppType(made) != nil, made.arguments.contains(where: { isCoreDataArgument($0.value) }),
      !madeReceivers.contains(receiver.location)
    {
      // `NotesViewModel(store: CoreDataNoteStore()).wipe()`: the instance is made with what
      // it is given, then called; called on the instance made with stand-ins, a store given
      // here would never be reached.
      madeReceivers.insert(receiver.location)
      defer { madeReceivers.remove(receiver.location) }
      return expressionSteps(receiver, result: nil, at: statement)
        + expressionSteps(expression, result: result, at: statement)
    }
    if let call, let steps = semaphoreSteps(call, result: result, at: statement) { return steps }
    if let call, Self.isMagicalRecordDefaultContext(call) {
      if let result { bind(result, .context("viewContext")) }  // MagicalRecord's, on main
      return []
    }
    if let call, let chained = chainedOwnCall(e, call, result: result, at: statement) {
      return chained
    }
    if let call, let related = relatedObjectCall(e, call, result: result, at: statement) {
      return related
    }
    if let result, let picked = pickedMember(e, result: result, at: statement) { return picked }
    var steps: [JSONValue]?
    switch e.kind {
    case .binary("=", let target, let value):
      if case .name("_") = target.kind {
        // `_ = try? …`: the call; `_ = note.title`: the read, into a name no one reads.
        let isCall = Call(value.unwrapped.expression) != nil
        return expressionSteps(value, result: isCall ? nil : "_discarded", at: statement)
      }
      steps = assignment(target, value, at: statement)
    case .binary(let op, let target, _)
    where op.count >= 2 && op.hasSuffix("=")
      && !["==", "!=", "<=", ">=", "==="].contains(op):
      // `count += 1` on a shared var: a read, then a write.
      if let (property, explicit) = propertyName(target),
        case .shared(let variable)? = explicit
          ? instanceMeaning(of: property) : meaning(of: property)
      {
        steps = observed(property, mutation(of: variable, to: e, at: statement), at: statement)
      }
    case .member(_?, _) where result == nil:
      // `coreDataManager.managedObjectContext` as a function's value: what reading it does.
      steps = expressionSteps(e, result: "_value\(statement.location.line)", at: statement)
    case .binary(let op, _, _) where result == nil && Self.comparisons.contains(op):
      // `note(forKey: key) != nil` as a function's value: its calls, drafted.
      steps = comparedCalls(e, into: "_compared\(statement.location.line)", at: statement)
    case .ternary(let condition, let then, let otherwise):
      if let result, let queue = operationQueue(e) {
        bind(result, .queue(queue))  // `mainThread ? OperationQueue.main : OperationQueue()`
        return []
      }
      if let truth = staticTruth(condition) {
        return expressionSteps(truth ? then : otherwise, result: result, at: statement)
      }
      if result == nil {
        // `wait ? context.performAndWait(block) : context.perform(block)`: an `if`.
        let branch = { (e: SwiftExpression) in
          [SwiftStatement(kind: .expression(e), location: e.location)]
        }
        return self.steps(
          SwiftStatement(
            kind: .if([.expression(condition)], then: branch(then), else: branch(otherwise)),
            location: statement.location))
      }
    case .binary("??", let first, let fallback):
      if case .name(let n) = first.unwrapped.expression.kind, knownNil.contains(n) {
        return expressionSteps(fallback, result: result, at: statement)  // `nil ?? viewContext`
      }
      if result == nil, literal(fallback) != nil {
        // `(try? context.count(for: r)) ?? 0` as a closure's value: the call; the literal
        // given when it is nil does nothing.
        return expressionSteps(first, result: nil, at: statement)
      }
      if let result {
        var firstSteps = expressionSteps(first, result: result, at: statement)
        if let m = meaning(of: result), let variable = m.variable, variable != result {
          // `existing ?? insert…`: the name is another's so far; the fallback is tested on,
          // and may bind, a variable of its own.
          firstSteps.append(
            step(["let": .string(result), "value": .string("$" + variable)], at: statement))
          bind(result, meaning(copying: first, as: result))
        }
        // `fetchedObjects ?? []`: a list or object stays one; an empty fallback adds nothing.
        if meaning(of: result)?.isCoreData == true, literal(fallback) != nil {
          steps = firstSteps
        } else {
          let fallbackSteps = expressionSteps(fallback, result: result, at: statement)
          steps = firstSteps + fallbackSteps.map { when($0, result, equals: false) }
        }
      }
    default:
      if let result, let call, let request = batchRequest(call) {
        bind(result, .batchRequest(request))
        steps = []
      } else if let result, let call,
        call.method == "fetchRequest" || isSubclass(call.method, of: "NSFetchRequest"),
        let request = fetchRequest(e)
      {
        bind(result, .request(request))
        model.addEntity(request.entity)
        steps = []
      } else if let call {
        steps =
          callSteps(call, result: result, tryMark: tryMark, awaited: awaited, at: statement)
          ?? callbackSteps(call, result: result, at: statement)
      } else if let result {
        steps = binding(result, to: e, at: statement)
      }
    }
    if var steps {
      if let tryMark, !steps.isEmpty, tryMark != "" {
        steps[steps.count - 1] = markingTry(tryMark, steps[steps.count - 1])
      }
      // `try? f()`: what f throws goes no further.
      return tryMark == "?" ? clearingThrow(steps, at: statement) : steps
    }
    // Not modelled, unless a rule of docs/draft.md passes it over as no Core Data effect.
    if let passed = passOver(expression, result: result, at: statement) { return passed }
    let unmodelled = notModelled(statement, why: reason(expression), at: e)
    guard let result else { return unmodelled }
    if let call, let type = call.argument("concurrencyType") {
      // Made by code not read: how (its store, its parent) stays a line not modelled.
      return unmodelled + [madeContext(result, type: type, by: call, at: statement)]
    }
    // The value is not modelled, but later steps name it: a stand-in keeps them valid.
    let standIn = standIn(for: expression)
    bind(result, .value(result))
    valueTypes[result] = standIn.type
    return unmodelled + [
      step(
        [
          "let": .string(result), "value": standIn.json,
          "note": .string("Stood in: \(standIn.what), from a line not modelled."),
        ],
        at: statement)
    ]
  }

  /// The call a value is computed by: `try? context.fetch(r)`, or the first of `(try?
  /// context.fetch(r)) ?? []`; nil for a value no call computes.
  static func computedCall(_ value: SwiftExpression) -> Call? {
    var computing = value.unwrapped.expression
    if case .binary("??", let first, _) = computing.kind { computing = first.unwrapped.expression }
    return Call(computing)
  }

  /// `store.makeContext(concurrencyType: .privateQueueConcurrencyType)`, by a store the
  /// draft does not follow: a new context of the type the call names, on the store, so what
  /// the code does with it is drafted. The summary says so.
  mutating func madeContext(
    _ result: String, type: SwiftExpression, by call: Call, at statement: SwiftStatement
  ) -> JSONValue {
    let name = freshContext(Self.contextName(result))
    bind(result, .context(name))
    let main = type.source.lowercased().contains("mainqueue")
    if main { mainQueueContexts.insert(name) }
    summary.append(
      "\(result) = …\(call.method)(concurrencyType: \(type.source)): taken as a new context of that type"
    )
    return step(
      ["newContext": .string(name), "queue": .string(main ? "main" : "private")], at: statement)
  }

  /// `try?` or `try!` on the step that throws.
  private func markingTry(_ mark: String, _ step: JSONValue) -> JSONValue {
    guard case .object(let members) = step.kind, let verb = members.first?.key,
      ["save", "fetch", "count", "existingObject", "performFetch"].contains(verb),
      !members.contains(where: { $0.key == "catch" })  // its error is caught where it is
    else { return step }
    return adding("try", .string(mark), to: step)
  }

  /// `let result = e` for an expression that is not a call: a member read, a name, a literal.
  private mutating func binding(
    _ result: String, to e: SwiftExpression, at statement: SwiftStatement
  )
    -> [JSONValue]?
  {
    if case .cast(_, let inner, _) = e.kind {
      return binding(result, to: inner, at: statement)  // `note.object as? NSManagedObjectContext`
    }
    if case .member(let base?, let key) = e.kind, key == "parent" || key == "parentContext",
      case .context(let c)? = resolve(base)
    {
      // Swift 2's `parentContext` too: a variable that holds the parent, or nil.
      bind(result, .context(result))
      return [step(["get": .string("\(c).parent"), "as": .string(result)], at: statement)]
    }
    if case .member(let base?, "object") = e.kind, case .notification(let name)? = resolve(base) {
      // The context that posted: a variable that holds a context.
      bind(result, .context(result))
      return [step(["get": .string("\(name).object"), "as": .string(result)], at: statement)]
    }
    // `let a = newContext` in a method of the type: its own computed property's getter,
    // run each time it is read (`container.newBackgroundContext()` makes one context a read).
    if let steps = ownGetter(e, result: result, at: statement) { return steps }
    if case .member(let base?, let key) = e.kind, resolve(e) == nil,
      let steps = appTypeGetter(base, key, result: result, at: statement)
    {
      return steps
    }
    // `notes.first?.title`: the list's first object, then the read of its key (none when
    // the list is empty: the read of a nil object does nothing).
    if case .member(let base?, let key) = e.kind, case .optionalChain(let inner) = base.kind,
      case .member(let listName?, let end) = inner.kind, end == "first" || end == "last",
      case .objects(let list, let entity)? = resolve(listName)
    {
      let element = "_\(end)\(statement.location.line)"
      let steps = firstElement(of: list, entity: entity, as: element, at: statement)
      let read = SwiftExpression(
        kind: .member(SwiftExpression(kind: .name(element), location: e.location), key),
        location: e.location)
      return steps + (binding(result, to: read, at: statement) ?? notModelled(statement))
    }
    if case .member(let base?, let key) = e.kind {
      switch resolve(base) {
      case .container where key == "viewContext":
        bind(result, .context("viewContext"))
        return []
      case .context(let c) where ContextProperty(rawValue: key)?.holdsValue == true:
        // `let name = context.name`: the property's getter, checked or blocking as Core
        // Data's is, into a value.
        bind(result, .value(result))
        return [step(["get": .string("\(c).\(key)"), "as": .string(result)], at: statement)]
      case .controller(let name, let entity)
      where (key == "fetchedObjects" || key == "numberOfObjects") && madeControllers.contains(name):
        let listed: Meaning =
          key == "fetchedObjects" ? .objects(result, entity: entity) : .value(result)
        bind(result, listed)
        return [step(["get": .string("\(name).\(key)"), "as": .string(result)], at: statement)]
      case .objects(let list, let entity) where key == "first" || key == "last":
        return firstElement(of: list, entity: entity, as: result, at: statement)
      case .object(let name, let entity):
        if key == "managedObjectContext" {
          // The context the object is in, or nil once it is deleted: a variable.
          bind(result, .context(result))
          return [step(["get": .string("\(name).\(key)"), "as": .string(result)], at: statement)]
        }
        if key == "objectID" {
          bind(result, .objectID(result))
          idEntities[result] = entity
          return [step(["objectID": .string(name), "as": .string(result)], at: statement)]
        }
        if let computed = computedProperty(
          key, of: name, entity: entity, result: result, at: statement)
        {
          return computed
        }
        if let entity { model.add(key: key, to: entity, type: nil) }
        // `let folder = note.folder`: a relationship's object (or objects), followed after.
        if let entity, model.has(key, of: entity), model.attributeType(key, of: entity) == nil,
          let destination = model.destination(ofRelationship: key)
        {
          bind(
            result,
            model.isToMany(key, of: entity)
              ? .objects(result, entity: destination) : .object(result, entity: destination))
        } else {
          bind(result, .value(result))
        }
        return [step(["get": .string("\(name).\(key)"), "as": .string(result)], at: statement)]
      default: break
      }
    }
    if let held = resolve(e), held.isHeldClosure {
      bind(result, held)  // `let sync = self.sync`: the closure, called later
      return []
    }
    if let queue = operationQueue(e) {
      // `let queue = mainThread ? OperationQueue.main : OperationQueue()`: for an observer.
      bind(result, .queue(queue))
      return []
    }
    if result == returnTarget, case .objects(let list, let entity)? = resolve(e) {
      // `return entries` from one branch of a helper, `return [Note]()` from another: the
      // result is a list of its own, given each branch's.
      bind(result, .objects(result, entity: entity))
      return [step(["let": .string(result), "value": .string("$" + list)], at: statement)]
    }
    if let m = resolve(e), m.isCoreData || m.isRequest || m.isContainerOrInstance {
      // Another name for the same context, object, list, ID, request or controller (`return
      // fetch` from a helper): the scenario keeps its own.
      bind(result, m)
      return []
    }
    if case .call(let callee, let arguments) = e.kind, arguments.isEmpty,
      case .array(let items) = callee.kind, items.count == 1, let entity = namedType(items[0]),
      model.isEntity(entity) || entityTypes.contains(entity)
    {
      // `[Note]()`: an empty list of the entity's objects.
      bind(result, .objects(result, entity: entity))
      return [step(["let": .string(result), "value": .array([])], at: statement)]
    }
    if let (object, entity, key) = entityProperty(e) {
      model.add(key: key, to: entity, type: nil)
      bind(result, .value(result))
      return [step(["get": .string("\(object).\(key)"), "as": .string(result)], at: statement)]
    }
    if let variable = sharedVariable(e) {
      bind(result, .value(result))
      return [step(["read": .string(variable), "as": .string(result)], at: statement)]
    }
    if e.kind.isNil, result == returnTarget, boundToNil.contains(result) { return [] }
    if case .string(_, let parts) = e.kind, !parts.isEmpty, plainReads(in: e) == nil {
      return interpolated(parts, of: e, into: result, at: statement)
    }
    if case .subscriptAccess = e.kind, let reads = plainReads(in: e) {
      // `acl[userId]`: an element of a plain value, stood in; what the key reads is drafted.
      return reads.map { readStep($0, at: statement) } + [
        standInStep(result, for: e, at: statement)
      ]
    }
    if plainPropertyType(e) != nil {
      // `let label = self.label`: a plain property of the app's instance, stood in.
      return [standInStep(result, for: e, at: statement)]
    }
    if let compared = comparedCalls(e, into: result, at: statement) { return compared }
    if let v = value(of: e) {
      // `return nil` where the same name elsewhere holds an object, `return []` where it
      // holds a list of objects: still an object's name, a list of objects (none).
      var empty = e.kind.isNil
      if case .array(let items) = e.kind, items.isEmpty { empty = true }
      if empty, result == returnTarget, let entity = listEntity(returning) {
        // `catch { return [] }` of a helper `-> [Note]`: none of the entity's objects.
        bind(result, .objects(result, entity: entity))
        return [step(["let": .string(result), "value": v], at: statement)]
      }
      let keeps = empty && meaning(of: result)?.isCoreData == true
      if !keeps { bind(result, meaning(copying: e, as: result)) }
      return [step(["let": .string(result), "value": v], at: statement)]
    }
    return nil
  }

  /// `note(forKey: key) != nil`, `count() > 0`: a comparison whose sides call the app's
  /// code. Both sides always run, so each call is drafted first, into a name of its own;
  /// the comparison's value is a stand-in. Nil when a side is neither a plain value nor a
  /// call the draft follows.
  private mutating func comparedCalls(
    _ e: SwiftExpression, into result: String, at statement: SwiftStatement
  ) -> [JSONValue]? {
    guard case .binary(let op, let left, let right) = e.kind, Self.comparisons.contains(op)
    else { return nil }
    var steps: [JSONValue] = []
    var calls = 0
    for (side, operand) in [left, right].enumerated() {
      if let reads = plainReads(in: operand) {
        steps += reads.map { readStep($0, at: statement) }
        continue
      }
      guard Call(operand.unwrapped.expression) != nil else { return nil }
      let name = "_\(result)Side\(side)"
      let drafted = expressionSteps(operand, result: name, at: statement)
      guard meaning(of: name) != nil else { return nil }
      steps += drafted
      calls += 1
    }
    guard calls > 0 else { return nil }
    return steps + [standInStep(result, for: e, at: statement)]
  }

  /// `shared`, `Self.shared`, `Stack.shared`: the name a static is set by.
  static func staticName(_ target: SwiftExpression) -> String? {
    switch target.kind {
    case .name(let n): n
    case .member(let base?, let n):
      if case .name(let t) = base.kind, t.first?.isUppercase == true { n } else { nil }
    default: nil
    }
  }

  /// The shared var `count` or `self.count` reads.
  private func sharedVariable(_ e: SwiftExpression) -> String? {
    switch e.kind {
    case .name(let n):
      if case .shared(let variable)? = meaning(of: n) { return variable }
    case .member(let base?, let n):
      if case .name("self") = base.kind, case .shared(let variable)? = instanceMeaning(of: n) {
        return variable
      }
    default: break
    }
    return nil
  }

  /// `"changes: \(context.hasChanges)"`: what each interpolation reads is drafted (a
  /// context's getter, an object's property, the app's own call), and the string is a
  /// stand-in of its type. Nil when an interpolation is not one expression.
  private mutating func interpolated(
    _ parts: [String], of e: SwiftExpression, into result: String, at statement: SwiftStatement
  ) -> [JSONValue]? {
    var steps: [JSONValue] = []
    for (i, text) in parts.enumerated() {
      guard let inner = Self.interpolated(text) else { return nil }
      if let reads = plainReads(in: inner) {
        steps += reads.map { readStep($0, at: statement) }
      } else {
        steps += expressionSteps(
          inner, result: "_part\(statement.location.line)_\(i)", at: statement)
      }
    }
    return steps + [standInStep(result, for: e, at: statement)]
  }

  /// `let result = e`, `e` a value the draft does not compute: its stand-in, said so.
  mutating func standInStep(_ result: String, for e: SwiftExpression, at statement: SwiftStatement)
    -> JSONValue
  {
    let value = standIn(for: e, attribute: plainPropertyType(e))
    bind(result, .value(result))
    valueTypes[result] = value.type
    return step(
      ["let": .string(result), "value": value.json, "note": .string("Stood in: \(value.what).")],
      at: statement)
  }

  /// `name` bound to a plain value the draft does not compute, what a library or a case
  /// gives: a `let` of a stand-in (under the scenario's name for it, `localName(name)`), its
  /// note saying what it stands for.
  mutating func standInValue(_ name: String, what: String, at statement: SwiftStatement)
    -> JSONValue
  {
    let local = localName(name)
    bind(name, .value(local))
    return step(
      [
        "let": .string(local), "value": .string("stand-in"),
        "note": .string("Stood in: \(what)."),
      ], at: statement)
  }

  /// What a name bound to a copy of `e` means: the same object or list, or a plain value.
  private func meaning(copying e: SwiftExpression, as name: String) -> Meaning {
    switch resolve(e) {
    case .object(_, let entity): .object(name, entity: entity)
    case .objects(_, let entity): .objects(name, entity: entity)
    case .objectID: .objectID(name)
    case .context(let c): .context(c)
    default: .value(name)
    }
  }

  // MARK: Assignment

  private mutating func assignment(
    _ target: SwiftExpression, _ value: SwiftExpression, at statement: SwiftStatement
  ) -> [JSONValue]? {
    if let name = Self.staticName(target), nilStatics.contains(name) {
      // Set: nil no longer, and no test of it is decided from here on.
      nilStatics.remove(name)
      if meaning(of: name) == nil {
        // `shared = create()`: the static holds what the value is from now on.
        let steps = expressionSteps(value, result: name, at: statement)
        if let m = meaning(of: name) { scopes[0][name] = m }
        return steps
      }
    }
    if let (object, entity, key) = entityProperty(target) {
      return setSteps(object: object, entity: entity, key: key, value: value, at: statement)
    }
    if let steps = appTypeSetter(target, value, at: statement) { return steps }
    if let steps = memberAssignment(target, value, at: statement) { return steps }
    if let steps = setOnCallResult(target, value, at: statement) { return steps }
    if isInterface(target), Call(value.unwrapped.expression) != nil {
      // `self.coordinate = pin.asCoordinate()`, `label.text = note.summary()`: the call, then
      // a view's property set, which touches nothing the model sees.
      passedOver.append(
        PassedOver(file: file.name, line: statement.location.line, rule: .userInterface))
      return expressionSteps(value, result: "_shown\(statement.location.line)", at: statement)
    }
    // A stored property of the instance: `self.onSaved = …`, `context = …`.
    if let (property, explicit) = propertyName(target) {
      let current = explicit ? instanceMeaning(of: property) : meaning(of: property)
      switch (current, resolve(value)) {
      case (.shared?, let held?) where held.isHeldClosure || held.isContainerOrInstance,
        (.closure?, let held?) where held.isHeldClosure,
        (.callersClosure?, let held?) where held.isHeldClosure,
        (.dependency?, let held?) where held.isHeldClosure:
        // `self.sync = sync` in an `init` given a closure: the property holds it, and
        // calling it runs its body (or, the caller's, does nothing). `self.storage =
        // storage`, a `var` given the app's instance: the property is that instance.
        scopes[0][property] = held
        return []
      default: break
      }
      switch current {
      case .shared(let variable):
        return observed(
          property, sharedWrite(variable, of: property, value, at: statement), at: statement)
      case .context(let name):
        if case .context(let c)? = resolve(value) {
          // `self.context = context`: the property is that context from now on.
          scopes[0][property] = .context(c)
          return []
        }
        let call = Call(value)
        let followed =
          call.map { c in
            ["NSManagedObjectContext", "newBackgroundContext"].contains(c.method)
              || method(named: c.method, receiver: c.receiver) != nil
          } ?? false
        if !followed, resolve(value) == nil {
          // Made by code not read (`store.backgroundContext`): a private context when its
          // name says so, else the app's main context; the summary says which.
          let source = value.source.lowercased()
          // A guess: the run goes on with it, and is never clean past it.
          guard source.contains("background") || source.contains("private") else {
            scopes[0][property] = .context("viewContext")
            summary.append("\(property) = \(value.source): taken as viewContext")
            return notModelled(
              statement, why: "made by code not read: taken as viewContext", at: value)
          }
          summary.append("\(property) = \(value.source): taken as a new private context")
          return [step(["newBackgroundContext": .string(name)], at: statement)]
            + notModelled(
              statement, why: "made by code not read: taken as a new private context", at: value)
        }
        let made = expressionSteps(value, result: name, at: statement)
        // The context made may have taken another name (a second `main`): the property's it.
        if case .context(let c)? = meaning(of: name), c != name {
          scopes[0][property] = .context(c)
        }
        return made
      case .queue(let name), .controller(let name, _):
        return expressionSteps(value, result: name, at: statement)
      case .value(let local)?, .object(let local, _)?:
        // What the name means from here, where it was declared: a block's `notes = …`
        // gives the method's `notes` its objects.
        let defining = scopes.lastIndex { $0[property] != nil } ?? scopes.count - 1
        if !explicit, case .closure(let closure) = value.kind {
          // `var attempt: (() -> Void)?; attempt = { … }`: the local holds the closure,
          // drafted where it is called (`attempt!()`).
          holdClosure(closure, as: property)
          return []
        }
        // A local `var` given a new value: the same name, rebound. An object is copied into
        // the var's own variable, so a line after an `if` that may not have run it reads
        // what the var holds then (`var made: Note? = nil; if … { made = note }`).
        if case .object(let object, let entity)? = resolve(value) {
          scopes[defining][property] = .object(local, entity: entity)
          guard object != local else { return [] }
          return [step(["let": .string(local), "value": .string("$" + object)], at: statement)]
        }
        if let m = resolve(value), m.isCoreData {
          scopes[defining][property] = m
          return []
        }
        guard case .value = current else {
          // `made = nil`: the var holds no object from here.
          if value.kind.isNil {
            return [step(["let": .string(local), "value": .null], at: statement)]
          }
          break
        }
        if Self.computedCall(value) != nil {
          // `result = try block()`, `notes = (try? context.fetch(request)) ?? []`: the call,
          // into the var's own variable, which the name means from here.
          let steps = expressionSteps(value, result: local, at: statement)
          if let m = meaning(of: local) { scopes[defining][property] = m }
          return steps
        }
        return binding(local, to: value, at: statement)
      case .dependency where resolve(value)?.isContainerOrInstance == true:
        // `self.provider = provider`, typed by a protocol and given one of the app's types:
        // that instance from now on, its methods the ones called.
        scopes[0][property] = resolve(value)
        return []
      case .dependency, .container, .instanceOf:
        // `self.stack = stack`: the same one instance. Made here with the caller's contexts
        // (`self.stack = Stack(mainContext: main)`), its `init` runs with them; made by a
        // call (`Stack.make()`), the call runs: what it does is drafted, never dropped.
        if let call = Call(value.unwrapped.expression) {
          // In a value's place: a library's value (`PLCrashReport(data:)`) is one a rule may
          // pass over; the property keeps what it means.
          let made = madeAppType(call) != nil ? nil : "_" + property
          return expressionSteps(value, result: made, at: statement)
        }
        return []
      default: break
      }
    }
    if case .name(let key) = target.kind, meaning(of: key) == nil,
      let (object, entity) = currentEntity
    {
      // A bare property name inside an entity's initialiser is `self`'s.
      return setSteps(object: object, entity: entity, key: key, value: value, at: statement)
    }
    guard case .member(let base?, let key) = target.kind else { return nil }
    if key == "delegate", case .controller? = resolve(base) {
      return []  // the delegate's body is the controller's, drafted where it is made
    }
    switch resolve(base) {
    case .context(let context):
      if key == "persistentStoreCoordinator" { return [] }  // the coordinator is the store
      if key == "parent" || key == "parentContext", case .context(let parent)? = resolve(value) {
        parents[context] = parent
        return []
      }
      if key == "mergePolicy" {
        guard let policy = mergePolicy(value) else { return nil }
        return [
          step(["set": .string("\(context).mergePolicy"), "to": .string(policy)], at: statement)
        ]
      }
      // A name made by interpolation is only a label: a stand-in string.
      let label =
        ["name", "transactionAuthor", "undoManager"].contains(key) ? standIn(for: value).json : nil
      guard ContextProperty(rawValue: key)?.isSettable == true,
        let v = self.value(of: value) ?? label
      else { return nil }
      return [step(["set": .string("\(context).\(key)"), "to": v], at: statement)]
    case .object(let name, let entity):
      return setSteps(object: name, entity: entity, key: key, value: value, at: statement)
    case .batchRequest(let request):
      guard case .name(let name) = base.kind else { return nil }
      return setBatch(request, named: name, key: key, value: value)
    case .request(var request):
      // How many and in what order: the same objects, touched the same way.
      if key == "resultType", case .member(nil, let type) = value.kind,
        type == "dictionaryResultType" || type == "countResultType"
      {
        request.givesValues = true
        if let name = requestName(base) { bind(name, .request(request)) }
        return []
      }
      guard key == "predicate" else { return FetchRequestDraft.options.contains(key) ? [] : nil }
      var steps: [JSONValue] = []
      if let (k, v) = predicate(value, of: request.entity) {
        request.conditions[k] = v
      } else if let reads = unreadPredicateReads(value) {
        // A predicate ctxsim cannot read, made of plain values: what the fetch finds is
        // decided at the fetch (``FetchRequestDraft/unreadPredicate``).
        steps = reads.map { readStep($0, at: statement) }
        request.unreadPredicate = value.source
      } else if let call = Call(value.unwrapped.expression),
        method(named: call.method, receiver: call.receiver, labels: call.arguments.map(\.label))
          != nil
      {
        // `predicate(for: filter)`, the app's own helper: drafted for what it does, and
        // what it makes read as a predicate ctxsim cannot read.
        steps = expressionSteps(
          value, result: "_predicate\(statement.location.line)", at: statement)
        request.unreadPredicate = value.source
      } else {
        return nil
      }
      if let name = requestName(base) { bind(name, .request(request)) }
      return steps
    default:
      return nil
    }
  }

  /// `newContext` or `self.newContext` in a method of the type: its own computed
  /// property's getter, run each time it is read (`container.newBackgroundContext()` makes
  /// one context a read); nil when `e` is no such property.
  mutating func ownGetter(_ e: SwiftExpression, result: String, at statement: SwiftStatement)
    -> [JSONValue]?
  {
    guard let key = Self.ownPropertyName(e), resolve(e) == nil, let subject,
      isAppType(subject.name),
      let property = subject.properties.first(where: { $0.name == key }),
      !property.modifiers.contains("static"), let getter = property.getterFunction
    else { return nil }
    return inlineGetter(
      getter, of: subject, self: .instanceOf(subject.name),
      members: instanceMembers[subject.name] ?? [:], result: result, at: statement)
  }

  /// `variable = value` of a shared var: the value computed, then written.
  private mutating func sharedWrite(
    _ variable: String, of property: String, _ value: SwiftExpression,
    at statement: SwiftStatement
  ) -> [JSONValue] {
    if let call = Call(value), call.method == "addObserver", isNotificationCenter(call) {
      // `token = NotificationCenter.default.addObserver(…)`: the observer, then the write.
      let made = "new" + variable.prefix(1).uppercased() + variable.dropFirst()
      let steps = expressionSteps(value, result: made, at: statement)
      return steps + [
        step(["write": .string(variable), "value": .string("$" + made)], at: statement)
      ]
    }
    if let v = self.value(of: value) {
      return [step(["write": .string(variable), "value": v], at: statement)]
    }
    if Self.computedCall(value) != nil {
      // What the call does is drafted first, on this thread (`items = try?
      // context.fetch(request)`, `titles = notes.compactMap { $0.title }`); what it
      // gives, or a stand-in of its type, is written.
      let computed = "_\(variable)Value\(statement.location.line)"
      let steps = expressionSteps(value, result: computed, at: statement)
      let named = SwiftExpression(kind: .name(computed), location: value.location)
      let given = self.value(of: named)
      if given == nil, let m = meaning(of: computed), m.isCoreData || m.isContainerOrInstance {
        // `mainContext = makeContext(…)` of a var the code types with its own protocol:
        // the property is that context from now on, as a context property is.
        scopes[0][property] = m
        return steps
      }
      let v = given ?? standIn(for: value).json
      return steps + [step(["write": .string(variable), "value": v], at: statement)]
    }
    // A value the draft does not compute is stood in by one of its type, after the reads
    // of objects and shared vars it makes (`title = note.title`). A property of a store
    // no file read declares (`rows = store.count`) is a getter of code not read.
    let write = step(
      ["write": .string(variable), "value": standIn(for: value).json], at: statement)
    if readsUndeclaredStore(value) {
      return notModelled(statement, why: reason(value), at: value) + [write]
    }
    let reads = plainReads(in: value) ?? []
    return reads.map { readStep($0, at: statement) } + [write]
  }

  /// `ratingEntity()?.lastShown = date`: the app's call first, into a name, then the set
  /// on what it gave (nothing, when it gave nil).
  private mutating func setOnCallResult(
    _ target: SwiftExpression, _ value: SwiftExpression, at statement: SwiftStatement
  ) -> [JSONValue]? {
    guard case .member(var base?, let key) = target.kind else { return nil }
    if case .optionalChain(let inner) = base.kind { base = inner }
    guard resolve(base) == nil, let call = Call(base.unwrapped.expression),
      method(named: call.method, receiver: call.receiver, labels: call.arguments.map(\.label))
        != nil
    else { return nil }
    let made = "_" + call.method
    let first = expressionSteps(base, result: made, at: statement)
    guard meaning(of: made) != nil else { return nil }
    let named = SwiftExpression(kind: .name(made), location: base.location)
    let set = assignment(
      SwiftExpression(kind: .member(named, key), location: target.location), value, at: statement)
    return first + (set ?? notModelled(statement, why: reason(target), at: target))
  }

  /// `User.mr_findFirst(…)`, `context.object(with: id)`: a call that finds one object.
  private func findsObject(_ call: Call) -> Bool {
    let method = call.method.lowercased()
    if method.hasPrefix("mr_findfirst") { return true }
    guard case .context? = call.receiver.flatMap(resolve) else { return false }
    return ["object", "existingobject", "objectwithid", "existingobjectwithid"].contains(method)
  }

  mutating func setSteps(
    object name: String, entity: String?, key: String, value: SwiftExpression,
    at statement: SwiftStatement
  ) -> [JSONValue]? {
    // A new object set straight away (`startingPoint = Location(context: context)`): made
    // first, then set.
    if let call = Call(value), isEntityInit(call),
      let made = entityInit(call.method, call: call, result: key, at: statement)
    {
      let set = setSteps(
        object: name, entity: entity, key: key,
        value: SwiftExpression(kind: .name(key), location: value.location), at: statement)
      return made + (set ?? [])
    }
    // `note.folder = try context.existing(Folder.self, id: id)`: the app's own method, or
    // one an extension of Core Data's types adds, drafted first; what it gives is set.
    if let call = Call(value.unwrapped.expression), self.value(of: value) == nil,
      extensionMethod(call.method, on: call.receiver.flatMap(resolve)) != nil
        || method(named: call.method, receiver: call.receiver) != nil
        || findsObject(call)
    {
      let given = "_" + key
      let made = expressionSteps(value, result: given, at: statement)
      if meaning(of: given) != nil {
        let set = setSteps(
          object: name, entity: entity, key: key,
          value: SwiftExpression(kind: .name(given), location: value.location), at: statement)
        return made + (set ?? [])
      }
    }
    // The access is what matters to the queue rules; a value the draft does not compute is
    // stood in by a sample of the attribute's type, and a line whose value may do more than
    // compute one is not modelled.
    var before: [JSONValue] = []
    var note: JSONValue?
    var type = valueType(value)
    var v = self.value(of: value)
    if v == nil {
      let declared = entity.flatMap { model.attributeType(key, of: $0) }
      let standIn = standIn(for: value, attribute: declared)
      // `entry.type = type`: an attribute is a plain value, whatever name holds it.
      let plainAttribute = declared != nil && Self.isPlainName(value, resolve(value))
      // `note.title = title` in a method of a command struct: its stored property, read
      // (a `let` is the same on every thread, and no read is drafted).
      var sharedRead = false
      if case .shared? = resolve(value) { sharedRead = true }
      if passRule(value, asValue: true) != nil || plainPropertyType(value) != nil || plainAttribute
        || sharedRead,
        let reads = plainReads(in: value)
      {
        before = reads.map { readStep($0, at: statement) }
      } else {
        before = notModelled(statement, why: reason(value), at: value)
      }
      v = standIn.json
      type = standIn.type ?? type
      note = .string("Stood in: \(standIn.what).")
    }
    if let entity {
      if case .object(_, let destination) = resolve(value) {
        model.add(key: key, to: entity, type: nil, destination: destination ?? "Item")
      } else {
        model.add(key: key, to: entity, type: type)
      }
    }
    return before + [
      step(["set": .string("\(name).\(key)"), "to": v, "note": note], at: statement)
    ]
  }

  /// The instance property an assignment's target names: `self.x` (explicit) or a bare `x`.
  func propertyName(_ target: SwiftExpression) -> (String, explicit: Bool)? {
    switch target.kind {
    case .member(let base?, let name):
      if case .name("self") = base.kind { return (name, true) }
      return nil
    case .name(let name): return (name, false)
    default: return nil
    }
  }

  private func requestName(_ e: SwiftExpression) -> String? {
    if case .name(let n) = e.kind { return n }
    return nil
  }

  /// `NSPredicate(format: "remoteURL == %@", url.absoluteString)`: one equality, its key and
  /// its value; nil when either is not one the draft knows.
  mutating func predicate(_ e: SwiftExpression, of entity: String) -> (key: String, value: String)?
  {
    guard case .call(let callee, let arguments) = e.kind, case .name("NSPredicate") = callee.kind,
      arguments.count == 2, case .string(let format, _) = arguments[0].value.kind
    else { return nil }
    let parts = format.split(separator: " ").map(String.init)
    guard parts.count == 3, parts[1] == "==" || parts[1] == "=", parts[2] == "%@" else {
      return nil
    }
    guard let value = predicateValue(arguments[1].value, of: parts[0], in: entity) else {
      return nil
    }
    return (parts[0], value)
  }

  /// The value a fetch compares `key` with, when the draft knows it; nil for one it does not
  /// (`UserDefaults.standard.currentUserId`), whose fetch may find a row or none. The key is
  /// recorded on the entity either way, so the stored rows hold it.
  mutating func predicateValue(_ e: SwiftExpression, of key: String, in entity: String)
    -> String?
  {
    model.add(key: key, to: entity, type: nil)  // compared with a string: a string attribute
    guard case .string(let text)? = value(of: e)?.kind else { return nil }
    return text
  }

  /// An attribute's name as a fetch names it: `"remoteId"`, or an app's key enum,
  /// `UserKey.remoteId.key` or `.rawValue`, whose case is named for the attribute.
  static func keyName(_ e: SwiftExpression) -> String? {
    // `#keyPath(Setting.createdAt)`: the last key.
    if e.source.hasPrefix("#keyPath("), e.source.hasSuffix(")") {
      let path = e.source.dropFirst("#keyPath(".count).dropLast()
      return path.split(separator: ".").last.map { String($0).trimmingCharacters(in: .whitespaces) }
    }
    switch e.kind {
    case .string(let text, let interpolations) where interpolations.isEmpty: return text
    case .member(let base?, let accessor) where accessor == "key" || accessor == "rawValue":
      if case .member(let type?, let name) = base.kind, case .name(let t) = type.kind,
        t.first?.isUppercase == true
      {
        return name
      }
      return nil
    default: return nil
    }
  }

  private func mergePolicy(_ e: SwiftExpression) -> String? {
    var text = e.source
    // `NSMergePolicy(mergeType: mergePolicyType)`: the policy the parameter was given.
    if let call = Call(e), let type = call.argument("mergeType"), case .name(let n) = type.kind,
      let given = enumArguments[n]
    {
      text = given
    }
    for policy in [
      "mergeByPropertyObjectTrump", "mergeByPropertyStoreTrump", "overwrite", "rollback", "error",
    ] where text.lowercased().contains(policy.lowercased()) {
      return policy
    }
    return nil
  }
}
