import ContextSimCore
import ContextSimReports

/// Batch requests: `NSBatchUpdateRequest(entityName:)` with `propertiesToUpdate` and a
/// predicate, `NSBatchDeleteRequest(fetchRequest:)`, executed by `context.execute(_:)`;
/// and `NSManagedObjectContext.mergeChanges(fromRemoteContextSave:into:)`.
extension Drafter {
  /// A batch request being built.
  struct BatchRequest: Equatable {
    var isDelete: Bool
    var entity: String
    var conditions: [String: String] = [:]
    var values: [(String, JSONValue)] = []
    /// A predicate ctxsim cannot read (``FetchRequestDraft/unreadPredicate``).
    var unreadPredicate: String?

    static func == (a: BatchRequest, b: BatchRequest) -> Bool {
      a.isDelete == b.isDelete && a.entity == b.entity && a.conditions == b.conditions
        && a.unreadPredicate == b.unreadPredicate
        && a.values.map(\.0) == b.values.map(\.0) && a.values.map(\.1) == b.values.map(\.1)
    }
  }

  /// `NSBatchUpdateRequest(entityName: "Photo")`, `NSBatchDeleteRequest(fetchRequest: r)`.
  func batchRequest(_ call: Call) -> BatchRequest? {
    switch call.method {
    case "NSBatchUpdateRequest":
      guard let entity = call.argument("entityName").flatMap(entityName) else { return nil }
      return BatchRequest(isDelete: false, entity: entity)
    case "NSBatchDeleteRequest":
      guard let request = fetchRequest(call.argument("fetchRequest")) else { return nil }
      return BatchRequest(
        isDelete: true, entity: request.entity, conditions: request.conditions,
        unreadPredicate: request.unreadPredicate)
    default:
      return nil
    }
  }

  /// `request.propertiesToUpdate = [...]`, `request.predicate = …`; other settings
  /// (`resultType`) change nothing the scenario models.
  mutating func setBatch(
    _ request: BatchRequest, named name: String, key: String, value: SwiftExpression
  )
    -> [JSONValue]?
  {
    var request = request
    switch key {
    case "propertiesToUpdate":
      guard case .dictionary(let pairs) = value.kind else { return nil }
      for (k, v) in pairs {
        guard case .string(let key, _) = k.kind, let v = self.value(of: v) else { return nil }
        request.values.append((key, v))
        model.add(
          key: key, to: request.entity, type: valueType(pairs.first { $0.0.source == k.source }!.1))
      }
    case "predicate":
      if let (k, v) = predicate(value, of: request.entity) {
        request.conditions[k] = v
      } else if unreadPredicateReads(value) == [] {
        request.unreadPredicate = value.source
      } else {
        return nil
      }
    default:
      return []
    }
    bind(name, .batchRequest(request))
    return []
  }

  /// `try context.execute(request)`: the batch step; a delete's result holds the IDs it
  /// deleted, named for a later merge.
  mutating func executeBatch(
    _ request: BatchRequest, in context: String, result: String?, at statement: SwiftStatement
  ) -> [JSONValue] {
    model.addEntity(request.entity, fetched: true)  // rows in the store to change
    var conditions = Self.whereClause(request.conditions)
    var unread: [JSONValue] = []
    if request.unreadPredicate != nil {
      let (none, unmodelled) = unreadRows(
        of: request.entity,
        what: "what the batch request changes, by a predicate ctxsim cannot read",
        why: "a predicate ctxsim cannot read: which rows the batch changes is not modelled",
        at: statement)
      conditions = none ?? conditions
      unread = unmodelled
    }
    if request.isDelete {
      let ids = (result ?? "batch") + "IDs"
      if let result { bind(result, .objectID(ids)) }
      bind(ids, .objectID(ids))
      return [
        step(
          [
            "batchDelete": .string(request.entity), "in": .string(context), "where": conditions,
            "as": .string(ids),
          ],
          at: statement)
      ] + unread
    }
    return [
      step(
        [
          "batchUpdate": .string(request.entity), "in": .string(context), "where": conditions,
          "set": .ordered(request.values),
        ], at: statement)
    ] + unread
  }

  /// `NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSDeletedObjectsKey: ids],
  /// into: [viewContext])`.
  mutating func mergeRemote(_ call: Call, at statement: SwiftStatement) -> [JSONValue]? {
    guard call.method == "mergeChanges", call.receiver?.source == "NSManagedObjectContext",
      case .dictionary(let pairs)? = call.argument("fromRemoteContextSave")?.kind,
      case .array(let targets)? = call.argument("into")?.kind
    else { return nil }
    let keys = [
      "NSInsertedObjectsKey": "inserted", "NSUpdatedObjectsKey": "updated",
      "NSDeletedObjectsKey": "deleted",
    ]
    var changes: [(String, JSONValue)] = []
    for (k, v) in pairs {
      guard let key = keys[k.source], case .objectID(let ids)? = resolve(v) else { return nil }
      changes.append((key, .string("$" + ids)))
    }
    var contexts: [JSONValue] = []
    for target in targets {
      guard case .context(let c)? = resolve(target) else { return nil }
      contexts.append(.string(c))
    }
    return [
      step(["mergeRemoteChanges": .ordered(changes), "into": .array(contexts)], at: statement)
    ]
  }
}
