import Foundation

/// Turns a `contents` element tree into a scenario's v1 `"model"` object, every value placed
/// at the XML element it came from.
///
///     <entity name="Photo">
///       <attribute name="isSeen" attributeType="Boolean" defaultValueString="NO"/>
///       <relationship name="album" optional="YES" maxCount="1" deletionRule="Nullify"
///         destinationEntity="Album" inverseName="photos" inverseEntity="Album"/>
///     </entity>
///     // "Photo": {"attributes": {"isSeen": {"type": "boolean", "optional": false, "default": false}},
///     //   "relationships": {"album": {"to": "Album", "many": false, "inverse": "photos",
///     //     "optional": true, "deleteRule": "nullify"}}}
///
/// Xcode leaves a flag out when it is `NO`, so an attribute or relationship without
/// `optional="YES"` is required, as Core Data reads it. A sub-entity (`parentEntity`) gets its
/// parent's properties and constraints, as Core Data gives them; see docs/scenario-format.md
/// for what that and the types ctxsim has no exact match for become.
struct ModelConversion: ProblemLog {
  let file: String
  var errors: [Diagnostic] = []

  /// An entity's own properties, before a sub-entity adds its parent's.
  private struct Properties {
    var element: ModelElement
    var attributes: [JSONValue.Member] = []
    var relationships: [JSONValue.Member] = []
    var unique: [JSONValue] = []
  }

  init(file: String) {
    self.file = file
  }

  /// The `"model"` object, or every problem found in the tree.
  func model(_ root: ModelElement) throws(Diagnostics) -> JSONValue {
    var conversion = self
    let model = conversion.convert(root)
    guard conversion.errors.isEmpty else { throw Diagnostics(conversion.errors) }
    return model
  }

  private mutating func convert(_ root: ModelElement) -> JSONValue {
    guard root.name == "model" else {
      fail(
        "not a Core Data model: the XML's root element is <\(root.name)>, not <model>",
        fix: "name the contents file Xcode writes in an .xcdatamodel folder", at: root.location,
        path: nil)
      return JSONValue(.object([]), at: root.location)
    }
    var own: [(name: String, properties: Properties)] = []
    for element in root.children(named: "entity") {
      guard let name = required("name", of: element, what: "an entity", path: "model") else {
        continue
      }
      if own.contains(where: { $0.name == name }) {
        fail(
          "two entities are named \"\(name)\"", fix: "rename one of them in Xcode",
          at: element.location, path: "model.\(name)")
        continue
      }
      own.append((name, properties(of: element, entity: name)))
    }
    let byName = Dictionary(uniqueKeysWithValues: own.map { ($0.name, $0.properties) })
    let entities = own.map { name, properties in
      JSONValue.Member(
        key: name, keyLocation: properties.element.location,
        value: entity(name, properties, inheriting: parents(of: name, in: byName)))
    }
    return JSONValue(.object(entities), at: root.location)
  }

  /// The entity's ancestors' properties, nearest last, so the root entity's come first.
  private mutating func parents(of name: String, in entities: [String: Properties])
    -> [Properties]
  {
    var chain: [Properties] = []
    var seen: Set<String> = [name]
    var current = entities[name]
    while let element = current?.element, let parent = element["parentEntity"] {
      guard !seen.contains(parent), let properties = entities[parent] else {
        fail(
          seen.contains(parent)
            ? "\(name)'s parent entities go round in a circle through \"\(parent)\""
            : "\(element["name"] ?? name)'s parent entity \"\(parent)\" is not in the model",
          fix: "set the entity's Parent Entity again in Xcode's Data Model inspector",
          at: element.location, path: "model.\(name)")
        break
      }
      seen.insert(parent)
      chain.insert(properties, at: 0)
      current = properties
    }
    return chain
  }

  /// `{"attributes", "relationships", "unique"}`, each left out when empty.
  private func entity(_ name: String, _ properties: Properties, inheriting parents: [Properties])
    -> JSONValue
  {
    // An inherited relationship keeps no inverse: the inverse points back at the parent, and a
    // scenario's relationship has one destination entity.
    let inherited = parents.flatMap(\.relationships).map { member in
      var member = member
      if case .object(let fields) = member.value.kind {
        member.value.kind = .object(fields.filter { $0.key != "inverse" })
      }
      return member
    }
    let location = properties.element.location
    var members: [JSONValue.Member] = []
    func add(_ key: String, _ kind: JSONValue.Kind, isEmpty: Bool) {
      guard !isEmpty else { return }
      members.append(.init(key: key, keyLocation: location, value: JSONValue(kind, at: location)))
    }
    let attributes = parents.flatMap(\.attributes) + properties.attributes
    let relationships = inherited + properties.relationships
    let unique = parents.flatMap(\.unique) + properties.unique
    add("attributes", .object(attributes), isEmpty: attributes.isEmpty)
    add("relationships", .object(relationships), isEmpty: relationships.isEmpty)
    add("unique", .array(unique), isEmpty: unique.isEmpty)
    return JSONValue(.object(members), at: location)
  }

  private mutating func properties(of element: ModelElement, entity: String) -> Properties {
    var result = Properties(element: element)
    var names: Set<String> = []
    for child in element.children {
      let member: JSONValue.Member?
      switch child.name {
      case "attribute": member = attribute(child, entity: entity)
      case "relationship": member = relationship(child, entity: entity)
      case "uniquenessConstraints":
        result.unique += uniquenessConstraints(child)
        continue
      default: continue
      }
      guard let member else { continue }
      guard names.insert(member.key).inserted else {
        fail(
          "\(entity) has two properties named \"\(member.key)\"",
          fix: "rename one of them in Xcode",
          at: child.location, path: "model.\(entity)")
        continue
      }
      if child.name == "attribute" {
        result.attributes.append(member)
      } else {
        result.relationships.append(member)
      }
    }
    return result
  }

  /// `<uniquenessConstraints><uniquenessConstraint><constraint value="remoteURL"/>…`.
  private func uniquenessConstraints(_ element: ModelElement) -> [JSONValue] {
    element.children(named: "uniquenessConstraint").compactMap { group in
      let names = group.children(named: "constraint").compactMap { constraint in
        constraint["value"].map { JSONValue(.string($0), at: constraint.location) }
      }
      return names.isEmpty ? nil : JSONValue(.array(names), at: group.location)
    }
  }

  /// An XML attribute the element cannot do without, or a problem saying it is missing.
  mutating func required(
    _ attribute: String, of element: ModelElement, what: String, path: String
  ) -> String? {
    if let value = element[attribute], !value.isEmpty { return value }
    fail(
      "\(what) has no \(attribute)", fix: "open the model in Xcode and give it one",
      at: element.location, path: path)
    return nil
  }

  /// An object whose members and values are all placed at one element.
  static func object(_ pairs: [(String, JSONValue.Kind?)], at location: SourceLocation)
    -> JSONValue
  {
    JSONValue(
      .object(
        pairs.compactMap { key, kind in
          kind.map {
            JSONValue.Member(key: key, keyLocation: location, value: JSONValue($0, at: location))
          }
        }), at: location)
  }
}
