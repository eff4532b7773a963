/// A context's options as written, in `"contexts"` or on a `newContext` step.
struct RawContextOptions {
  /// Where the options object was written, for a missing `"queue"`.
  var location: SourceLocation
  var queue: Field<ConcurrencyType> = .absent
  var parent: Field<String> = .absent
  var mergePolicy: Field<MergePolicy> = .absent
  var automaticallyMergesChangesFromParent: Field<Bool> = .absent
  var shouldDeleteInaccessibleFaults: Field<Bool> = .absent
  /// The context's `name` and `transactionAuthor` properties.
  var nameProperty: Field<String> = .absent
  var transactionAuthor: Field<String> = .absent
}

extension RawContextOptions {
  /// The keys a context's options may have, with their JSON Schema, in the order an error
  /// lists them: for `"contexts"` and for the `newContext` steps' schema.
  static let schema: [StepSchema.Key] = [
    .init("queue", .oneOf(["main", "private"])), .init("parent", .string),
    .init("mergePolicy", .string), .init("automaticallyMergesChangesFromParent", .boolean),
    .init("shouldDeleteInaccessibleFaults", .boolean), .init("name", .string),
    .init("transactionAuthor", .string),
  ]

  /// The keys a context's options may have, in the order an error lists them.
  static let keys = schema.map(\.name)

  /// Where `"queue"` was written, unless it says `"main"`: viewContext may say no more.
  var queueUnlessMain: SourceLocation? {
    switch queue {
    case .absent: nil
    case .present(let written): written.value == .mainQueue ? nil : written.location
    case .malformed(let error): error.location
    }
  }

  /// Reads the options of an object for their shape; other keys are left to the caller.
  init(_ json: JSONValue, file: String, path: String) {
    func field<T>(_ key: String, _ check: (JSONValue) -> Result<T, ShapeProblem>) -> Field<T> {
      Field(json[key], file: file, path: path, check)
    }
    location = json.location
    queue = field("queue") { ShapeCheck.choice($0, what: "\"queue\"", as: ConcurrencyType.self) }
    parent = field("parent") { ShapeCheck.string($0, what: "\"parent\"") }
    mergePolicy = field("mergePolicy") {
      ShapeCheck.choice($0, what: "the merge policy", as: MergePolicy.self)
    }
    automaticallyMergesChangesFromParent = field("automaticallyMergesChangesFromParent") {
      ShapeCheck.bool($0, what: "\"automaticallyMergesChangesFromParent\"")
    }
    nameProperty = field("name") { ShapeCheck.string($0, what: "the context's name") }
    transactionAuthor = field("transactionAuthor") {
      ShapeCheck.string($0, what: "the transaction author")
    }
    shouldDeleteInaccessibleFaults = field("shouldDeleteInaccessibleFaults") {
      ShapeCheck.bool($0, what: "\"shouldDeleteInaccessibleFaults\"")
    }
  }
}
