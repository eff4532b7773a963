/// A validated scenario: a small app's Core Data model, its store, its contexts and queues,
/// and the script its main thread runs at launch.
///
/// Built only by ``ScenarioDecoder``, which guarantees that every name a step uses
/// (entity, attribute, context, queue, label) exists, so the simulation never meets an
/// unknown name.
public struct Scenario: Sendable {
  public var file: String
  public var title: String
  public var about: String?
  public var concurrencyDebug: Bool
  public var entities: [Entity]
  public var storeRows: [StoredRow]
  public var contexts: [ContextDescription]
  public var queues: [QueueDescription]
  public var vars: [(name: String, value: Value)]
  public var main: [Step]
  public var expectation: Expectation?
  /// Store errors the scenario injects into given calls.
  public var injections: [Injection] = []
  /// The store's UUID in permanent object IDs, and the coordinator's in temporary ones,
  /// made from the title so every run prints the same IDs.
  public internal(set) var storeIdentifier = ""
  /// The store as it is at launch, built once: every run starts from a copy.
  var initialStore = PersistentStore(rows: [], entities: [])
  public internal(set) var temporaryIdentifier = ""

  public func entity(named name: String) -> Entity? {
    entities.first { $0.name == name }
  }

  public func context(named name: String) -> ContextDescription? {
    contexts.first { $0.name == name }
  }

  /// Every step in the file, depth first, in the order written: ``Step/index`` indexes it.
  public internal(set) var allSteps: [Step] = []

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
  public var label: String
  public var code: Int
  public var call: Int
  /// Counts only the runs of the step where this holds, in the step's own variables.
  public var condition: Condition?
}

/// An entity of the managed object model: `NSEntityDescription`.
public struct Entity: Sendable, Equatable {
  public var name: String
  public var attributes: [Attribute]
  public var relationships: [Relationship]
  public var uniquenessConstraints: [[String]]

  public func attribute(named name: String) -> Attribute? {
    attributes.first { $0.name == name }
  }

  public func relationship(named name: String) -> Relationship? {
    relationships.first { $0.name == name }
  }

  /// The model's default for each attribute that has one: a new object's first values.
  public var defaultValues: [String: Value] {
    var values: [String: Value] = [:]
    for attribute in attributes {
      if let value = attribute.defaultValue { values[attribute.name] = value }
    }
    return values
  }
}

/// `NSAttributeDescription`, reduced to what the rules need.
public struct Attribute: Sendable, Equatable {
  public var name: String
  public var type: AttributeType
  public var isOptional: Bool
  public var defaultValue: Value?
}

public enum AttributeType: String, Sendable, CaseIterable {
  case string, integer, double, boolean, date, binary, uuid

  /// Whether a scenario literal can be stored in an attribute of this type.
  ///
  /// Dates, binary data and UUIDs are written as strings in scenario files.
  func accepts(_ value: Value) -> Bool {
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
  public enum DeleteRule: String, Sendable, CaseIterable {
    case nullify, cascade, deny
  }

  public var name: String
  public var destination: String
  public var isToMany: Bool
  public var inverse: String?
  public var isOptional: Bool
  public var deleteRule: DeleteRule
}

/// A row saved in the store before launch. Its handle names its object ID in every report.
public struct StoredRow: Sendable {
  public var entity: String
  public var handle: String
  public var values: [String: Value]
  /// Relationship name → the handles of the rows it points at; the inverse side is implied.
  public var links: [String: [String]] = [:]
}

/// `NSManagedObjectContextConcurrencyType`, without the long-deprecated confinement type.
public enum ConcurrencyType: String, Sendable, CaseIterable {
  case mainQueue = "main"
  case privateQueue = "private"
}

/// Where a context saves to: the persistent store coordinator, or a parent context.
public enum ParentStore: Sendable, Equatable {
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
public struct ContextDescription: Sendable, Equatable {
  public var name: String
  public var concurrencyType: ConcurrencyType
  public var parent: ParentStore
  public var mergePolicy: MergePolicy
  public var automaticallyMergesChangesFromParent: Bool
  public var shouldDeleteInaccessibleFaults: Bool

  /// `NSPersistentContainer.viewContext`: main queue, on the store, no automatic merging.
  public static let viewContext = ContextDescription(
    name: "viewContext", concurrencyType: .mainQueue, parent: .store, mergePolicy: .error,
    automaticallyMergesChangesFromParent: false, shouldDeleteInaccessibleFaults: true)
}

/// A dispatch queue the scenario declares besides `main` and `global`.
public struct QueueDescription: Sendable, Equatable {
  public enum Attributes: String, Sendable, CaseIterable {
    case serial, concurrent
  }

  public var name: String
  public var attributes: Attributes
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
