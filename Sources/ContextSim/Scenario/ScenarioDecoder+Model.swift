/// Decoding of the app's shape: its model, its store's rows and its contexts.
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

  // MARK: Store

  mutating func decodeStore(_ json: JSONValue) -> [StoredRow] {
    guard let members = object(json, path: "store", what: "\"store\"") else { return [] }
    var rows: [StoredRow] = []
    var handles: Set<String> = []
    var pendingLinks:
      [(
        entity: String, relationship: Relationship, targets: [String], at: SourceLocation,
        path: String
      )] = []
    for member in members {
      let path = "store.\(member.key)"
      guard let entity = knownEntity(member.key, at: member.keyLocation, path: path) else {
        continue
      }
      guard let items = list(member.value, path: path, what: "a list of rows") else { continue }
      for (i, item) in items.enumerated() {
        let rowPath = "\(path)[\(i)]"
        guard let body = object(item, path: rowPath, what: "a row") else { continue }
        guard let handleJSON = item["id"],
          let handle = string(handleJSON, path: rowPath, what: "\"id\"")
        else {
          if item["id"] == nil {
            fail(
              "a row of \(entity.name) has no \"id\"",
              fix: "add \"id\": a handle such as \"\(entity.name.lowercased())-\(i + 1)\"",
              at: item.location, path: rowPath)
          }
          continue
        }
        if !handles.insert(handle).inserted {
          fail(
            "two rows have the id \"\(handle)\"", fix: "give each row its own id",
            at: handleJSON.location, path: rowPath)
        }
        var values: [String: Value] = [:]
        var links: [String: [String]] = [:]
        for field in body where field.key != "id" {
          if let relationship = entity.relationship(named: field.key) {
            if let targets = rowLinks(field.value, relationship, path: rowPath) {
              links[relationship.name] = targets
              pendingLinks.append(
                (entity.name, relationship, targets, field.value.location, rowPath))
            }
            continue
          }
          guard
            let attribute = knownAttribute(
              field.key, of: entity, at: field.keyLocation, path: rowPath)
          else { continue }
          if let value = typedLiteral(field.value, for: attribute, path: rowPath) {
            values[attribute.name] = value
          }
        }
        rows.append(StoredRow(entity: entity.name, handle: handle, values: values, links: links))
      }
    }
    let entityOfHandle = Dictionary(
      rows.map { ($0.handle, $0.entity) }, uniquingKeysWith: { a, _ in a })
    for link in pendingLinks {
      for target in link.targets {
        guard let found = entityOfHandle[target] else {
          fail(
            "no row has the id \"\(target)\"",
            fix: nearestName(to: target, in: Array(entityOfHandle.keys)).map {
              "did you mean \"\($0)\"?"
            } ?? "add a \(link.relationship.destination) row with that id",
            at: link.at, path: link.path)
          continue
        }
        if found != link.relationship.destination {
          fail(
            "\(link.entity).\(link.relationship.name) points at \(link.relationship.destination) rows, but \"\(target)\" is a \(found)",
            fix: "name a \(link.relationship.destination) row", at: link.at, path: link.path)
        }
      }
    }
    return rows
  }

  /// The handles a row's relationship names: one for a to-one, a list for a to-many.
  private mutating func rowLinks(_ json: JSONValue, _ relationship: Relationship, path: String)
    -> [String]?
  {
    if relationship.isToMany {
      guard
        let items = list(
          json, path: path, what: "the to-many relationship \"\(relationship.name)\"")
      else { return nil }
      return items.compactMap { string($0, path: path, what: "a row id") }
    }
    if case .null = json.kind { return [] }
    return string(json, path: path, what: "the to-one relationship \"\(relationship.name)\"").map {
      [$0]
    }
  }

  /// A literal checked against an attribute's type.
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

  // MARK: Contexts

  static let contextOptionKeys = [
    "queue", "parent", "mergePolicy", "automaticallyMergesChangesFromParent",
    "shouldDeleteInaccessibleFaults",
  ]

  mutating func decodeContexts(_ json: JSONValue) {
    guard let members = object(json, path: "contexts", what: "\"contexts\"") else { return }
    var parents: [(name: String, parent: String, at: SourceLocation)] = []
    for member in members {
      let path = "contexts.\(member.key)"
      guard let body = object(member.value, path: path, what: "a context's options") else {
        continue
      }
      checkKeys(body, allowed: Self.contextOptionKeys, path: path, what: "a context's options")
      if ["main", "global"].contains(member.key) {
        fail(
          "a context cannot be called \"\(member.key)\"",
          fix:
            "a private context's queue takes its name, and \"\(member.key)\" is a dispatch queue; rename the context",
          at: member.keyLocation, path: path)
      }
      let isViewContext = member.key == "viewContext"
      if isViewContext, let queue = member.value["queue"], queue.string != "main" {
        fail(
          "viewContext is always a main-queue context", fix: "remove \"queue\" here",
          at: queue.location, path: path)
      }
      guard
        let context = contextOptions(
          member.value, name: member.key, requiresQueue: !isViewContext, path: path)
      else { continue }
      if case .context(let parent) = context.parent {
        parents.append((member.key, parent, member.value["parent"]!.location))
      }
      if isViewContext {
        contexts[0] = context
      } else {
        contexts.append(context)
      }
    }
    checkParents(parents)
  }

  /// The options of a context, declared up front or made by a `newContext` step.
  mutating func contextOptions(
    _ json: JSONValue, name: String, requiresQueue: Bool, path: String
  ) -> ContextDescription? {
    var context = ContextDescription(
      name: name, concurrencyType: name == "viewContext" ? .mainQueue : .privateQueue,
      parent: .store, mergePolicy: .error, automaticallyMergesChangesFromParent: false,
      shouldDeleteInaccessibleFaults: true)
    if let queue = json["queue"] {
      guard let type = choice(queue, path: path, what: "\"queue\"", as: ConcurrencyType.self)
      else { return nil }
      context.concurrencyType = type
    } else if requiresQueue {
      fail(
        "the context \"\(name)\" has no \"queue\"",
        fix: "add \"queue\": \"private\" (its own queue) or \"main\"", at: json.location, path: path
      )
    }
    if let parent = json["parent"], let parentName = string(parent, path: path, what: "\"parent\"")
    {
      if parentName == name {
        fail(
          "the context \"\(name)\" cannot be its own parent",
          fix: "name another context, or \"store\"", at: parent.location, path: path)
      } else if parentName != "store" {
        context.parent = .context(parentName)
      }
    }
    if let policy = json["mergePolicy"] {
      context.mergePolicy =
        choice(policy, path: path, what: "the merge policy", as: MergePolicy.self) ?? .error
    }
    if let merges = json["automaticallyMergesChangesFromParent"] {
      context.automaticallyMergesChangesFromParent =
        bool(merges, path: path, what: "\"automaticallyMergesChangesFromParent\"") ?? false
    }
    if let faults = json["shouldDeleteInaccessibleFaults"] {
      context.shouldDeleteInaccessibleFaults =
        bool(faults, path: path, what: "\"shouldDeleteInaccessibleFaults\"") ?? true
    }
    return context
  }

  /// Every declared parent must exist, and following parents must reach the store.
  private mutating func checkParents(
    _ parents: [(name: String, parent: String, at: SourceLocation)]
  ) {
    let names = contexts.map(\.name)
    for (name, parent, location) in parents where !names.contains(parent) {
      let fix =
        nearestName(to: parent, in: names).map { "did you mean \"\($0)\"?" }
        ?? "name a context declared in \"contexts\", or \"store\""
      fail(
        "the parent \"\(parent)\" of \"\(name)\" is not a context", fix: fix, at: location,
        path: "contexts.\(name)")
    }
    var reported: Set<Set<String>> = []
    for (name, _, location) in parents {
      var seen = [name]
      var current = name
      while case .context(let parent)? = contexts.first(where: { $0.name == current })?.parent {
        if seen.contains(parent) {
          guard seen.first == parent, reported.insert(Set(seen)).inserted else { break }
          fail(
            "the parents of \"\(name)\" go round in a cycle: \((seen + [parent]).joined(separator: " → "))",
            fix: "make one of them a child of \"store\"", at: location, path: "contexts.\(name)")
          break
        }
        seen.append(parent)
        current = parent
      }
    }
  }
}
