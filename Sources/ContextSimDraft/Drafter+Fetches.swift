import ContextSimCore
import ContextSimReports

/// A fetch request the draft is building: its entity, the equalities it reads, and any
/// predicate it cannot read.
struct FetchRequestDraft: Equatable {
  var entity: String
  var conditions: [String: String] = [:]
  /// The Swift of a predicate ctxsim cannot read, made of plain values
  /// (`NSPredicate(format: "date < %@", cutoff)`): the fetch is modelled, which rows it
  /// finds is not.
  var unreadPredicate: String?
  /// `resultType = .dictionaryResultType` (or `.countResultType`): the fetch gives values,
  /// no objects, so it registers none in the context; it touches the context all the same.
  var givesValues = false

  /// A request's options that change which rows come back or how many, not who touches
  /// them: a fetch with them touches its context as one without.
  static let options: Set<String> = [
    "fetchLimit", "fetchOffset", "sortDescriptors", "fetchBatchSize", "returnsObjectsAsFaults",
    "includesPropertyValues", "relationshipKeyPathsForPrefetching", "includesSubentities",
    "propertiesToFetch", "propertiesToGroupBy", "returnsDistinctResults",
    "shouldRefreshRefetchedObjects", "includesPendingChanges",
  ]
}

extension Drafter {
  /// A fetch or count from `context`, as `fetch(_:)`, `count(for:)` and MagicalRecord's
  /// finders make one. With a predicate or value ctxsim cannot read, the fetch from the
  /// context is the same whatever it finds, and what it finds is the code's to decide:
  /// every row the readable conditions allow on one path, none on the next
  /// (``Draft/paths(_:options:limit:)``). A draft that decides nothing keeps the fetch and
  /// a line not modelled after it.
  mutating func fetchSteps(
    _ verb: String, of entity: String, in context: String, conditions: [String: String],
    readable: Bool, first: Bool, as name: String, method: String, at statement: SwiftStatement
  ) -> [JSONValue] {
    model.addEntity(entity, fetched: true)
    bind(
      name,
      verb == "count"
        ? .value(name) : first ? .object(name, entity: entity) : .objects(name, entity: entity))
    func fetch(_ conditions: JSONValue?, note: String? = nil) -> JSONValue {
      step(
        [
          verb: .string(entity), "in": .string(context), "where": conditions,
          "first": first ? .bool(true) : nil, "as": .string(name),
          "note": note.map(JSONValue.string),
        ], at: statement)
    }
    let all = fetch(Self.whereClause(conditions))
    guard !readable else { return [all] }
    let (none, unmodelled) = unreadRows(
      of: entity, what: "what `\(method)` finds, by a predicate or value ctxsim cannot read",
      why: "a predicate or value ctxsim cannot read: the fetch from \(context) is modelled, "
        + "what it finds is not", at: statement)
    guard let none else { return [all] + unmodelled }
    return [fetch(none, note: "This path: the predicate matches no stored row.")]
  }

  /// The rows a predicate ctxsim cannot read picks, for a fetch or a batch request: every
  /// row the conditions it can read allow on one path (`none` nil), none on the next (`none`
  /// a condition no stored row meets: on the string attribute every row holds its handle in,
  /// a value none holds). A draft that decides nothing takes every row and a line not
  /// modelled that says `why`.
  mutating func unreadRows(
    of entity: String, what: String, why: String, at statement: SwiftStatement
  ) -> (none: JSONValue?, unmodelled: [JSONValue]) {
    guard options.decidesValues else { return (nil, notModelled(statement, why: why)) }
    if choose(what, at: statement, suffix: "found") { return (nil, []) }
    let key = model.stringAttribute(of: entity) ?? "name"
    model.add(key: key, to: entity, type: "string")
    return (.object([key: .string("no stored row")]), [])
  }

  /// The reads a predicate ctxsim cannot read makes, when it is made of plain values
  /// (`NSPredicate(format: "date < %@", cutoff)`, a predicate handed in as a parameter); nil
  /// for one that may do more (a call of the app's), which stays a line not modelled.
  func unreadPredicateReads(_ value: SwiftExpression) -> [PlainRead]? {
    guard passRule(value, asValue: true) != nil || Self.isPlainName(value, resolve(value))
    else { return nil }
    return plainReads(in: value)
  }
}
