/// What a save checks before it writes anything (semantics §6.6).
extension Simulation {
  /// Missing required values (1570), required to-many relationships left empty (1580),
  /// and deletes a deny rule refuses (1600); several at once are wrapped in 1560.
  mutating func validate(_ set: SaveSet) -> CoreDataError? {
    var failures: [CoreDataError] = []
    func checkRequired(_ ref: ObjectReference) {
      guard scenario.requiresValues(graph[ref].entity),
        let entity = scenario.entity(named: graph[ref].entity)
      else { return }
      let object = graph[ref]
      for attribute in entity.attributes
      where !attribute.isOptional && object.value(attribute.name) == .null {
        failures.append(
          CoreDataError(code: 1570, message: "\(attribute.name) is a required value."))
      }
      for relationship in entity.relationships where !relationship.isOptional {
        if members(object.value(relationship.name)).isEmpty {
          failures.append(
            relationship.isToMany
              ? CoreDataError(code: 1580, message: "\(relationship.name) has too few items.")
              : CoreDataError(code: 1570, message: "\(relationship.name) is a required value."))
        }
      }
    }
    set.inserted.forEach(checkRequired)
    set.updated.forEach(checkRequired)
    for ref in set.deleted {
      let object = graph[ref]
      for relationship in scenario.entity(named: object.entity)?.relationships ?? []
      where relationship.deleteRule == .deny
        && members(object.value(relationship.name)).contains(where: { !graph[$0].isDeleted }
        )
      {
        failures.append(
          CoreDataError(
            code: 1600,
            message:
              "\(object.id) cannot be deleted: its \(relationship.name) relationship is not empty and denies it."
          ))
      }
    }
    switch failures.count {
    case 0: return nil
    case 1: return failures[0]
    default:
      return CoreDataError(
        code: 1560, message: "Multiple validation errors occurred.",
        details: failures.map { "\($0.code): \($0.message)" })
    }
  }
}
