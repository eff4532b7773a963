/// The meaning checks of a fetch request: `"where"`, `"sortBy"` and `"limit"`.
///
/// `"where"` keeps format v1's meaning, an AND of equalities, `{"title": "x", "album":
/// "$album"}`. ctxsim adds an operator object in place of a value, `{"rank": {"<": 3}}`, and
/// the joining keys `"AND"`, `"OR"` and `"NOT"`, written in capitals as `NSPredicate` writes
/// them. Neither can be mistaken for a v1 value: v1 refuses an object as a value, and Core
/// Data names properties with a lowercase first letter (a property that is called `OR` all
/// the same keeps its v1 meaning).
extension ScenarioDecoder {
  /// `"where"`: every member must hold, as v1 says.
  ///
  ///     {"title": {"!=": "x"}, "OR": [{"rank": {"<": 3}}, {"rank": null}]}
  ///     // title != "x" and (rank < 3 or rank == nil)
  mutating func predicate(
    _ json: JSONValue, entity: Entity, path: String, scope: StepScope,
    what: String = "\"where\""
  ) -> Predicate<Expression> {
    guard let members = object(json, path: path, what: what) else { return .all }
    var parts: [Predicate<Expression>] = []
    for member in members {
      parts += conditions(member, entity: entity, path: path, scope: scope)
    }
    return Self.joined(parts, and: true)
  }

  /// One member of a `"where"` object: a property's conditions, or `AND`, `OR`, `NOT`.
  private mutating func conditions(
    _ member: JSONValue.Member, entity: Entity, path: String, scope: StepScope
  ) -> [Predicate<Expression>] {
    let key = member.key
    let json = member.value
    guard entity.attribute(named: key) != nil || entity.relationship(named: key) != nil else {
      switch key {
      case "AND", "OR":
        guard let items = list(json, path: path, what: "\"\(key)\"") else { return [] }
        guard !items.isEmpty else {
          fail(
            "\"\(key)\" needs at least one condition",
            fix: "write \"\(key)\": [{\"title\": \"a\"}, {\"title\": \"b\"}]",
            at: json.location, path: path)
          return []
        }
        let parts = items.map {
          condition($0, in: key, entity: entity, path: path, scope: scope)
        }
        return [Self.joined(parts, and: key == "AND")]
      case "NOT":
        return [.not(condition(json, in: key, entity: entity, path: path, scope: scope))]
      default:
        notAProperty(member, of: entity, path: path)
        return []
      }
    }
    if let operators = json.members {
      return comparisons(
        operators, key: key, at: json.location, entity: entity, path: path, scope: scope)
    }
    // Format v1: equality with a literal, a `$variable`, or an object for a relationship.
    if let relationship = entity.relationship(named: key) {
      return relationshipValue(json, relationship, path: path, scope: scope).map {
        [.comparison(key: key, .equal, $0)]
      } ?? []
    }
    return expression(json, path: path, scope: scope, attribute: entity.attribute(named: key)).map {
      [.comparison(key: key, .equal, $0)]
    } ?? []
  }

  /// One condition that `AND`, `OR` or `NOT` joins: a `"where"` object of its own, not empty.
  private mutating func condition(
    _ json: JSONValue, in key: String, entity: Entity, path: String, scope: StepScope
  ) -> Predicate<Expression> {
    if json.members?.isEmpty == true {
      fail(
        "an empty condition in \"\(key)\" matches every object",
        fix: "write a condition such as {\"title\": \"x\"}", at: json.location, path: path)
    }
    let what = key == "NOT" ? "\"NOT\"" : "a condition in \"\(key)\""
    return predicate(json, entity: entity, path: path, scope: scope, what: what)
  }

  /// A key of `"where"` that names no property: an operator out of place, a joining word in
  /// the wrong case, or a typo.
  private mutating func notAProperty(_ member: JSONValue.Member, of entity: Entity, path: String) {
    let key = member.key
    if ComparisonOperator(rawValue: key.uppercased()) != nil {
      fail(
        "\"\(key)\" compares a key with a value, so it goes inside the key's object",
        fix: "write {\"rank\": {\"\(key)\": 3}}", at: member.keyLocation, path: path)
    } else if ["AND", "OR", "NOT"].contains(key.uppercased()) {
      fail(
        "\(entity.name) has no attribute or relationship \"\(key)\"",
        fix: "to join conditions, write \"\(key.uppercased())\" in capitals, as NSPredicate does",
        at: member.keyLocation, path: path)
    } else {
      _ = knownAttribute(key, of: entity, at: member.keyLocation, path: path)
    }
  }

  /// `{"<": 3, "!=": null}` for one property: each operator compares it with its operand.
  private mutating func comparisons(
    _ operators: [JSONValue.Member], key: String, at location: SourceLocation, entity: Entity,
    path: String, scope: StepScope
  ) -> [Predicate<Expression>] {
    if operators.isEmpty {
      fail(
        "the object for \"\(key)\" in \"where\" has no operator",
        fix: "write {\"!=\": value}, or the value alone for ==", at: location, path: path)
    }
    if let relationship = entity.relationship(named: key), relationship.isToMany {
      fail(
        "\"\(key)\" is a to-many relationship; comparing it needs ANY or ALL, which ctxsim does not model",
        fix: "compare an attribute or a to-one relationship", at: location, path: path)
      return []
    }
    var result: [Predicate<Expression>] = []
    for member in operators {
      guard let op = ComparisonOperator(rawValue: member.key) else {
        fail(
          "unknown operator \"\(member.key)\" in \"where\"",
          fix: ShapeCheck.suggestion(member.key, ComparisonOperator.allCases.map(\.rawValue)),
          at: member.keyLocation, path: path)
        continue
      }
      if let operand = operand(member.value, op, key: key, entity: entity, path: path, scope: scope)
      {
        result.append(.comparison(key: key, op, operand))
      }
    }
    return result
  }

  /// What one operator compares a property with, checked against the property's type.
  private mutating func operand(
    _ json: JSONValue, _ op: ComparisonOperator, key: String, entity: Entity, path: String,
    scope: StepScope
  ) -> Expression? {
    let relationship = entity.relationship(named: key)
    if relationship != nil, op.isOrdering {
      fail(
        "\"\(op.rawValue)\" orders values, but the relationship \"\(key)\" holds an object",
        fix: "compare it with \"==\", \"!=\" or \"IN\"", at: json.location, path: path)
      return nil
    }
    if Self.isVariable(json) {
      return expression(json, path: path, scope: scope, attribute: nil)
    }
    if let relationship {
      guard op == .in else {
        return relationshipValue(json, relationship, path: path, scope: scope)
      }
      guard let items = json.elements, items.allSatisfy(Self.isVariable)
      else {
        fail(
          "\"IN\" on the relationship \"\(key)\" takes a list of objects",
          fix: "write [\"$album\", …], or a $variable holding a list", at: json.location,
          path: path)
        return nil
      }
      return expression(json, path: path, scope: scope, attribute: nil)
    }
    guard let attribute = entity.attribute(named: key) else { return nil }
    if op == .in {
      guard let items = json.elements else {
        fail(
          "\"IN\" takes a list of values, and matches when \"\(key)\" is any of them",
          fix: "write {\"IN\": [\"a\", \"b\"]}, or a $variable holding a list",
          at: json.location, path: path)
        return nil
      }
      var list: [Expression] = []
      for item in items {
        let element =
          Self.isVariable(item)
          ? expression(item, path: path, scope: scope, attribute: nil)
          : typedLiteral(item, for: attribute, path: path).map { .literal($0) }
        guard let element else { return nil }
        list.append(element)
      }
      return .list(list)
    }
    if json.elements != nil {
      fail(
        "\"\(op.rawValue)\" compares \"\(key)\" with one value, not a list",
        fix: "to match any of several values, write {\"IN\": [ … ]}", at: json.location,
        path: path)
      return nil
    }
    if op.isOrdering, case .null = json.kind {
      fail(
        "\"\(op.rawValue)\" with null never matches: NSPredicate finds no order against nil",
        fix: "test for nil with {\"==\": null} or {\"!=\": null}", at: json.location, path: path)
      return nil
    }
    return typedLiteral(json, for: attribute, path: path).map { .literal($0) }
  }

  /// Whether a value names a variable: `"$album"`.
  private static func isVariable(_ json: JSONValue) -> Bool {
    guard let text = json.string else { return false }
    return text.hasPrefix("$") && text.count > 1
  }

  /// Parts joined by AND or OR, a part that joins the same way spliced in; one part alone.
  private static func joined(_ parts: [Predicate<Expression>], and: Bool)
    -> Predicate<Expression>
  {
    var flat: [Predicate<Expression>] = []
    for part in parts {
      switch (part, and) {
      case (.and(let inner), true), (.or(let inner), false): flat += inner
      default: flat.append(part)
      }
    }
    if flat.count == 1 { return flat[0] }
    return and ? .and(flat) : .or(flat)
  }

  // MARK: Order and limit

  /// `"sortBy": [{"key": "date", "ascending": false}, …]`: attributes to order by, the
  /// first deciding; `ascending` defaults to true, as in `NSSortDescriptor(key:ascending:)`.
  mutating func sortDescriptors(_ json: JSONValue, entity: Entity, path: String)
    -> [SortDescriptor]
  {
    guard let items = list(json, path: path, what: "\"sortBy\"") else { return [] }
    var result: [SortDescriptor] = []
    for item in items {
      guard let members = object(item, path: path, what: "a sort descriptor in \"sortBy\"") else {
        continue
      }
      checkKeys(members, allowed: ["key", "ascending"], path: path, what: "a sort descriptor")
      guard let keyJSON = item["key"] else {
        fail(
          "a sort descriptor needs \"key\": the attribute to sort by",
          fix: "write {\"key\": \"date\", \"ascending\": false}", at: item.location, path: path)
        continue
      }
      guard let key = locatedString(keyJSON, path: path, what: "\"key\"") else { continue }
      if entity.relationship(named: key.value) != nil {
        fail(
          "\"\(key.value)\" is a relationship; a sort descriptor orders by an attribute",
          fix: "sort by an attribute of \(entity.name)", at: key.location, path: path)
        continue
      }
      guard knownAttribute(key.value, of: entity, at: key.location, path: path) != nil else {
        continue
      }
      let ascending = item["ascending"].map { bool($0, path: path, what: "\"ascending\"") }
      result.append(SortDescriptor(key: key.value, ascending: (ascending ?? true) ?? true))
    }
    return result
  }

  /// `"limit": N`, N from 1: `fetchLimit`.
  mutating func fetchLimit(_ json: JSONValue, path: String) -> Int? {
    guard case .integer(let n) = json.kind, n >= 1 else {
      fail(
        "\"limit\" takes a whole number from 1",
        fix: "write \"limit\": 2, say; leave it out for no limit", at: json.location, path: path)
      return nil
    }
    return n
  }
}
