/// Relationships kept in step on both sides, and deletion with its delete rules.
extension Simulation {
  func relationship(_ key: String, of ref: ObjectReference) -> Relationship? {
    scenario.entities.relationship(key, ofEntity: graph[ref].entity)
  }

  /// The objects a relationship value names: one, several, or none.
  func members(_ value: Value) -> [ObjectReference] {
    switch value {
    case .object(let ref): [ref]
    case .list(let items): items.flatMap { members($0) }
    default: []
    }
  }

  /// Sets a relationship and keeps its inverse in step, as Core Data does on assignment.
  ///
  /// Every destination must live in the source's context: otherwise Core Data raises
  /// `NSInvalidArgumentException` at the assignment, not at save (semantics §5.1). An
  /// object with no context, such as one its context's `reset()` forgot, is no valid
  /// destination or source either (semantics §5.2, semantics-2 §5.2).
  ///
  /// - Returns: false when the assignment raised the exception and did not happen.
  @discardableResult
  mutating func relate(_ source: ObjectReference, _ relationship: Relationship, to value: Value)
    -> Bool
  {
    guard fireFault(source) else { return false }
    let context = graph[source].hasContext ? graph[source].context : nil
    for target in members(value)
    where !graph[target].hasContext || graph[target].context != context {
      report(
        .uncaughtException(
          .crossContextRelationship,
          Exception(
            name: "NSInvalidArgumentException",
            reason: "Illegal attempt to establish a relationship '\(relationship.name)' between "
              + "objects in different contexts (source = \(objectDescription(source)), "
              + "destination = \(objectDescription(target)))")))
      return false
    }
    let old = members(graph[source].value(relationship.name))
    let new = members(value)
    let stored: Value =
      relationship.isToMany
      ? .list(new.map { .object($0) }) : new.first.map { .object($0) } ?? .null
    setValue(stored, for: relationship.name, of: source)
    guard let inverse = relationship.inverse else { return true }
    for target in old where !new.contains(target) {
      removeFromInverse(target, inverse, source)
    }
    for target in new where !old.contains(target) {
      addToInverse(target, inverse, source, from: relationship)
    }
    return true
  }

  /// Records a changed value, firing the object's fault first so the change has a base.
  mutating func setValue(_ value: Value, for key: String, of ref: ObjectReference) {
    fireFault(ref)
    graph[ref].changes[key] = value
    noteChange(.updated, of: ref)
  }

  private mutating func removeFromInverse(
    _ target: ObjectReference, _ inverse: String, _ source: ObjectReference
  ) {
    guard let relationship = relationship(inverse, of: target) else { return }
    fireFault(target)
    let current = members(graph[target].value(inverse))
    guard current.contains(source) else { return }
    let remaining = current.filter { $0 != source }
    setValue(
      relationship.isToMany ? .list(remaining.map { .object($0) }) : .null, for: inverse, of: target
    )
  }

  /// Adds the source to the target's side; a target moving from another source to this
  /// one leaves that other source's list, as a foreign key can point at one row only.
  private mutating func addToInverse(
    _ target: ObjectReference, _ inverse: String, _ source: ObjectReference,
    from relationship: Relationship
  ) {
    guard let inverseRelationship = self.relationship(inverse, of: target) else { return }
    fireFault(target)
    if inverseRelationship.isToMany {
      let current = members(graph[target].value(inverse))
      setValue(.list((current + [source]).map { .object($0) }), for: inverse, of: target)
    } else {
      if case .object(let previous) = graph[target].value(inverse), previous != source {
        removeFromInverse(previous, relationship.name, target)
      }
      setValue(.object(source), for: inverse, of: target)
    }
  }

  // MARK: Deleting

  /// `context.delete(object)`: marks the object deleted and applies each relationship's
  /// delete rule now: nullify takes it out of the other side, cascade deletes what it
  /// points at, deny leaves it for the save to refuse (semantics §5, §8.6).
  mutating func delete(_ ref: ObjectReference) -> [ObjectID] {
    guard !graph[ref].isDeleted, fireFault(ref) else { return [] }
    graph[ref].isDeleted = true
    noteChange(.deleted, of: ref)
    var cascaded: [ObjectID] = []
    for relationship in scenario.entity(named: graph[ref].entity)?.relationships ?? [] {
      let targets = members(graph[ref].value(relationship.name))
      switch relationship.deleteRule {
      case .nullify, .cascade:
        if let inverse = relationship.inverse {
          for target in targets { removeFromInverse(target, inverse, ref) }
        }
        if relationship.deleteRule == .cascade {
          for target in targets where !graph[target].isDeleted {
            cascaded.append(graph[target].id)
            cascaded += delete(target)
          }
        }
      case .deny:
        break
      }
    }
    return cascaded
  }
}
