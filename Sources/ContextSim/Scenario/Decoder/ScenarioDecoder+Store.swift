/// Decoding of the rows the store holds at launch.
extension ScenarioDecoder {
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
}
