/// What the world looks like between two steps: for the lesson stepper's lanes and panes.
public struct WorldSnapshot: Sendable {
  /// A simulated thread and what it is doing.
  public struct Thread: Sendable {
    /// Whether the thread is running, waiting for a queue, or idle.
    public enum Status: Sendable, Equatable {
      /// About to run this scenario step (its index in ``Scenario/allSteps``).
      case ready(next: Int)
      /// Has a block waiting on its queue.
      case readyToStart
      case waiting(queue: String)
      case idle
    }

    /// Its number in schedules; 0 is main.
    public var number: Int
    /// Its name in reports.
    public var name: String
    /// What it is doing now.
    public var status: Status
    /// Queues the thread is running on, outermost first.
    public var holds: [String]
    /// The scenario step it is at (its index in ``Scenario/allSteps``): the one it runs
    /// next, or waits to run; nil when it has nothing to run.
    public var at: Int? = nil
  }

  /// A managed object registered in a context.
  public struct Object: Sendable {
    /// Its object ID.
    public var id: ObjectID
    /// Whether its data has not been loaded yet.
    public var isFault: Bool
    /// Whether it has unsaved changes.
    public var hasChanges: Bool
    /// Whether it is deleted and not yet saved.
    public var isDeleted: Bool
    /// Its attributes and relationships as this context sees them, in the model's order;
    /// none for a fault, whose data is not loaded.
    public var values: [Field] = []
  }

  /// One attribute or relationship and its value, as Swift would print it.
  public struct Field: Sendable, Equatable {
    /// The attribute's or relationship's name.
    public var key: String
    /// The value: `"Groceries"`, `3`, `nil`, `Album/p1`, `[Photo/p1, Photo/p2]`.
    public var value: String
  }

  /// A row of the persistent store: what every context reads when it fetches or fires a
  /// fault, and what the merge-policy and stale-screen lessons compare contexts with.
  public struct Row: Sendable {
    /// The row's permanent object ID.
    public var id: ObjectID
    /// Its stored values, in the model's order.
    public var values: [Field]
  }

  /// A context, its queue and what is registered in it.
  public struct Context: Sendable {
    /// Its name in reports.
    public var name: String
    /// The queue that owns it.
    public var queue: String
    /// Its parent context, or nil for the store.
    public var parent: String?
    /// The objects registered in it.
    public var objects: [Object]
    /// How many of them have unsaved changes.
    public var unsavedChanges: Int
  }

  /// Every thread of the run, by number.
  public var threads: [Thread]
  /// Every context of the run.
  public var contexts: [Context]
  /// Threads that can take the next step, by number: the choices of "you are the scheduler".
  public var runnable: [Int]
  /// The shared vars and their values.
  public var vars: [(name: String, value: Value)]
  /// The store's rows, by entity in the model's order.
  public var store: [Row] = []
}

/// Runs a scenario for `steps` steps of a schedule and shows the world at that point.
///
/// The lesson stepper calls this for every position, going back by running again from the
/// start: runs are cheap and always the same.
public func simulate(
  _ scenario: Scenario, options: SimulationOptions, following schedule: Schedule, steps: Int
) -> (trace: Trace, world: WorldSnapshot) {
  var execution = Execution(scenario, options: options)
  // Abandoning the run after `steps` steps still asks for the runnable threads once more,
  // so a run that ends there records how it ended (a deadlock, the first crash).
  var replay = ReplayScheduler(schedule, stoppingAfter: steps)
  execution.run(&replay)
  return (execution.trace, execution.world)
}

extension Simulation {
  func snapshot() -> WorldSnapshot {
    let threadStates = runtime.threads.indices.map { t -> WorldSnapshot.Thread in
      let thread = runtime.threads[t]
      let status: WorldSnapshot.Thread.Status
      if let waiting = thread.waiting {
        status = .waiting(queue: runtime.queues[waiting.queue].name)
      } else if let top = thread.frames.last, top.next < top.steps.count {
        status = .ready(next: top.steps[top.next].index)
      } else if canRun(t) {
        status = .readyToStart
      } else {
        status = .idle
      }
      let top = thread.frames.last
      return WorldSnapshot.Thread(
        number: t, name: thread.name, status: status,
        holds: thread.held.map { runtime.queues[$0].name },
        at: top.flatMap { frame in
          // A waiting thread has moved past the performAndWait or sync it waits in.
          let next = thread.waiting == nil ? frame.next : frame.next - 1
          return frame.steps.indices.contains(next) ? frame.steps[next].index : nil
        })
    }
    let contextStates = graph.contexts.enumerated().map { c, context in
      WorldSnapshot.Context(
        name: context.name, queue: runtime.queues[context.queue].name,
        parent: context.parent.map { graph.contexts[$0].name },
        objects: graph.registeredObjects(in: c).map { ref in
          let object = graph[ref]
          return WorldSnapshot.Object(
            id: object.id, isFault: object.isFault, hasChanges: object.hasChanges,
            isDeleted: object.isDeleted,
            values: object.isFault ? [] : fields(object.value, of: object.id.entity))
        },
        unsavedChanges: graph.registeredObjects(in: c).filter { graph[$0].hasChanges }.count)
    }
    let rows = scenario.entities.flatMap { entity in
      store.ids(of: entity.name).compactMap { store.row($0) }.map { row in
        WorldSnapshot.Row(
          id: row.id, values: fields({ row.values[$0] ?? .null }, of: entity.name))
      }
    }
    return WorldSnapshot(
      threads: threadStates, contexts: contextStates,
      runnable: trace.stop == nil ? runtime.threads.indices.filter { canRun($0) } : [],
      vars: scenario.vars.map { ($0.name, program.sharedVars[$0.name] ?? .null) }, store: rows)
  }

  /// An entity's attributes, then its relationships, each as `value` gives it; objects
  /// are named by their object IDs.
  private func fields(_ value: (String) -> Value, of entity: String) -> [WorldSnapshot.Field] {
    guard let entity = scenario.entity(named: entity) else { return [] }
    let keys = entity.attributes.map(\.name) + entity.relationships.map(\.name)
    return keys.map { WorldSnapshot.Field(key: $0, value: shown(value($0))) }
  }

  /// A field's value as the panes show it: strings quoted, objects by their object ID.
  private func shown(_ value: Value) -> String {
    switch value {
    case .object(let ref): graph[ref].id.description
    case .list(let items): "[" + items.map(shown).joined(separator: ", ") + "]"
    default: value.swiftDescription
    }
  }
}
