/// A validated scenario: a small app's Core Data model, its store, its contexts and queues,
/// and the script its main thread runs at launch.
///
/// Built only by ``ScenarioDecoder``, which guarantees that every name a step uses
/// (entity, attribute, context, queue, label) exists, so the simulation never meets an
/// unknown name. Its fields are read-only outside the module so that guarantee holds:
/// a scenario with a context taken away would trap the simulator.
public struct Scenario: Sendable {
  public internal(set) var file: String
  public internal(set) var title: String
  public internal(set) var about: String?
  public internal(set) var concurrencyDebug: Bool
  public internal(set) var entities: [Entity]
  public internal(set) var storeRows: [StoredRow]
  public internal(set) var contexts: [ContextDescription]
  public internal(set) var queues: [QueueDescription]
  public internal(set) var vars: [(name: String, value: Value)]
  public internal(set) var main: [Step]
  public internal(set) var expectation: Expectation?
  /// Store errors the scenario injects into given calls.
  public internal(set) var injections: [Injection] = []
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

  /// The same scenario reported under another file name, as a lesson names its scenario.
  public func named(_ file: String) -> Scenario {
    var copy = self
    copy.file = file
    return copy
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
  public internal(set) var label: String
  public internal(set) var code: Int
  public internal(set) var call: Int
  /// Counts only the runs of the step where this holds, in the step's own variables.
  public internal(set) var condition: Condition?
}

/// An entity of the managed object model: `NSEntityDescription`.
public struct Entity: Sendable, Equatable {
  public internal(set) var name: String
  public internal(set) var attributes: [Attribute]
  public internal(set) var relationships: [Relationship]
  public internal(set) var uniquenessConstraints: [[String]]

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
  public internal(set) var name: String
  public internal(set) var type: AttributeType
  public internal(set) var isOptional: Bool
  public internal(set) var defaultValue: Value?
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

  public internal(set) var name: String
  public internal(set) var destination: String
  public internal(set) var isToMany: Bool
  public internal(set) var inverse: String?
  public internal(set) var isOptional: Bool
  public internal(set) var deleteRule: DeleteRule
}

/// A row saved in the store before launch. Its handle names its object ID in every report.
public struct StoredRow: Sendable {
  public internal(set) var entity: String
  public internal(set) var handle: String
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
  public internal(set) var name: String
  public internal(set) var concurrencyType: ConcurrencyType
  public internal(set) var parent: ParentStore
  public internal(set) var mergePolicy: MergePolicy
  public internal(set) var automaticallyMergesChangesFromParent: Bool
  public internal(set) var shouldDeleteInaccessibleFaults: Bool

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

  public internal(set) var name: String
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
