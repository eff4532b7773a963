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
    guard options.decidesValues else {
      let why =
        "a predicate or value ctxsim cannot read: the fetch from \(context) is modelled, what it finds is not"
      return [all] + notModelled(statement, why: why)
    }
    let what = "what `\(method)` finds, by a predicate or value ctxsim cannot read"
    if choose(what, at: statement, suffix: "found") { return [all] }
    return [fetch(noStoredRow(of: entity), note: "This path: the predicate matches no stored row.")]
  }

  /// A condition no stored row of `entity` meets: on the string attribute every row holds its
  /// handle in, a value none holds. What a predicate ctxsim cannot read finds on the path
  /// where it finds nothing.
  mutating func noStoredRow(of entity: String) -> JSONValue {
    let key = model.stringAttribute(of: entity) ?? "name"
    model.add(key: key, to: entity, type: "string")
    return .object([key: .string("no stored row")])
  }
}
