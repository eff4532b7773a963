import ContextSimCore
import ContextSimReports

/// An exercise a learner fixes and ctxsim grades: a broken scenario, what the fix must still
/// do, and hints.
///
/// A design that breaks no rule is not yet a fix: deleting the save silences a trap too. So
/// besides "clean in every schedule", an exercise names the rows the store must end with
/// and what viewContext must see. Its brief is Markdown with a header:
///
///     ---
///     title: An import off the main thread
///     scenario: exercise-01-one-queue.json
///     solution: Solutions/exercise-01-one-queue.json
///     fixes: wrongQueueContext
///     store: 2 Note
///     store: 1 Note where title = "Milk"
///     viewContext: 2 Note
///     ---
///     # An import off the main thread
///     What the app must do, and what is broken.
///     ## Hints
///     ### wrongQueueContext
///     A hint shown when the attempt still breaks this rule.
///
/// See docs/exercises.md for every key.
public struct GradedExercise: Sendable {
  /// The brief's path, as its errors name it.
  public var file: String
  /// The exercise's number: the `NN` of `exercise-NN-name.md`; nil for a brief named
  /// otherwise.
  public var number: Int?
  /// The header's `title:`.
  public var title: String
  /// The starting scenario, as a path from the brief's folder.
  public var scenario: String
  /// The model solution, as a path from the brief's folder; shown only when asked for.
  public var solution: String
  /// The violation kinds the starting scenario shows and the fix must remove; the brief
  /// lists them, and checking the exercise proves the starting scenario shows each.
  public var fixes: [ViolationKind]
  /// What the fixed app must leave behind, in the order the header lists them.
  public var criteria: [RowsCriterion]
  /// The Markdown between the header and `## Hints`: what the app must do, what is broken.
  public var brief: String
  /// Hints by topic: a violation kind's name, `store`, `viewContext` or `setup`.
  public var hints: [String: String]

  /// The hint the brief gives for a topic, if it gives one.
  public func hint(_ topic: String) -> String? {
    hints[topic]
  }
}

/// One `store:` or `viewContext:` line of a brief: how many rows of an entity, matching
/// conditions, the store or viewContext must show once the app has run.
///
/// `store: 1 Note where title = "Milk"` holds when exactly one Note row in the store has
/// that title. `viewContext: 1 Album where photos.count = 2` holds when a fetch of Album in
/// viewContext at the end finds exactly one album whose photos, as viewContext sees them,
/// number two: a screen that never merged still sees none.
public struct RowsCriterion: Sendable, Equatable, CustomStringConvertible {
  /// Where the rows are looked for.
  public enum Place: String, Sendable, CaseIterable {
    /// The persistent store: what a relaunch would find.
    case store
    /// A fetch in viewContext at the end: what the screen shows.
    case viewContext
  }

  /// One condition on a row: a key's value, or the size of a to-many relationship.
  public struct Condition: Sendable, Equatable, CustomStringConvertible {
    /// What is compared.
    public enum Test: Sendable, Equatable {
      /// The key holds this value; a to-one relationship holds the row with this ID.
      case equals(Value)
      /// A to-one relationship holds the stored row the scenario calls by this handle;
      /// validation against the starting scenario turns it into ``equals(_:)``.
      case row(handle: String)
      /// A to-many relationship lists this many objects.
      case count(Int)
    }

    /// The attribute or relationship.
    public var key: String
    /// What its value must be.
    public var test: Test
    /// How the brief wrote it, for reports: `title = "Milk"`, `photos.count = 2`.
    public var text: String
    /// Where the brief wrote it.
    public var location: SourceLocation

    /// As the brief wrote it.
    public var description: String { text }
  }

  /// The store or viewContext.
  public var place: Place
  /// How many matching rows there must be, exactly.
  public var count: Int
  /// The entity.
  public var entity: String
  /// Conditions every counted row meets; none counts every row of the entity.
  public var conditions: [Condition]
  /// Where the brief wrote the line.
  public var location: SourceLocation

  /// The criterion as the grade lists it: `the store ends with 2 Note rows`,
  /// `viewContext sees 1 Note where title = "Final"`.
  public var description: String {
    let filter =
      conditions.isEmpty ? "" : " where " + conditions.map(\.text).joined(separator: " and ")
    switch place {
    case .store:
      return "the store ends with \(count) \(entity) row\(count == 1 ? "" : "s")\(filter)"
    case .viewContext:
      return "viewContext sees \(count) \(entity)\(filter) (a fetch in viewContext at the end)"
    }
  }

  /// The rows this criterion looks at in an end state: the store's, or viewContext's.
  public func rows(in state: EndState) -> [EndState.Row] {
    switch place {
    case .store: state.store[entity] ?? []
    case .viewContext: state.viewContext[entity] ?? []
    }
  }

  /// The rows that meet every condition.
  public func matching(in state: EndState) -> [EndState.Row] {
    rows(in: state).filter { row in conditions.allSatisfy { $0.holds(for: row) } }
  }

  /// Whether the end state has exactly as many matching rows as the criterion needs.
  public func holds(in state: EndState) -> Bool {
    matching(in: state).count == count
  }
}

extension RowsCriterion.Condition {
  /// Whether a row meets the condition. Numbers compare by value, so `2` matches `2.0`; a
  /// handle not yet resolved by ``GradedExercise/validated(against:)`` matches nothing.
  public func holds(for row: EndState.Row) -> Bool {
    let value = row.values[key] ?? .null
    switch test {
    case .equals(let expected): return Self.same(value, expected)
    case .row: return false
    case .count(let n): return (value.listItems?.count ?? 0) == n
    }
  }

  static func same(_ a: Value, _ b: Value) -> Bool {
    switch (a, b) {
    case (.integer(let x), .double(let y)), (.double(let y), .integer(let x)): Double(x) == y
    default: a == b
    }
  }
}
