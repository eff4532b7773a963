/// Core Data and Foundation APIs a scenario may name as a verb that ctxsim does not model,
/// each with what to write instead, so such a step is told that rather than "did you mean".
///
///     {"undo": "viewContext"}
///     // unknown verb "undo": UndoManager is not modelled; see docs/model.md
///     //   fix: write "rollback" to drop the context's unsaved changes
///
/// docs/model.md lists the same APIs; a test keeps the two in step, and another fails when
/// one of these names becomes a verb.
enum UnmodelledAPIs {
  /// One API, the verbs that name it, and what a scenario can write instead.
  struct API: Sendable {
    /// The API as Core Data's documentation names it.
    let name: String
    /// Verbs that name it, matched whole and case-insensitively.
    let verbs: [String]
    /// Beginnings that name it too (`cloudKit` for `cloudKitSync`), case-insensitively.
    var prefixes: [String] = []
    /// What to write instead, when the format has something close.
    var instead: String?
  }

  /// Every API in the table, in the order docs/model.md lists them.
  static let apis: [API] = [
    API(
      name: "NSPersistentCloudKitContainer",
      verbs: ["NSPersistentCloudKitContainer", "persistentCloudKitContainer"],
      prefixes: ["cloudKit"],
      instead: "write its import as a save from a private context (\"newBackgroundContext\")"),
    API(
      name: "NSAsynchronousFetchRequest",
      verbs: [
        "NSAsynchronousFetchRequest", "asynchronousFetch", "asynchronousFetchRequest",
        "asyncFetch",
      ],
      instead: "write a \"fetch\" inside \"perform\" on a private context"),
    API(
      name: "UndoManager",
      verbs: ["undo", "redo", "undoManager", "NSUndoManager"],
      instead: "write \"rollback\" to drop the context's unsaved changes"),
    API(
      name: "NSQueryGenerationToken",
      verbs: ["setQueryGenerationFrom", "NSQueryGenerationToken"],
      prefixes: ["queryGeneration"]),
    API(
      name: "Calling processPendingChanges() yourself",
      verbs: ["processPendingChanges"],
      instead:
        "nothing to write: ctxsim processes a context's pending changes at the end of each block on its queue, at a save's start and at a merge's end"
    ),
    API(
      name: "Purging persistent history",
      verbs: ["deleteHistory", "purgeHistory"],
      instead:
        "leave it out: ctxsim keeps the whole history; fetch it with \"fetchHistory\" after the last token"
    ),
    API(
      name: "NSMigrationManager",
      verbs: ["NSMigrationManager", "NSMappingModel", "lightweightMigration"],
      prefixes: ["migrat"],
      instead: "write the model as it is after the migration"),
    API(
      name: "Adding or removing a persistent store",
      verbs: [
        "addPersistentStore", "loadPersistentStores", "removePersistentStore",
        "destroyPersistentStore", "replacePersistentStore", "NSPersistentStoreCoordinator",
      ],
      instead: "the scenario has one store, loaded at launch: put its rows under \"store\""),
    API(
      name: "SwiftData's ModelContext",
      verbs: ["SwiftData", "ModelContext", "ModelContainer", "ModelActor", "FetchDescriptor"]),
  ]

  /// The fix for an API the format has nothing close to.
  static let noReplacement =
    "leave it out: ctxsim simulates the contexts, queues, store and merges without it"

  /// The API an unknown verb names, if it names one.
  static func api(named verb: String) -> API? {
    let lowered = verb.lowercased()
    return apis.first { api in
      api.verbs.contains { $0.lowercased() == lowered }
        || api.prefixes.contains { lowered.hasPrefix($0.lowercased()) }
    }
  }

  /// The problem and fix for an unknown verb that names an API of the table.
  static func problem(verb: String) -> (message: String, fix: String)? {
    guard let api = api(named: verb) else { return nil }
    return (
      "unknown verb \"\(verb)\": \(api.name) is not modelled; see docs/model.md",
      api.instead ?? noReplacement
    )
  }
}
