import ContextSimCore
import ContextSimReports

/// The model a draft infers from use when no `.xcdatamodeld` is given: entities from the
/// names inserted and fetched, attributes from the keys set with the values' types, and
/// relationships from keys set to objects. Every relationship is to-one and without an
/// inverse unless the code shows otherwise; docs/draft.md says so.
struct InferredModel {
  struct Entity {
    var name: String
    var attributes: [(String, String)] = []
    var relationships: [(String, String)] = []
    var toMany: Set<String> = []
    /// Fetched somewhere, so the store gets sample rows for it.
    var fetched = false
  }

  private(set) var entities: [Entity] = []

  init() {}

  /// The entities and relationships of a given model (an `.xcdatamodeld`'s), so stand-ins
  /// and relationships use its names.
  init(given model: JSONValue?) {
    guard case .object(let members)? = model?.kind else { return }
    for member in members {
      var entity = Entity(name: member.key)
      if case .object(let sections) = member.value.kind,
        case .object(let attributes)? = sections.first(where: { $0.key == "attributes" })?
          .value.kind
      {
        // `"title": "string"` or `"title": {"type": "string", …}`.
        for attribute in attributes {
          switch attribute.value.kind {
          case .string(let type): entity.attributes.append((attribute.key, type))
          case .object(let fields):
            if case .string(let type)? = fields.first(where: { $0.key == "type" })?.value.kind {
              entity.attributes.append((attribute.key, type))
            }
          default: break
          }
        }
      }
      if case .object(let sections) = member.value.kind,
        case .object(let relationships)? = sections.first(where: { $0.key == "relationships" })?
          .value.kind
      {
        for relationship in relationships {
          guard case .object(let fields) = relationship.value.kind,
            case .string(let destination)? = fields.first(where: { $0.key == "to" })?.value.kind
          else { continue }
          entity.relationships.append((relationship.key, destination))
        }
      }
      entities.append(entity)
    }
  }

  /// Entities declared as `NSManagedObject` subclasses, with their `@NSManaged` properties
  /// (in the class or its extensions): a type's attributes, an entity's relationships.
  mutating func addManagedProperties(of types: [SwiftType]) {
    let entities = Set(types.filter { $0.inherits.contains("NSManagedObject") }.map(\.name))
    for type in types where entities.contains(type.name) {
      addEntity(type.name)
      for property in type.properties where property.attributes.contains("@NSManaged") {
        let declared = (property.type ?? "").trimmingCharacters(in: ["?", "!"])
        let element = declared.hasPrefix("Set<") ? String(declared.dropFirst(4).dropLast()) : nil
        if entities.contains(declared) {
          add(key: property.name, to: type.name, type: nil, destination: declared)
        } else if let element, entities.contains(element) {
          add(key: property.name, to: type.name, type: nil, destination: element, many: true)
        } else if let attribute = Self.attributeTypes[declared] {
          add(key: property.name, to: type.name, type: attribute)
        }
      }
    }
  }

  /// Swift types as the model's attribute types.
  static let attributeTypes: [String: String] = [
    "String": "string", "Int": "integer", "Int16": "integer", "Int32": "integer",
    "Int64": "integer", "Double": "double", "Float": "double", "Bool": "boolean",
    "Date": "date", "Data": "binary", "UUID": "uuid", "URL": "string", "NSDate": "date",
    "NSData": "binary", "NSNumber": "integer",
  ]

  func isEntity(_ name: String) -> Bool { entities.contains { $0.name == name } }

  /// The type of `entity`'s attribute `key`, when the model has it.
  func attributeType(_ key: String, of entity: String) -> String? {
    entities.first { $0.name == entity }?.attributes.first { $0.0 == key }?.1
  }

  mutating func addEntity(_ name: String, fetched: Bool = false) {
    if let i = entities.firstIndex(where: { $0.name == name }) {
      entities[i].fetched = entities[i].fetched || fetched
    } else {
      entities.append(Entity(name: name, fetched: fetched))
    }
  }

  /// Records `key` on `entity`: an attribute of `type`, or a relationship to `destination`.
  mutating func add(
    key: String, to entity: String, type: String?, destination: String? = nil, many: Bool = false
  ) {
    addEntity(entity)
    guard let i = entities.firstIndex(where: { $0.name == entity }) else { return }
    if entities[i].attributes.contains(where: { $0.0 == key })
      || entities[i].relationships.contains(where: { $0.0 == key })
    {
      return
    }
    if let destination {
      addEntity(destination)
      if let j = entities.firstIndex(where: { $0.name == entity }) {
        entities[j].relationships.append((key, destination))
        if many { entities[j].toMany.insert(key) }
      }
    } else {
      entities[i].attributes.append((key, type ?? "string"))
    }
  }

  func destination(ofRelationship key: String) -> String? {
    for entity in entities {
      if let r = entity.relationships.first(where: { $0.0 == key }) { return r.1 }
    }
    return nil
  }

  var json: JSONValue? {
    guard !entities.isEmpty else { return nil }
    return object(
      entities.map { entity in
        var members: [(String, JSONValue)] = []
        if !entity.attributes.isEmpty {
          members.append(("attributes", object(entity.attributes.map { ($0.0, .string($0.1)) })))
        }
        if !entity.relationships.isEmpty {
          members.append(
            (
              "relationships",
              object(
                entity.relationships.map { name, destination in
                  let many: JSONValue? = entity.toMany.contains(name) ? .bool(true) : nil
                  return (name, .object(["to": .string(destination), "many": many]))
                })
            ))
        }
        return (entity.name, object(members))
      })
  }

  /// Sample rows, `items` of each, for the entities the code fetches or changes in batches.
  ///
  /// Each attribute holds a value of its type, as rows an app has saved do, so an
  /// `if let title = note.title` takes the path the app takes with data; a row of nils
  /// would skip it.
  func storeJSON(items: Int) -> [(String, JSONValue)] {
    entities.filter(\.fetched).map { entity in
      let handle = entity.name.lowercased()
      let rows = (1...max(items, 1)).map { n in
        object(
          [("id", .string("\(handle)-\(n)"))]
            + entity.attributes.compactMap { name, type in
              // A row's `"id"` is its handle; an attribute of that name keeps no value.
              name == "id" ? nil : Self.sample(type, n: n, of: "\(handle)-\(n)").map { (name, $0) }
            })
      }
      return (entity.name, JSONValue.array(rows))
    }
  }

  /// A stored value of an attribute type: the row's handle for a string, `n` for a number.
  private static func sample(_ type: String, n: Int, of handle: String) -> JSONValue? {
    switch type {
    case "string", "uuid", "binary": .string(handle)
    case "integer": .integer(n)
    case "double": .double(Double(n))
    case "boolean": .bool(false)
    case "date": .string("2001-01-01T00:00:00Z")
    default: nil
    }
  }

  private func object(_ members: [(String, JSONValue)]) -> JSONValue { .ordered(members) }
}
