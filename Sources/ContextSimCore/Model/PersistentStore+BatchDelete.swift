/// `NSBatchDeleteRequest` in the store: rows deleted as SQL, with the delete rules applied
/// by triggers, and no object loaded (part 2 §6.1).
///
/// Core Data runs a batch delete under temporary `AFTER DELETE` triggers it builds from the
/// model (`-[NSSQLiteAdapter generateTriggerForEntity:…]` in the CoreData of iOS 18):
///
/// - cascade deletes the destination rows (a many-to-many drops only its join rows);
/// - nullify sets the foreign keys that point at a deleted row to NULL and moves those rows'
///   versions on (`Z_OPT + 1`); a to-one whose inverse is to-many moves the destination's
///   version on;
/// - nullify with a mandatory inverse raises `Batch delete failed due to mandatory OTO
///   nullify inverse on Entity/relationship` when a row that stays would lose it, and the
///   whole request fails;
/// - any other rule, deny included, fails the request before anything is deleted: "Delete
///   rule is not supported for batch deletes" (Cocoa error 134060).
extension PersistentStore {
  /// What a batch delete did: the rows asked for and the rows cascade reached, or the error
  /// that stopped it before anything was deleted.
  enum BatchDeletion {
    case deleted([ObjectID], cascaded: [ObjectID])
    case refused(CoreDataError)
  }

  /// Deletes the rows, and what their delete rules reach, or nothing when a rule refuses.
  mutating func batchDelete(_ requested: [ObjectID]) -> BatchDeletion {
    let ids = requested.filter { row($0) != nil }
    if let refusal = denyRule(reachedFrom: Set(ids.map(\.entity))) { return .refused(refusal) }
    var doomed = ids
    var index = 0
    while index < doomed.count {
      let id = doomed[index]
      index += 1
      for relationship in entities.relationships(of: id.entity)
      where relationship.deleteRule == .cascade && !isJoinTable(relationship) {
        for target in destinations(of: id, relationship) where !doomed.contains(target) {
          doomed.append(target)
        }
      }
    }
    let gone = Set(doomed)
    for id in doomed {
      if let failure = mandatoryInverse(of: id, deleting: gone) { return .refused(failure) }
    }
    for id in doomed { nullify(pointersAt: id, deleting: gone) }
    for id in doomed { delete(id) }
    return .deleted(ids, cascaded: Array(doomed.dropFirst(ids.count)))
  }

  /// The 134060 a deny rule gives, looked for in the entities deleted and those cascade
  /// reaches, as the triggers are built for each of them.
  private func denyRule(reachedFrom start: Set<String>) -> CoreDataError? {
    var entities = Array(start).sorted()
    var index = 0
    while index < entities.count {
      let name = entities[index]
      index += 1
      for relationship in self.entities.relationships(of: name) {
        switch relationship.deleteRule {
        case .deny:
          return CoreDataError(
            code: 134_060, message: "A Core Data error occurred.",
            details: [
              "Reason: Delete rule is not supported for batch deletes",
              "Relationship: \(name).\(relationship.name)",
            ])
        case .cascade where !entities.contains(relationship.destination):
          entities.append(relationship.destination)
        default:
          break
        }
      }
    }
    return nil
  }

  /// The trigger's `RAISE(FAIL, …)`: a nullify whose inverse is mandatory, where a row
  /// that stays would be left without its required relationship.
  private func mandatoryInverse(of id: ObjectID, deleting gone: Set<ObjectID>) -> CoreDataError? {
    for relationship in entities.relationships(of: id.entity)
    where relationship.deleteRule == .nullify {
      guard let inverse = self.inverse(of: relationship), !inverse.isOptional else { continue }
      let survivors = destinations(of: id, relationship).filter { !gone.contains($0) }
      let kind: String
      if !relationship.isToMany {
        guard !survivors.isEmpty else { continue }
        kind = "mandatory OTO"
      } else if !isJoinTable(relationship) {
        guard !survivors.isEmpty else { continue }
        // Core Data's own spelling, kept so the message matches a crash log.
        kind = "manadatory OTM"
      } else {
        let stranded = survivors.contains { other in
          destinations(of: other, inverse).allSatisfy { gone.contains($0) }
        }
        guard stranded else { continue }
        kind = "mandatory MTM"
      }
      return CoreDataError(
        code: 134_050,
        message: "Constraint trigger violation: Batch delete failed due to \(kind) nullify "
          + "inverse on \(id.entity)/\(relationship.name)")
    }
    return nil
  }

  /// Clears the foreign keys that point at a row about to go, in rows that stay, and moves
  /// their versions on, as the nullify (and cascade) triggers do.
  private mutating func nullify(pointersAt id: ObjectID, deleting gone: Set<ObjectID>) {
    for relationship in entities.relationships(of: id.entity) {
      guard let inverse = self.inverse(of: relationship), !isJoinTable(relationship) else {
        continue
      }
      for other in destinations(of: id, relationship) where !gone.contains(other) {
        if inverse.isToMany {
          // The destination's to-many loses a member: only its version moves.
          replace(other, values: [:])
        } else if row(other)?.values[inverse.name] == .objectID(id) {
          replace(other, values: [inverse.name: .null])
        }
      }
    }
  }

  /// The rows a relationship of a row points at, as its row shows them.
  private func destinations(of id: ObjectID, _ relationship: Relationship) -> [ObjectID] {
    guard let value = row(id)?.values[relationship.name] else { return [] }
    let items = value.listItems ?? [value]
    return items.compactMap { if case .objectID(let target) = $0 { target } else { nil } }
  }

  private func inverse(of relationship: Relationship) -> Relationship? {
    relationship.inverse.flatMap { entities.relationship($0, ofEntity: relationship.destination) }
  }

  /// A to-many kept as a list of IDs, as SQLite keeps a many-to-many in a join table.
  private func isJoinTable(_ relationship: Relationship) -> Bool {
    relationship.isToMany && isStored(relationship)
  }
}
