/// Unique constraints, checked when a root context saves to the store (semantics §8.5).
extension Simulation {
  /// Objects that share the values of one uniqueness constraint, with the stored row
  /// they collide with, if any: `NSConstraintConflict`.
  struct ConstraintConflict: CustomStringConvertible {
    var entity: String
    var constraint: [String]
    var values: [Value]
    var objects: [ObjectReference]
    var objectIDs: [ObjectID]
    var databaseRow: ObjectID?

    /// As `NSConstraintConflict` describes itself in an error's `conflictList`.
    var description: String {
      "NSConstraintConflict for constraint (\(constraint.joined(separator: ", "))) with values ("
        + values.map(\.plainDescription).joined(separator: ", ") + "): database: "
        + (databaseRow.map { "\($0)" } ?? "(null)") + ", conflictedObjects: ("
        + objectIDs.map(\.description).joined(separator: ", ") + ")"
    }
  }

  mutating func uniquenessConflicts(_ set: SaveSet) -> [ConstraintConflict] {
    guard scenario.entities.contains(where: { !$0.uniquenessConstraints.isEmpty }) else {
      return []
    }
    var conflicts: [ConstraintConflict] = []
    let saving = set.inserted + set.updated
    let leaving = Set((set.deleted + saving).map { graph[$0].id })
    for entity in scenario.entities where !entity.uniquenessConstraints.isEmpty {
      let candidates = saving.filter { graph[$0].entity == entity.name }
      guard !candidates.isEmpty else { continue }
      for constraint in entity.uniquenessConstraints {
        var groups: [(key: [Value], refs: [ObjectReference])] = []
        for ref in candidates {
          let key = constraint.map { graph.idForm(graph[ref].value($0)) }
          guard !key.contains(.null) else { continue }  // NULLs never collide in SQL
          if let i = groups.firstIndex(where: { $0.key == key }) {
            groups[i].refs.append(ref)
          } else {
            groups.append((key, [ref]))
          }
        }
        for group in groups {
          let row = store.ids(of: entity.name).first { id in
            !leaving.contains(id)
              && constraint.indices.allSatisfy {
                store.row(id)?.values[constraint[$0]] == group.key[$0]
              }
          }
          if group.refs.count > 1 || row != nil {
            conflicts.append(
              ConstraintConflict(
                entity: entity.name, constraint: constraint, values: group.key, objects: group.refs,
                objectIDs: group.refs.map { graph[$0].id }, databaseRow: row))
          }
        }
      }
    }
    return conflicts
  }

  /// One winner per conflict. Object trump and overwrite keep the in-memory values (the
  /// upsert Apple recommends); store trump and rollback keep the stored row. Either way
  /// the duplicates in memory fold into the first of them.
  mutating func resolve(
    _ conflict: ConstraintConflict, policy: MergePolicy, set: inout SaveSet,
    writeWhole: inout Set<ObjectReference>
  ) {
    guard let keep = conflict.objects.first else { return }
    let inMemoryWins = policy == .mergeByPropertyObjectTrump || policy == .overwrite
    for duplicate in conflict.objects.dropFirst() {
      if inMemoryWins {
        graph[keep].changes.merge(graph[duplicate].currentValues)
      }
      set.inserted.removeAll { $0 == duplicate }
      set.updated.removeAll { $0 == duplicate }
      graph.unregister(duplicate, because: .foldedIntoDuplicate)
    }
    guard let rowID = conflict.databaseRow, let row = store.row(rowID) else { return }
    let current = graph[keep].currentValues
    set.inserted.removeAll { $0 == keep }
    set.updated.removeAll { $0 == keep }
    graph.reassign(keep, to: rowID)
    graph[keep].isInserted = false
    graph[keep].snapshot = contextForm(
      row.values, entity: conflict.entity, in: graph[keep].context)
    graph[keep].snapshotVersion = row.version
    graph[keep].changes = inMemoryWins ? current : [:]
    if inMemoryWins {
      set.updated.append(keep)
      if policy == .overwrite { writeWhole.insert(keep) }
    }
  }
}
