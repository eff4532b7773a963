/// What a run left behind: the rows in the store, and what the screen's context shows.
///
/// A graded exercise asks for both, because a design can be free of violations and still
/// lose the work: a save deleted to silence a trap leaves no rows, and a screen that never
/// merges shows old values over rows that are right. Relationships hold object IDs, and a
/// to-many relationship lists its destinations, as ``Value/list(_:)`` of IDs.
///
///     store:       Note: [note-1 {title: "Final"}]
///     viewContext: Note: [note-1 {title: "Draft"}]    ← a stale screen
public struct EndState: Sendable, Hashable {
  /// One row, or one object as a context shows it: its object ID and its values.
  public struct Row: Sendable, Hashable {
    /// The row's object ID; temporary for an object inserted in viewContext and not saved.
    public var id: ObjectID
    /// Attribute and relationship values by key; relationships as object IDs.
    public var values: [String: Value]

    /// A row with these values.
    public init(id: ObjectID, values: [String: Value]) {
      self.id = id
      self.values = values
    }
  }

  /// The store's rows by entity, in the order they were written.
  public var store: [String: [Row]]
  /// What a fetch of each entity in viewContext returns once the run is over, each object
  /// with the values viewContext would read: its own for an object it holds, stale or not
  /// (semantics §6.2: registered objects are not updated unless merged or refreshed), and
  /// the row's for one it does not; its unsaved inserts are included, its deletes left out.
  public var viewContext: [String: [Row]]

  /// An end state with these rows.
  public init(store: [String: [Row]], viewContext: [String: [Row]]) {
    self.store = store
    self.viewContext = viewContext
  }
}

extension Simulation {
  /// The end state, taken once no thread can move. It reads the way a fetch does, but
  /// registers nothing and reports nothing, so the run's trace stays as it was.
  mutating func endState() -> EndState {
    var store: [String: [EndState.Row]] = [:]
    var screen: [String: [EndState.Row]] = [:]
    let view = graph.declaredContext(named: "viewContext")
    for entity in scenario.entities.map(\.name) {
      store[entity] = self.store.ids(of: entity).compactMap { id in
        self.store.row(id).map { EndState.Row(id: id, values: $0.values.dictionary) }
      }
      guard let view else { continue }
      screen[entity] = visibleIDs(entity, from: view).compactMap { id in
        if let ref = graph.registered(id, in: view), !graph[ref].isFault {
          return EndState.Row(id: id, values: graph.idForm(graph[ref].currentValues).dictionary)
        }
        return row(id, seenFrom: graph.contexts[view].parent).map {
          EndState.Row(id: id, values: $0.values.dictionary)
        }
      }
    }
    return EndState(store: store, viewContext: screen)
  }
}
