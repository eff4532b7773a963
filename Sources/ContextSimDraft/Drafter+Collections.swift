import ContextSimCore
import ContextSimReports

/// What apps do with a fetched list besides looping over it: `notes.map { $0.title }`,
/// `filter`, `first(where:)`, `contains(where:)`, `sorted(by:)`, `notes.first`. Each closure
/// runs once per object, so it is drafted as a `forEach` over the list, its parameter each
/// object: what it touches is checked as a loop's body is.
///
/// Simplified, and said so in docs/draft.md: a closure runs for every object (Swift's
/// `first(where:)` and `contains(where:)` stop at the first match, so this touches more,
/// never less); `filter` and `sorted` give the same objects, all of them; `first(where:)`
/// gives the first object; `map` gives a value only when the closure's result is a plain
/// value read from the object (an attribute, not a relationship or an ID): otherwise what
/// it gives is unknown, and the line is not modelled.
extension Drafter {
  /// Methods that give some of a list's objects, in order: what follows is drafted on them
  /// all, which touches more, never less.
  static let sublistMethods: Set<String> = [
    "suffix", "prefix", "dropFirst", "dropLast", "reversed", "shuffled",
  ]

  static let perElementMethods: Set<String> = [
    "forEach", "map", "compactMap", "flatMap", "filter", "first", "last", "contains",
    "allSatisfy", "sorted", "sort", "min", "max", "removeAll",
  ]

  mutating func collectionSteps(
    _ call: Call, list: String, entity: String?, result: String?, at statement: SwiftStatement
  ) -> [JSONValue]? {
    if Self.sublistMethods.contains(call.method), call.closure == nil {
      // `queries.suffix(n)`: some of the objects, taken as all of them.
      guard let result else { return [] }
      bind(result, .objects(result, entity: entity))
      return [step(["let": .string(result), "value": .string("$" + list)], at: statement)]
    }
    if call.closure == nil, call.arguments.count == 1,
      let closure = initializerClosure(call.arguments[0].value)
    {
      // `resources.map(Resource.init)`: as `map { Resource(managedObject: $0) }`.
      var written = call
      written.arguments = [
        SwiftArgument(
          label: nil,
          value: SwiftExpression(kind: .closure(closure), location: statement.location))
      ]
      return collectionSteps(written, list: list, entity: entity, result: result, at: statement)
    }
    guard Self.perElementMethods.contains(call.method), let closure = call.closure,
      call.arguments.count == 1
    else { return nil }
    let element = closure.parameters.first ?? "$0"
    let variable = element == "$0" || element == "_" ? singular(list) : element
    var mapped: SwiftExpression?
    let body = scoped { drafter in
      drafter.bind(element, .object(variable, entity: entity))
      for other in closure.parameters.dropFirst() {
        drafter.bind(other, .object("_" + other, entity: entity))  // `sorted { $0.a < $1.a }`
      }
      mapped = drafter.plainResult(of: closure)
      let saved = drafter.returnTarget
      drafter.returnTarget = "_" + variable + "Result"
      defer { drafter.returnTarget = saved }
      return drafter.guardingPasses(drafter.steps(closure.body), at: statement)
    }
    let loop = step(
      ["forEach": .string("$" + list), "as": .string(variable), "do": .array(body)], at: statement)
    guard let result else { return [loop] }
    switch call.method {
    case "filter", "sorted":
      bind(result, .objects(result, entity: entity))
      return [loop, step(["let": .string(result), "value": .string("$" + list)], at: statement)]
    case "first", "last":
      // `first(where:)` may find none where the list has objects: which, the code's data
      // decides, so each is a path; a draft that decides nothing says it cannot tell.
      guard options.decidesValues else {
        let why = "whether `\(call.method)(where:)` finds an object is not modelled"
        return [loop] + firstElement(of: list, entity: entity, as: result, at: statement)
          + notModelled(statement, why: why)
      }
      let found = choose(
        "what `\(call.method)(where:)` finds: an object", at: statement, suffix: "found")
      return [loop]
        + firstElement(of: list, entity: entity, as: result, finds: found, at: statement)
    case "min", "max":
      return [loop] + firstElement(of: list, entity: entity, as: result, at: statement)
    case "map", "compactMap", "flatMap":
      guard mapped != nil || mapsToPlainValues(closure, entity: entity) else { return nil }
      fallthrough
    default:
      // `contains(where:)`, `allSatisfy`, a map to plain values: a value.
      return [
        loop,
        standInValue(result, what: "what `\(call.method)` gives, a plain value", at: statement),
      ]
    }
  }

  /// `Resource.init`, an app type's initialiser handed to `map`: the closure `{
  /// Resource(label: $0) }` of its one initialiser of one parameter; nil for anything else.
  func initializerClosure(_ e: SwiftExpression) -> SwiftClosure? {
    guard case .member(let base?, "init") = e.kind, case .name(let written) = base.kind,
      let typeName = entityNamed(written), let type = types[typeName]
    else { return nil }
    let inits = type.functions.filter { $0.name == "init" && $0.parameters.count == 1 }
    guard inits.count == 1 else { return nil }
    let at = e.location
    let made = SwiftExpression(
      kind: .call(
        SwiftExpression(kind: .name(typeName), location: at),
        [
          SwiftArgument(
            label: inits[0].parameters[0].label, value: .init(kind: .name("$0"), location: at))
        ]),
      location: at)
    return SwiftClosure(
      file: file.name, body: [SwiftStatement(kind: .return(made), location: at)])
  }

  /// `{ $0.toDomain() }`: a closure of one call of the app's method whose declared result
  /// is no object, list, ID or context (a struct of the app's): what it gives is plain, and
  /// what the method does is drafted in the loop.
  func mapsToPlainValues(_ closure: SwiftClosure, entity: String?) -> Bool {
    guard closure.body.count == 1 else { return false }
    let e: SwiftExpression
    switch closure.body[0].kind {
    case .expression(let x), .return(let x?): e = x
    default: return false
    }
    guard let call = Call(e.unwrapped.expression) else { return false }
    // `Report(managedObject: $0)`: an instance of the app's type, made from the object.
    if call.receiver == nil, isAppType(call.method) { return true }
    // `$0.toDomain()`: the element's class's method; else the app's method called.
    let element = closure.parameters.first ?? "$0"
    var function = method(named: call.method, receiver: call.receiver)?.1
    if case .name(element)? = call.receiver?.kind, let entity, let type = types[entity] {
      function = functions(of: type).first { $0.name == call.method }
    }
    guard let returned = function?.returnType else { return false }
    let type = returned.trimmingCharacters(in: ["?", "!", " "])
    let objectLike = ["NSManagedObject", "Context", "NSManagedObjectID", "["]
    return !model.isEntity(type) && !entityTypes.contains(type)
      && !objectLike.contains { type.contains($0) }
  }

  /// `let note = notes.first`: nil, then the list's first object when it has one. When it
  /// `finds` none (a path of `first(where:)`), it stays nil: the step that would take an
  /// object never runs, but is there so later steps may read the object where it is not nil.
  mutating func firstElement(
    of list: String, entity: String?, as result: String, finds: Bool = true,
    at statement: SwiftStatement
  )
    -> [JSONValue]
  {
    let item = "_" + singular(list)
    bind(result, .object(result, entity: entity))
    var take = when(
      step(["let": .string(result), "value": .string("$" + item)], at: statement), result,
      equals: false)
    if !finds {
      take = when(take, Test(variable: item, value: .null, holdsWhenEqual: true), holds: true)
    }
    return [
      step(["let": .string(result), "value": .null], at: statement),
      step(
        ["forEach": .string("$" + list), "as": .string(item), "do": .array([take])], at: statement),
    ]
  }

  /// The expression a closure gives, when it is a plain value read from its parameter
  /// (`$0.title ?? ""`, `"\(note.rank)"`): no relationship, ID or object; nil otherwise.
  func plainResult(of closure: SwiftClosure) -> SwiftExpression? {
    guard closure.body.count == 1 else { return nil }
    let e: SwiftExpression
    switch closure.body[0].kind {
    case .expression(let x), .return(let x?): e = x
    default: return nil
    }
    // `$0.objectID`: an ID, which names an object, is no plain value.
    if case .member(_?, "objectID") = e.kind { return nil }
    guard let reads = plainReads(in: e) else { return nil }
    switch resolve(e) {
    case nil, .value?: break
    default: return nil
    }
    for case .object(_, let entity, let key) in reads {
      guard key != "objectID", let entity, model.attributeType(key, of: entity) != nil else {
        return nil
      }
    }
    return e
  }

  /// `stored.max(by: { $0.counter < $1.counter })?.counter`: the object a list's method
  /// picks, drafted into a name of its own, then the member read of it.
  mutating func pickedMember(_ e: SwiftExpression, result: String, at statement: SwiftStatement)
    -> [JSONValue]?
  {
    guard case .member(let base?, let key) = e.kind else { return nil }
    var inner = base
    if case .optionalChain(let unwrapped) = inner.kind { inner = unwrapped }
    guard let call = Call(inner), ["first", "last", "min", "max"].contains(call.method),
      call.closure != nil, case .objects? = call.receiver.flatMap(resolve)
    else { return nil }
    let picked = "_" + call.method + "Picked"
    let steps = expressionSteps(inner, result: picked, at: statement)
    guard case .object? = meaning(of: picked) else { return steps }
    let read = SwiftExpression(
      kind: .member(SwiftExpression(kind: .name(picked), location: e.location), key),
      location: e.location)
    // `?.`: read only when the list gave an object (it gives none when empty).
    return steps
      + expressionSteps(read, result: result, at: statement).map {
        when($0, picked, equals: true)
      }
  }
}
