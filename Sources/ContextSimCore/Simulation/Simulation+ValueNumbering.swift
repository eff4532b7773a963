/// A state's interchangeable values (``InterchangeableValues``), numbered in the order a
/// walk of the state meets them, for the fingerprint to write in their place.
///
/// The walk's order must not depend on the values themselves, so that two states that are
/// each other with the values swapped number them alike: threads, queues, task groups and
/// the store in order, bindings by name, objects as their contexts registered them, then
/// the rest of the object table. A value the walk does not meet keeps its own text. Either
/// way each value gets one name, so equal fingerprints still mean states equal up to a
/// swap of values, and a swap changes nothing ahead (see ``InterchangeableValues``).
struct ValueNumbering {
  private let slots: [String: Int]
  /// Per slot, the value's number in this state, or -1 if the walk did not meet it.
  private var numbers: [Int]
  private var count = 0
  private var scopesSeen: [Bool] = []

  var isEmpty: Bool { count == 0 }

  init(_ s: Simulation) {
    slots = InterchangeableValues.of(s.scenario, under: s.options).slots
    numbers = Array(repeating: -1, count: slots.count)
    guard !slots.isEmpty else { return }
    scopesSeen = Array(repeating: false, count: s.program.scopes.count)
    for thread in s.runtime.threads {
      visit(thread.frames, s)
      if let body = thread.waiting?.body { visit(body, s) }
    }
    for q in 0..<s.runtime.queues.count {
      for case .block(let block) in s.runtime.queues[q].pending { visit(block, s) }
    }
    for group in s.runtime.taskGroups {
      for result in group.results { visit(result.values) }
      if let waiting = group.waiting { visit(waiting.frames, s) }
    }
    visit(s.program.sharedVars)
    for row in s.store.rows { visit(row.values) }
    for c in s.graph.contexts.indices {
      for ref in s.graph.registeredObjects(in: c) { visit(s.graph[ref]) }
    }
    for object in s.graph.objects { visit(object) }
    for observer in s.center.observers { visit(observer.scope, s) }
  }

  /// The value's number, if it is interchangeable and the walk met it.
  func number(of string: String) -> Int? {
    guard let slot = slots[string], numbers[slot] >= 0 else { return nil }
    return numbers[slot]
  }

  private mutating func visit(_ frames: [SimulatedThread.Frame], _ s: Simulation) {
    for frame in frames { visit(frame, s) }
  }

  private mutating func visit(_ frame: SimulatedThread.Frame, _ s: Simulation) {
    visit(frame.scope, s)
    for value in frame.loop?.rest ?? [] { visit(value) }
    if case .resume(let frames, _) = frame.completion { visit(frames, s) }
  }

  private mutating func visit(_ block: Block, _ s: Simulation) {
    visit(block.scope, s)
    if let resume = block.resume { visit(resume, s) }
    if case .resume(let frames, _) = block.completion { visit(frames, s) }
  }

  private mutating func visit(_ scope: Scope, _ s: Simulation) {
    guard !scopesSeen[scope.index] else { return }
    scopesSeen[scope.index] = true
    // Only strings, alone or in lists, get numbers: the rest is left out before sorting.
    let named = s.program.scopes.bindings(in: scope).filter {
      switch $0.value {
      case .string, .list: true
      default: false
      }
    }
    for binding in named.sorted(by: { $0.key < $1.key }) { visit(binding.value) }
  }

  private mutating func visit(_ object: ManagedObject) {
    visit(object.snapshot)
    visit(object.changes)
  }

  /// Bindings by name: the names are the scenario's, never one of the values.
  private mutating func visit(_ values: NamedValues) {
    for key in values.keys.sorted() { visit(values[key]!) }
  }

  private mutating func visit(_ value: Value) {
    switch value {
    case .string(let string):
      guard let slot = slots[string], numbers[slot] < 0 else { return }
      numbers[slot] = count
      count += 1
    case .list(let items):
      for item in items { visit(item) }
    default:
      break
    }
  }
}
