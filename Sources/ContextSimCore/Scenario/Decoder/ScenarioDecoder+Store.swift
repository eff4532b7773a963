/// Decoding of the rows the store holds at launch.
extension ScenarioDecoder {
  mutating func validateStore(_ raw: Field<[RawStoreRows]>) -> [StoredRow] {
    var rows: [StoredRow] = []
    var handles: Set<String> = []
    var pendingLinks:
      [(
        entity: String, relationship: Relationship, targets: [String], at: SourceLocation,
        path: String
      )] = []
    for declared in read(raw)?.value ?? [] {
      let path = "store.\(declared.entity.value)"
      guard
        let entity = knownEntity(
          declared.entity.value, at: declared.entity.location, path: path)
      else { continue }
      guard let items = read(declared.rows)?.value else { continue }
      for (i, item) in items.enumerated() {
        let rowPath = "\(path)[\(i)]"
        guard let row = read(item)?.value else { continue }
        if row.id.isAbsent {
          fail(
            "a row of \(entity.name) has no \"id\"",
            fix: "add \"id\": a handle such as \"\(entity.name.lowercased())-\(i + 1)\"",
            at: row.location, path: rowPath)
        }
        guard let id = read(row.id) else { continue }
        let handle = id.value
        if !handles.insert(handle).inserted {
          fail(
            "two rows have the id \"\(handle)\"", fix: "give each row its own id",
            at: id.location, path: rowPath)
        }
        var values: [String: Value] = [:]
        var links: [String: [String]] = [:]
        for field in row.values {
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
