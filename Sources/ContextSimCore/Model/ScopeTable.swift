/// Every scope's bindings in one run, in one list.
///
/// A block, task or observer starts with a copy of the scope that made it: what an escaping
/// closure captures. A copy per scope cost an allocation whenever the copy first bound a
/// name, several times a run. So a capture copies nothing: the new scope notes its parent
/// and how long the list was then, and a lookup that finds nothing among the scope's own
/// bindings goes on among the parent's made before that point.
///
/// What a capture saw never changes. Setting a name again changes its binding in place only
/// when no capture since could see it; otherwise it adds a binding that hides the old one.
///
/// Each scope's own bindings are chained, newest first, so a lookup reads only those of
/// the scopes it passes through, as it did when each scope had a dictionary of its own.
struct ScopeTable: Sendable {
  private struct Binding: Sendable {
    let name: String
    /// Nil where a name was unbound, which hides a parent's binding of it too.
    var value: Value?
    /// The scope's binding made before this one, or -1: a plain number, as an optional
    /// one made every lookup dearer.
    let previous: Int
  }

  private struct Record: Sendable {
    /// The scope it copied, and the bindings of it that it sees: those before `seen`.
    let parent: Int?
    let seen: Int
    /// Its newest binding, where its chain starts; -1 for none yet.
    var newest = -1
    /// Bindings before this were seen by a capture of this scope, and stay as they are.
    var sealed = 0
  }

  private var bindings: [Binding] = []
  private var records: [Record] = []

  /// How many scopes there are; a scope's index is below it.
  var count: Int { records.count }

  /// A scope with no bindings.
  mutating func open() -> Scope {
    records.append(Record(parent: nil, seen: 0))
    return Scope(index: records.count - 1)
  }

  /// A scope that starts with the bindings `scope` has now, and then goes its own way.
  mutating func capture(_ scope: Scope) -> Scope {
    // Appending first: a run's first change to the list copies it, and only an append's
    // copy keeps the room the template reserved.
    records.append(Record(parent: scope.index, seen: bindings.count))
    records[scope.index].sealed = bindings.count
    return Scope(index: records.count - 1)
  }

  /// The value `name` has in `scope`; setting nil unbinds it.
  subscript(scope: Scope, name: String) -> Value? {
    get {
      var s = scope.index
      var end = bindings.count
      while true {
        if let i = latest(name, in: s, before: end) { return bindings[i].value }
        guard let parent = records[s].parent else { return nil }
        end = records[s].seen
        s = parent
      }
    }
    set {
      let s = scope.index
      if let i = latest(name, in: s, before: bindings.count), i >= records[s].sealed {
        bindings[i].value = newValue
      } else {
        let binding = Binding(name: name, value: newValue, previous: records[s].newest)
        records[s].newest = bindings.count
        bindings.append(binding)
      }
    }
  }

  /// Binds each of `values` in `scope`, as a task group's parent takes a child's result.
  mutating func merge(_ values: NamedValues, into scope: Scope) {
    for (name, value) in values { self[scope, name] = value }
  }

  /// What `scope` binds, in the order a dictionary of its own would hold them: what a
  /// task group's child hands its parent.
  func values(in scope: Scope) -> NamedValues {
    values(in: scope.index, before: bindings.count)
  }

  /// Scope `s`'s bindings before `end`: its parent's before the capture, then its own.
  private func values(in s: Int, before end: Int) -> NamedValues {
    var found = records[s].parent.map { values(in: $0, before: records[s].seen) } ?? [:]
    for i in own(s, before: end).reversed() { found[bindings[i].name] = bindings[i].value }
    return found
  }

  /// What `scope` binds, in no set order, read in place: a state's fingerprint reads every
  /// scope, and building a dictionary for each cost a tenth of a stateful search.
  func bindings(in scope: Scope) -> Bindings { Bindings(table: self, scope: scope) }

  /// The names a scope binds and their values, found level by level: its own bindings,
  /// then its parent's before the capture, and so on. A binding counts where it is the
  /// newest of its name in its level and no level nearer the scope binds or unbinds it.
  struct Bindings: Sequence, IteratorProtocol {
    fileprivate let table: ScopeTable
    fileprivate let scope: Scope
    private var level: Int
    private var depth = 0
    private var end: Int
    private var position: Int

    fileprivate init(table: ScopeTable, scope: Scope) {
      self.table = table
      self.scope = scope
      level = scope.index
      end = table.bindings.count
      position = table.records[level].newest
    }

    mutating func next() -> (key: String, value: Value)? {
      while true {
        while position >= 0 {
          let i = position
          position = table.bindings[i].previous
          guard i < end, let value = table.bindings[i].value else { continue }
          let name = table.bindings[i].name
          if table.latest(name, in: level, before: end) == i && !isHidden(name) {
            return (name, value)
          }
        }
        guard let parent = table.records[level].parent else { return nil }
        end = table.records[level].seen
        level = parent
        position = table.records[level].newest
        depth += 1
      }
    }

    /// Whether a level nearer the scope than the current one binds or unbinds `name`.
    private func isHidden(_ name: String) -> Bool {
      var s = scope.index
      var end = table.bindings.count
      for _ in 0..<depth {
        if table.latest(name, in: s, before: end) != nil { return true }
        end = table.records[s].seen
        s = table.records[s].parent!
      }
      return false
    }
  }

  /// The position of scope `s`'s newest binding of `name` before `end`.
  private func latest(_ name: String, in s: Int, before end: Int) -> Int? {
    var i = records[s].newest
    while i >= 0 {
      if i < end && bindings[i].name == name { return i }
      i = bindings[i].previous
    }
    return nil
  }

  /// The positions of scope `s`'s own bindings before `end`, newest first.
  private func own(_ s: Int, before end: Int) -> [Int] {
    var positions: [Int] = []
    var i = records[s].newest
    while i >= 0 {
      if i < end { positions.append(i) }
      i = bindings[i].previous
    }
    return positions
  }

  /// Room for what a run of a few dozen steps binds, kept by every copy of the run.
  mutating func reserveCapacity(bindings: Int, scopes: Int) {
    self.bindings.reserveCapacity(bindings)
    records.reserveCapacity(scopes)
  }
}
