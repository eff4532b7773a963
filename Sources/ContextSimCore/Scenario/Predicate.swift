/// An `NSPredicate` as a fetch, count, batch update or `expect` count writes it in `"where"`:
/// comparisons of a key with a value, joined by `AND`, `OR` and `NOT`.
///
/// A step holds `Predicate<Expression>`, whose values may be `$variables`; a run resolves
/// them once, on the thread that runs the step, into `Predicate<Value>` before looking at any
/// row, as `NSPredicate(format:)` captures its arguments when it is made.
///
///     "where": {"title": {"!=": "x"}, "OR": [{"rank": {"<": 3}}, {"rank": null}]}
///     // title != "x" and (rank < 3 or rank == nil)
///
/// Only `NOT` is boxed (the others hold their parts in arrays), so a predicate of one
/// comparison, or ``all``, is a plain value: evaluating one for a fetch allocates nothing.
public enum Predicate<Operand: Sendable>: Sendable {
  /// `key OP value`: one attribute or to-one relationship compared with one operand.
  case comparison(key: String, ComparisonOperator, Operand)
  /// Every part holds; no part at all is `TRUEPREDICATE`, what a request without one matches.
  case and([Predicate])
  /// At least one part holds.
  case or([Predicate])
  /// The part does not hold.
  indirect case not(Predicate)

  /// Every row: a request without a predicate.
  public static var all: Predicate { .and([]) }

  /// Whether this is ``all``, so a request needs no `NSPredicate`.
  public var matchesEverything: Bool {
    if case .and(let parts) = self { parts.isEmpty } else { false }
  }

  /// The same predicate with every operand transformed, in the order written.
  public func map<T>(_ transform: (Operand) throws -> T) rethrows -> Predicate<T> {
    switch self {
    case .comparison(let key, let op, let operand):
      .comparison(key: key, op, try transform(operand))
    case .and(let parts): .and(try parts.map { try $0.map(transform) })
    case .or(let parts): .or(try parts.map { try $0.map(transform) })
    case .not(let part): .not(try part.map(transform))
    }
  }

  /// Whether the predicate uses more than v1's equalities joined by AND, for the twin tests.
  public var usesOperators: Bool {
    switch self {
    case .comparison(_, let op, _): op != .equal
    case .and(let parts): parts.contains { $0.usesOperators }
    case .or, .not: true
    }
  }
}

/// The comparison operators of `NSComparisonPredicate` that `"where"` can write.
public enum ComparisonOperator: String, Sendable, CaseIterable {
  case equal = "=="
  case notEqual = "!="
  case lessThan = "<"
  case lessThanOrEqual = "<="
  case greaterThan = ">"
  case greaterThanOrEqual = ">="
  /// The value is one of a list's items.
  case `in` = "IN"

  /// Whether the operator orders its operands, which a relationship and `nil` cannot be.
  public var isOrdering: Bool {
    switch self {
    case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual: true
    case .equal, .notEqual, .in: false
    }
  }
}

extension Predicate where Operand == Expression {
  /// The predicate as reports word it: `title == "x" and (rank < 3 or rank == nil)`.
  ///
  /// v1's equalities read as they always did: `policy == "error" and title == "Food"`.
  public var description: String { text(nested: false) }

  private func text(nested: Bool) -> String {
    switch self {
    case .comparison(let key, let op, let operand):
      return "\(key) \(op == .in ? "in" : op.rawValue) \(operand.swift)"
    case .and(let parts):
      let joined = parts.map { $0.text(nested: true) }.joined(separator: " and ")
      return nested && parts.count > 1 ? "(\(joined))" : joined
    case .or(let parts):
      let joined = parts.map { $0.text(nested: true) }.joined(separator: " or ")
      return nested && parts.count > 1 ? "(\(joined))" : joined
    case .not(let part):
      return "not (\(part.text(nested: false)))"
    }
  }
}

/// `NSSortDescriptor(key:ascending:)` on an attribute.
public struct SortDescriptor: Sendable, Equatable {
  /// The attribute the objects are ordered by.
  public internal(set) var key: String
  /// Smallest first, `nil` before any value; false reverses both.
  public internal(set) var ascending: Bool
}

/// `NSFetchRequest`: which objects of an entity a fetch or count asks for, in what order, and
/// how many at most.
public struct FetchRequest: Sendable {
  /// The entity whose objects the request returns.
  public internal(set) var entity: String
  /// Which objects: `"where"`.
  public internal(set) var predicate: Predicate<Expression> = .all
  /// In what order: `"sortBy"`. Without one, objects come in the store's order, then the
  /// objects the context inserted, as ctxsim has always listed them.
  public internal(set) var sortDescriptors: [SortDescriptor] = []
  /// How many at most: `"limit"`; nil for no limit, as `fetchLimit = 0` is in Core Data.
  public internal(set) var fetchLimit: Int?
}
