import ContextSimCore

// Core Data calls: one type per verb of the scenario format, with the format's keys.

/// `context.fetch(request)`; `first` binds one object or nil.
public struct Fetch: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// `line` and `column` default to the call's place, where errors about the step point.
  ///
  /// - Parameters:
  ///   - predicate: `["title": ["!=": "x"], "OR": [["rank": 1], ["rank": nil]]]`, as in a
  ///     scenario file's `"where"`.
  ///   - sortBy: `[["key": "date", "ascending": false]]`: `request.sortDescriptors`.
  ///   - limit: `request.fetchLimit`.
  public init(
    _ entity: String, in context: String, where predicate: Literal? = nil,
    sortBy: Literal? = nil, limit: Int? = nil, first: Bool = false, as name: String? = nil,
    try mode: TryMode = .do, line: Int = #line, column: Int = #column
  ) {
    json = StepJSON(
      "fetch", .string(entity),
      [
        "in": .string(context), "where": predicate, "sortBy": sortBy,
        "limit": limit.map(Literal.integer), "first": first ? true : nil,
        "as": name.map(Literal.string), "try": mode.literal,
      ], line: line, column: column)
  }
}

/// `context.count(for:)`.
public struct Count: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// `line` and `column` default to the call's place, where errors about the step point.
  public init(
    _ entity: String, in context: String, where predicate: Literal? = nil,
    as name: String? = nil, try mode: TryMode = .do, line: Int = #line, column: Int = #column
  ) {
    json = StepJSON(
      "count", .string(entity),
      [
        "in": .string(context), "where": predicate, "as": name.map(Literal.string),
        "try": mode.literal,
      ], line: line, column: column)
  }
}

/// `NSEntityDescription.insertNewObject(forEntityName:into:)`, then setting the values.
public struct Insert: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// `line` and `column` default to the call's place, where errors about the step point.
  public init(
    _ entity: String, into context: String, as name: String? = nil, values: Literal? = nil,
    line: Int = #line, column: Int = #column
  ) {
    json = StepJSON(
      "insert", .string(entity),
      ["into": .string(context), "as": name.map(Literal.string), "values": values],
      line: line, column: column)
  }
}

/// `context.insert(object)` for an object that already exists.
///
/// The `$` before the object's name is optional, as for `Get` and `Delete`: the format tells
/// this form from inserting a new object by the `$` alone, so it is added when missing.
public struct InsertObject: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// `line` and `column` default to the call's place, where errors about the step point.
  public init(_ object: String, into context: String, line: Int = #line, column: Int = #column) {
    let variable = object.hasPrefix("$") ? object : "$" + object
    json = StepJSON(
      "insert", .string(variable), ["into": .string(context)], line: line, column: column)
  }
}

/// Reading an attribute or relationship, `"note.title"`; fires the fault.
public struct Get: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// `line` and `column` default to the call's place, where errors about the step point.
  public init(_ keyPath: String, as name: String? = nil, line: Int = #line, column: Int = #column) {
    json = StepJSON(
      "get", .string(keyPath), ["as": name.map(Literal.string)], line: line, column: column)
  }
}

/// `setValue(_:forKey:)`; a relationship takes `"$object"`.
public struct SetValue: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// `line` and `column` default to the call's place, where errors about the step point.
  public init(_ keyPath: String, to value: Literal, line: Int = #line, column: Int = #column) {
    json = StepJSON("set", .string(keyPath), ["to": value], line: line, column: column)
  }
}

/// `context.save()`.
public struct Save: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// `line` and `column` default to the call's place, where errors about the step point.
  public init(_ context: String, try mode: TryMode = .do, line: Int = #line, column: Int = #column)
  {
    json = StepJSON("save", .string(context), ["try": mode.literal], line: line, column: column)
  }
}

/// `object.objectID`, safe on any thread.
public struct GetObjectID: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// `line` and `column` default to the call's place, where errors about the step point.
  public init(_ object: String, as name: String, line: Int = #line, column: Int = #column) {
    json = StepJSON("objectID", .string(object), ["as": .string(name)], line: line, column: column)
  }
}

/// `context.existingObject(with:)`, which throws when the row is gone.
public struct ExistingObject: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// `line` and `column` default to the call's place, where errors about the step point.
  public init(
    _ id: Literal, in context: String, as name: String? = nil, try mode: TryMode = .do,
    line: Int = #line, column: Int = #column
  ) {
    json = StepJSON(
      "existingObject", id,
      ["in": .string(context), "as": name.map(Literal.string), "try": mode.literal],
      line: line, column: column)
  }
}

/// `context.object(with:)`, which never throws but may hand back a fault that fails later.
public struct ObjectWithID: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// `line` and `column` default to the call's place, where errors about the step point.
  public init(
    _ id: Literal, in context: String, as name: String? = nil, line: Int = #line,
    column: Int = #column
  ) {
    json = StepJSON(
      "object", id, ["in": .string(context), "as": name.map(Literal.string)], line: line,
      column: column)
  }
}

/// `NSManagedObjectContext(concurrencyType:)` with its options, bound to `name`.
public struct NewContext: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// - Parameter options: `queue`, `parent`, `mergePolicy` and the other context options.
  public init(_ name: String, _ options: Literal, line: Int = #line, column: Int = #column) {
    var json = StepJSON("newContext", .string(name), line: line, column: column)
    if case .object(let members) = options {
      for (key, value) in members { json = json.adding(key, value) }
    }
    self.json = json
  }
}

/// `container.newBackgroundContext()`, bound to `name`.
public struct NewBackgroundContext: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// - Parameter options: `mergePolicy`, `automaticallyMergesChangesFromParent`, `name`
  ///   and the other options an app sets on it before use; not `queue` or `parent`.
  public init(_ name: String, _ options: Literal = [:], line: Int = #line, column: Int = #column) {
    var json = StepJSON("newBackgroundContext", .string(name), line: line, column: column)
    if case .object(let members) = options {
      for (key, value) in members { json = json.adding(key, value) }
    }
    self.json = json
  }
}

/// `context.delete(object)` on the object's own context.
public struct Delete: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// `line` and `column` default to the call's place, where errors about the step point.
  public init(_ object: String, line: Int = #line, column: Int = #column) {
    json = StepJSON("delete", .string(object), line: line, column: column)
  }
}

/// `context.refresh(object, mergeChanges:)`.
public struct Refresh: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// `line` and `column` default to the call's place, where errors about the step point.
  public init(_ object: String, merge: Bool, line: Int = #line, column: Int = #column) {
    json = StepJSON("refresh", .string(object), ["merge": .bool(merge)], line: line, column: column)
  }
}

/// `context.refreshAllObjects()`: every object the context holds, refreshed with its changes kept.
public struct RefreshAllObjects: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// `line` and `column` default to the call's place, where errors about the step point.
  public init(_ context: String, line: Int = #line, column: Int = #column) {
    json = StepJSON("refreshAllObjects", .string(context), line: line, column: column)
  }
}

/// `context.reset()`.
public struct Reset: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// `line` and `column` default to the call's place, where errors about the step point.
  public init(_ context: String, line: Int = #line, column: Int = #column) {
    json = StepJSON("reset", .string(context), line: line, column: column)
  }
}

/// `context.rollback()`.
public struct Rollback: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// `line` and `column` default to the call's place, where errors about the step point.
  public init(_ context: String, line: Int = #line, column: Int = #column) {
    json = StepJSON("rollback", .string(context), line: line, column: column)
  }
}

/// `context.obtainPermanentIDs(for: Array(context.insertedObjects))`.
public struct ObtainPermanentIDs: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// `line` and `column` default to the call's place, where errors about the step point.
  public init(_ context: String, try mode: TryMode = .do, line: Int = #line, column: Int = #column)
  {
    json = StepJSON(
      "obtainPermanentIDs", .string(context), ["try": mode.literal], line: line, column: column)
  }
}

/// `NSBatchUpdateRequest`, then merging the changed IDs into the listed contexts.
public struct BatchUpdate: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// `line` and `column` default to the call's place, where errors about the step point.
  public init(
    _ entity: String, in context: String, where predicate: Literal? = nil, set values: Literal,
    mergeInto: [String]? = nil, line: Int = #line, column: Int = #column
  ) {
    json = StepJSON(
      "batchUpdate", .string(entity),
      [
        "in": .string(context), "where": predicate, "set": values,
        "mergeInto": mergeInto.map { .array($0.map(Literal.string)) },
      ], line: line, column: column)
  }
}
