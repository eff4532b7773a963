/// The persistent store behind the coordinator: rows with permanent IDs and versions.
///
/// A row holds its attributes and its to-one relationships as object IDs. A to-many
/// relationship with a to-one inverse is not stored: it is the rows whose inverse points
/// here, as SQLite's foreign keys make it. Other to-many relationships (many-to-many, or
/// without an inverse) keep a list of IDs, as a join table would. Rows keep the order they
/// were written in, which is the order fetches return them.
struct PersistentStore: Sendable {
  struct Row: Sendable {
    var id: ObjectID
    var values: NamedValues
    /// `Z_OPT`: goes up by one on every save that writes an attribute or to-one.
    var version: Int
  }

  let entities: [Entity]
  private(set) var rows: [Row] = []
  private(set) var nextPrimaryKey = SmallDictionary<NamedNumber>()
  /// Where each row is in `rows`, and each entity's rows in order: lookups without scans.
  private var positions = SmallDictionary<RowPosition>()
  private var idsByEntity = SmallDictionary<EntityRows>()
  /// The transactions persistent history tracking recorded, oldest first; empty with it off.
  var history: [HistoryTransaction] = []

  /// Opens the store with the scenario's rows; attributes a row leaves out hold the
  /// model's default, and each relationship's inverse side is filled in.
  init(rows stored: [StoredRow], entities: [Entity]) {
    self.entities = entities
    var ids: [String: ObjectID] = [:]
    for row in stored {
      let id = ObjectID(
        entity: row.entity, kind: .permanent(takePrimaryKey(row.entity)), handle: row.handle)
      ids[row.handle] = id
      let values = (entity(row.entity)?.initialValues ?? [:]).merging(NamedValues(row.values))
      append(Row(id: id, values: values, version: 1))
    }
    for row in stored {
      for (name, handles) in row.links {
        guard let relationship = entities.relationship(name, ofEntity: row.entity) else { continue }
        for handle in handles {
          guard let source = ids[row.handle], let target = ids[handle] else { continue }
          link(source, relationship, target)
        }
      }
    }
  }

  func entity(_ name: String) -> Entity? {
    entities.first { $0.name == name }
  }

  /// Records one link of a relationship in the rows, on whichever side stores it.
  private mutating func link(_ source: ObjectID, _ relationship: Relationship, _ target: ObjectID) {
    if isStored(relationship) { append(target, to: relationship.name, of: source) }
    guard let inverseName = relationship.inverse,
      let inverse = entities.relationship(inverseName, ofEntity: relationship.destination),
      isStored(inverse)
    else { return }
    append(source, to: inverseName, of: target)
  }

  private mutating func append(_ target: ObjectID, to key: String, of source: ObjectID) {
    guard let i = index(source),
      let relationship = entities.relationship(key, ofEntity: source.entity)
    else { return }
    if relationship.isToMany {
      var list = rows[i].values[key]?.listItems ?? []
      if !list.contains(.objectID(target)) { list.append(.objectID(target)) }
      rows[i].values[key] = .list(list)
    } else {
      rows[i].values[key] = .objectID(target)
    }
  }

  /// Whether a relationship's value lives in its own rows, or is derived from the inverse.
  func isStored(_ relationship: Relationship) -> Bool {
    guard relationship.isToMany else { return true }
    guard let inverseName = relationship.inverse,
      let inverse = entities.relationship(inverseName, ofEntity: relationship.destination)
    else { return true }
    return inverse.isToMany
  }

  /// Allocates the next `Z_PK` for an entity.
  mutating func takePrimaryKey(_ entity: String) -> Int {
    let key = nextPrimaryKey[entity, default: 1]
    nextPrimaryKey[entity] = key + 1
    return key
  }

  private func index(_ id: ObjectID) -> Int? {
    positions[id]
  }

  private mutating func append(_ row: Row) {
    positions[row.id] = rows.count
    idsByEntity[row.id.entity, default: []].append(row.id)
    rows.append(row)
  }

  /// A row's values, with derived to-many relationships filled in, and its version.
  func row(_ id: ObjectID) -> Row? {
    guard let i = index(id) else { return nil }
    var row = rows[i]
    for relationship in entities.relationships(of: id.entity) where !isStored(relationship) {
      let inverse = relationship.inverse!
      var members: [Value] = []
      for other in ids(of: relationship.destination)
      where rows[positions[other]!].values[inverse] == .objectID(id) {
        members.append(.objectID(other))
      }
      row.values[relationship.name] = .list(members)
    }
    return row
  }

  /// A row's version alone, or nil when there is no such row: what a save checks and
  /// records, without the copy and the derived lists ``row(_:)`` makes.
  func version(of id: ObjectID) -> Int? {
    index(id).map { rows[$0].version }
  }

  func ids(of entity: String) -> [ObjectID] {
    idsByEntity[entity] ?? []
  }

  /// Writes a new row under a permanent ID.
  mutating func insert(_ id: ObjectID, values: NamedValues) {
    append(Row(id: id, values: storedPart(of: values, entity: id.entity), version: 1))
  }

  /// Writes changed values; stored to-many lists take the additions and removals only, so
  /// two contexts adding to one list both keep theirs.
  mutating func update(
    _ id: ObjectID, values: NamedValues, previous: NamedValues, bumpVersion: Bool
  ) {
    guard let i = index(id) else { return }
    for (key, value) in storedPart(of: values, entity: id.entity) {
      if let relationship = entities.relationship(key, ofEntity: id.entity), relationship.isToMany {
        let old = previous[key]?.listItems ?? []
        let new = value.listItems ?? []
        var list = rows[i].values[key]?.listItems ?? []
        list.removeAll { item in old.contains(item) && !new.contains(item) }
        for item in new where !list.contains(item) { list.append(item) }
        rows[i].values[key] = .list(list)
      } else {
        rows[i].values[key] = value
      }
    }
    if bumpVersion { rows[i].version += 1 }
  }

  /// Replaces a row's values wholesale, as a batch update or an overwrite does.
  mutating func replace(_ id: ObjectID, values: NamedValues) {
    guard let i = index(id) else { return }
    rows[i].values.merge(storedPart(of: values, entity: id.entity))
    rows[i].version += 1
  }

  /// Deletes a row, and takes its ID out of the stored lists that named it.
  mutating func delete(_ id: ObjectID) {
    rows.removeAll { $0.id == id }
    idsByEntity[id.entity]?.removeAll { $0 == id }
    positions = [:]
    for (i, row) in rows.enumerated() { positions[row.id] = i }
    for i in rows.indices {
      for (key, value) in rows[i].values {
        if let items = value.listItems, items.contains(.objectID(id)) {
          rows[i].values[key] = .list(items.filter { $0 != .objectID(id) })
        }
      }
    }
  }

  /// Values without the derived to-many relationships, which rows do not hold.
  private func storedPart(of values: NamedValues, entity name: String) -> NamedValues {
    let relationships = entities.relationships(of: name)
    guard !relationships.isEmpty else { return values }
    return values.filter { key, _ in
      relationships.first { $0.name == key }.map(isStored) ?? true
    }
  }
}

extension Value {
  /// The items of a list, or nil for any other value.
  package var listItems: [Value]? {
    if case .list(let items) = self { items } else { nil }
  }
}

/// A row's ID and where the row is in ``PersistentStore/rows``.
private struct RowPosition: SmallDictionaryEntry {
  let key: ObjectID
  var value: Int
}

/// An entity's name and its rows' IDs, in the order they were written.
private struct EntityRows: SmallDictionaryEntry {
  let key: String
  var value: [ObjectID]
}
