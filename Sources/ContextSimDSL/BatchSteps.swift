import ContextSimCore

/// `NSBatchDeleteRequest`, run in the store: by entity with a predicate, or by object IDs.
public struct BatchDelete: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// `line` and `column` default to the call's place, where errors about the step point.
  ///
  /// - Parameters:
  ///   - target: an entity name, or `"$ids"` for `NSBatchDeleteRequest(objectIDs:)`.
  ///   - name: binds the deleted rows' IDs (`.resultTypeObjectIDs`).
  public init(
    _ target: String, in context: String, where predicate: Literal? = nil,
    as name: String? = nil, try mode: TryMode = .do, line: Int = #line, column: Int = #column
  ) {
    json = StepJSON(
      "batchDelete", .string(target),
      [
        "in": .string(context), "where": predicate, "as": name.map(Literal.string),
        "try": mode.literal,
      ], line: line, column: column)
  }
}

/// `NSBatchInsertRequest(entityName:objects:)`: rows of attribute values, written to the
/// store with permanent IDs.
public struct BatchInsert: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// `line` and `column` default to the call's place, where errors about the step point.
  ///
  /// - Parameter name: binds the inserted rows' IDs (`.objectIDs`).
  public init(
    _ entity: String, in context: String, objects: [Literal], as name: String? = nil,
    try mode: TryMode = .do, line: Int = #line, column: Int = #column
  ) {
    json = StepJSON(
      "batchInsert", .string(entity),
      [
        "in": .string(context), "objects": .array(objects), "as": name.map(Literal.string),
        "try": mode.literal,
      ], line: line, column: column)
  }
}

/// `NSManagedObjectContext.mergeChanges(fromRemoteContextSave:into:)`: each context merges
/// the IDs on its own queue while the caller waits, roots first.
public struct MergeRemoteChanges: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// `line` and `column` default to the call's place, where errors about the step point.
  ///
  /// - Parameters:
  ///   - inserted: `"$ids"` under `NSInsertedObjectsKey`.
  ///   - updated: `"$ids"` under `NSUpdatedObjectsKey`.
  ///   - deleted: `"$ids"` under `NSDeletedObjectsKey`.
  public init(
    inserted: String? = nil, updated: String? = nil, deleted: String? = nil,
    into contexts: [String],
    line: Int = #line, column: Int = #column
  ) {
    let changes = [("inserted", inserted), ("updated", updated), ("deleted", deleted)]
      .compactMap { key, ids in ids.map { (key, Literal.string($0)) } }
    json = StepJSON(
      "mergeRemoteChanges", .object(changes), ["into": .array(contexts.map(Literal.string))],
      line: line, column: column)
  }
}
