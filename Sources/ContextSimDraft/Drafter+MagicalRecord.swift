import ContextSimCore
import ContextSimReports

/// MagicalRecord 2.3's helpers, as its sources define them: apps that use it reach Core
/// Data only through these, so a draft that did not know them would see nothing.
///
/// - `MagicalRecord.save({ localContext in … }, completion:)` makes a private-queue context
///   and runs the block with `performBlock` on it, then saves it and its parents
///   (`saveWithBlock:completion:`); `save(blockAndWait:)` does the same with
///   `performBlockAndWait`. The new context's parent is MagicalRecord's root saving context;
///   the draft puts it straight on the store, which changes nothing the queue rule sees.
/// - `NSManagedObjectContext.mr_rootSaving()`: the root saving context, a private-queue
///   context on the store, one for the app; `mr_context(withParent: p)` and
///   `mr_newPrivateQueue()` make a private-queue context (`mr_context()` one on the store),
///   `mr_newMainQueue()` a main-queue one.
/// - `NSManagedObjectContext.mr_default()`: the default context, on the main queue;
///   `Note.mr_createEntity(in: c)`: an insert, into the default context without `in:`.
/// - `object.mr_(in: context)`, `MR_inContext:`: `existingObjectWithID:` of the object's ID
///   in the other context; it logs an error and gives nil, so the error is reported as a
///   `catch` that only logs reports it. (It first obtains a
///   permanent ID when the object's is temporary, on the object's own context: the draft
///   does not model that call; docs/draft.md says so.)
/// - `object.mr_deleteEntity(in: context)`: the same lookup, then `deleteObject:` in that
///   context; `context.mr_setWorkingName(…)` writes into the context's `userInfo`: a touch.
/// - The finders, `Entity.mr_findFirst(byAttribute:withValue:in:)`, `mr_findAll(with:in:)`,
///   `mr_findFirst(in:)`, `mr_countOfEntities(…)` and their `MR_` spellings: a fetch (or a
///   count) in the context given, MagicalRecord's default one (on the main queue) without,
///   inside that context's `performBlockAndWait:` (as `MR_executeFetchRequest:inContext:`
///   runs it), so a finder never traps, and blocks until the context's queue is free.
///   A predicate the draft cannot read still fetches from that context; what it finds is
///   decided as any such fetch's is (``Drafter/fetchSteps(_:of:in:conditions:readable:first:as:method:at:)``).
extension Drafter {
  mutating func magicalRecordSteps(_ call: Call, result: String?, at statement: SwiftStatement)
    -> [JSONValue]?
  {
    if call.receiver?.source == "MagicalRecord", let closure = call.closure,
      ["save", "saveWithBlock", "saveWithBlockAndWait"].contains(call.method)
    {
      let waits =
        call.method == "saveWithBlockAndWait" || call.arguments.first?.label == "blockAndWait"
      let name = freshContext(closure.parameters.first.map(Self.contextName) ?? "localContext")
      let body = onThread(main: false) { outer in
        outer.scoped { drafter in
          drafter.bind(closure.parameters.first ?? name, .context(name))
          return drafter.closureSteps(closure, result: nil, synchronous: waits)
        }
      }
      return [
        step(["newContext": .string(name), "queue": .string("private")], at: statement),
        step(
          [
            waits ? "performAndWait" : "perform": .string(name),
            "do": .array(body + [step(["save": .string(name)], at: statement)]),
          ], at: statement),
      ]
    }
    if let made = madeContextSteps(call, result: result, at: statement) { return made }
    if let entity = call.receiver.map(\.source),
      ["mr_createEntity", "MR_createEntity"].contains(call.method)
        || call.method == "MR_createEntityInContext",
      entity.first?.isUppercase == true,
      case .context(let c)? = (call.argument("in") ?? call.arguments.first?.value).map(resolve)
        ?? .context("viewContext")
    {
      // MagicalRecord's `Note.mr_createEntity(in: context)`: an insert, into the default
      // (main-queue) context when none is given.
      let name = result ?? "_inserted"
      model.addEntity(entity)
      bind(name, .object(name, entity: entity))
      return [
        step(["insert": .string(entity), "into": .string(c), "as": .string(name)], at: statement)
      ]
    }
    if ["mr_setWorkingName", "MR_setWorkingName"].contains(call.method),
      case .context(let c)? = call.receiver.flatMap(resolve)
    {
      // It writes the name into the context's `userInfo`, whose getter Core Data checks.
      return [step(["get": .string("\(c).hasChanges"), "as": .string("_touch")], at: statement)]
    }
    let inContext = ["mr_", "MR_inContext", "mr_inContext"].contains(call.method)
    let deletes = ["mr_deleteEntity", "MR_deleteEntityInContext"].contains(call.method)
    if inContext || deletes, case .object(let object, let entity)? = call.receiver.flatMap(resolve),
      case .context(let c)? = (call.argument("in") ?? call.arguments.first?.value).map(resolve)
    {
      let id = "_\(object)ID"
      let name = (inContext ? result : nil) ?? "_\(object)In\(c)"
      bind(name, .object(name, entity: entity))
      return [
        step(["objectID": .string(object), "as": .string(id)], at: statement),
        // It logs the error and gives nil, as a `catch` that only logs: the error is reported.
        step(
          ["existingObject": .string("$" + id), "in": .string(c), "as": .string(name)],
          at: statement),
      ]
        // `mr_deleteEntity(in: c)`: the object as `c` has it, deleted there.
        + (deletes ? [step(["delete": .string(name)], at: statement)] : [])
    }
    return finderSteps(call, result: result, at: statement)
  }

  /// MagicalRecord's root saving context, or a context its class methods make; nil for any
  /// other call.
  private mutating func madeContextSteps(
    _ call: Call, result: String?, at statement: SwiftStatement
  ) -> [JSONValue]? {
    guard call.receiver?.source == "NSManagedObjectContext" else { return nil }
    let method = call.method.lowercased()
    if ["mr_rootsaving", "mr_rootsavingcontext"].contains(method) {
      let root = "rootSavingContext"
      if !contexts.contains(where: { $0.0 == root }) {
        contexts.append((root, .ordered([("queue", .string("private"))])))
      }
      if let result { bind(result, .context(root)) }
      return []
    }
    let privateMakers = ["mr_context", "mr_contextwithparent", "mr_newprivatequeue"]
    let mainMakers = ["mr_newmainqueue", "mr_newmainqueuecontext"]
    guard
      privateMakers.contains(method) || method == "mr_newprivatequeuecontext"
        || mainMakers.contains(method)
    else { return nil }
    var parent: String?
    if let given = call.argument("withParent") ?? call.arguments.first?.value {
      guard case .context(let p)? = resolve(given) else { return nil }
      parent = p
    }
    let name = freshContext(Self.contextName(result ?? "context"))
    if let result { bind(result, .context(name)) }
    let queue = mainMakers.contains(method) ? "main" : "private"
    if queue == "main" { mainQueueContexts.insert(name) }
    return [
      step(
        [
          "newContext": .string(name), "queue": .string(queue),
          "parent": parent.map { .string($0) },
        ],
        at: statement)
    ]
  }

  /// `NSManagedObjectContext.mr_default()`, `MR_defaultContext()`: MagicalRecord's default
  /// context, which is on the main queue.
  static func isMagicalRecordDefaultContext(_ call: Call) -> Bool {
    call.receiver?.source == "NSManagedObjectContext"
      && ["mr_default", "MR_defaultContext", "mr_defaultContext"].contains(call.method)
  }

  private mutating func finderSteps(
    _ call: Call, result: String?, at statement: SwiftStatement
  ) -> [JSONValue]? {
    let method = call.method.lowercased()
    guard let entity = call.receiver?.source, entity.first?.isUppercase == true,
      method.hasPrefix("mr_findfirst") || method.hasPrefix("mr_findall")
        || method.hasPrefix("mr_countofentities") || method.hasPrefix("mr_numberofentities"),
      case .context(let c)? = (call.argument("in") ?? call.argument("inContext")).map(resolve)
        ?? .context("viewContext")
    else { return nil }
    let count = method.hasPrefix("mr_countof") || method.hasPrefix("mr_numberof")
    let first = method.hasPrefix("mr_findfirst")
    var conditions: [String: String] = [:]
    var readable = true
    if let key = call.argument("byAttribute") {
      if let k = Self.keyName(key), let value = call.argument("withValue"),
        let text = predicateValue(value, of: k, in: entity)
      {
        conditions[k] = text
      } else {
        readable = false
      }
    } else if let predicate = call.argument("with") ?? call.argument("withPredicate") {
      if let (k, v) = self.predicate(predicate, of: entity) {
        conditions[k] = v
      } else {
        readable = false
      }
    }
    let verb = count ? "count" : "fetch"
    let fetch = fetchSteps(
      verb, of: entity, in: c, conditions: conditions, readable: readable, first: first,
      as: result ?? "_\(verb)", method: call.method, at: statement)
    // `MR_executeFetchRequest:inContext:` fetches inside the context's `performBlockAndWait:`.
    return [step(["performAndWait": .string(c), "do": .array(fetch)], at: statement)]
  }
}
