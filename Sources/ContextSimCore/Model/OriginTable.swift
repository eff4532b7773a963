/// One line of where a block came from, as a run keeps it: a ``BacktraceEntry`` with its
/// queue and thread by number. Names would be retained and released with every copy; a
/// report names them (``Simulation/backtrace(of:at:)``).
enum OriginEntry: Equatable {
  case step(Int)
  case enqueued(queue: Int, thread: Int)
  case launch
}

/// Where a run's blocks came from, for backtraces: Xcode's "enqueued from" section.
///
/// An enqueue writes its own lines (the enqueue, its step, the bodies it is nested in) and
/// then points at the origin of the block it runs in, instead of copying that origin's
/// lines: every enqueue made a list of its own, an allocation each, and most are never
/// read. One table per run, which a copy of the run shares until it adds to it.
struct OriginTable {
  /// An origin: where its lines start in the table.
  struct Origin: Equatable {
    fileprivate let start: Int
  }

  private enum Slot {
    case line(OriginEntry)
    /// The origin's own lines end here and go on with another origin's.
    case continues(Origin)
    case ends
  }

  private var slots: [Slot] = []

  /// Adds an origin whose lines are `lines` alone, as the main thread's launch.
  mutating func add(_ lines: [OriginEntry]) -> Origin {
    let origin = begin()
    for line in lines { append(line) }
    end(continuing: nil)
    return origin
  }

  /// Starts an origin; its lines follow with ``append(_:)``, and ``end(continuing:)`` ends it.
  mutating func begin() -> Origin { Origin(start: slots.count) }

  mutating func append(_ line: OriginEntry) { slots.append(.line(line)) }

  mutating func end(continuing parent: Origin?) {
    slots.append(parent.map { .continues($0) } ?? .ends)
  }

  /// Appends `origin`'s lines to `lines` until it holds `limit` of them.
  func lines(of origin: Origin, into lines: inout [OriginEntry], limit: Int) {
    var i = origin.start
    while lines.count < limit {
      switch slots[i] {
      case .line(let line):
        lines.append(line)
        i += 1
      case .continues(let parent): i = parent.start
      case .ends: return
      }
    }
  }

  /// Room for the origins a run of a few dozen steps adds, kept by the copy a run starts from.
  mutating func reserveCapacity(_ n: Int) { slots.reserveCapacity(n) }
}
