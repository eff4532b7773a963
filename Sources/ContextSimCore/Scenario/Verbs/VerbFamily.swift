/// A verb of the scenario format, or a family of verbs that share their arguments, declared
/// once: its names, the keys each takes, how its arguments are read for their shape, what
/// validation checks about them, and the line of Swift each valid step stands for.
///
/// Lifecycle: the shape pass finds a step's verb in ``Verbs/table``, checks the step's keys
/// against ``keys(of:)`` and calls ``init(_:_:)`` with the step's members; validation later
/// calls ``statement(_:scope:in:)`` once, in file order, with the variables in scope. A
/// family's `Verb` enum lists its verbs, so every switch over them is exhaustive: a verb
/// cannot be declared and then dropped.
///
/// To add a verb: add a case to a family's `Verb` (or a new family, listed in
/// ``Verbs/families``), its schema, its shape, its checks and its Swift; then a new
/// ``Action`` case. No switch over actions has a `default:`, so the compiler asks where
/// it runs (`Simulation+Execute`), whether it asks a parent's queue
/// (`Simulation+ParentRequests`), what it needs (`Scenario.Features`), and its `tryMode`
/// and `body`. docs/architecture.md, "Adding a verb", lists the rest, tests included.
protocol VerbFamily: SendableMetatype {
  associatedtype Verb: RawRepresentable, CaseIterable where Verb.RawValue == String

  /// What a step with this verb looks like in JSON: its value and the keys it takes besides
  /// the verb, `label`, `note`, `swift`, `when` and `catch`, in the order an error lists
  /// them. The shape pass's key table and docs/scenario.schema.json are made from it.
  static func schema(of verb: Verb) -> StepSchema

  /// Reads a step's arguments for their shape; problems are kept in the fields.
  init(_ verb: Verb, _ arguments: StepArguments)

  /// Checks what the arguments name, reports what is wrong, and builds the statement.
  func statement(_ step: StepSite, scope: inout StepScope, in decoder: inout ScenarioDecoder)
    -> Statement?
}

/// Every verb family of the format; a family missing here makes its verbs unknown, loudly.
enum Verbs {
  static let families: [any VerbFamily.Type] = [
    DispatchVerbs.self, PerformVerbs.self, TaskVerbs.self,
    NewContextVerbs.self, InsertVerb.self, FetchVerbs.self, PropertyVerbs.self, ContextVerbs.self,
    LookupVerbs.self, ObjectVerbs.self, BatchVerbs.self, NotificationVerbs.self,
    FetchedResultsVerbs.self, HistoryVerbs.self,
    VariableVerbs.self, ForEachVerb.self, PrintVerb.self, ExpectVerb.self, NotModelledVerb.self,
  ]

  /// How the shape pass treats one verb: the keys it takes, and its family.
  struct Entry: Sendable {
    var keys: [String]
    var family: any VerbFamily.Type

    /// The family's raw arguments of a step with this verb.
    func read(_ arguments: StepArguments) -> any VerbFamily {
      family.read(arguments)
    }
  }

  /// Verb name → its entry, built from the families' declarations.
  static let table: [String: Entry] = {
    var table: [String: Entry] = [:]
    for family in families { register(family, in: &table) }
    return table
  }()

  /// Every verb name, sorted, for suggestions.
  static let names = table.keys.sorted()

  /// The `oneOf` variants of docs/scenario.schema.json's `step`, one line each, in the
  /// families' order.
  static var schemaVariants: [String] {
    families.flatMap { $0.schemaVariants }
  }

  private static func register<F: VerbFamily>(_ family: F.Type, in table: inout [String: Entry]) {
    for verb in F.Verb.allCases {
      precondition(table[verb.rawValue] == nil, "two families declare \(verb.rawValue)")
      table[verb.rawValue] = Entry(keys: F.schema(of: verb).keys.map(\.name), family: F.self)
    }
  }
}

extension VerbFamily {
  /// Each verb's variant of the schema's `step`.
  fileprivate static var schemaVariants: [String] {
    Verb.allCases.map { schema(of: $0).json(verb: $0.rawValue) }
  }

  /// Reads a step whose verb the shape pass found in this family.
  fileprivate static func read(_ arguments: StepArguments) -> any VerbFamily {
    Self(Verb(rawValue: arguments.verb)!, arguments)
  }
}
