extension Step {
  /// The line of Swift this step stands for, as lessons and backtraces show it.
  ///
  ///     {"fetch": "Note", "in": "background", "first": true, "as": "note"}
  ///     // let note = try background.fetch(Note.fetchRequest()).first
  public var swift: String {
    guard let condition else { return statement }
    let test =
      "\(condition.variable) \(condition.negated ? "!=" : "==") \(condition.value.swiftDescription)"
    return "if \(test) { \(statement) }"
  }
}

/// Pieces of Swift that several verb families spell alike.
enum SwiftSource {
  /// `let note = `, or nothing when the result is not bound.
  static func assign(_ bind: String?) -> String {
    bind.map { "let \($0) = " } ?? ""
  }

  /// `Note.fetchRequest()`, with an `NSPredicate` when there is one.
  static func request(_ entity: String, _ predicate: [(key: String, value: Expression)]) -> String {
    guard !predicate.isEmpty else { return "\(entity).fetchRequest()" }
    return "\(entity).fetchRequest(\(predicateText(predicate)))"
  }

  /// `NSPredicate(format: "title == %@", "x")`.
  static func predicateText(_ predicate: [(key: String, value: Expression)]) -> String {
    let format = predicate.map { "\($0.key) == %@" }.joined(separator: " AND ")
    let arguments = predicate.map(\.value.swift).joined(separator: ", ")
    return "NSPredicate(format: \"\(format)\", \(arguments))"
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
