/// Decoding of the managed object model, and the checks of names against it.
extension ScenarioDecoder {
  mutating func decodeModel(_ json: JSONValue) {
    guard let members = object(json, path: "model", what: "\"model\"") else { return }
    var relationshipSources: [(entity: String, relationship: Relationship, at: SourceLocation)] = []
    for member in members {
      let path = "model.\(member.key)"
      guard let body = object(member.value, path: path, what: "an entity") else { continue }
      checkKeys(
        body, allowed: ["attributes", "relationships", "unique"], path: path, what: "an entity")
      var entity = Entity(
        name: member.key, attributes: [], relationships: [], uniquenessConstraints: [])
      if let attributes = member.value["attributes"],
        let list = object(attributes, path: "\(path).attributes", what: "\"attributes\"")
      {
        for attribute in list {
          if let decoded = decodeAttribute(attribute, path: "\(path).attributes.\(attribute.key)") {
            entity.attributes.append(decoded)
          }
        }
      }
      if let relationships = member.value["relationships"],
        let list = object(relationships, path: "\(path).relationships", what: "\"relationships\"")
      {
        for item in list {
          if let decoded = decodeRelationship(item, path: "\(path).relationships.\(item.key)") {
            if entity.attribute(named: decoded.name) != nil {
              fail(
                "\"\(decoded.name)\" is both an attribute and a relationship of \(entity.name)",
                fix: "rename one of them", at: item.keyLocation, path: "\(path).relationships")
            }
            entity.relationships.append(decoded)
            relationshipSources.append((entity.name, decoded, item.value.location))
          }
        }
      }
      if let unique = member.value["unique"] {
        entity.uniquenessConstraints = decodeUnique(unique, entity: entity, path: "\(path).unique")
      }
      entities.append(entity)
    }
    for (source, relationship, location) in relationshipSources {
      checkDestination(of: relationship, from: source, at: location)
    }
  }

  private mutating func decodeAttribute(_ member: JSONValue.Member, path: String) -> Attribute? {
    var attribute = Attribute(name: member.key, type: .string, isOptional: true, defaultValue: nil)
    if member.value.string != nil {
      guard
        let type = choice(
          member.value, path: path, what: "the attribute type", as: AttributeType.self)
      else { return nil }
      attribute.type = type
      return attribute
    }
    guard let body = object(member.value, path: path, what: "an attribute") else { return nil }
    checkKeys(body, allowed: ["type", "optional", "default"], path: path, what: "an attribute")
    guard let typeJSON = member.value["type"] else {
      fail(
        "the attribute \"\(member.key)\" has no \"type\"",
        fix: "add \"type\": one of "
          + AttributeType.allCases.map(\.rawValue).joined(separator: ", "),
        at: member.value.location, path: path)
      return nil
    }
    guard
      let type = choice(typeJSON, path: path, what: "the attribute type", as: AttributeType.self)
    else { return nil }
    attribute.type = type
    if let optional = member.value["optional"] {
      attribute.isOptional = bool(optional, path: path, what: "\"optional\"") ?? true
    }
    if let defaultJSON = member.value["default"] {
      if let value = Value(literal: defaultJSON), type.accepts(value) {
        attribute.defaultValue = value
      } else {
        fail(
          "the default of \"\(member.key)\" is \(defaultJSON.typeDescription), not a \(type.rawValue)",
          fix: "give a \(type.rawValue) value", at: defaultJSON.location, path: path)
      }
    }
    return attribute
  }

  private mutating func decodeRelationship(_ member: JSONValue.Member, path: String)
    -> Relationship?
  {
    guard let body = object(member.value, path: path, what: "a relationship") else { return nil }
    checkKeys(
      body, allowed: ["to", "many", "inverse", "optional", "deleteRule"], path: path,
      what: "a relationship")
    guard let toJSON = member.value["to"] else {
      fail(
        "the relationship \"\(member.key)\" has no \"to\"",
        fix: "add \"to\": the name of the entity it points at", at: member.value.location,
        path: path)
      return nil
    }
    guard let destination = string(toJSON, path: path, what: "\"to\"") else { return nil }
    return Relationship(
      name: member.key, destination: destination,
      isToMany: member.value["many"].flatMap { bool($0, path: path, what: "\"many\"") } ?? false,
      inverse: member.value["inverse"].flatMap { string($0, path: path, what: "\"inverse\"") },
      isOptional: member.value["optional"].flatMap { bool($0, path: path, what: "\"optional\"") }
        ?? true,
      deleteRule: member.value["deleteRule"].flatMap {
        choice($0, path: path, what: "the delete rule", as: Relationship.DeleteRule.self)
      } ?? .nullify)
  }

  /// Checks that a relationship's destination exists and its inverse points back.
  private mutating func checkDestination(
    of relationship: Relationship, from source: String, at location: SourceLocation
  ) {
    let path = "model.\(source).relationships.\(relationship.name)"
    guard let destination = entities.first(where: { $0.name == relationship.destination }) else {
      let fix =
        nearestName(to: relationship.destination, in: entities.map(\.name)).map {
          "did you mean \"\($0)\"?"
        } ?? "declare the entity \"\(relationship.destination)\" in \"model\""
      fail(
        "the relationship \"\(relationship.name)\" points at an unknown entity \"\(relationship.destination)\"",
        fix: fix, at: location, path: path)
      return
    }
    guard let inverseName = relationship.inverse else { return }
    guard let inverse = destination.relationship(named: inverseName) else {
      fail(
        "the inverse \"\(inverseName)\" is not a relationship of \(destination.name)",
        fix: "add \"\(inverseName)\" to \(destination.name)'s relationships, or fix the name",
        at: location, path: path)
      return
    }
    if inverse.destination != source
      || (inverse.inverse != nil && inverse.inverse != relationship.name)
    {
      fail(
        "the inverse of \(source).\(relationship.name) is \(destination.name).\(inverseName), "
          + "but that one points at \(inverse.destination).\(inverse.inverse ?? "(no inverse)")",
        fix: "make each side name the other as its inverse", at: location, path: path)
    }
  }

  private mutating func decodeUnique(_ json: JSONValue, entity: Entity, path: String) -> [[String]]
  {
    guard let groups = list(json, path: path, what: "\"unique\"") else { return [] }
    var result: [[String]] = []
    for group in groups {
      guard let names = list(group, path: path, what: "a uniqueness constraint") else { continue }
      var constraint: [String] = []
      for name in names {
        guard let attribute = string(name, path: path, what: "a constrained attribute") else {
          continue
        }
        if entity.attribute(named: attribute) == nil {
          fail(
            "\(entity.name) has no attribute \"\(attribute)\" to make unique",
            fix: nearestName(to: attribute, in: entity.attributes.map(\.name)).map {
              "did you mean \"\($0)\"?"
            } ?? "declare it in \"attributes\"", at: name.location, path: path)
        }
        constraint.append(attribute)
      }
      result.append(constraint)
    }
    return result
  }

  mutating func typedLiteral(_ json: JSONValue, for attribute: Attribute, path: String) -> Value? {
    guard let value = Value(literal: json), attribute.type.accepts(value) else {
      fail(
        "\"\(attribute.name)\" is \(attribute.type == .integer ? "an" : "a") \(attribute.type.rawValue) attribute, but this value is \(json.typeDescription)",
        fix: "write a \(attribute.type.rawValue)"
          + (attribute.type == .date ? " as an ISO 8601 string" : ""), at: json.location, path: path
      )
      return nil
    }
    return value
  }

  mutating func knownEntity(_ name: String, at location: SourceLocation, path: String) -> Entity? {
    if let entity = entities.first(where: { $0.name == name }) { return entity }
    let fix =
      nearestName(to: name, in: entities.map(\.name)).map { "did you mean \"\($0)\"?" }
      ?? "declare \"\(name)\" in \"model\""
    fail("unknown entity \"\(name)\"", fix: fix, at: location, path: path)
    return nil
  }

  mutating func knownAttribute(
    _ name: String, of entity: Entity, at location: SourceLocation, path: String
  ) -> Attribute? {
    if let attribute = entity.attribute(named: name) { return attribute }
    let candidates = entity.attributes.map(\.name) + entity.relationships.map(\.name)
    let fix =
      nearestName(to: name, in: candidates).map { "did you mean \"\($0)\"?" }
      ?? "declare \"\(name)\" in \(entity.name)'s attributes"
    let kinds = entity.relationships.isEmpty ? "attribute" : "attribute or relationship"
    fail("\(entity.name) has no \(kinds) \"\(name)\"", fix: fix, at: location, path: path)
    return nil
  }
}
