import ContextSimCore
import ContextSimReports

/// Values: what a Swift expression is in the scenario (`"$url"`, `true`, a list), and what
/// a name denotes.
extension Drafter.Meaning {
  /// Whether a parameter given it takes it as itself, by name: an object, a context, the
  /// container, an app instance, a held closure, a request, a queue… Not a plain value
  /// (its value is bound instead), a shared var, the instance itself, or what the draft
  /// does not follow.
  var passesAsItself: Bool {
    switch self {
    case .container, .context, .object, .objects, .objectID, .request, .dependency, .queue,
      .notification, .batchRequest, .controller, .callersClosure, .instanceOf, .closure,
      .networkClient, .instances:
      true
    case .value, .shared, .instance, .opaque:
      false
    }
  }

  /// A closure the draft holds, or the caller's, which does nothing when called.
  var isHeldClosure: Bool {
    switch self {
    case .closure, .callersClosure: true
    default: false
    }
  }

  /// An object, a list of them, an ID or a context: passed on by name, never copied.
  var isCoreData: Bool {
    switch self {
    case .object, .objects, .objectID, .context: true
    default: false
    }
  }

  /// Whether it is the container or the one instance of an app type: what a helper that
  /// makes one returns (`return container`).
  var isContainerOrInstance: Bool {
    switch self {
    case .container, .instanceOf: true
    default: false
    }
  }

  /// Whether it is a request or a controller: what a fetch or `performFetch` is given.
  var isRequest: Bool {
    switch self {
    case .request, .batchRequest, .controller: true
    default: false
    }
  }
}

extension SwiftExpression {
  /// The expression inside `try`, `try?`, `await`, casts (`as? [Photo]` is the same value)
  /// and parentheses (`(try? context.fetch(request)) ?? []`), with the `try` mark (`""`,
  /// `"?"`, `"!"`) and whether it was awaited.
  var unwrapped: (expression: SwiftExpression, tryMark: String?, awaited: Bool) {
    var e = self
    var tryMark: String?
    var awaited = false
    while true {
      switch e.kind {
      case .try(let mark, let inner):
        tryMark = mark
        e = inner
      case .await(let inner):
        awaited = true
        e = inner
      case .cast(_, let inner, _):
        e = inner
      case .tuple(let items) where items.count == 1 && items[0].label == nil:
        e = items[0].value
      default:
        return (e, tryMark, awaited)
      }
    }
  }
}

extension SwiftExpression.Kind {
  var isNil: Bool {
    if case .nil = self { return true }
    return false
  }
}

extension Drafter.Meaning {
  /// The scenario's variable for what a Swift name means, when a step bound one.
  var variable: String? {
    switch self {
    case .object(let n, _), .objects(let n, _), .objectID(let n), .value(let n): n
    default: nil
    }
  }
}

extension Drafter {
  /// What `e` denotes when it names something the drafter follows.
  func resolve(_ e: SwiftExpression) -> Meaning? { resolve(e, depth: 0) }

  /// The same, `depth` computed properties' getters followed to get here.
  private func resolve(_ e: SwiftExpression, depth: Int) -> Meaning? {
    switch e.kind {
    case .name(let n):
      // A global `let persistentContainer: NSPersistentContainer = { … }()`.
      if let m = meaning(of: n) ?? (globalContainers.contains(n) ? .container : nil) { return m }
      return computedMeaning(of: n, depth: depth)
    case .call where Call(e).flatMap(madeAppType) != nil:
      return .instanceOf(Call(e)!.method)  // `Stack(container: c)`: the one instance
    case .call where isNetworkClient(e):
      return .networkClient
    case .call where Call(e).map(Self.isMagicalRecordDefaultContext) == true:
      // MagicalRecord's default context is a main-queue context (MagicalRecord 2.3).
      return .context("viewContext")
    case .member(let base?, let name):
      // `self.context`; in an extension of the container, `self.viewContext` falls through.
      if case .name("self") = base.kind {
        if let m = memberMeaning(of: name) ?? computedMeaning(of: name, depth: depth) { return m }
      }
      // `stack.mainContext`, `CoreDataStack.shared`: an app type's instance and its members.
      let owner = resolve(base, depth: depth)
      if case .instanceOf(let t)? = owner { return instanceMembers[t]?[name] }
      if isNetworkClient(e) { return .networkClient }  // `Session.default`
      if case .name(let typeName) = base.kind, meaning(of: typeName) == nil,
        let member = staticMember(name, of: typeName)
      {
        return member
      }
      if name == "viewContext", case .container? = owner { return .context("viewContext") }
      // `result.result` of a batch delete: the IDs it deleted.
      if name == "result", case .objectID? = owner { return owner }
      // `PersistenceController.shared.container`
      if containerNames.contains(name) { return .container }
      return nil
    case .optionalChain(let inner), .forceUnwrap(let inner), .binary("??", let inner, _),
      .prefix("&", let inner), .cast(_, let inner, _):
      return resolve(inner, depth: depth)  // `&result` handed to an `inout` parameter
    case .tuple(let items) where items.count == 1: return resolve(items[0].value, depth: depth)
    case .array(let items) where !items.isEmpty:
      // `[Insert(title: t), Wipe()]`: the app's instances, in order.
      var types: [String] = []
      for item in items {
        guard case .instanceOf(let t)? = resolve(item, depth: depth) else { return nil }
        types.append(t)
      }
      return .instances(types)
    default: return nil
    }
  }

  /// `viewContext` of the type whose code runs, `var viewContext: NSManagedObjectContext {
  /// container.viewContext }`, read before its properties are bound (in its `init`): what
  /// its one-line getter gives, when that is Core Data's. Followed a few getters deep.
  private func computedMeaning(of name: String, depth: Int) -> Meaning? {
    guard depth < 4, let gotten = subject?.properties.first(where: { $0.name == name })?.gotten,
      let m = resolve(gotten, depth: depth + 1), m.isCoreData
    else { return nil }
    return m
  }

  /// The scenario value of `e`: a literal, or `"$name"` for a name a step bound. Reading a
  /// URL's text (`url.absoluteString`) is the URL's value: URLs are their text here.
  func value(of e: SwiftExpression) -> JSONValue? {
    if let l = literal(e) { return l }
    switch resolve(e) {
    case .value(let n), .object(let n, _), .objects(let n, _), .objectID(let n):
      return .string("$" + n)
    default: break
    }
    if let name = enumCase(e) { return .string(name) }
    switch e.kind {
    case .member(let base?, let name)
    where ["absoluteString", "path", "description", "lastPathComponent"].contains(name):
      return value(of: base)
    case .array(let items):
      let values = items.compactMap(value(of:))
      return values.count == items.count ? .array(values) : nil
    case .optionalChain(let inner), .forceUnwrap(let inner):
      return value(of: inner)
    default: return nil
    }
  }

  /// `State.archive`, `Observation.State.active`: a case of an enum the files declare, by
  /// its name; nil for anything else.
  func enumCase(_ e: SwiftExpression) -> String? {
    guard case .member(let base?, let name) = e.kind, let typeName = staticTypeName(base)
    else { return nil }
    return types[typeName]?.cases.contains(name) == true ? name : nil
  }

  /// The type a static member is read on: `Keys` of `Keys.title`, `Task` of
  /// `Const.Entity.Task.name`, what a generic helper's `T` was given; nil for a value.
  private func staticTypeName(_ base: SwiftExpression) -> String? {
    switch base.kind {
    case .name(let t) where meaning(of: t) == nil: entityNamed(t) ?? t
    case .member(_, let t): t
    default: nil
    }
  }

  /// What a condition is wherever the draft runs it: `Thread.isMainThread` from the block's
  /// queue, `true`, `!x`; nil when it depends on the run.
  func staticTruth(_ e: SwiftExpression) -> Bool? {
    switch e.kind {
    case .bool(let b): b
    case _ where Self.asksIfMainThread(e): onMainThread
    case .prefix("!", let inner): staticTruth(inner).map { !$0 }
    case .tuple(let items) where items.count == 1: staticTruth(items[0].value)
    default: nil
    }
  }

  /// `Thread.isMainThread`, and Swift 2's `NSThread.isMainThread()`.
  static func asksIfMainThread(_ e: SwiftExpression) -> Bool {
    switch e.kind {
    case .member(_, "isMainThread"): true
    case .call(let callee, let arguments): arguments.isEmpty && asksIfMainThread(callee)
    default: false
    }
  }

  /// Runs `work` for a block on a queue whose thread is or is not the main one.
  mutating func onThread<T>(main: Bool?, _ work: (inout Drafter) -> T) -> T {
    let saved = onMainThread
    onMainThread = main
    defer { onMainThread = saved }
    return work(&self)
  }

  /// A literal's JSON: strings without interpolation, numbers, booleans, nil.
  /// `1...10`, `0..<3`: a range of integer literals, as the list a loop runs over. Ranges
  /// longer than ``longestRange`` are not drafted: a loop that long is no longer a scenario
  /// a person reads.
  static func range(_ e: SwiftExpression) -> JSONValue? {
    guard case .binary(let op, let low, let high) = e.kind, op == "..." || op == "..<",
      case .number(let a) = low.kind, case .number(let b) = high.kind,
      let first = Int(a), var last = Int(b)
    else { return nil }
    if op == "..<" { last -= 1 }
    guard last >= first else { return .array([]) }
    guard last - first < longestRange else { return nil }
    return .array((first...last).map { .integer($0) })
  }

  static let longestRange = 1_000

  func literal(_ e: SwiftExpression) -> JSONValue? {
    if let constant = staticConstant(e) { return constant }
    if let raw = rawValue(e) { return .string(raw) }
    return switch e.kind {
    case .string(let text, let interpolations) where interpolations.isEmpty: .string(text)
    case .number(let n): Int(n).map { .integer($0) } ?? Double(n).map { .double($0) }
    case .bool(let b): .bool(b)
    case .nil: .null
    case .array(let items) where items.isEmpty: .array([])
    default: nil
    }
  }

  /// `entity.rawValue` of a parameter given `.event`, or `Entity.event.rawValue`: the raw
  /// value of the case, `case event = "Event"` (the name itself in an enum of `String`),
  /// where one enum the files declare has that case.
  func rawValue(_ e: SwiftExpression) -> String? {
    guard case .member(let base?, "rawValue") = e.kind else { return nil }
    var name: String?
    var owner: String?
    if case .name(let n) = base.kind, let given = enumArguments[n], given.hasPrefix(".") {
      name = String(given.dropFirst())
    } else if let c = enumCase(base), case .member(let t?, _) = base.kind {
      (name, owner) = (c, staticTypeName(t))
    }
    guard let name else { return nil }
    let enums = types.values.filter { type in
      type.keyword == "enum" && type.cases.contains(name) && owner.map { $0 == type.name } ?? true
    }
    guard enums.count == 1, let type = enums.first else { return nil }
    return type.rawValues[name] ?? (type.inherits.first == "String" ? name : nil)
  }

  /// `PersistenceConst.Entity.Task.name`, `Keys.title`, `Status.active`: a `static let` of
  /// the app's types (nested ones too) given a literal, as its value.
  func staticConstant(_ e: SwiftExpression) -> JSONValue? {
    guard case .member(let base?, let name) = e.kind, let typeName = staticTypeName(base),
      typeName.first?.isUppercase == true,
      let property = types[typeName]?.properties.first(where: { $0.name == name }),
      property.modifiers.contains("static")
    else { return nil }
    // `static let name = "Crash"`, or `static var entityName: String { return "Crash" }`.
    let value = property.gotten ?? (property.isLet ? property.value : nil)
    // A literal of its own: `"Crash"`, `static let active: Int32 = 0`, `true`.
    switch value?.kind {
    case .string(let text, let interpolations)? where interpolations.isEmpty: return .string(text)
    case .number?, .bool?: return value.flatMap(literal)
    default: return nil
    }
  }

  /// The attribute type a value gives a key it is set to.
  func valueType(_ e: SwiftExpression) -> String {
    switch literal(e)?.kind {  // `Status.active` of `static let active: Int32 = 0`
    case .integer?: return "integer"
    case .double?: return "double"
    case .bool?: return "boolean"
    default: break
    }
    switch e.kind {
    case .bool: return "boolean"
    case .number(let n): return n.contains(".") ? "double" : "integer"
    case .name(let n):
      if case .value(let v)? = meaning(of: n), let type = valueTypes[v] { return type }
      return "string"
    default: return "string"
    }
  }

  /// What a loop variable over `sequence` is: an object of a fetched list, else a value.
  func elementMeaning(of sequence: SwiftExpression, name: String) -> Meaning {
    if case .objects(_, let entity)? = resolve(sequence) { return .object(name, entity: entity) }
    return .value(name)
  }

  /// A request's equalities as a step's `"where"`, by key; nil for none.
  static func whereClause(_ conditions: [String: String]) -> JSONValue? {
    conditions.isEmpty
      ? nil : .ordered(conditions.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
  }

  /// A fetch request: a name bound to one, `NSFetchRequest<…>(entityName: "E")`, or
  /// `E.fetchRequest()`.
  func fetchRequest(_ e: SwiftExpression?) -> FetchRequestDraft? {
    guard let e else { return nil }
    if case .request(let request)? = resolve(e) { return request }
    // `Note.sortedFetchRequest`, a static request an entity's class (or the objc.io
    // `Managed` protocol) gives: a request for that entity. Its own sort and predicate are
    // not read, so the fetch finds every row: more touches, never fewer.
    if case .member(let base?, let name) = e.unwrapped.expression.kind,
      case .name(let type) = base.kind,
      entityTypes.contains(type) || model.isEntity(type), name.lowercased().contains("fetchrequest")
    {
      return FetchRequestDraft(entity: type)
    }
    guard let call = Call(e) else { return nil }
    // `NSFetchRequest(entityName: "Note")`, `NSFetchRequest<Note>()`, or an app's subclass
    // made for an entity (`FetchRequest<Company>(entity: e)`).
    if call.receiver == nil, isSubclass(call.method, of: "NSFetchRequest") {
      if let entity = call.argument("entityName").flatMap(entityName) {
        return FetchRequestDraft(entity: entity)
      }
      if let written = call.typeArguments.first {
        // `NSFetchRequest<T>` in a generic helper: the entity `T` was given, or none;
        // `NSFetchRequest<Resource.ManagedObjectType>`: through the given type's typealias.
        guard let entity = namedType(written: written) else { return nil }
        if entityTypes.contains(entity) || model.isEntity(entity) || typeArguments[written] != nil {
          return FetchRequestDraft(entity: entity)
        }
      }
    }
    // `Note.fetchRequest()`: an entity's class; not `self.fetchRequest(for: dto)`, the app's
    // own method of that name, which is drafted as one.
    if call.method == "fetchRequest", call.arguments.isEmpty, let receiver = call.receiver,
      case .name(let entity) = receiver.kind, entity.first?.isUppercase == true,
      !isAppType(entity)
    {
      return FetchRequestDraft(entity: entityNamed(entity) ?? entity)
    }
    return nil
  }

  /// A step with the parents set after its contexts were made: each `newContext` whose
  /// context was given a parent takes `"parent"`, nested steps included.
  func withParents(_ step: JSONValue) -> JSONValue {
    switch step.kind {
    case .array(let items):
      return JSONValue(.array(items.map(withParents)), at: step.location)
    case .object(var members):
      for i in members.indices { members[i].value = withParents(members[i].value) }
      if members.first?.key == "newContext", case .string(let name) = members[0].value.kind,
        let parent = parents[name], !members.contains(where: { $0.key == "parent" })
      {
        members.insert(
          .init(key: "parent", keyLocation: JSONValue.nowhere, value: .string(parent)), at: 1)
      }
      return JSONValue(.object(members), at: step.location)
    default:
      return step
    }
  }
}
