/// Decoding of the managed object model, and the checks of names against it.
extension ScenarioDecoder {
  mutating func validateModel(_ raw: Field<[RawEntity]>) {
    var relationshipSources: [(entity: String, relationship: Relationship, at: SourceLocation)] = []
    for declared in read(raw)?.value ?? [] {
      guard let definition = read(declared.definition)?.value else { continue }
      errors += definition.problems
      let path = "model.\(declared.name)"
      var entity = Entity(
        name: declared.name, attributes: [], relationships: [], uniquenessConstraints: [])
      for attribute in read(definition.attributes)?.value ?? [] {
        errors += attribute.problems
        if let decoded = attribute.attribute { entity.attributes.append(decoded) }
      }
      for relationship in read(definition.relationships)?.value ?? [] {
        errors += relationship.problems
        guard let decoded = relationship.relationship else { continue }
        if entity.attribute(named: decoded.name) != nil {
          fail(
            "\"\(decoded.name)\" is both an attribute and a relationship of \(entity.name)",
            fix: "rename one of them", at: relationship.nameLocation, path: "\(path).relationships")
        }
        entity.relationships.append(decoded)
        relationshipSources.append((entity.name, decoded, relationship.location))
      }
      entity.uniquenessConstraints = validateUnique(definition.unique, of: entity)
      entities.append(entity)
    }
    for (source, relationship, location) in relationshipSources {
      checkDestination(of: relationship, from: source, at: location)
    }
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

  /// `"unique": [["title", "date"], …]`: each constrained attribute must be the entity's.
  private mutating func validateUnique(
    _ raw: Field<[Field<[Field<String>]>]>, of entity: Entity
  ) -> [[String]] {
    let path = "model.\(entity.name).unique"
    var result: [[String]] = []
    for group in read(raw)?.value ?? [] {
      guard let names = read(group)?.value else { continue }
      var constraint: [String] = []
      for name in names {
        guard let attribute = read(name) else { continue }
        if entity.attribute(named: attribute.value) == nil {
          fail(
            "\(entity.name) has no attribute \"\(attribute.value)\" to make unique",
            fix: nearestName(to: attribute.value, in: entity.attributes.map(\.name)).map {
              "did you mean \"\($0)\"?"
            } ?? "declare it in \"attributes\"", at: attribute.location, path: path)
        }
        constraint.append(attribute.value)
      }
      result.append(constraint)
    }
    return result
  }

  mutating func typedLiteral(_ json: JSONValue, for attribute: Attribute, path: String) -> Value? {
    guard let value = Value(literal: json), attribute.type.accepts(value) else {
      fail(
        "\"\(attribute.name)\" is \(attribute.type == .integer ? "an" : "a") \(attribute.type.rawValue) attribute, but this value is \(json.typeDescription)",
        fix: "write \(attribute.type == .integer ? "an" : "a") \(attribute.type.rawValue)"
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
