import ContextSimCore
import ContextSimReports

/// One instance of a class: its properties, its `init`, then its entry points in order.
extension Drafter {
  /// Types that mean a Core Data or Foundation value, never an injected dependency.
  static let systemTypes: Set<String> = [
    "NSPersistentContainer", "NSPersistentCloudKitContainer", "NSManagedObjectContext",
    "NSManagedObject", "NSManagedObjectID", "URL", "String", "Int", "Double", "Bool", "Data",
    "Date", "UUID", "URLSession", "DispatchQueue", "NSFetchRequest", "NotificationCenter",
  ]

  mutating func draftInstance(of type: SwiftType) -> [JSONValue] {
    subject = type
    onMainActor = type.attributes.contains("@MainActor")
    bind("self", .instance)
    let assigned = Self.assignedNames(in: type.functions.flatMap { $0.body ?? [] })
    var guesses: [JSONValue] = []
    for property in type.properties where property.getter == nil {
      let declared = (property.type ?? "").trimmingCharacters(in: ["?", "!"])
      if property.value == nil, entityTypes.contains(declared) || model.isEntity(declared) {
        // `let pin: Pin`, given by whoever made the instance: the screen's object.
        bindStandIn(
          .init(label: nil, name: property.name, type: declared, defaultValue: nil),
          steps: &guesses)
        continue
      }
      bindProperty(property)
      if case .context(let name)? = meaning(of: property.name),
        name == Self.contextName(property.name),
        property.value == nil, !assigned.contains(property.name)
      {
        // Made outside the files read: the app's main context is the likely one, a guess
        // the run goes on with and is never clean past.
        bind(property.name, .context("viewContext"))
        summary.append("\(property.name): not made in these files, taken as viewContext")
        guesses += notModelled(
          SwiftStatement(kind: .unknown, location: property.location),
          why: "not made in the files read: taken as viewContext")
      }
    }
    var main = guesses + propertyValues(of: type, lazy: false)
    if let initializer = type.functions.first(where: { $0.name == "init" }) {
      main += scoped { drafter in
        for parameter in initializer.parameters {
          drafter.bindStandIn(parameter, steps: &main)
        }
        drafter.inlining.append(initializer.identity)
        defer { drafter.inlining.removeLast() }
        return drafter.steps(initializer.body ?? [])
      }
    }
    // A `lazy var` is made when first used, after `init`: here, before any entry point.
    main += propertyValues(of: type, lazy: true)
    bindComputedProperties(of: type)
    // What its properties mean once `init` ran, for `stack.context` from other code.
    instanceMembers[type.name] = Dictionary(
      type.properties.compactMap { p in meaning(of: p.name).map { (p.name, $0) } },
      uniquingKeysWith: { first, _ in first })
    let entryPoints = type.functions.filter { function in
      function.name != "init" && function.name != "deinit" && !function.isPrivate
        && !function.isStatic && options.calls.isEmpty && !isCallback(function)
    }
    for function in entryPoints {
      main += draftCall(function)
    }
    guard options.calls.isEmpty else { return main }
    summary.append(
      "\(type.name): "
        + (entryPoints.isEmpty
          ? "no entry point" : entryPoints.map { $0.name + "()" }.joined(separator: ", "))
        + (onMainActor ? ", on the main actor" : ", called on the main thread"))
    return main
  }

  /// A method the system calls, not the app: a fetched results controller's delegate
  /// method, or one a `#selector` names (a notification's observer).
  func isCallback(_ function: SwiftFunction) -> Bool {
    if function.parameters.first?.type.contains("NSFetchedResultsController") == true {
      return true
    }
    return selectorNames.contains(function.name)
  }

  /// The methods the files name in a selector (`#selector(didSave(_:))`,
  /// `#selector(Self.didSave)`, Swift 2's `Selector("didSave:")`): read once, as every
  /// method is asked about.
  static func selectorNames(in files: [SwiftFile]) -> Set<String> {
    var names: Set<String> = []
    for line in files.flatMap(\.lines) where line.contains("elector(") {
      for part in line.components(separatedBy: "#selector(").dropFirst() {
        // `Self.didSave(_:)`, `didSave`: the last name before its arguments.
        let path = part.prefix { $0 != "(" && $0 != ")" && $0 != "," }
        if let name = path.split(separator: ".").last { names.insert(String(name)) }
      }
      for part in line.components(separatedBy: "Selector(\"").dropFirst() {
        names.insert(String(part.prefix { $0 != ":" && $0 != "\"" }))
      }
    }
    return names
  }

  /// A queue of the app's own in `"queues"`, once, serial unless made `.concurrent`.
  mutating func declareQueue(_ name: String, concurrent: Bool) {
    guard !queues.contains(where: { $0.0 == name }) else { return }
    queues.append((name, .string(concurrent ? "concurrent" : "serial")))
  }

  /// The names the statements assign to (`x = …`, `self.x = …`), at any depth.
  static func assignedNames(in statements: [SwiftStatement]) -> Set<String> {
    var names: Set<String> = []
    func visit(_ statements: [SwiftStatement]) {
      for statement in statements {
        switch statement.kind {
        case .expression(let e):
          if case .binary("=", let target, _) = e.kind {
            if case .name(let n) = target.kind { names.insert(n) }
            if case .member(let base?, let n) = target.kind, case .name("self") = base.kind {
              names.insert(n)
            }
          }
        case .if(_, let then, let otherwise): visit(then + (otherwise ?? []))
        case .guard(_, let body), .forIn(_, _, let body), .while(_, let body), .defer(let body):
          visit(body)
        case .switch(_, let cases): visit(cases.flatMap(\.body))
        case .do(let body, let catches): visit(body + catches.flatMap { $0 })
        default: break
        }
      }
    }
    visit(statements)
    return names
  }

  /// A stored property: the container, a context, an injected dependency, or a shared var.
  /// A shared var is named for the property; when another type already has one of that
  /// name, for the type and the property (`contactID`), so two types' `id`s never race.
  mutating func bindProperty(_ property: SwiftProperty) {
    var meaning = meaning(ofProperty: property)
    if case .shared(let name) = meaning, let owner = subject?.name {
      if let first = sharedVarOwners[name], first != owner {
        var renamed =
          owner.prefix(1).lowercased() + owner.dropFirst() + name.prefix(1).uppercased()
          + name.dropFirst()
        // Not a name the files give a local (`let messageVersion` elsewhere).
        while declaredLocals.contains(renamed) { renamed += "Var" }
        reservedNames.insert(renamed)
        meaning = .shared(renamed)
      } else {
        sharedVarOwners[name] = owner
      }
    }
    bind(property.name, meaning)
    switch meaning {
    case .queue(let name):
      declareQueue(name, concurrent: property.value?.source.contains("concurrent") == true)
    case .dependency:
      summary.append("\(property.name): stood in, answers at once")
    case .shared(let name) where !sharedVars.contains(where: { $0.0 == name }):
      let initial = property.value.flatMap { literal($0) } ?? .null
      sharedVars.append((name, initial))
      if property.isLet { constants.insert(name) }
    default: break
    }
  }

  func meaning(ofProperty property: SwiftProperty) -> Meaning {
    if let t = appType(property.type) { return .instanceOf(t) }
    if isContainerSubclass((property.type ?? "").trimmingCharacters(in: ["?", "!"])) {
      return .container
    }
    if let value = property.value, let call = Call(value), let made = madeAppType(call) {
      return .instanceOf(made)
    }
    if let value = property.value, case .member(let base?, let name) = value.kind,
      case .name(let typeName) = base.kind, let member = staticMember(name, of: typeName)
    {
      return member  // `let stack = CoreDataStack.shared`
    }
    let meaning = Self.meaning(of: property)
    if case .dependency = meaning, !isInjected(property.type ?? "") {
      return .shared(property.name)
    }
    return meaning
  }

  static func meaning(of property: SwiftProperty) -> Meaning {
    let type = (property.type ?? "").replacingOccurrences(of: "any ", with: "")
      .trimmingCharacters(in: ["?", "!"])
    if type.contains("PersistentContainer") { return .container }
    if let value = property.value, let call = Call(value), call.receiver == nil,
      call.method.hasSuffix("PersistentContainer") || call.method.hasSuffix("CloudKitContainer")
    {
      return .container  // `let container = NSPersistentContainer(name: "Model")`
    }
    if type.isEmpty, let value = property.value, case .member(_, "viewContext") = value.kind {
      return .context("viewContext")  // `let context = container.viewContext`
    }
    // `let context = container.newBackgroundContext()`
    if type.isEmpty, let value = property.value,
      Call(value.unwrapped.expression)?.method == "newBackgroundContext"
    {
      return .context(contextName(property.name))
    }
    if let value = property.value, let call = Call(value), call.receiver == nil,
      call.method == "NSManagedObjectContext"
    {
      // `let main = NSManagedObjectContext(concurrencyType: …)`
      return .context(contextName(property.name))
    }
    if type == "NSManagedObjectContext" {
      if let value = property.value, case .member(_, "viewContext") = value.kind {
        return .context("viewContext")
      }
      return .context(contextName(property.name))
    }
    if type == "DispatchQueue" { return .queue(property.name) }
    if type.hasPrefix("NSFetchedResultsController") {
      return .controller(property.name, entity: nil)
    }
    if let value = property.value, case .call(let callee, _) = value.kind,
      case .name("DispatchQueue") = callee.kind
    {
      return .queue(property.name)
    }
    if property.isLet && isDependency(type) { return .dependency }
    return .shared(property.name)
  }

  /// A dependency the app injects whose type the files declare (`any PhotoDownloading`):
  /// it answers at once, as a test's fake would. One of a type no file declares
  /// (`let store: NoteStore`, its file not read) may do anything with Core Data: calls on it
  /// are lines not modelled.
  func isInjected(_ type: String) -> Bool {
    Self.isDependency(type) && types[Self.bareTypeName(type)] != nil
  }

  /// The scenario's name for a context the Swift calls `name`: `main` and `global` name
  /// threads in a scenario, so a context called so is `mainContext`, `globalContext`.
  static func contextName(_ name: String) -> String {
    ["main", "global"].contains(name) ? name + "Context" : name
  }

  /// A protocol or class type that is not Core Data's or Foundation's: what the app injects.
  static func isDependency(_ type: String) -> Bool {
    let type = type.replacingOccurrences(of: "any ", with: "")
    // Views and controllers (`UI…`) are the screen's, not injected services: PassRule.
    return !type.isEmpty && !systemTypes.contains(type) && !type.contains("->")
      && !type.hasPrefix("[")
      && !type.hasPrefix("(") && type.first?.isUppercase == true && !type.hasPrefix("NS")
      && !type.hasPrefix("UI")
  }

  /// Steps that call `function` from the main thread, with stand-ins for its arguments.
  mutating func draftCall(_ function: SwiftFunction) -> [JSONValue] {
    var standIns: [JSONValue] = []
    let body: [JSONValue] = scoped { drafter in
      for parameter in function.parameters {
        drafter.bindStandIn(parameter, steps: &standIns)
      }
      let mainActor = drafter.onMainActor || function.attributes.contains("@MainActor")
      let saved = drafter.onMainActor
      drafter.onMainActor = mainActor
      defer { drafter.onMainActor = saved }
      drafter.inlining.append(function.identity)
      defer { drafter.inlining.removeLast() }
      return drafter.steps(function.body ?? [])
    }
    standIns += preamble
    preamble = []
    let call =
      function.name + "("
      + function.parameters.map { ($0.label.map { "\($0): " } ?? "") + $0.name }
      .joined(separator: ", ") + ")"
    let label = "\(file.name):\(function.location.line)"
    if function.isAsync {
      return standIns + [
        .object([
          "task": .string("main"), "label": .string(label),
          "swift": .string(
            "Task { @MainActor in \(function.isThrowing ? "try " : "")await \(call) }"),
          "do": .array(body),
        ])
      ]
    }
    return standIns + body
  }

  /// A parameter's stand-in: a list of samples for a collection, an object from
  /// `viewContext` for a managed object, a sample value otherwise.
  mutating func bindStandIn(_ parameter: SwiftFunction.Parameter, steps: inout [JSONValue]) {
    var type = parameter.type.trimmingCharacters(in: ["?", "!"])
    type = typeAliases[type] ?? type
    if reservedNames.contains(parameter.name) {
      // A parameter named like a property: the scenario needs another name for it.
      var renamed = parameter
      renamed.name += "Local"
      bindStandIn(renamed, steps: &steps)
      if let m = meaning(of: renamed.name) { bind(parameter.name, m) }
      return
    }
    let name = parameter.name
    if let t = appType(type), let declared = types[t], declared.keyword == "struct",
      declared.properties.allSatisfy({
        if case .shared = Self.meaning(of: $0) { true } else { false }
      })
    {
      // A struct of plain values (`Contact`): a copy the caller made, whose fields are
      // values, as `contact.id` reads them.
      steps.append(
        .object([
          "let": .string(name), "value": .string("stand-in \(t)"),
          "note": .string("A stand-in for the argument \(name): a \(t) of plain values."),
        ]))
      bind(name, .value(name))
      return
    }
    if let t = appType(type) {
      bind(name, .instanceOf(t))  // the one instance the draft makes of the app's type
      return
    }
    if type.contains("->") {
      // The caller's closure: its code is not in the files read (PassRule.callersClosure).
      bind(name, .callersClosure)
      return
    }
    if type.contains("PersistentContainer") || isContainerSubclass(type) {
      bind(name, .container)
      return
    }
    if type == "NSManagedObjectContext" {
      bind(name, .context("viewContext"))
      return
    }
    if type.hasPrefix("["), type.hasSuffix("]") {
      let element = String(type.dropFirst().dropLast())
      let samples = (1...max(options.items, 1)).map { sample(of: element, number: $0) }
      if let n = options.failingItem, samples.indices.contains(n - 1), failingSample == nil {
        failingSample = samples[n - 1]
      }
      steps.append(
        .object([
          "let": .string(name), "value": .array(samples),
          "note": .string("A stand-in for the argument \(name): \(samples.count) sample values."),
        ]))
      bind(name, .value(name))
      listLengths[name] = samples.count
      return
    }
    if type == "NSManagedObject" || model.isEntity(type) || type == "NSManagedObjectID" {
      let entity =
        type == "NSManagedObject" || type == "NSManagedObjectID" ? entityUsed(for: name) : type
      model.addEntity(entity, fetched: true)
      let objectName = type == "NSManagedObjectID" ? name + "Object" : name
      steps.append(
        .object([
          "fetch": .string(entity), "in": .string("viewContext"), "first": .bool(true),
          "as": .string(objectName),
          "note": .string(
            "A stand-in for the argument \(name): the screen's \(entity), in viewContext."),
        ]))
      if type == "NSManagedObjectID" {
        steps.append(.object(["objectID": .string(objectName), "as": .string(name)]))
        bind(name, .objectID(name))
      } else {
        bind(name, .object(name, entity: entity))
      }
      return
    }
    // `storage: RatingStorage = CoreDataRatingStorage()`: the app's instance it defaults to.
    if let given = parameter.defaultValue, let m = resolve(given), m.isContainerOrInstance {
      bind(name, m)
      return
    }
    if isInjected(type) {
      bind(name, .dependency)
      return
    }
    // A defaulted parameter takes its default, as a caller that leaves it out does.
    if let given = parameter.defaultValue, case .member(nil, _) = given.kind {
      enumArguments[name] = given.source  // `kind: Kind = .archive`, for a `switch kind`
    }
    let value = parameter.defaultValue.flatMap(literal) ?? sample(of: type, number: 1)
    steps.append(
      .object([
        "let": .string(name), "value": value,
        "note": .string(
          parameter.defaultValue.flatMap(literal) == nil
            ? "A stand-in for the argument \(name)." : "The argument \(name)'s default."),
      ]))
    // `store: NoteStore`, a type no file read declares whose name says storage: what its
    // methods do is not in the files, so a call on it is a line not modelled, never a
    // plain value's method passed over.
    bind(name, isUndeclaredStore(type) && parameter.defaultValue == nil ? .opaque : .value(name))
  }

  func sample(of type: String, number: Int) -> JSONValue {
    switch type {
    case "URL": .string("https://example.com/\(number).jpg")
    case "Int", "Int64", "Int32", "Int16": .integer(number)
    case "Bool": .bool(true)
    default: .string("\(type.lowercased()) \(number)")
    }
  }

  /// The entity an `NSManagedObject` parameter stands for: the relationship key the code
  /// sets it to (`forKey: "album"` makes it an `Album`), else `Item`.
  func entityUsed(for name: String) -> String {
    for file in files {
      for line in file.lines where line.contains("setValue(\(name), forKey:") {
        if let key = line.split(separator: "\"").dropFirst().first {
          return model.destination(ofRelationship: String(key)) ?? key.prefix(1).uppercased()
            + key.dropFirst()
        }
      }
      // `context.object(with: objectID) as? Printer`: the entity the ID's object is cast to.
      for line in file.lines where line.contains("(with: \(name))") {
        guard let cast = line.range(of: #"\)\s*as[!?]\s*\w+"#, options: .regularExpression)
        else { continue }
        let entity = String(line[cast].split(whereSeparator: { " !?)".contains($0) }).last ?? "")
        if entityTypes.contains(entity) || model.isEntity(entity) { return entity }
      }
    }
    return "Item"
  }

  /// Labels made unique in the order the steps are written: a line drafted again (a
  /// method called from two places, a statement that becomes two steps) gets `#2`, `#3`.
  static func uniqueLabels(_ steps: [JSONValue], used: inout [String: Int]) -> [JSONValue] {
    steps.map { step in
      guard case .object(var members) = step.kind else { return step }
      for k in members.indices {
        switch (members[k].key, members[k].value.kind) {
        case ("label", .string(let base)):
          let n = used[base, default: 0] + 1
          used[base] = n
          if n > 1 { members[k].value = .string("\(base)#\(n)") }
        case (_, .array(let inner)):
          members[k].value = .array(uniqueLabels(inner, used: &used))
        default: break
        }
      }
      return JSONValue(.object(members), at: step.location)
    }
  }
}
