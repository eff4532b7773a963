/// A validated scenario: a small app's Core Data model, its store, its contexts and queues,
/// and the script its main thread runs at launch.
///
/// Built only by ``ScenarioDecoder``, which guarantees that every name a step uses
/// (entity, attribute, context, queue, label) exists, so the simulation never meets an
/// unknown name. Its fields are read-only outside the module so that guarantee holds:
/// a scenario with a context taken away would trap the simulator.
public struct Scenario: Sendable {
  /// The file the scenario came from, as reports name it.
  public internal(set) var file: String
  /// One line saying what the scenario shows.
  public internal(set) var title: String
  /// A paragraph for lessons and listings.
  public internal(set) var about: String?
  /// Whether the app runs with `-com.apple.CoreData.ConcurrencyDebug 1`.
  public internal(set) var concurrencyDebug: Bool
  /// The managed object model.
  public internal(set) var entities: [Entity]
  /// The rows saved before launch.
  public internal(set) var storeRows: [StoredRow]
  /// The declared contexts, `viewContext` first.
  public internal(set) var contexts: [ContextDescription]
  /// The extra dispatch queues; `main` and `global` always exist.
  public internal(set) var queues: [QueueDescription]
  /// Plain Swift properties shared between threads, with their initial values.
  public internal(set) var vars: [(name: String, value: Value)]
  /// What the main thread runs at launch.
  public internal(set) var main: [Step]
  /// What `check` holds the scenario to, if it declares anything.
  public internal(set) var expectation: Expectation?
  /// Store errors the scenario injects into given calls.
  public internal(set) var injections: [Injection] = []
  /// Persistent history tracking and remote-change notifications: both off in format v1.
  public internal(set) var persistentHistory = PersistentHistoryOptions()
  /// The store's UUID in permanent object IDs, and the coordinator's in temporary ones,
  /// made from the title so every run prints the same IDs.
  public internal(set) var storeIdentifier = ""
  /// The store as it is at launch, built once: every run starts from a copy.
  var initialStore = PersistentStore(rows: [], entities: [])
  /// The coordinator's UUID in temporary object IDs, made from the title so runs print the same IDs.
  public internal(set) var temporaryIdentifier = ""

  /// The IDs of the rows of `entity` the store holds at launch.
  package func launchIDs(of entity: String) -> [ObjectID] { initialStore.ids(of: entity) }

  /// The entity with this name, if the model has one.
  public func entity(named name: String) -> Entity? {
    entities.first { $0.name == name }
  }

  /// Whether an entity has an attribute or relationship `key`; nil for no such entity.
  func entity(_ entity: String, hasKey key: String) -> Bool? {
    guard let e = entities.firstIndex(where: { $0.name == entity }) else { return nil }
    return entities[e].attributes.contains { $0.name == key }
      || entities[e].relationships.contains { $0.name == key }
  }

  /// Whether an entity has a property a save requires a value for: every save asks of
  /// every object it writes, and most models have none.
  func requiresValues(_ entity: String) -> Bool {
    entities.contains { candidate in
      candidate.name == entity
        && (candidate.attributes.contains { !$0.isOptional }
          || candidate.relationships.contains { !$0.isOptional })
    }
  }

  /// Whether an entity has relationships, whose values name other objects.
  func hasRelationships(_ entity: String) -> Bool {
    entities.contains { $0.name == entity && !$0.relationships.isEmpty }
  }

  /// The declared context with this name, if any.
  public func context(named name: String) -> ContextDescription? {
    contexts.first { $0.name == name }
  }

  /// The same scenario reported under another file name, as a lesson names its scenario.
  public func named(_ file: String) -> Scenario {
    var copy = self
    copy.file = file
    if let remake { copy.remake = { remake()?.named(file) } }
    return copy
  }

  /// Decodes the scenario again from what it was validated from; nil for a scenario that
  /// was not decoded. Set by ``ScenarioDecoder``; a change made to a scenario after
  /// decoding must be made to what this returns as well, as ``named(_:)`` does.
  var remake: (@Sendable () -> Scenario?)?

  /// The same scenario decoded again, sharing no storage with this one; itself if it was not
  /// decoded.
  ///
  /// Each core of a search runs from a copy of its own. A run copies steps, step lists and
  /// entities out of its scenario hundreds of times, and each copy writes a reference count
  /// in the scenario's storage: two cores sharing that storage write the same memory, and
  /// each write takes the cache line from the other core (docs/exploration.md, Figures).
  func separateCopy() -> Scenario { remake?() ?? self }

  /// Every step in the file, depth first, in the order written: ``Step/index`` indexes it.
  public internal(set) var allSteps: [Step] = []
  /// What the scenario can do at all, so a run skips the bookkeeping it never needs.
  var features = Features()
  /// The task group or loop elements a stateful search may swap for each other.
  var interchangeable = InterchangeableValues.none

  /// Facts about the whole file that let a run leave work out, found once per scenario.
  struct Features {
    /// Some step adds an observer or a controller's delegate: pending changes are
    /// tracked and notifications posted. Without one, nobody could ever hear them.
    var observes = false
    /// Some step may wait for a context's queue before its effect: a child context's
    /// request, a thread-safe accessor, `performFetch`, a remote merge.
    var waitsForContexts = false
    /// Store writes append history transactions: `persistentHistory.tracking` is on.
    var recordsHistory = false
    /// Store writes post `NSPersistentStoreRemoteChange` and some step observes it.
    var postsRemoteChanges = false
    /// Some step can put a context in a variable: makes one, or reads a context's
    /// `parent`, an object's `managedObjectContext` or a notification's `object`. Without
    /// one, no variable ever holds a context, so a context's name is always a declared one.
    var bindsContexts = false

    init() {}

    init(_ scenario: Scenario) {
      observes = scenario.allSteps.contains { step in
        switch step.action {
        case .observe(let name, _, _, _, _, _): name != .remoteChange
        case .fetchedResultsController(_, _, _, _?): true
        case .async, .whenIdle, .sync, .perform, .performAndWait, .task, .performAwait, .taskGroup,
          .letValue,
          .insert, .fetch, .count, .get, .set, .save, .objectID, .newContext, .insertObject,
          .delete, .refresh, .reset, .refreshAllObjects, .obtainPermanentIDs, .rollback,
          .batchUpdate, .batchDelete, .batchInsert, .mergeRemoteChanges, .existingObject, .object,
          .contextProperty, .setContextProperty, .objectState, .removeObserver, .mergeChanges,
          .notificationProperty, .fetchedResultsController, .performFetch, .controllerProperty,
          .fetchHistory, .transactionProperty, .read, .write, .forEach, .print, .expect,
          .notModelled:
          false
        }
      }
      bindsContexts = scenario.allSteps.contains { step in
        switch step.action {
        case .newContext: true
        case .contextProperty(_, let property, _): property == .parent
        case .objectState(_, let property, _): property == .managedObjectContext
        case .notificationProperty(_, let key, _): key == .object
        case .async, .whenIdle, .sync, .perform, .performAndWait, .task, .performAwait, .taskGroup,
          .letValue,
          .insert, .fetch, .count, .get, .set, .save, .objectID, .insertObject, .delete, .refresh,
          .reset, .refreshAllObjects, .obtainPermanentIDs, .rollback, .batchUpdate, .batchDelete,
          .batchInsert, .mergeRemoteChanges, .existingObject, .object, .setContextProperty,
          .observe, .removeObserver, .mergeChanges, .fetchedResultsController, .performFetch,
          .controllerProperty, .fetchHistory, .transactionProperty, .read, .write, .forEach, .print,
          .expect, .notModelled:
          false
        }
      }
      recordsHistory = scenario.persistentHistory.tracking
      postsRemoteChanges =
        scenario.persistentHistory.remoteChangeNotifications
        && scenario.allSteps.contains { step in
          if case .observe(.remoteChange, _, _, _, _, _) = step.action { true } else { false }
        }
      waitsForContexts =
        scenario.contexts.contains { if case .context = $0.parent { true } else { false } }
        || scenario.allSteps.contains { step in
          switch step.action {
          case .newContext(let description, _):
            if case .context = description.parent { true } else { false }
          case .contextProperty(_, let property, _): property.getter == .blocking
          case .setContextProperty, .performFetch, .mergeRemoteChanges: true
          case .batchUpdate(_, _, _, _, let mergeInto): !mergeInto.isEmpty
          case .async, .whenIdle, .sync, .perform, .performAndWait, .task, .performAwait,
            .taskGroup,
            .letValue, .insert, .fetch, .count, .get, .set, .save, .objectID, .insertObject,
            .delete, .refresh, .reset, .refreshAllObjects, .obtainPermanentIDs, .rollback,
            .batchDelete, .batchInsert, .existingObject, .object, .objectState, .observe,
            .removeObserver, .mergeChanges, .notificationProperty, .fetchedResultsController,
            .controllerProperty, .fetchHistory, .transactionProperty, .read, .write, .forEach,
            .print, .expect, .notModelled:
            false
          }
        }
    }
  }

  /// Lists the steps of `main` and every block, depth first.
  static func flatten(_ steps: [Step]) -> [Step] {
    var result: [Step] = []
    func visit(_ steps: [Step]) {
      for step in steps {
        result.append(step)
        visit(step.body)
      }
    }
    visit(steps)
    return result
  }
}

/// A store error injected into one call: the `call`-th time the step labelled `label`
/// runs, it throws Cocoa error `code`, as a full disk or a failed migration would make it.
public struct Injection: Sendable {
  /// The label of the step whose call throws.
  public internal(set) var label: String
  /// The Cocoa error code it throws: 640 for a full disk, 134110 for a failed migration.
  public internal(set) var code: Int
  /// Which run of the step throws, counted from 1 among the runs where the condition holds.
  public internal(set) var call: Int
  /// Counts only the runs of the step where this holds, in the step's own variables.
  public internal(set) var condition: Condition?
}

/// An entity of the managed object model: `NSEntityDescription`.
public struct Entity: Sendable, Equatable {
  /// Its name in the scenario, as steps and reports use it.
  public internal(set) var name: String
  /// Its attributes, in the order declared.
  public internal(set) var attributes: [Attribute]
  /// Its relationships, in the order declared.
  public internal(set) var relationships: [Relationship]
  /// Sets of attributes whose values no two rows may share (Cocoa error 133021).
  public internal(set) var uniquenessConstraints: [[String]]
  /// The entity it is a sub-entity of (`"parent"`), whose properties it has as well.
  public internal(set) var parent: String? = nil

  /// The attribute with this name, if the entity has one.
  public func attribute(named name: String) -> Attribute? {
    attributes.first { $0.name == name }
  }

  /// The relationship with this name, if the entity has one.
  public func relationship(named name: String) -> Relationship? {
    relationships.first { $0.name == name }
  }

  /// The model's default for each attribute that has one: a new object's first values.
  public var defaultValues: [String: Value] { initialValues.dictionary }

  /// The same defaults, in the order of the attributes, as a new object holds them.
  var initialValues: NamedValues {
    var values = NamedValues()
    for attribute in attributes {
      if let value = attribute.defaultValue { values[attribute.name] = value }
    }
    return values
  }
}

/// Lookups in a model's entities, read in place: a run asks at every write, row read and
/// save, and copying an entity out retained each of its lists. The scenario and the store
/// both ask through these.
extension [Entity] {
  /// An entity's relationships; none for an entity the model does not have.
  func relationships(of entity: String) -> [Relationship] {
    guard let e = firstIndex(where: { $0.name == entity }) else { return [] }
    return self[e].relationships
  }

  /// The relationship `key` of an entity, if it has one.
  func relationship(_ key: String, ofEntity entity: String) -> Relationship? {
    guard let e = firstIndex(where: { $0.name == entity }) else { return nil }
    return self[e].relationships.first { $0.name == key }
  }
}

/// `NSAttributeDescription`, reduced to what the rules need.
public struct Attribute: Sendable, Equatable {
  /// Its name in the scenario, as steps and reports use it.
  public internal(set) var name: String
  /// The attribute's type.
  public internal(set) var type: AttributeType
  /// Whether a save may leave it empty; if not, an empty one fails validation (1570).
  public internal(set) var isOptional: Bool
  /// The value a new object or a row that leaves it out holds.
  public internal(set) var defaultValue: Value?
}

/// The attribute types a scenario can declare; dates, data and UUIDs are written as strings.
public enum AttributeType: String, Sendable, CaseIterable {
  case string, integer, double, boolean, date, binary, uuid

  /// Whether a scenario literal can be stored in an attribute of this type.
  ///
  /// Dates, binary data and UUIDs are written as strings in scenario files.
  package func accepts(_ value: Value) -> Bool {
    switch (self, value) {
    case (_, .null): true
    case (.string, .string), (.date, .string), (.binary, .string), (.uuid, .string): true
    case (.integer, .integer), (.double, .integer), (.double, .double): true
    case (.boolean, .bool): true
    default: false
    }
  }
}

/// `NSRelationshipDescription`.
public struct Relationship: Sendable, Equatable {
  /// What deleting the source does to the destination: Core Data's delete rules.
  public enum DeleteRule: String, Sendable, CaseIterable {
    case nullify, cascade, deny
  }

  /// Its name in the scenario, as steps and reports use it.
  public internal(set) var name: String
  /// The entity it points to.
  public internal(set) var destination: String
  /// Whether it holds a set of objects rather than one.
  public internal(set) var isToMany: Bool
  /// The relationship on the destination that points back, kept in step.
  public internal(set) var inverse: String?
  /// Whether a save may leave it empty; if not, an empty one fails validation (1570).
  public internal(set) var isOptional: Bool
  /// What deleting the source does to the destination.
  public internal(set) var deleteRule: DeleteRule
}

/// A row saved in the store before launch. Its handle names its object ID in every report.
public struct StoredRow: Sendable {
  /// The row's entity.
  public internal(set) var entity: String
  /// The handle that names the row's permanent ID in reports.
  public internal(set) var handle: String
  /// Its attribute and relationship values by key.
  public internal(set) var values: [String: Value]
  /// Relationship name → the handles of the rows it points at; the inverse side is implied.
  public internal(set) var links: [String: [String]] = [:]
}

/// `NSManagedObjectContextConcurrencyType`, without the long-deprecated confinement type.
public enum ConcurrencyType: String, Sendable, CaseIterable {
  case mainQueue = "main"
  case privateQueue = "private"
}

/// Where a context saves to: the persistent store coordinator, or a parent context.
public enum ParentStore: Sendable, Hashable {
  case store
  case context(String)
}

/// `NSMergePolicy`'s five policies, by their scenario names.
public enum MergePolicy: String, Sendable, CaseIterable {
  case error
  case mergeByPropertyStoreTrump
  case mergeByPropertyObjectTrump
  case overwrite
  case rollback
}

/// A context the scenario declares up front, with its options.
public struct ContextDescription: Sendable, Hashable {
  /// Its name in the scenario, as steps and reports use it.
  public internal(set) var name: String
  /// Main-queue or private-queue.
  public internal(set) var concurrencyType: ConcurrencyType
  /// The store, or the parent context whose queue its saves and reads go through.
  public internal(set) var parent: ParentStore
  /// How a save resolves a conflict with the store.
  public internal(set) var mergePolicy: MergePolicy
  /// Whether saves to the parent are merged in on its own queue.
  public internal(set) var automaticallyMergesChangesFromParent: Bool
  /// Whether a fault on a deleted row reads as nil instead of raising.
  public internal(set) var shouldDeleteInaccessibleFaults: Bool
  /// The context's `name` property, which history records as `contextName`; nil by default.
  public internal(set) var nameProperty: String? = nil
  /// The `transactionAuthor` its saves record in history; nil by default.
  public internal(set) var transactionAuthor: String? = nil
  /// Whether it has an undo manager: none by default, as on iOS (macOS gives a main-queue
  /// context one; a scenario sets it).
  public internal(set) var hasUndoManager = false

  /// `NSPersistentContainer.viewContext`: main queue, on the store, no automatic merging.
  public static let viewContext = ContextDescription(
    name: "viewContext", concurrencyType: .mainQueue, parent: .store, mergePolicy: .error,
    automaticallyMergesChangesFromParent: false, shouldDeleteInaccessibleFaults: true)
}

/// A dispatch queue the scenario declares besides `main` and `global`.
public struct QueueDescription: Sendable, Equatable {
  /// A dispatch queue's attributes: serial or concurrent.
  public enum Attributes: String, Sendable, CaseIterable {
    case serial, concurrent
  }

  /// Its name in the scenario, as steps and reports use it.
  public internal(set) var name: String
  /// Serial or concurrent.
  public internal(set) var attributes: Attributes
}

/// A UUID-shaped text made from a string by FNV-1a, stable across runs and platforms.
func uuid(hashing text: String) -> String {
  var hash: UInt64 = 0xcbf2_9ce4_8422_2325
  var hex = ""
  for round in 0..<2 {
    for byte in (text + String(round)).utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    let part = String(hash, radix: 16, uppercase: true)
    hex += String(repeating: "0", count: 16 - part.count) + part
  }
  let c = Array(hex)
  return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(c[$0]) }.joined(separator: "-")
}
