/// Decoding of the managed object model, and the checks of names against it.
extension ScenarioDecoder {
  mutating func validateModel(_ raw: Field<[RawEntity]>) {
    var relationshipSources: [(entity: String, relationship: Relationship, at: SourceLocation)] = []
    var parents: [String: Located<String>] = [:]
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
      if let parent = read(definition.parent) { parents[declared.name] = parent }
      entities.append(entity)
    }
    entities = entities.map { inheriting($0, parents: parents) }
    for (source, relationship, location) in relationshipSources {
      checkDestination(of: relationship, from: source, at: location)
    }
  }

  /// A sub-entity with its parents' attributes, relationships and constraints before its
  /// own, as Core Data gives it; an inherited relationship keeps its inverse, which points
  /// back at the parent (a to-many of `MetricsEntry` holds an `IntMetricsEntry`).
  private mutating func inheriting(_ entity: Entity, parents: [String: Located<String>]) -> Entity {
    var result = entity
    var seen: Set<String> = [entity.name]
    var child = entity.name
    while let parent = parents[child] {
      let path = "model.\(child).parent"
      guard let declared = entities.first(where: { $0.name == parent.value }) else {
        let fix =
          nearestName(to: parent.value, in: entities.map(\.name)).map { "did you mean \"\($0)\"?" }
          ?? "declare the entity \"\(parent.value)\" in \"model\""
        if child == entity.name {
          fail(
            "\(child)'s parent entity \"\(parent.value)\" is not in the model", fix: fix,
            at: parent.location, path: path)
        }
        break
      }
      guard seen.insert(declared.name).inserted else {
        if child == entity.name {
          fail(
            "\(entity.name)'s parent entities go round in a circle", fix: "remove one \"parent\"",
            at: parent.location, path: path)
        }
        break
      }
      result.parent = result.parent ?? declared.name
      result.attributes = declared.attributes + result.attributes
      result.relationships = declared.relationships + result.relationships
      result.uniquenessConstraints = declared.uniquenessConstraints + result.uniquenessConstraints
      child = declared.name
    }
    return result
  }

  /// Whether `entity` is `ancestor` or one of its sub-entities.
  private func isKind(_ entity: String, of ancestor: String) -> Bool {
    var current: String? = entity
    var steps = 0
    while let name = current, steps <= entities.count {
      if name == ancestor { return true }
      current = entities.first { $0.name == name }?.parent
      steps += 1
    }
    return false
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
    if !isKind(source, of: inverse.destination)
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
