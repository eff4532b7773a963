import ContextSimCore
import ContextSimReports

extension GradedExercise {
  /// The exercise with its criteria checked against its starting scenario, and each row
  /// handle turned into that row's object ID.
  ///
  /// Every entity, key and value a criterion names must exist in the starting scenario's
  /// model and store, so that a typo in a brief is an error with its place, never a
  /// criterion that no attempt can meet.
  public func validated(against start: Scenario) throws(Diagnostics) -> GradedExercise {
    var errors: [Diagnostic] = []
    var copy = self
    for c in copy.criteria.indices {
      let criterion = copy.criteria[c]
      guard let entity = start.entity(named: criterion.entity) else {
        errors.append(
          error(
            criterion.location, "the starting scenario has no entity \"\(criterion.entity)\"",
            nearestName(to: criterion.entity, in: start.entities.map(\.name)).map {
              "did you mean \"\($0)\"?"
            } ?? "name one of: " + start.entities.map(\.name).joined(separator: ", ")))
        continue
      }
      for k in criterion.conditions.indices {
        let condition = criterion.conditions[k]
        do {
          copy.criteria[c].conditions[k].test = try resolve(condition, of: entity, in: start)
        } catch {
          errors.append(error)
        }
      }
    }
    guard errors.isEmpty else { throw Diagnostics(errors: errors) }
    return copy
  }

  /// The condition's test, checked against the entity's key and with a handle resolved.
  private func resolve(
    _ condition: RowsCriterion.Condition, of entity: Entity, in start: Scenario
  ) throws(Diagnostic) -> RowsCriterion.Condition.Test {
    let key = condition.key
    let at = condition.location
    if let attribute = entity.attribute(named: key) {
      switch condition.test {
      case .count:
        throw error(
          at, "\(key) is an attribute of \(entity.name); .count is for a to-many relationship",
          "compare the attribute itself: \(key) = value")
      case .row(let handle):
        throw error(
          at, "\(handle) is not a \(attribute.type.rawValue) value",
          "write a JSON value such as \"\(handle)\" for a string")
      case .equals(let value):
        guard attribute.type.accepts(value) else {
          let type = attribute.type.rawValue
          let article = "aeiou".contains(type.first ?? "x") ? "an" : "a"
          throw error(
            at, "\(value.swiftDescription) is not \(article) \(type) value",
            "compare \(key) with \(article) \(type)")
        }
        return condition.test
      }
    }
    guard let relationship = entity.relationship(named: key) else {
      let keys = entity.attributes.map(\.name) + entity.relationships.map(\.name)
      throw error(
        at, "\(entity.name) has no attribute or relationship \"\(key)\"",
        nearestName(to: key, in: keys).map { "did you mean \"\($0)\"?" }
          ?? "name one of: " + keys.joined(separator: ", "))
    }
    switch (condition.test, relationship.isToMany) {
    case (.count, true): return condition.test
    case (.count, false):
      throw error(
        at, "\(key) is a to-one relationship; .count is for a to-many one",
        "compare it with a row's handle, or null")
    case (_, true):
      throw error(
        at, "\(key) is a to-many relationship", "compare how many it lists: \(key).count = 2")
    case (.equals(.null), false): return condition.test
    case (.equals(let value), false):
      throw error(
        at,
        "\(key) is a relationship to \(relationship.destination): it holds a row, not "
          + value.swiftDescription,
        "name a \(relationship.destination) row of the starting store by its handle, or null")
    case (.row(let handle), false):
      let rows = start.launchIDs(of: relationship.destination)
      guard let id = rows.first(where: { $0.handle == handle }) else {
        let handles = rows.compactMap(\.handle)
        throw error(
          at, "the starting store has no \(relationship.destination) row \"\(handle)\"",
          nearestName(to: handle, in: handles).map { "did you mean \($0)?" }
            ?? "name a row the scenario's \"store\" gives an \"id\"")
      }
      return .equals(.objectID(id))
    }
  }

  private func error(_ at: SourceLocation, _ message: String, _ fix: String) -> Diagnostic {
    Diagnostic(file: file, location: at, message: message, fix: fix)
  }
}
