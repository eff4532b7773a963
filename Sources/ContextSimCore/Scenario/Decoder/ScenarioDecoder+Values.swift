/// The meaning checks of values a step writes: literals, `$variables` and attribute maps.
extension ScenarioDecoder {
  /// A literal or `$variable`; literals for a known attribute are checked against its type.
  mutating func expression(
    _ json: JSONValue, path: String, scope: StepScope, attribute: Attribute?
  ) -> Expression? {
    if let text = json.string, text.hasPrefix("$"), text.count > 1 {
      let name = String(text.dropFirst())
      guard isVisible(name, scope) else {
        unknownVariable(name, at: json.location, path: path, scope: scope)
        return nil
      }
      return .variable(name)
    }
    if let elements = json.elements {
      var items: [Expression] = []
      for element in elements {
        guard let item = expression(element, path: path, scope: scope, attribute: nil) else {
          return nil
        }
        items.append(item)
      }
      return .list(items)
    }
    if let attribute {
      return typedLiteral(json, for: attribute, path: path).map { .literal($0) }
    }
    guard let value = Value(literal: json) else {
      fail(
        "a value cannot be an object",
        fix: "use a string, number, boolean, null, list or $variable",
        at: json.location, path: path)
      return nil
    }
    return .literal(value)
  }

  /// `"values"` of an insert or `"set"` of a batch update: attribute name → value.
  mutating func attributeValues(
    _ json: JSONValue, entity: Entity, path: String, scope: StepScope
  ) -> [(key: String, value: Expression)] {
    guard let members = object(json, path: path, what: "attribute values") else { return [] }
    var result: [(key: String, value: Expression)] = []
    for member in members {
      if let relationship = entity.relationship(named: member.key) {
        if let value = relationshipValue(member.value, relationship, path: path, scope: scope) {
          result.append((member.key, value))
        }
        continue
      }
      guard
        let attribute = knownAttribute(member.key, of: entity, at: member.keyLocation, path: path),
        let value = expression(member.value, path: path, scope: scope, attribute: attribute)
      else { continue }
      result.append((member.key, value))
    }
    return result
  }

  /// The value a relationship is set to or compared with: objects named by variables, or null.
  mutating func relationshipValue(
    _ json: JSONValue, _ relationship: Relationship, path: String, scope: StepScope
  ) -> Expression? {
    if case .null = json.kind, !relationship.isToMany { return .literal(.null) }
    if let text = json.string, text.hasPrefix("$") {
      return expression(json, path: path, scope: scope, attribute: nil)
    }
    if relationship.isToMany, let items = json.elements,
      items.allSatisfy({ $0.string?.hasPrefix("$") == true })
    {
      return expression(json, path: path, scope: scope, attribute: nil)
    }
    fail(
      "the relationship \"\(relationship.name)\" takes "
        + (relationship.isToMany ? "a list of objects" : "an object or null")
        + ", not \(json.typeDescription)",
      fix: relationship.isToMany
        ? "write [\"$photo\", …] or a $variable holding a list"
        : "write \"$object\", a variable holding a \(relationship.destination), or null",
      at: json.location, path: path)
    return nil
  }

}
