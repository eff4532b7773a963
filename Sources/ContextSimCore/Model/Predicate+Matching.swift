/// How a resolved predicate and sort descriptors judge a row, as `NSPredicate` and
/// `NSSortDescriptor` do for the types a scenario stores.
///
/// Values are in ID form: a relationship holds object IDs, and so does an operand that named
/// an object, so `{"album": "$album"}` compares IDs whichever context the object lives in.
extension Predicate where Operand == Value {
  /// Whether a row's values satisfy the predicate; a key the row lacks holds nil.
  func matches(_ values: NamedValues) -> Bool {
    switch self {
    case .comparison(let key, let op, let operand):
      return (values[key] ?? .null).satisfies(op, operand)
    case .and(let parts):
      return parts.allSatisfy { $0.matches(values) }
    case .or(let parts):
      return parts.contains { $0.matches(values) }
    case .not(let part):
      return !part.matches(values)
    }
  }
}

extension Value {
  /// `self OP operand`, following `NSPredicate`: `==` compares integers and doubles by number;
  /// `!=` is its negation, so nil != "x" holds; an ordering with nil, or between values of
  /// different types, is false; `IN` holds when any item of the list is `==` (a single value
  /// counts as a list of one, nil as an empty list).
  func satisfies(_ op: ComparisonOperator, _ operand: Value) -> Bool {
    switch op {
    case .equal: return matches(operand)
    case .notEqual: return !matches(operand)
    case .in:
      switch operand {
      case .list(let items): return items.contains { matches($0) }
      case .null: return false
      default: return matches(operand)
      }
    case .lessThan: return ordered(against: operand) == .before
    case .lessThanOrEqual: return ordered(against: operand).map { $0 != .after } ?? false
    case .greaterThan: return ordered(against: operand) == .after
    case .greaterThanOrEqual: return ordered(against: operand).map { $0 != .before } ?? false
    }
  }

  /// Where one value stands against another.
  enum Order {
    case before, same, after
  }

  /// How two values order, or nil when they do not: either is nil, or their types differ.
  ///
  /// Numbers order by value, booleans false before true. Strings order by their Unicode
  /// scalars, as SQLite's default `BINARY` collation orders UTF-8; dates are ISO 8601
  /// strings in a scenario, so they order by time when written alike.
  func ordered(against other: Value) -> Order? {
    func order<T: Comparable>(_ a: T, _ b: T) -> Order {
      a < b ? .before : a == b ? .same : .after
    }
    switch (self, other) {
    case (.integer(let a), .integer(let b)): return order(a, b)
    case (.integer(let a), .double(let b)): return order(Double(a), b)
    case (.double(let a), .integer(let b)): return order(a, Double(b))
    case (.double(let a), .double(let b)): return order(a, b)
    case (.bool(let a), .bool(let b)): return order(a ? 1 : 0, b ? 1 : 0)
    case (.string(let a), .string(let b)):
      if a == b { return .same }
      return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) ? .before : .after
    default: return nil
    }
  }
}

extension SortDescriptor {
  /// Whether the row with `a` goes before the row with `b`: nil first when ascending, as
  /// SQLite orders NULL, last when not; values that do not order keep their places.
  func orders(_ a: Value, before b: Value) -> Bool {
    switch (a, b) {
    case (.null, .null): return false
    case (.null, _): return ascending
    case (_, .null): return !ascending
    default:
      let order = a.ordered(against: b)
      return ascending ? order == .before : order == .after
    }
  }
}
