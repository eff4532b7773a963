/// The persistent store behind the coordinator: rows with permanent IDs and versions.
///
/// Rows keep the order they were written in, which is the order fetches return them;
/// a real SQLite store without sort descriptors also tends to return primary-key order.
struct PersistentStore {
  struct Row {
    var id: ObjectID
    var values: [String: Value]
    /// `Z_OPT`: goes up by one on every save that writes the row.
    var version: Int
  }

  private(set) var rows: [Row] = []
  private var nextPrimaryKey: [String: Int] = [:]

  /// Opens the store with the scenario's rows; attributes a row leaves out hold the
  /// model's default, as they would had the app saved the row.
  init(rows stored: [StoredRow], entities: [Entity]) {
    for row in stored {
      let id = ObjectID(
        entity: row.entity, kind: .permanent(takePrimaryKey(row.entity)), handle: row.handle)
      let entity = entities.first { $0.name == row.entity }
      let values = (entity?.defaultValues ?? [:]).merging(row.values) { _, given in given }
      rows.append(Row(id: id, values: values, version: 1))
    }
  }

  /// Allocates the next `Z_PK` for an entity.
  mutating func takePrimaryKey(_ entity: String) -> Int {
    let key = nextPrimaryKey[entity, default: 1]
    nextPrimaryKey[entity] = key + 1
    return key
  }

  func row(_ id: ObjectID) -> Row? {
    rows.first { $0.id == id }
  }

  func rows(of entity: String) -> [Row] {
    rows.filter { $0.id.entity == entity }
  }

  /// Writes a new row and returns its permanent ID.
  mutating func insert(entity: String, values: [String: Value]) -> ObjectID {
    let id = ObjectID(entity: entity, kind: .permanent(takePrimaryKey(entity)))
    rows.append(Row(id: id, values: values, version: 1))
    return id
  }

  mutating func update(_ id: ObjectID, values: [String: Value]) {
    guard let i = rows.firstIndex(where: { $0.id == id }) else { return }
    rows[i].values.merge(values) { _, new in new }
    rows[i].version += 1
  }
}
