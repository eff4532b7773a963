import ContextSimCore
import ContextSimReports

/// The app's own methods drafted in place: which method a call names, its body with the
/// call's arguments bound, and closures' bodies with what their `return` binds.
extension Drafter {
  /// The method a call names: the current type's, a drafted type's (`manager.save()` when
  /// one type declares `save`), or a top-level function; with its type. Among overloads,
  /// the one whose argument labels the call's `labels` match.
  func method(named name: String, receiver: SwiftExpression?, labels: [String?]? = nil)
    -> (SwiftType?, SwiftFunction)?
  {
    // `.init(query: q)`: the contextual type's initialiser, which the call does not name;
    // never some other type's `init`.
    if receiver == nil, name == "init" { return nil }
    func pick(_ functions: [SwiftFunction]) -> SwiftFunction? {
      let named = functions.filter { $0.name == name }
      guard let labels, named.count > 1 else { return named.first }
      return named.first { Self.accepts($0, labels: labels) } ?? named.first
    }
    if let receiver {
      // `stack.save()`, `CoreDataStack.shared.save()`, `CoreDataStack.make()`.
      var typeName: String?
      if case .instanceOf(let t)? = resolve(receiver) { typeName = t }
      // `T.load()` in a helper given `storage: Disk.self`: `Disk`'s static method.
      if case .name(let n) = receiver.kind, meaning(of: n) == nil, let named = entityNamed(n),
        types[named] != nil
      {
        typeName = named
      }
      // `Self.makeRequest()`: a static method of the type whose method this is.
      if case .name("Self") = receiver.kind { typeName = (enclosingType ?? subject)?.name }
      if let typeName, let type = types[typeName] {
        if let f = pick(functions(of: type)) { return (type, f) }
        if let inherited = inheritedMethod(name, of: type, labels: labels) { return inherited }
      }
    }
    if receiver == nil, let f = pick(localFunctions.reversed()) { return (subject, f) }
    let own = receiver == nil || receiver?.source == "self"
    if own, let subject, let f = pick(functions(of: subject)) { return (subject, f) }
    if own, let enclosingType, let f = pick(functions(of: enclosingType)) {
      return (enclosingType, f)
    }
    // A receiver the draft does not follow, of the one drafted type that declares the
    // method; not a static call on a type of another name (`Entity.fetchRequest()` is not
    // the app's `fetchRequest(for:)`), nor a call its labels do not fit.
    let declaring = drafted.filter { type in type.functions.contains { $0.name == name } }
    let onOtherType = receiver.map { Self.isTypeName($0) } ?? false
    if !onOtherType, declaring.count == 1, let type = declaring.first,
      let f = pick(type.functions), labels.map({ Self.accepts(f, labels: $0) }) ?? true
    {
      return (type, f)
    }
    if own, let f = pick(files.flatMap(\.functions)) { return (nil, f) }
    return nil
  }

  /// A type's methods, then those the extensions of the protocols it adopts add
  /// (`extension Persisting { func log() }` on a class declared `: Persisting`), which Swift
  /// calls with the instance as `self`.
  func functions(of type: SwiftType) -> [SwiftFunction] {
    type.functions
      + type.inherits.flatMap { name in
        types[name].map {
          $0.keyword == "protocol" || $0.keyword == "extension" ? $0.functions : []
        }
          ?? []
      }
  }

  /// Each parameter's argument, by the parameter's index, matched by label as Swift does:
  /// a defaulted parameter may be left out, a trailing closure is the parameter of function
  /// type it reaches.
  static func arguments(of call: Call, for f: SwiftFunction) -> [Int: SwiftExpression] {
    var given: [Int: SwiftExpression] = [:]
    var next = 0
    for (index, parameter) in f.parameters.enumerated() where next < call.arguments.count {
      let argument = call.arguments[next]
      if parameter.type.hasSuffix("..."), argument.label == parameter.label {
        // `run(_ commands: any Command...)`: every argument up to the next label, as a list.
        var items = [argument.value]
        next += 1
        while next < call.arguments.count, call.arguments[next].label == nil {
          items.append(call.arguments[next].value)
          next += 1
        }
        given[index] = SwiftExpression(kind: .array(items), location: argument.value.location)
        continue
      }
      let closure = argument.label == nil && parameter.type.contains("->")
      if argument.label == parameter.label || closure || parameter.defaultValue == nil {
        given[index] = argument.value
        next += 1
      }
    }
    return given
  }

  /// `func insert<T: NSManagedObject>(_ type: T.Type)` called with `Note.self`: `T` is
  /// `Note` while its body is drafted. A parameter typed `X.Type`, `X` no type the files
  /// declare, is taken as a generic one.
  mutating func bindTypeArguments(of function: SwiftFunction, call: Call) {
    let given = Self.arguments(of: call, for: function)
    for (index, parameter) in function.parameters.enumerated()
    where parameter.type.hasSuffix(".Type") {
      let t = String(parameter.type.dropLast(".Type".count))
      guard t.first?.isUppercase == true, t.allSatisfy({ $0.isLetter || $0.isNumber }),
        types[t] == nil, !entityTypes.contains(t)
      else { continue }
      // A helper's own `T` too, and `T.Object` of a `T` the call gives; or what the
      // caller's own `entity: T.Type` stands for, handed on.
      var named: String?
      if case .member(let base?, "self")? = given[index]?.kind {
        named = namedType(base)
      } else if case .name(let n)? = given[index]?.kind, let outer = typeParameters[n] {
        named = entityNamed(outer)
      }
      typeParameters[parameter.name] = t
      if let named {
        typeArguments[t] = named
        unnamedTypeParameters.remove(t)
      } else {
        typeArguments[t] = nil
        unnamedTypeParameters.insert(t)
      }
    }
  }

  /// A coordinator or a model handed to a method: its calls prepare the store's files and
  /// read the model, before the scenario's store loads.
  static let storeSetupTypes: Set<String> = [
    "NSPersistentStoreCoordinator", "NSManagedObjectModel",
  ]

  /// The Swift type of the value `argument` gives `parameter`, where the draft knows it: the
  /// parameter's own plain type, else the argument's. A generic `value: T` (or `some P`)
  /// given one binds `T` to it while the body is drafted.
  mutating func bindValueType(
    _ parameter: SwiftFunction.Parameter, of function: SwiftFunction, to argument: SwiftExpression
  ) -> String? {
    let declared = parameter.type
    let isParameter = function.genericParameters.contains(declared)
    guard isParameter || declared.hasPrefix("some ") else {
      return Self.plainType(declared) != nil
        ? declared.trimmingCharacters(in: [" ", "?", "!"]) : nil
    }
    guard let type = swiftType(of: argument) else { return nil }
    if isParameter {
      typeArguments[declared] = type
      unnamedTypeParameters.remove(declared)
    }
    return type
  }

  /// `Int(value)`, `3`, `2.5`, a name the draft knows the Swift type of.
  func swiftType(of e: SwiftExpression) -> String? {
    switch e.unwrapped.expression.kind {
    case .number(let n): return n.contains(".") ? "Double" : "Int"
    case .string: return "String"
    case .bool: return "Bool"
    case .call(let callee, let arguments) where arguments.count == 1:
      guard case .name(let t) = callee.kind, Self.plainType(t) != nil else { return nil }
      return t
    case .name(let n):
      guard case .value(let v)? = meaning(of: n) else { return nil }
      return swiftTypes[v]
    default: return nil
    }
  }

  /// What a type written in the code names: an entity or type the files declare, a generic
  /// helper's `T` as given, and `T.Object` through the `typealias` of what `T` is.
  func namedType(_ e: SwiftExpression) -> String? {
    switch e.kind {
    case .name, .member(_?, _): namedType(written: e.source)
    default: nil
    }
  }

  /// The same for a type as written in a generic argument: `Resource.ManagedObjectType`.
  func namedType(written: String) -> String? {
    let parts = written.split(separator: ".").map(String.init)
    guard let first = parts.first, var named = entityNamed(first) else { return nil }
    for alias in parts.dropFirst() {
      guard let next = types[named]?.typeAliases[alias] else { return nil }
      named = next
    }
    return named
  }

  /// The entity a type's name stands for: itself, or what a generic helper's type
  /// parameter was given; nil for a parameter given what names no entity.
  func entityNamed(_ t: String) -> String? {
    unnamedTypeParameters.contains(t) ? nil : typeArguments[t] ?? t
  }

  /// Whether a call with argument `labels` calls `f`: each label its parameter's in order,
  /// defaulted parameters left out, a trailing closure for a parameter of function type.
  static func accepts(_ f: SwiftFunction, labels: [String?]) -> Bool {
    var next = 0
    for parameter in f.parameters {
      if parameter.type.hasSuffix("..."), next < labels.count, labels[next] == parameter.label {
        next += 1
        while next < labels.count, labels[next] == nil { next += 1 }  // a variadic's rest
      } else if next < labels.count,
        labels[next] == parameter.label || (labels[next] == nil && parameter.type.contains("->"))
      {
        next += 1
      } else if parameter.defaultValue == nil {
        return false
      }
    }
    return next == labels.count
  }

  /// `Note` of a method's `-> [Note]` (or `[T]`, `T` given the entity): the entity whose
  /// objects it returns; nil for anything else.
  func listEntity(_ returnType: String?) -> String? {
    guard let t = returnType?.trimmingCharacters(in: [" ", "?", "!"]), t.hasPrefix("["),
      t.hasSuffix("]"), !t.contains(":")
    else { return nil }
    let element = String(t.dropFirst().dropLast())
    guard let entity = entityNamed(element), model.isEntity(entity) || entityTypes.contains(entity)
    else { return nil }
    return entity
  }

  /// The instance's own method, its body drafted in place with its parameters bound.
  mutating func inline(
    _ function: SwiftFunction, call: Call, result: String?, members: [String: Meaning] = [:],
    in bodyFile: SwiftFile? = nil, at statement: SwiftStatement
  ) -> [JSONValue] {
    // A declaration with no body ctxsim can read (an `@NSManaged` accessor, a protocol's
    // requirement): what it does is not in the files, so it is not modelled, never nothing.
    guard function.body != nil else {
      return notModelled(statement, why: "`\(function.name)` has no body in the files read")
    }
    var out: [JSONValue] = []
    var returned: Meaning?
    // A context the method makes and returns is the context's own name, not a variable.
    let returnsContext =
      function.returnType.map { typeAliases[$0] ?? $0 } == "NSManagedObjectContext"
    if let result, !returnsContext {
      // Bound (to nil, or no objects for a list of an entity's) before the body runs, so
      // later steps may name it whatever path the method returns by.
      if let entity = listEntity(function.returnType) {
        bind(result, .objects(result, entity: entity))
        out.append(step(["let": .string(result), "value": .array([])], at: statement))
      } else {
        out.append(step(["let": .string(result), "value": .null], at: statement))
        boundToNil.insert(result)
      }
    }
    let savedTypes = (typeArguments, unnamedTypeParameters, typeParameters)
    // A parameter taken as store setup is so only inside the method.
    let parameterNames = Set(function.parameters.map(\.name)).subtracting(storeSetupNames)
    defer {
      (typeArguments, unnamedTypeParameters, typeParameters) = savedTypes
      storeSetupNames.subtract(parameterNames)
    }
    bindTypeArguments(of: function, call: call)
    if let type = enclosingType,
      let given = madeTypeArguments[type.name] ?? inheritedTypeArguments(of: type)
    {
      for (parameter, argument) in zip(type.genericParameters, given) {
        typeArguments[parameter] = argument
        unnamedTypeParameters.remove(parameter)
      }
    }
    let body: [JSONValue] = inMethodScopes { drafter in
      // The arguments are the caller's: read before the instance's properties are bound, so
      // `cleanUp(in: context)` hands on the caller's `context`, not the callee's property.
      let given = Self.arguments(of: call, for: function)
      var argumentTypes: [String: String] = [:]
      for (index, parameter) in function.parameters.enumerated() {
        guard let argument = given[index] else { continue }
        argumentTypes[parameter.name] = drafter.bindValueType(parameter, of: function, to: argument)
        if Self.storeSetupTypes.contains(parameter.type.trimmingCharacters(in: ["?", "!"])) {
          // `migration(coordinator: c, model: m)`: what it does with them sets up the store.
          drafter.storeSetupNames.insert(parameter.name)
          if drafter.isStoreSetup(argument) { continue }
        }
        // `.mainQueueConcurrencyType`, or a name given one (`for: usageType`), for a
        // `switch` on the parameter; anything else, and an earlier call's case no longer holds.
        drafter.enumArguments[parameter.name] = drafter.switchValue(argument)
        if case .closure(let closure) = argument.kind {
          // A completion handler, a block: run where the method calls or hands it on.
          drafter.holdClosure(closure, as: parameter.name, handedOn: true)
          continue
        }
        if argument.kind.isNil, parameter.type.contains("->") {
          // `completion: nil`: calling it does nothing.
          drafter.bind(parameter.name, .callersClosure)
          continue
        }
        if case .call(let callee, let payload) = argument.kind, case .member(nil, _) = callee.kind,
          payload.allSatisfy({ drafter.resolve($0.value) != nil })
        {
          // `withParent: .context(root)`: the case, and what its payload is, for a
          // `switch` on the parameter (``bindPayload(of:in:)``).
          _ = drafter.rememberCase(argument, as: parameter.name)
          continue
        }
        if Call(argument) != nil, drafter.resolve(argument) == nil {
          // `manager.safeContext()` as an argument: drafted, its result the parameter.
          out += drafter.expressionSteps(argument, result: parameter.name, at: statement)
          continue
        }
        if case .name(let n) = argument.kind, drafter.meaning(of: n) == nil {
          // A name nothing binds (a `--call`'s `urls`): the parameter, stood in on main.
          var standIns: [JSONValue] = []
          drafter.bindStandIn(parameter, steps: &standIns)
          drafter.preamble += standIns
          continue
        }
        if let made = Call(argument.unwrapped.expression), drafter.madeAppType(made) != nil,
          made.arguments.contains(where: { drafter.isCoreDataArgument($0.value) })
        {
          // `HealthMonitor(dataProvider: Provider(context: c))`: the inner instance is
          // made first, with what it is given.
          out += drafter.expressionSteps(argument, result: nil, at: statement)
        }
        switch drafter.resolve(argument) {
        case let m? where m.passesAsItself:
          drafter.bind(parameter.name, m)  // the same object, context, container, request…
        default:
          guard let v = drafter.value(of: argument) else {
            // What computing it does, on the caller's thread, before the call:
            // `show(title: note.title)` reads the title here.
            out += drafter.argumentSteps(argument, at: statement)
            if Self.plainType(parameter.type) != nil {
              // `bundles: [Bundle]` given `[Bundle.main]`: a plain value, stood in.
              let local = drafter.localName(parameter.name)
              out.append(drafter.standInStep(local, for: argument, at: statement))
              drafter.bind(parameter.name, .value(local))
            } else if drafter.meaning(of: parameter.name) != nil || members[parameter.name] != nil
              || drafter.resolve(argument) == .opaque
            {
              // Given what the draft does not follow: still the parameter, not the
              // instance's property (or an outer local) of the same name.
              drafter.bind(parameter.name, .opaque)
            }
            continue
          }
          let local = drafter.localName(parameter.name)
          drafter.bind(parameter.name, .value(local))
          if v != .string("$" + local) {
            out.append(drafter.step(["let": .string(local), "value": v], at: statement))
          }
          // A literal given (`entity: "Task"`), for what needs the text itself: an entity.
          drafter.literals[local] = drafter.literal(argument)
          if case .name(let name) = argument.kind {
            drafter.valueTypes[local] = drafter.valueTypes[name]
            drafter.literals[local] = drafter.literals[name]
          }
        }
      }
      for (name, type) in argumentTypes {
        if case .value(let v)? = drafter.meaning(of: name) { drafter.swiftTypes[v] = type }
      }
      // A parameter the call leaves out takes its default: a queue, a context, a literal.
      var defaultedNil: [String] = []
      for (index, parameter) in function.parameters.enumerated() where given[index] == nil {
        guard let given = parameter.defaultValue else { continue }
        if case .member(nil, _) = given.kind {
          drafter.enumArguments[parameter.name] = given.source  // `kind: Kind = .archive`
        }
        if let queue = drafter.dispatchQueue(given.source) {
          drafter.bind(parameter.name, .queue(queue))
        } else if let m = drafter.resolve(given), m.isCoreData || m.isContainerOrInstance {
          // `storage: Storage = CoreDataStorage()`: the context, or the app's instance.
          drafter.bind(parameter.name, m)
        } else if given.kind.isNil, parameter.type.contains("->") {
          // `completion: (…)? = nil`: calling it does nothing, and it hides a closure of the
          // same name around the call.
          drafter.bind(parameter.name, .callersClosure)
        } else if given.kind.isNil, !drafter.knownNil.contains(parameter.name) {
          // `backgroundContext: NSManagedObjectContext? = nil`: nil in this call.
          drafter.knownNil.insert(parameter.name)
          defaultedNil.append(parameter.name)
        } else if !given.kind.isNil, let v = drafter.literal(given) {
          // `wait: Bool = true`: the value, as a caller's literal would be.
          let local = drafter.localName(parameter.name)
          drafter.bind(parameter.name, .value(local))
          out.append(drafter.step(["let": .string(local), "value": v], at: statement))
        } else if case .member(let base?, let key) = given.kind,
          let steps = drafter.appTypeGetter(base, key, result: parameter.name, at: statement)
        {
          // `in context: NSManagedObjectContext = AERecord.Context.default`: its getter
          // runs at the call, on the caller's thread.
          out += steps
        } else if given.source.hasPrefix("#") {
          // `file: String = #file`, `line: Int = #line`: the caller's place, a plain value.
          let local = drafter.localName(parameter.name)
          out.append(drafter.standInStep(local, for: given, at: statement))
          drafter.bind(parameter.name, .value(local))
        }
      }
      defer { drafter.knownNil.subtract(defaultedNil) }
      // The instance's properties, or `self`, below the parameters.
      for (name, meaning) in members.sorted(by: { $0.key < $1.key }) {
        drafter.bindMember(name, meaning)
      }
      drafter.inlining.append(function.identity)
      defer { drafter.inlining.removeLast() }
      // The arguments are the caller's lines; the body's are the method's own file's.
      let savedFile = drafter.file
      drafter.file = bodyFile ?? drafter.file
      defer { drafter.file = savedFile }
      let savedReturning = drafter.returning
      drafter.returning = function.returnType
      defer { drafter.returning = savedReturning }
      let saved = (drafter.returnTarget, drafter.returnFlag)
      (drafter.returnTarget, drafter.returnFlag) = (result, nil)
      defer { (drafter.returnTarget, drafter.returnFlag) = saved }
      // A body of one expression returns it.
      var steps: [JSONValue]
      if let body = function.body, body.count == 1, case .expression(let e) = body[0].kind,
        result != nil || function.returnType != nil
      {
        // The value it returns, into a name even when the caller does not keep it.
        let into = result ?? "_returned\(body[0].location.line)"
        steps = drafter.expressionSteps(e, result: into, at: body[0])
      } else {
        steps = drafter.steps(function.body ?? [])
      }
      // What the result is (a context, an object) outlives the method's own names; for a
      // method `-> [Note]`, a list of the entity's objects whatever path returned last
      // (the entity is known once a path has fetched it).
      returned = result.flatMap { drafter.meaning(of: $0) }
      if let result, returned?.isCoreData != true,
        let entity = drafter.listEntity(function.returnType)
      {
        returned = .objects(result, entity: entity)
      }
      return steps
    }
    if let result { bind(result, returned ?? .value(result)) }
    return out + body
  }

  /// A closure's body as steps; a `return` in it binds `result`.
  ///
  /// A synchronous block (`performAndWait`, `sync`) binds into the scope around it, as
  /// assigning to an outer `var` does, and as the scenario's synchronous blocks do.
  mutating func closureSteps(_ closure: SwiftClosure, result: String?, synchronous: Bool = false)
    -> [JSONValue]
  {
    if !synchronous { asyncDepth += 1 }
    defer { if !synchronous { asyncDepth -= 1 } }
    return inWrittenScope(closure, synchronous: synchronous) { drafter in
      guard !synchronous else { return drafter.closureBody(closure, result: result) }
      return drafter.scoped { $0.closureBody(closure, result: result) }
    }
  }

  private mutating func closureBody(_ closure: SwiftClosure, result: String?) -> [JSONValue] {
    let saved = (returnTarget, returnFlag, file)
    (returnTarget, returnFlag) = (result, nil)
    defer { (returnTarget, returnFlag, file) = saved }
    // Handed on to another file's method (`storage.performBackgroundTask { … }`): its lines
    // are still labelled in the file they are written in.
    if closure.file != file.name, let home = files.first(where: { $0.name == closure.file }) {
      file = home
    }
    // A closure of one expression returns it.
    if let result, closure.body.count == 1, case .expression(let e) = closure.body[0].kind {
      return expressionSteps(e, result: result, at: closure.body[0])
    }
    return steps(closure.body)
  }
}
