/// `"model": {ENTITY: {…}}`: one entity as written.
struct RawEntity {
  var name: String
  var definition: Field<RawEntityDefinition>
}

/// `{"attributes": {…}, "relationships": {…}, "unique": [[…]], "parent": ENTITY}`.
struct RawEntityDefinition {
  /// Keys besides those three.
  var problems: [Diagnostic] = []
  var attributes: Field<[RawAttribute]> = .absent
  var relationships: Field<[RawRelationship]> = .absent
  var unique: Field<[Field<[Field<String>]>]> = .absent
  /// `"parent": "MetricsEntry"`: the entity it is a sub-entity of.
  var parent: Field<String> = .absent
}

/// An attribute as written: a type name, or `{"type": …, "optional": …, "default": …}`.
/// Nothing in it depends on the rest of the model, so it is decoded whole, its problems
/// kept for validation.
struct RawAttribute {
  var problems: [Diagnostic]
  var attribute: Attribute?
}

/// A relationship as written, decoded whole; its destination and inverse are checked
/// against the other entities in validation.
struct RawRelationship {
  var nameLocation: SourceLocation
  /// Where its definition was written, for errors about its destination.
  var location: SourceLocation
  var problems: [Diagnostic]
  var relationship: Relationship?
}

/// The shape pass over `"model"` written as an object; a string is a model's path, which
/// ``RawScenario`` keeps for validation to read.
extension SectionShape {
  func model(_ json: JSONValue) -> Field<[RawEntity]> {
    guard json.members != nil else {
      return .malformed(
        Diagnostic(
          file: file, location: json.location, path: "model",
          message: "\"model\" must be an object, or the path of an .xcdatamodeld, "
            + "not \(json.typeDescription)",
          fix: "write { ENTITY: { … } }, or a path such as \"Photos.xcdatamodeld\""))
    }
    return members(json, path: "model", what: "\"model\"") { name, definition in
      RawEntity(name: name.value, definition: self.definition(definition, entity: name.value))
    }
  }

  private func definition(_ json: JSONValue, entity: String) -> Field<RawEntityDefinition> {
    let path = "model.\(entity)"
    return field(json, path: path) { json in
      ShapeCheck.object(json, what: "an entity").map { members in
        var raw = RawEntityDefinition()
        raw.problems = ShapeCheck.unknownKeys(
          members, allowed: ["attributes", "relationships", "unique", "parent"], what: "an entity"
        ).map { Diagnostic($0, file: file, path: path) }
        raw.attributes = field(json["attributes"], path: "\(path).attributes") {
          ShapeCheck.object($0, what: "\"attributes\"").map { members in
            members.map { member in
              var log = ShapeLog(file: file)
              let attribute = log.decodeAttribute(member, path: "\(path).attributes.\(member.key)")
              return RawAttribute(problems: log.errors, attribute: attribute)
            }
          }
        }
        raw.relationships = field(json["relationships"], path: "\(path).relationships") {
          ShapeCheck.object($0, what: "\"relationships\"").map { members in
            members.map { member in
              var log = ShapeLog(file: file)
              let relationship = log.decodeRelationship(
                member, path: "\(path).relationships.\(member.key)")
              return RawRelationship(
                nameLocation: member.keyLocation, location: member.value.location,
                problems: log.errors, relationship: relationship)
            }
          }
        }
        raw.unique = field(json["unique"], path: "\(path).unique") {
          ShapeCheck.list($0, what: "\"unique\"").map { groups in
            groups.map { group in
              field(group, path: "\(path).unique") {
                ShapeCheck.list($0, what: "a uniqueness constraint").map { names in
                  names.map { name in
                    field(name, path: "\(path).unique") {
                      ShapeCheck.string($0, what: "a constrained attribute")
                    }
                  }
                }
              }
            }
          }
        }
        raw.parent = field(json["parent"], path: "\(path).parent") {
          ShapeCheck.string($0, what: "\"parent\"")
        }
        return raw
      }
    }
  }
}

/// Attributes and relationships, read whole: nothing in them depends on the rest of the model.
extension ShapeLog {
  mutating func decodeAttribute(_ member: JSONValue.Member, path: String) -> Attribute? {
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

  mutating func decodeRelationship(_ member: JSONValue.Member, path: String)
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
}
