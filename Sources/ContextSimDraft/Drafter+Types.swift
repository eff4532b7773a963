import ContextSimCore
import ContextSimReports

/// The app's own types across every file read: a class, struct or actor with the members its
/// extensions add wherever they are, the instance the draft makes of it, and the extensions
/// of Core Data's own types, whose methods are called on a context, an object or the
/// container as if they were Core Data's.
extension Drafter {
  /// Each type declared in `files` with its extensions' members, by name, and the names in
  /// the order declared; extensions of a type not declared there (Core Data's) stand alone.
  static func typeTable(_ files: [SwiftFile]) -> (types: [String: SwiftType], order: [String]) {
    var types: [String: SwiftType] = [:]
    var order: [String] = []
    // Nested types too, by their own name (`AERecord.Context` is `Context`), to look up;
    // the first of two of one name is kept. Only the top-level ones are in `order`, whose
    // instances a draft makes and whose methods it calls.
    func flattened(_ types: [SwiftType]) -> [SwiftType] {
      types.flatMap { [$0] + flattened($0.types) }
    }
    let topLevel = Set(files.flatMap(\.types).map(\.location))
    let all = flattened(files.flatMap(\.types))
    for type in all where type.keyword != "extension" && types[type.name] == nil {
      types[type.name] = type
      if topLevel.contains(type.location) { order.append(type.name) }
    }
    for type in all where type.keyword == "extension" {
      guard var merged = types[type.name] else {
        types[type.name] = type
        order.append(type.name)
        continue
      }
      // (A location alone names no type: an extension in another file may be on the
      // line its type is declared on in its own.)
      merged.properties += type.properties
      merged.functions += type.functions
      merged.inherits += type.inherits
      merged.typeAliases.merge(type.typeAliases) { first, _ in first }
      types[type.name] = merged
    }
    return (types, order)
  }

  /// Whether `name` is a class, struct or actor of the app's that is not an entity: what
  /// an instance is made of.
  /// The app's type `call` makes: `Stack(container: c)`, or one declared inside another,
  /// `SessionEntry.Complete(launchID: id)`; nil for any other call.
  func madeAppType(_ call: Call) -> String? {
    guard isAppType(call.method) else { return nil }
    switch call.receiver?.kind {
    case nil: return call.method
    case .name(let outer)? where outer.first?.isUppercase == true && meaning(of: outer) == nil:
      return call.method
    default: return nil
    }
  }

  /// Whether the one instance of `type` holds a context it made, not the container's own
  /// `viewContext`: a second instance would have one of its own.
  func holdsOwnContexts(_ type: String) -> Bool {
    (instanceMembers[type] ?? [:]).values.contains { m in
      if case .context(let c) = m { c != "viewContext" } else { false }
    }
  }

  func isAppType(_ name: String) -> Bool {
    guard let type = types[name] else { return false }
    return ["class", "struct", "actor"].contains(type.keyword) && !isManagedObjectSubclass(type)
      && !isContainerSubclass(name)
  }

  /// `final class PersistentContainer: NSPersistentContainer`: an instance is the
  /// scenario's container, and its methods are called as an extension's are, with it as
  /// `self` (its bare `viewContext` the container's).
  func isContainerSubclass(_ name: String) -> Bool {
    name != "NSPersistentContainer" && isSubclass(name, of: "NSPersistentContainer")
  }

  /// Whether `name` is the framework class `base` or one of the app's classes that inherits
  /// from it, as far up as the files declare (`NSPersistentCloudKitContainer` counts as
  /// the `NSPersistentContainer` it subclasses).
  func isSubclass(_ name: String, of base: String) -> Bool {
    let frameworkSubclasses = ["NSPersistentCloudKitContainer": "NSPersistentContainer"]
    var seen: Set<String> = []
    var current = name
    while seen.insert(current).inserted {
      if current == base || frameworkSubclasses[current] == base { return true }
      guard let type = types[current], type.keyword == "class", let next = type.inherits.first
      else { return false }
      current = next
    }
    return false
  }

  /// The app type a declared type names (`CoreDataStack?`, `any Store` is none).
  func appType(_ declared: String?) -> String? {
    let name = (declared ?? "").trimmingCharacters(in: ["?", "!"])
    return isAppType(name) ? name : nil
  }

  /// A method an extension of Core Data's types adds, for a receiver that is a context,
  /// the container or an object: `context.saveIfNeeded()`. Among overloads, the one whose
  /// argument labels the call's `labels` match.
  func extensionMethod(_ name: String, on receiver: Meaning?, labels: [String?]? = nil)
    -> (SwiftType, SwiftFunction)?
  {
    let extended: [String]
    switch receiver {
    case .context?: extended = ["NSManagedObjectContext"]
    case .container?:
      extended =
        ["NSPersistentContainer", "NSPersistentCloudKitContainer"]
        + typeOrder.filter(isContainerSubclass)
    case .object(_, let entity)?: extended = [entity, "NSManagedObject"].compactMap { $0 }
    default: return nil
    }
    for typeName in extended {
      guard let type = types[typeName] else { continue }
      let named = type.functions.filter { $0.name == name }
      let fitting = labels.map { labels in named.filter { Self.accepts($0, labels: labels) } }
      if let f = fitting?.first ?? named.first { return (type, f) }
    }
    return nil
  }

  /// What a static member of an app type is: `CoreDataStack.shared`, when its declared
  /// type, or the type it is made of, is an app type.
  func staticMember(_ name: String, of typeName: String) -> Meaning? {
    guard let type = types[typeName],
      let property = type.properties.first(where: { $0.name == name })
    else { return nil }
    if let t = appType(property.type) { return .instanceOf(t) }
    if let value = property.value, let call = Call(value), let made = madeAppType(call) {
      return .instanceOf(made)
    }
    return nil
  }

  /// The names Core Data's types answer to, which a method of an extension of one may
  /// use without `self.`.
  static let implicitMembers: [String: Set<String>] = [
    "context": [
      "hasChanges", "save", "perform", "performAndWait", "performBlock", "performBlockAndWait",
      "fetch", "executeFetchRequest", "count", "delete", "deleteObject", "reset", "rollback",
      "refresh", "object", "existingObject", "objectWithID", "registeredObjects",
      "insertedObjects", "updatedObjects", "deletedObjects", "parent", "parentContext", "name",
      "mergePolicy", "automaticallyMergesChangesFromParent", "mergeChanges", "execute",
      "obtainPermanentIDs", "concurrencyType", "persistentStoreCoordinator", "transactionAuthor",
    ],
    "container": [
      "viewContext", "newBackgroundContext", "performBackgroundTask", "loadPersistentStores",
    ],
    "object": [
      "setValue", "value", "setPrimitiveValue", "primitiveValue", "managedObjectContext",
      "objectID",
    ],
  ]

  /// A method's body with the bare names `self` answers to written `self.name`.
  static func withImplicitSelf(_ body: [SwiftStatement], for receiver: Meaning?)
    -> [SwiftStatement]
  {
    let members: Set<String>
    switch receiver {
    case .context?: members = implicitMembers["context"]!
    case .container?: members = implicitMembers["container"]!
    case .object?: members = implicitMembers["object"]!
    default: return body
    }
    return body.map { statement in
      statement.renaming { name in
        members.contains(name)
          ? .member(SwiftExpression(kind: .name("self"), location: statement.location), name) : nil
      }
    }
  }
}
