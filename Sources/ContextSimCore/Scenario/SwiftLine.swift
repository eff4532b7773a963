extension Step {
  /// The line of Swift this step stands for, as lessons and backtraces show it: the app's
  /// own (`"swift"`) if the scenario gives it, else the verb's.
  ///
  ///     {"fetch": "Note", "in": "background", "first": true, "as": "note"}
  ///     // let note = try background.fetch(Note.fetchRequest()).first
  public var swift: String {
    if let source { return source }
    guard let condition else { return statement }
    return "if \(condition.swiftTest) { \(statement) }"
  }
}

/// Pieces of Swift that several verb families spell alike.
enum SwiftSource {
  /// `let note = `, or `_ = ` when the result is not bound, as Swift discards a value.
  static func assign(_ bind: String?) -> String {
    bind.map { "let \($0) = " } ?? "_ = "
  }

  /// The request a fetch or count passes, and the statements that make it first.
  ///
  ///     ("", "Note.fetchRequest()")   // nothing to configure
  ///     ("let request = NSFetchRequest<Note>(entityName: \"Note\"); request.fetchLimit = 2; ",
  ///      "request")
  static func request(_ request: FetchRequest, of entity: Entity) -> (
    setup: String, argument: String
  ) {
    let name = request.entity
    var lines: [String] = []
    if !request.predicate.matchesEverything {
      lines.append("request.predicate = \(predicate(request.predicate, of: entity))")
    }
    if !request.sortDescriptors.isEmpty {
      let descriptors = request.sortDescriptors.map {
        "NSSortDescriptor(key: \"\($0.key)\", ascending: \($0.ascending))"
      }
      lines.append("request.sortDescriptors = [\(descriptors.joined(separator: ", "))]")
    }
    if let limit = request.fetchLimit { lines.append("request.fetchLimit = \(limit)") }
    guard !lines.isEmpty else { return ("", "\(name).fetchRequest()") }
    let make = "let request = NSFetchRequest<\(name)>(entityName: \"\(name)\")"
    return (([make] + lines).joined(separator: "; ") + "; ", "request")
  }

  /// `NSPredicate(format: "title != %@ AND rank < %d", "x", 3)`: literal nil and booleans
  /// are written into the format, everything else is an argument of its type's specifier.
  static func predicate(_ predicate: Predicate<Expression>, of entity: Entity) -> String {
    var arguments: [String] = []
    let format = self.format(predicate, of: entity, nested: false, arguments: &arguments)
    return "NSPredicate(format: \"\(format)\"" + arguments.map { ", " + $0 }.joined() + ")"
  }

  private static func format(
    _ predicate: Predicate<Expression>, of entity: Entity, nested: Bool,
    arguments: inout [String]
  ) -> String {
    func joined(_ parts: [Predicate<Expression>], _ word: String) -> String {
      let text = parts.map { format($0, of: entity, nested: true, arguments: &arguments) }
        .joined(separator: " \(word) ")
      return nested && parts.count > 1 ? "(\(text))" : text
    }
    switch predicate {
    case .comparison(let key, let op, let operand):
      switch operand {
      case .literal(.null): return "\(key) \(op.rawValue) nil"
      case .literal(.bool(let b)) where op != .in:
        return "\(key) \(op.rawValue) \(b ? "YES" : "NO")"
      default:
        let (specifier, argument) = self.argument(operand, op, entity.attribute(named: key)?.type)
        arguments.append(argument)
        return "\(key) \(op.rawValue) \(specifier)"
      }
    case .and(let parts): return joined(parts, "AND")
    case .or(let parts): return joined(parts, "OR")
    case .not(let part):
      return "NOT (\(format(part, of: entity, nested: false, arguments: &arguments)))"
    }
  }

  /// The format specifier and the Swift argument for one operand: `%d` for an integer,
  /// `%f` for a double, an `NSNumber` for a boolean, `%@` for objects, strings and lists.
  private static func argument(
    _ operand: Expression, _ op: ComparisonOperator, _ type: AttributeType?
  ) -> (String, String) {
    guard op != .in else { return ("%@", operand.swift) }
    switch (type, operand) {
    case (.integer?, _): return ("%d", operand.swift)
    case (.double?, .literal(.integer(let n))): return ("%f", String(Double(n)))
    case (.double?, _): return ("%f", operand.swift)
    case (.boolean?, _): return ("%@", "NSNumber(value: \(operand.swift))")
    default: return ("%@", operand.swift)
    }
  }
}

extension TryMode {
  /// `try`, `try?` or `try!`.
  public var keyword: String {
    switch self {
    case .do: "try"
    case .optional: "try?"
    case .force: "try!"
    }
  }
}

extension Expression {
  /// The expression as Swift source: a literal, or the variable's name.
  public var swift: String {
    switch self {
    case .literal(let value): value.swiftDescription
    case .variable(let name): name
    case .list(let items): "[" + items.map(\.swift).joined(separator: ", ") + "]"
    }
  }
}

extension Condition {
  /// The test as Swift writes it: `data != nil`, joined by `&&` with those it needs too.
  public var swiftTest: String {
    all.map { "\($0.variable) \($0.negated ? "!=" : "==") \($0.value.swiftDescription)" }
      .joined(separator: " && ")
  }
}
