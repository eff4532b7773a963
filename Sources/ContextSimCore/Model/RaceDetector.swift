/// Happens-before between the app's threads, and the data races on shared vars it leaves.
///
/// Each thread carries a vector clock. Synchronisation moves clocks between threads: a
/// thread that *releases* something (gives a queue back, enqueues a block, finishes a
/// task group's child) hands on its clock and moves its own time on; a thread that
/// *acquires* it joins that clock into its own. Two accesses to a shared var race when at
/// least one writes and neither thread's clock had seen the other's access when it made
/// its own (ThreadSanitizer's rule, and loom's `rt/` bookkeeping). The detector remembers,
/// per var, the last write and the reads since it: the accesses a later one must be
/// ordered after. It reports each pair of steps once per run.
struct RaceDetector {
  /// One read or write of a shared var: who made it and when, as a race report names it.
  struct VarAccess {
    var thread: Int
    /// The thread's own time at the access.
    var time: Int
    var isWrite: Bool
    /// The scheduler step and the scenario step: all a report needs of the access's
    /// ``Site``, which would cost a copy of names and labels at every access.
    var step: Int
    var stepIndex: Int
  }

  /// Two accesses to one var, neither ordered before the other; `previous` came first.
  struct Race {
    var access: VarAccess
    var previous: VarAccess
  }

  /// Each thread's clock, by thread number. A thread's own entry starts at 1.
  private(set) var clocks: [VectorClock] = []
  /// The clock the coordinator's lock holds since its last release.
  private(set) var storeClock = VectorClock()
  private(set) var notificationCenterClock = VectorClock()
  /// Shared vars' indices by name, in the order the scenario declares them.
  private let variables: SmallDictionary<NamedNumber>
  /// Per var: the last write and the reads since it.
  private(set) var histories: [History]
  /// Pairs of steps already reported for a var. A small table, not a set: most runs report
  /// one or two, and hashing a key and allocating a set's storage cost more than a scan.
  private(set) var reported = SmallDictionary<ReportedPair>()

  /// A detector for the main thread alone, watching the given shared vars.
  init(variables names: [String]) {
    var variables = SmallDictionary<NamedNumber>()
    for (i, name) in names.enumerated() { variables[name] = i }
    self.variables = variables
    histories = Array(repeating: History(), count: names.count)
    _ = addThread()
  }

  /// Starts the next thread's clock, at its own time 1, and returns its number.
  mutating func addThread() -> Int {
    let t = clocks.count
    var clock = VectorClock()
    clock[t] = 1
    if clocks.count == clocks.capacity { clocks.reserveCapacity(t * 2 + 4) }
    clocks.append(clock)
    return t
  }

  /// Makes room for `count` threads' clocks.
  mutating func reserveThreads(_ count: Int) { clocks.reserveCapacity(count) }

  // MARK: Synchronisation

  /// Thread `t` acquires what a release handed on: it has now seen everything `clock` had.
  mutating func acquire(_ clock: VectorClock, by t: Int) {
    clocks[t].join(clock)
  }

  /// Thread `t` releases: returns its clock for whoever acquires next, and moves its own
  /// time on, so what it does afterwards is not ordered before that acquire.
  mutating func release(by t: Int) -> VectorClock {
    let clock = clocks[t]
    clocks[t][t] += 1
    return clock
  }

  /// Thread `t` takes and gives back the coordinator's lock, as every store access does:
  /// it sees what earlier store accesses did, and later ones see what it did.
  mutating func lockStore(by t: Int) {
    Self.lock(&storeClock, by: t, holding: &clocks[t])
  }

  /// Thread `t` takes and gives back the notification center's lock, as adding and
  /// removing an observer and posting do.
  mutating func lockNotificationCenter(by t: Int) {
    Self.lock(&notificationCenterClock, by: t, holding: &clocks[t])
  }

  /// Thread `t`, whose clock is `clock`, acquires `lock` and releases it again. The clocks
  /// are passed in place: every store access does this, and a key path to the lock's clock
  /// and a copy of the thread's showed in profiles.
  private static func lock(_ lock: inout VectorClock, by t: Int, holding clock: inout VectorClock) {
    clock.join(lock)
    lock = clock
    clock[t] += 1
  }

  // MARK: Shared vars

  /// The index of a shared var, or nil for a name the scenario does not declare.
  func variable(named name: String) -> Int? {
    variables[name]
  }

  /// Records an access by thread `t` to var `v` and returns the races it makes that were not
  /// reported before, earliest access first.
  ///
  /// A write races with the last write and every read since it; a read races with the last
  /// write; unless the access's thread had seen them.
  mutating func access(_ v: Int, by t: Int, isWrite: Bool, step: Int, stepIndex: Int) -> [Race] {
    let clock = clocks[t]
    let access = VarAccess(
      thread: t, time: clock[t], isWrite: isWrite, step: step, stepIndex: stepIndex)
    var races: [Race] = []
    func check(_ previous: VarAccess) {
      guard previous.thread != t, !clock.hasSeen(thread: previous.thread, time: previous.time),
        reported.insertKey(Key(variable: v, first: previous.stepIndex, second: stepIndex))
      else { return }
      races.append(Race(access: access, previous: previous))
    }
    if let lastWrite = histories[v].lastWrite { check(lastWrite) }
    if isWrite {
      for read in histories[v].reads { check(read) }
      histories[v].lastWrite = access
      histories[v].reads.removeAllKeepingCapacity()
    } else {
      histories[v].reads.removeAll { $0.thread == t }
      histories[v].reads.append(access)
    }
    return races
  }

  /// The accesses to one shared var that later accesses must be ordered after.
  struct History {
    var lastWrite: VarAccess?
    var reads: [VarAccess] = []
  }

  /// One reported race, so a pair of steps is reported once per run.
  struct Key: Hashable {
    var variable: Int
    var first: Int
    var second: Int
  }

  /// A reported pair of steps, as the table of them holds it.
  struct ReportedPair: SmallDictionaryEntry {
    let key: Key
    var value: Void
  }
}
