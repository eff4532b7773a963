import ContextSimCore
import ContextSimReports

/// A call taken apart: who receives it, the method, its arguments and closure.
struct Call {
  var receiver: SwiftExpression?
  var method: String
  var arguments: [SwiftArgument]
  /// `fetch(request).first`: the call's result narrowed to its first element.
  var first = false
  /// `handler?(x)`: a call through an optional.
  var optional = false
  /// `FetchRequest<Company>(entity: e)`: the types a generic type is made with.
  var typeArguments: [String] = []

  init?(_ e: SwiftExpression) {
    switch e.kind {
    case .member(let inner, "first"):
      guard let inner, var call = Call(inner) else { return nil }
      call.first = true
      self = call
    case .call(let callee, let arguments):
      self.arguments = arguments
      switch callee.kind {
      case .member(let base, let name):
        (receiver, method) = (base, name)
      case .name(let name):
        (receiver, method) = (nil, name)
      case .generic(let base, let types):
        guard case .name(let name) = base.kind else { return nil }
        (receiver, method, typeArguments) = (nil, name, types)
      case .optionalChain(let inner):
        (receiver, method, optional) = (nil, inner.source, true)
      default:
        return nil
      }
    default:
      return nil
    }
  }

  func argument(_ label: String?) -> SwiftExpression? {
    arguments.first { $0.label == label }?.value
  }

  var closure: SwiftClosure? {
    for argument in arguments.reversed() {
      if case .closure(let c) = argument.value.kind { return c }
    }
    return nil
  }
}

extension Drafter {
  /// `Note.self`, or a generic helper's `entity: T.Type` parameter.
  func isMetatype(_ e: SwiftExpression) -> Bool {
    switch e.kind {
    case .member(_?, "self"): true
    case .name(let n): typeParameters[n] != nil
    default: false
    }
  }

  /// A receiver reached by steps of its own, drafted into a name first: the type's own
  /// computed property (`context.fetch(r)` of a computed `context`: its getter, at each
  /// read), or an object's context (`note.managedObjectContext?.perform { … }`).
  private mutating func draftedReceiver(_ own: SwiftExpression, at statement: SwiftStatement)
    -> (String, [JSONValue])?
  {
    let held = "_" + (Self.ownPropertyName(own) ?? "context") + "\(statement.location.line)"
    var inner = own.unwrapped.expression
    if case .optionalChain(let chained) = inner.kind { inner = chained }
    if case .member(let base?, "managedObjectContext") = inner.kind, case .object? = resolve(base) {
      return (held, expressionSteps(inner, result: held, at: statement))
    }
    guard let getter = ownGetter(own, result: held, at: statement), meaning(of: held) != nil
    else { return nil }
    return (held, getter)
  }

  /// Swift 2's and Objective-C's names of the same methods.
  static let oldNames = [
    "performBlock": "perform", "performBlockAndWait": "performAndWait",
    "executeFetchRequest": "fetch", "countForFetchRequest": "count",
    "deleteObject": "delete", "objectWithID": "object", "existingObjectWithID": "existingObject",
    "mergeChangesFromContextDidSaveNotification": "mergeChanges",
  ]

  /// An entity's name as code passes it: `"Note"`, a `static let`, or a parameter given one.
  func entityName(_ e: SwiftExpression) -> String? {
    // `CgmEvent.entity().name!`: the entity's class names it.
    var named = e
    if case .forceUnwrap(let inner) = named.kind { named = inner }
    if case .member(let base?, "name") = named.kind, let call = Call(base), call.method == "entity",
      call.arguments.isEmpty, case .name(let type)? = call.receiver?.kind,
      entityTypes.contains(type) || model.isEntity(type)
    {
      return type
    }
    // `NSStringFromClass(CDModel.self).components(separatedBy: ".").last!`: the class's.
    if let named = classNameEntity(e) ?? classNameProperty(e) { return named }
    // `String(describing: type)` of a generic helper's `type: T.Type`: the entity given.
    if let call = Call(e), call.receiver == nil, call.method == "String",
      let described = call.argument("describing"), case .name(let n) = described.kind,
      let t = typeParameters[n]
    {
      return entityNamed(t)
    }
    var known = literal(e)
    if known == nil, case .name(let n) = e.kind, case .value(let local)? = meaning(of: n) {
      known = literals[local]
    }
    if case .string(let text)? = known?.kind { return text }
    return nil
  }

  /// Whether the files declare a method `name` that gives something other than a context
  /// (`func newBackgroundContext() -> IterablePersistenceContext`): a call of it is theirs.
  static func declaresOwn(_ name: String, in types: [String: SwiftType]) -> Bool {
    types.values.contains { type in
      type.functions.contains { $0.name == name && $0.returnType != "NSManagedObjectContext" }
    }
  }

  mutating func callSteps(
    _ call: Call, result: String?, tryMark: String?, awaited: Bool, at statement: SwiftStatement
  ) -> [JSONValue]? {
    var call = call
    call.method = Self.oldNames[call.method] ?? call.method
    if let own = call.receiver, resolve(own) == nil,
      let (held, read) = draftedReceiver(own, at: statement)
    {
      call.receiver = SwiftExpression(kind: .name(held), location: own.location)
      if let rest = callSteps(
        call, result: result, tryMark: tryMark, awaited: awaited, at: statement)
      {
        return read + rest
      }
      guard case .context(let c)? = meaning(of: held) else { return nil }
      // A call on it the draft cannot model still touches that context, on this thread;
      // what it gives is not followed.
      if let result { bind(result, .opaque) }
      return read + [touch(c, at: statement)]
        + notModelled(statement, why: "`\(call.method)()` on a context is not modelled")
    }
    var receiver = call.receiver.map(resolve)
    var isValue = false
    if case .value?? = receiver { isValue = true }
    if receiver == .some(nil) || receiver == .some(.dependency) || isValue,
      call.method == "newBackgroundContext", !Self.declaresOwn("newBackgroundContext", in: types)
    {
      // `dataStack.newBackgroundContext()`: whatever makes it, a private-queue context
      // on the coordinator, as the container's does.
      receiver = .container
    }
    if case .context?? = receiver, let first = call.arguments.first?.value,
      isMetatype(first),
      extensionMethod(call.method, on: receiver ?? nil, labels: call.arguments.map(\.label))
        != nil
    {
      // `context.fetch(Note.self)` of an extension's `fetch<T>(_ entity: T.Type)`: Swift
      // picks the overload by the argument's type, a metatype where Core Data's takes a
      // request.
      return otherCallSteps(call, result: result, awaited: awaited, at: statement)
    }
    switch (receiver, call.method) {
    case (.context(let c)?, "perform"), (.context(let c)?, "performAndWait"):
      guard let closure = call.closure else { return nil }
      let synchronous = call.method == "performAndWait" && !awaited
      let body = onThread(main: c == "viewContext") {
        $0.closureSteps(closure, result: result, synchronous: synchronous)
      }
      if awaited {
        var members: KeyValuePairs<String, JSONValue?> = [
          "perform": .string(c), "await": .bool(true), "do": .array(body),
        ]
        if call.argument("schedule")?.source.contains("enqueued") == true {
          members = [
            "perform": .string(c), "await": .bool(true), "schedule": .string("enqueued"),
            "do": .array(body),
          ]
        }
        return [step(members, at: statement)]
      }
      return [step([call.method: .string(c), "do": .array(body)], at: statement)]
    case (.controller(let name, _)?, "performFetch"):
      // A controller whose making the draft did not model is nothing to fetch with.
      guard madeControllers.contains(name) else { return nil }
      return [step(["performFetch": .string(name)], at: statement)]
    case (.context(let c)?, "execute"):
      guard case .batchRequest(let request)? = call.arguments.first.flatMap({ resolve($0.value) })
      else { return nil }
      return executeBatch(request, in: c, result: result, at: statement)
    case (.context(let c)?, "mergeChanges"):
      return mergeSteps(call, into: c, at: statement)
    case (.context(let c)?, "save"):
      return [step(["save": .string(c)], at: statement)]
    case (.context(let c)?, "fetch"), (.context(let c)?, "count"):
      var argument = call.arguments.first?.value
      var made: [JSONValue] = []
      if let a = argument, fetchRequest(a) == nil, let helper = Call(a.unwrapped.expression),
        method(
          named: helper.method, receiver: helper.receiver, labels: helper.arguments.map(\.label))
          != nil
      {
        // `context.fetch(request(id))`: the app's helper makes the request first.
        let name = "_request\(statement.location.line)"
        made = expressionSteps(a, result: name, at: statement)
        argument = SwiftExpression(kind: .name(name), location: a.location)
      }
      guard let request = fetchRequest(argument) else { return nil }
      // A fetch of dictionaries touches the context as a count does, and gives values.
      let verb = call.method == "fetch" && !request.givesValues ? "fetch" : "count"
      return made
        + fetchSteps(
          verb, of: request.entity, in: c, conditions: request.conditions,
          readable: request.unreadPredicate == nil, first: call.first, as: result ?? "_\(verb)",
          method: call.method, at: statement)
    case (.context, "delete"):
      guard case .object(let name, _)? = call.arguments.first.map({ resolve($0.value) }) else {
        return nil
      }
      return [step(["delete": .string(name)], at: statement)]
    case (.context(let c)?, "object"), (.context(let c)?, "existingObject"):
      guard let argument = call.argument("with"), let result else { return nil }
      standInFreeID(argument, at: statement)
      var before: [JSONValue] = []
      var id = value(of: argument)
      var entity: String?
      if case .objectID(let n)? = resolve(argument) { entity = idEntities[n] }
      if case .member(let base?, "objectID") = argument.unwrapped.expression.kind,
        case .object(let object, let objectEntity)? = resolve(base)
      {
        // `existingObject(with: printer.objectID)`: the ID read, then looked up.
        let name = "_\(object)ID"
        before.append(step(["objectID": .string(object), "as": .string(name)], at: statement))
        bind(name, .objectID(name))
        (id, entity) = (.string("$" + name), objectEntity)
      }
      guard let id else { return nil }
      bind(result, .object(result, entity: entity))
      return before
        + [step([call.method: id, "in": .string(c), "as": .string(result)], at: statement)]
    case (.context(let c)?, "reset"), (.context(let c)?, "rollback"),
      (.context(let c)?, "refreshAllObjects"):
      return [step([call.method: .string(c)], at: statement)]
    case (.context, "refresh"):
      guard case .object(let name, _)? = call.arguments.first.map({ resolve($0.value) }) else {
        return nil
      }
      let merge = call.argument("mergeChanges").map { $0.source == "true" } ?? false
      return [step(["refresh": .string(name), "merge": .bool(merge)], at: statement)]
    case (.container?, "newBackgroundContext"):
      let name = freshContext(Self.contextName(result ?? "backgroundContext"))
      bind(result ?? name, .context(name))
      return [step(["newBackgroundContext": .string(name)], at: statement)]
    case (.container?, "loadPersistentStores"):
      // The scenario's store is loaded at launch, and loads: the handler runs here, at once,
      // with no error, as it does by default (stores are added synchronously).
      guard let closure = call.closure else { return [] }
      return scoped { drafter in
        var steps: [JSONValue] = []
        for (index, parameter) in closure.parameters.enumerated() where parameter != "_" {
          let local = drafter.localName(parameter)  // not a shared var's name
          drafter.bind(parameter, .value(local))
          if index == 1 { drafter.knownNil.insert(parameter) }
          let value: JSONValue = index == 1 ? .null : .string("stand-in store description")
          steps.append(drafter.step(["let": .string(local), "value": value], at: statement))
        }
        defer { drafter.knownNil = [] }
        return steps + drafter.steps(closure.body)
      }
    case (.container?, "performBackgroundTask"):
      if call.arguments.count == 1, case .name(let n) = call.arguments[0].value.kind,
        case .callersClosure? = meaning(of: n)
      {
        // `performBackgroundTask(block)` of the caller's closure: a new context, and a block
        // on its queue that runs code not in the files, stood in by one that does nothing.
        passedOver.append(
          PassedOver(file: file.name, line: statement.location.line, rule: .callersClosure))
        let name = freshContext("context")
        return [
          step(["newBackgroundContext": .string(name)], at: statement),
          step(["perform": .string(name), "do": .array([])], at: statement),
        ]
      }
      guard let closure = call.closure else { return nil }
      let parameter = closure.parameters.first ?? "context"
      // A name of its own: the block's `context` is not another context called so.
      let name = freshContext(Self.contextName(parameter))
      let create = step(["newBackgroundContext": .string(name)], at: statement)
      let body = onThread(main: false) { outer in
        outer.scoped { drafter in
          drafter.bind(parameter, .context(name))
          return drafter.closureSteps(closure, result: nil)
        }
      }
      return [create, step(["perform": .string(name), "do": .array(body)], at: statement)]
    case (.object(let name, let entity)?, "setValue"),
      (.object(let name, let entity)?, "setPrimitiveValue"):
      // The primitive accessors skip KVO, not the queue rule: a set and a get all the same.
      guard let key = call.argument("forKey").flatMap(Self.keyName),
        let value = call.arguments.first?.value
      else { return nil }
      return setSteps(object: name, entity: entity, key: key, value: value, at: statement)
    case (.object(let name, let entity)?, "value"),
      (.object(let name, let entity)?, "primitiveValue"):
      guard let key = call.argument("forKey").flatMap(Self.keyName) else { return nil }
      if let entity { model.add(key: key, to: entity, type: nil) }
      let target = result ?? "_value"
      bind(target, .value(target))
      return [step(["get": .string("\(name).\(key)"), "as": .string(target)], at: statement)]
    case (.objects(let name, let entity)?, _):
      return collectionSteps(call, list: name, entity: entity, result: result, at: statement)
    case (.queue(let queue)?, "async"), (.queue(let queue)?, "sync"),
      (.queue(let queue)?, "asyncAfter"):
      return queueSteps(call, on: queue, result: result, at: statement)
    case (.dependency?, _):
      if let result, let type = call.argument("concurrencyType") {
        // `store.makeContext(concurrencyType: .privateQueueConcurrencyType)`: a context.
        return [madeContext(result, type: type, by: call, at: statement)]
      }
      let name = result ?? "_" + call.method
      let standIn = call.arguments.first.flatMap { value(of: $0.value) } ?? .string(call.method)
      bind(name, .value(name))
      valueTypes[name] = dependencyReturnType(call.method)
      var steps = [
        step(
          [
            "let": .string(name), "value": standIn,
            "note": .string("Stood in: \(call.method) answers at once."),
          ],
          at: statement)
      ]
      // `--fail-item`: for that sample, `try?` gives nil, as a failing fake's call does.
      if let failing = failingSample, tryMark == "?", case .string(let text) = standIn.kind,
        text.hasPrefix("$")
      {
        steps.append(
          when(
            step(
              [
                "let": .string(name), "value": .null,
                "note": .string("Stood in: \(call.method) fails for this item."),
              ], at: statement),
            Test(variable: String(text.dropFirst()), value: failing, holdsWhenEqual: true),
            holds: true))
      }
      return steps
    default:
      return otherCallSteps(call, result: result, awaited: awaited, at: statement)
    }
  }

  /// Calls on no recognised receiver: queues, tasks, inserts, the instance's own methods.
  private mutating func otherCallSteps(
    _ call: Call, result: String?, awaited: Bool, at statement: SwiftStatement
  ) -> [JSONValue]? {
    if let steps = notificationSteps(call, result: result, at: statement) { return steps }
    if let steps = mergeRemote(call, at: statement) { return steps }
    if let result, let steps = fetchedResultsController(call, named: result, at: statement) {
      return steps
    }
    let receiverText = call.receiver?.source ?? ""
    if ["async", "sync", "asyncAfter"].contains(call.method),
      let queue = dispatchQueue(receiverText)
    {
      return queueSteps(call, on: queue, result: result, at: statement)
    }
    if receiverText == "MainActor", call.method == "run", call.closure != nil {
      // `await MainActor.run { … }`: the body on main, the task waiting until it has run,
      // as a `sync` onto main. Nothing is held meanwhile: its caller is a task's own code,
      // never a context's block (a block cannot `await`).
      var onMain = call
      onMain.method = "sync"
      return queueSteps(onMain, on: "main", result: result, at: statement)
    }
    // Swift 2: `insertNewObjectForEntityForName("Item", inManagedObjectContext: c)`.
    if ["insertNewObject", "insertNewObjectForEntityForName"].contains(call.method),
      receiverText == "NSEntityDescription",
      let entity = (call.argument("forEntityName") ?? call.arguments.first?.value)
        .flatMap(entityName),
      case .context(let c)? = (call.argument("into") ?? call.argument("inManagedObjectContext"))
        .map(resolve)
    {
      let name = result ?? "_inserted"
      model.addEntity(entity)
      bind(name, .object(name, entity: entity))
      return [
        step(["insert": .string(entity), "into": .string(c), "as": .string(name)], at: statement)
      ]
    }
    if isEntityInit(call),
      let steps = entityInit(call.method, call: call, result: result, at: statement)
    {
      // `Photo(context: context)`, or one of the app's own initialisers of an entity.
      return steps
    }
    if let steps = selfInit(call, result: result, at: statement) { return steps }
    if call.method == "managedObjectID", call.argument("forURIRepresentation") != nil, let result {
      // An object ID from a stored URI: a saved object's, of the entity the method returns,
      // looked up on the main thread before the call, as the app once stored it.
      let entity =
        returning.map { $0.trimmingCharacters(in: ["?", "!"]) }.flatMap {
          Self.isDependency($0) || model.isEntity($0) ? $0 : nil
        } ?? "Item"
      model.addEntity(entity, fetched: true)
      preamble += [
        .object([
          "fetch": .string(entity), "in": .string("viewContext"), "first": .bool(true),
          "as": .string(result + "Object"),
          "note": .string("A stand-in for the stored URI: a saved \(entity)."),
        ]),
        .object(["objectID": .string(result + "Object"), "as": .string(result)]),
      ]
      bind(result, .objectID(result))
      idEntities[result] = entity
      return []
    }
    if call.receiver == nil && call.method == "DispatchQueue", call.argument("label") != nil {
      // A queue of the app's own: declared in "queues", serial unless `.concurrent`.
      let name = result ?? "queue"
      declareQueue(
        name, concurrent: call.argument("attributes")?.source.contains("concurrent") == true)
      bind(name, .queue(name))
      return []
    }
    if call.receiver == nil && call.method == "NSManagedObjectContext",
      let type = call.argument("concurrencyType").map({ enumArguments[$0.source] ?? $0.source })
    {
      let name = freshContext(Self.contextName(result ?? "context"))
      bind(result ?? name, .context(name))
      // `.mainQueueConcurrencyType`, Swift 2's `.MainQueueConcurrencyType`.
      let queue = type.lowercased().contains("mainqueue") ? "main" : "private"
      if queue == "main" { mainQueueContexts.insert(name) }
      return [step(["newContext": .string(name), "queue": .string(queue)], at: statement)]
    }
    if call.receiver == nil, call.method == "autoreleasepool", let closure = call.closure {
      return closureSteps(closure, result: result)  // runs its closure at once, here
    }
    if call.method == "Task" || (receiverText == "Task" && call.method == "detached"),
      let closure = call.closure
    {
      let detached =
        call.method == "detached" || !(onMainActor || closure.attributes.contains("@MainActor"))
      let body = onThread(main: !detached) { $0.closureSteps(closure, result: nil) }
      return [
        step(["task": .string(detached ? "detached" : "main"), "do": .array(body)], at: statement)
      ]
    }
    if call.method == "withTaskGroup" || call.method == "withThrowingTaskGroup",
      let closure = call.closure
    {
      return taskGroupSteps(closure, at: statement)
    }
    // `completion?(.success)` where `completion` defaulted to nil: calling nil does nothing.
    if call.optional, knownNil.contains(call.method) { return [] }
    if call.optional,
      case .shared(let variable)? = meaning(
        of: call.method.replacingOccurrences(of: "self.", with: ""))
    {
      return [
        step(
          [
            "read": .string(variable), "as": .string("_handler"),
            "note": .string("Calls \(variable) if it is set; what it does is not in these files."),
          ],
          at: statement)
      ]
    }
    if let steps = magicalRecordSteps(call, result: result, at: statement) { return steps }
    if call.receiver == nil,
      call.method.hasPrefix("XCTAssert") || call.method == "XCTFail"
        || ["assert", "precondition", "assertionFailure"].contains(call.method)
    {
      passedOver.append(
        PassedOver(file: file.name, line: statement.location.line, rule: .testAssertion))
      return call.arguments.flatMap { assertedSteps($0.value, at: statement) }
    }
    if call.receiver == nil,
      ["NSPersistentContainer", "NSPersistentCloudKitContainer"].contains(call.method)
        || isContainerSubclass(call.method)
    {
      // `let container = NSPersistentContainer(name: "Model")`: the scenario's one store.
      if let result { bind(result, .container) }
      return []
    }
    if !call.typeArguments.isEmpty, types[call.method]?.genericParameters.isEmpty == false {
      madeTypeArguments[call.method] = call.typeArguments.map { entityNamed($0) ?? $0 }
    } else if let type = types[call.method], let made = initializer(of: type, for: call),
      let inferred = inferredTypeArguments(of: type, by: made, call: call)
    {
      madeTypeArguments[call.method] = inferred  // `CoreDataDAO(CDEntityTranslator(), …)`
    }
    if madeAppType(call) != nil {
      // `CoreDataStack()`: the one instance the draft makes of it; its `init` ran first.
      if let result { bind(result, .instanceOf(call.method)) }
      // A second one would make contexts of its own; the draft has the first's only, so a
      // block of one that touches the other's context would run clean. Never clean past it.
      let second = !madeInstances.insert(call.method).inserted && holdsOwnContexts(call.method)
      if second {
        return notModelled(
          statement,
          why: "a second \(call.method): ctxsim drafts one instance of each type, so the "
            + "contexts this one makes are taken as the first's")
      }
      // Made with the caller's contexts or objects (`CoreDataStack(mainContext: main)`) or
      // closures (`sync: {}`), its properties hold those, not the stand-ins the one
      // instance was made with.
      let given = call.arguments.filter { a in
        if case .closure = a.value.kind { return true }
        return isCoreDataArgument(a.value)
      }
      guard let first = given.first else { return [] }
      if let type = types[call.method], let initializer = initializer(of: type, for: call),
        !inlining.contains(initializer.identity)
      {
        return remade(type, by: initializer, call: call, at: statement)
      }
      if let type = types[call.method], type.keyword == "struct",
        !type.functions.contains(where: { $0.name == "init" }),
        call.arguments.allSatisfy({ a in type.properties.contains { $0.name == a.label } })
      {
        // A struct's memberwise `init`: each argument is its property; a call given
        // (`context: container.newBackgroundContext()`) is drafted first, its result kept.
        var steps: [JSONValue] = []
        for argument in call.arguments {
          guard let label = argument.label else { continue }
          var m = resolve(argument.value)
          if m == nil, Call(argument.value.unwrapped.expression) != nil {
            let local = meaning(of: label) == nil ? label : "_" + label
            steps += expressionSteps(argument.value, result: local, at: statement)
            m = meaning(of: local)
          }
          guard let m else { continue }
          instanceMembers[type.name, default: [:]][label] = m
        }
        return steps
      }
      return notModelled(
        statement,
        why: "\(call.method) is drafted once, with stand-ins; what this call gives it "
          + "(`\(first.value.source)`) is not what its properties hold",
        at: first.value)
    }
    if let steps = entityClassMethod(call, result: result, at: statement) { return steps }
    if let steps = toManyAddSteps(call, at: statement) { return steps }
    let receiver = call.receiver.flatMap(resolve)
    if let (type, function) = extensionMethod(
      call.method, on: receiver, labels: call.arguments.map(\.label)),
      !inlining.contains(function.identity)
    {
      // `context.saveIfNeeded()`: a method an extension of Core Data's type adds, `self`
      // the receiver, its bare `hasChanges` the receiver's.
      var method = function
      method.body = function.body.map { Self.withImplicitSelf($0, for: receiver) }
      return inlineMethod(
        method, of: type, self: receiver, call: call, result: result, at: statement)
    }
    if let (type, function) = method(
      named: call.method, receiver: call.receiver, labels: call.arguments.map(\.label)),
      !inlining.contains(function.identity)
    {
      let members = type.flatMap { instanceMembers[$0.name] } ?? [:]
      return inlineMethod(
        function, of: type, self: type.map { .instanceOf($0.name) }, members: members,
        call: call, result: result, at: statement)
    }
    return nil
  }

  /// Whether an argument given to an app type's `init` may be what its instance keeps of
  /// Core Data's: a context, object, list or ID, an app instance, or a call on one of those
  /// or on the container (`container.newBackgroundContext()`), which may make one. The
  /// container itself is not: the scenario has one, which the instance was made with.
  func isCoreDataArgument(_ e: SwiftExpression) -> Bool {
    if let m = resolve(e) {
      if case .instanceOf = m { return true }
      return m.isCoreData
    }
    guard let call = Call(e.unwrapped.expression), let receiver = call.receiver.flatMap(resolve)
    else { return false }
    return receiver.isCoreData || receiver.isContainerOrInstance
  }

  /// The `init` of `type` a call's labels choose: each label the call writes, in order,
  /// among the parameters' (those it leaves out have defaults).
  private func initializer(of type: SwiftType, for call: Call) -> SwiftFunction? {
    type.functions.first { function in
      guard function.name == "init" else { return false }
      var labels = function.parameters.map(\.label)[...]
      for argument in call.arguments {
        guard let i = labels.firstIndex(of: argument.label) else { return false }
        labels = labels[(i + 1)...]
      }
      return true
    }
  }

  /// `CoreDataStack(mainContext: main)`: the type's `init` drafted here, with the call's
  /// arguments. What its properties mean after it is the one instance's from now on, so
  /// `stack.mainContext` is the context this call gave, not the stand-in the instance was
  /// first made with. (Two instances of one type alive at once are not told apart.)
  private mutating func remade(
    _ type: SwiftType, by initializer: SwiftFunction, call: Call, at statement: SwiftStatement
  ) -> [JSONValue] {
    let names = type.properties.filter { $0.getter == nil }.map(\.name)
    // The instance's properties are the bottom scope's names while its `init` runs.
    let saved = names.map { scopes[0][$0] }
    for name in names { scopes[0][name] = instanceMembers[type.name]?[name] }
    var steps = inlineMethod(
      initializer, of: type, self: .instanceOf(type.name), call: call, result: nil,
      at: statement)
    // Its `lazy var`s are made on first use, after this `init`: from what it was given.
    let savedSubject = subject
    subject = type
    steps += propertyValues(of: type, lazy: true)
    subject = savedSubject
    for (name, before) in zip(names, saved) {
      if let now = scopes[0][name] { instanceMembers[type.name, default: [:]][name] = now }
      scopes[0][name] = before
    }
    return steps
  }

  /// `observation.canEdit`, where the entity's class computes `canEdit`: its getter drafted
  /// in place as a method of the object, what it returns bound to `result`. Nil when the
  /// key is no computed property of the class (an attribute, read with `get`).
  mutating func computedProperty(
    _ key: String, of object: String, entity: String?, result: String,
    at statement: SwiftStatement
  ) -> [JSONValue]? {
    guard let entity, let type = types[entity],
      let getter = type.properties.first(where: { $0.name == key })?.getterFunction
    else { return nil }
    return inlineGetter(
      getter, of: type, self: .object(object, entity: entity), result: result, at: statement)
  }

  /// `Stack.shared.defaultContext`, `AERecord.Context.default`: a computed property of an
  /// app type, of its one instance or static, drafted in place as
  /// ``computedProperty(_:of:entity:result:at:)`` drafts an entity's. Nil when `key` is no
  /// such property.
  mutating func appTypeGetter(
    _ base: SwiftExpression, _ key: String, result: String, at statement: SwiftStatement
  ) -> [JSONValue]? {
    var typeName: String?
    var isStatic = false
    if case .instanceOf(let t)? = resolve(base) {
      typeName = t
    } else if case .name(let t) = base.kind, meaning(of: t) == nil {
      (typeName, isStatic) = (t, true)
    } else if case .member(_, let t) = base.kind, resolve(base) == nil {
      (typeName, isStatic) = (t, true)  // `AERecord.Context`: a nested type
    }
    guard let typeName, let type = types[typeName],
      let (owner, property) = declaredProperty(key, of: type),
      (property.modifiers.contains("static") || property.modifiers.contains("class")) == isStatic,
      let getter = property.getterFunction
    else { return nil }
    return inlineGetter(
      getter, of: owner, self: .instanceOf(typeName),
      members: instanceMembers[typeName] ?? [:], result: result, at: statement)
  }

  /// `storage.lastShown = date`: a computed property's setter of an app type's instance,
  /// drafted as the method Swift runs for it, given the value. Nil when `target` is no such
  /// property.
  mutating func appTypeSetter(
    _ target: SwiftExpression, _ value: SwiftExpression, at statement: SwiftStatement
  ) -> [JSONValue]? {
    guard case .member(let base?, let key) = target.kind,
      case .instanceOf(let typeName)? = resolve(base), let type = types[typeName],
      let setter = type.properties.first(where: { $0.name == key })?.setterFunction,
      !inlining.contains(setter.identity)
    else { return nil }
    let location = statement.location
    let callee = SwiftExpression(kind: .name(key), location: location)
    guard
      let call = Call(
        SwiftExpression(
          kind: .call(callee, [SwiftArgument(label: nil, value: value)]), location: location))
    else { return nil }
    return inlineMethod(
      setter, of: type, self: .instanceOf(typeName),
      members: instanceMembers[typeName] ?? [:], call: call, result: nil, at: statement)
  }

  /// `Model.create()`: a class method an extension of `NSManagedObject` adds, called on an
  /// entity's class (one the files declare, or one they only name), `Self` that entity.
  /// What it makes with `self.init(…)` is the call's result.
  private mutating func entityClassMethod(
    _ call: Call, result: String?, at statement: SwiftStatement
  ) -> [JSONValue]? {
    guard case .name(let entity)? = call.receiver?.kind, meaning(of: entity) == nil,
      entity.first?.isUppercase == true, types[entity].map(isManagedObjectSubclass) ?? true,
      let base = types["NSManagedObject"],
      let function = base.functions.first(where: {
        $0.name == call.method && $0.isStatic
          && Self.accepts($0, labels: call.arguments.map(\.label))
      }),
      !inlining.contains(function.identity)
    else { return nil }
    model.addEntity(entity)
    let object = result ?? "_" + entity.prefix(1).lowercased() + entity.dropFirst()
    return inlineMethod(
      function, of: base, self: .object(object, entity: entity), call: call, result: result,
      at: statement)
  }

  /// A getter drafted as the method Swift runs for it, called with no arguments.
  mutating func inlineGetter(
    _ getter: SwiftFunction, of type: SwiftType, self me: Meaning,
    members: [String: Meaning] = [:], result: String, at statement: SwiftStatement
  ) -> [JSONValue]? {
    guard !inlining.contains(getter.identity) else { return nil }
    let location = statement.location
    let callee = SwiftExpression(kind: .name(getter.name), location: location)
    guard let call = Call(SwiftExpression(kind: .call(callee, []), location: location)) else {
      return nil
    }
    return inlineMethod(
      getter, of: type, self: me, members: members, call: call, result: result, at: statement)
  }

  /// A method of `type` drafted in place, its own lines labelling its steps, `self` and the
  /// instance's `members` bound.
  mutating func inlineMethod(
    _ function: SwiftFunction, of type: SwiftType?, self me: Meaning?,
    members: [String: Meaning] = [:], call: Call, result: String?, at statement: SwiftStatement
  ) -> [JSONValue] {
    let (savedSubject, savedEntity, savedEnclosing) = (subject, currentEntity, enclosingType)
    // The caller's, for the closures it hands the method (``HeldClosure``).
    let savedCaller = caller
    caller = vantage
    defer { caller = savedCaller }
    if let type, isAppType(type.name) { subject = type }
    if let type { enclosingType = type }
    // A method of an entity's class: its bare property names are the object's.
    if case .object(let object, let entity?)? = me { currentEntity = (object, entity) }
    defer { (subject, currentEntity, enclosingType) = (savedSubject, savedEntity, savedEnclosing) }
    var bound = members
    if let me, !isAppType(type?.name ?? "") { bound["self"] = me }
    return inline(
      function, call: call, result: result, members: bound,
      in: files.first { $0.name == function.file }, at: statement)
  }

  /// An assertion's argument: nothing for a literal; for `f().key`, the call, then the
  /// read of `key` when the call gives an object (a struct's field touches nothing).
  private mutating func assertedSteps(_ e: SwiftExpression, at statement: SwiftStatement)
    -> [JSONValue]
  {
    var question = e.unwrapped.expression
    if case .prefix("!", let inner) = question.kind { question = inner }
    // A literal compared with, or which thread this is: nothing touched.
    if Self.isPlainLiteral(e) || Self.asksIfMainThread(question) { return [] }
    guard case .member(let base?, let key) = e.unwrapped.expression.kind,
      Call(base.unwrapped.expression) != nil
    else { return expressionSteps(e, result: nil, at: statement) }
    let value = "_asserted\(statement.location.line)"
    var steps = expressionSteps(base, result: value, at: statement)
    if case .object(let name, _)? = meaning(of: value) {
      steps.append(step(["get": .string("\(name).\(key)")], at: statement))
    }
    return steps
  }

  /// An object ID a `--call` names that nothing binds (`w.object(with: id) as! Printer`):
  /// the ID of the screen's object of the entity the result is cast to, taken on the main
  /// thread before the call, as a parameter is stood in.
  private mutating func standInFreeID(_ argument: SwiftExpression, at statement: SwiftStatement) {
    guard file.name == "--call", case .name(let name) = argument.kind, meaning(of: name) == nil
    else { return }
    let text = line(of: statement)
    guard let call = text.range(of: "(with: \(name))"),
      let cast = text[call.upperBound...].range(
        of: #"^\s*as[!?]\s*\w+"#, options: .regularExpression)
    else { return }
    let entity = String(
      text[cast].split(whereSeparator: { $0 == " " || $0 == "!" || $0 == "?" }).last ?? "")
    guard entityTypes.contains(entity) || model.isEntity(entity) else { return }
    var steps: [JSONValue] = []
    let object = "_" + name + "Object"
    bindStandIn(.init(label: nil, name: object, type: entity, defaultValue: nil), steps: &steps)
    steps.append(.object(["objectID": .string(object), "as": .string(name)]))
    bind(name, .objectID(name))
    idEntities[name] = entity
    preamble += steps
  }

  /// A literal written in place, which an assertion compares with: `"second"`, `3`, `nil`.
  static func isPlainLiteral(_ e: SwiftExpression) -> Bool {
    switch e.kind {
    case .string(_, let interpolations): interpolations.isEmpty
    case .number, .bool, .nil: true
    default: false
    }
  }

  /// `queue.async { … }`, `sync`, and `asyncAfter(deadline:)`, which is `async` here: the
  /// block runs later on the queue, and the model has no clock to say how much later, so
  /// every order with what the app does meanwhile is one a run may take.
  private mutating func queueSteps(
    _ call: Call, on queue: String, result: String?, at statement: SwiftStatement
  ) -> [JSONValue]? {
    guard let closure = call.closure else { return nil }
    let verb = call.method == "sync" ? "sync" : "async"
    // `let value = queue.sync { raw }`: what the block returns, bound where it runs.
    let given = verb == "sync" ? result : nil
    let body = onThread(main: queue == "main") {
      $0.closureSteps(closure, result: given, synchronous: verb == "sync")
    }
    return [step([verb: .string(queue), "do": .array(body)], at: statement)]
  }

  /// `DispatchQueue.main`, `DispatchQueue.global(…)` and Swift 2's
  /// `dispatch_get_main_queue()`, `dispatch_get_global_queue(…)`: the scenario's `main` or
  /// `global`.
  func dispatchQueue(_ receiver: String) -> String? {
    if receiver == "DispatchQueue.main" || receiver.hasPrefix("dispatch_get_main_queue") {
      return "main"
    }
    if receiver.hasPrefix("DispatchQueue.global") || receiver.hasPrefix("dispatch_get_global_queue")
    {
      return "global"
    }
    return nil
  }

  private func dependencyReturnType(_ method: String) -> String? {
    for file in files {
      for type in file.types where type.keyword == "protocol" {
        if let f = type.functions.first(where: { $0.name == method }), f.returnType == "Data" {
          return "binary"
        }
      }
    }
    return nil
  }

  func singular(_ name: String) -> String {
    name.hasSuffix("s") && name.count > 1 ? String(name.dropLast()) : "element"
  }
}
