/// Systematic search of a scenario's interleavings, one execution at a time. It is an
/// ordinary ``Scheduler``: ``startExecution()`` moves to the next alternative, and it
/// returns false when none is left. Each execution replays the prefix it shares with the
/// last one, which the explorer resumes from a checkpoint (``Checkpoints``) instead of from
/// the start when it has one (``resume(afterSteps:)``).
///
/// With reduction it is dynamic partial-order reduction (Flanagan and Godefroid, 2005)
/// with sleep sets: after each execution it looks, for every step, for an earlier step of
/// another thread that touched the same thing (see ``Access``) and is not already ordered
/// before it, and schedules the reversed order at that earlier point. Sleep sets stop
/// two complete executions of the same class of equivalent interleavings from both being
/// run; an execution that could only repeat one is cut short and counted as pruned.
/// Without reduction it tries every runnable thread at every point.
///
/// A preemption bound keeps only executions that switch away from a runnable thread at
/// most that many times; a reversal the bound forbids where it is found is placed at the
/// latest earlier point where it costs no preemption (Coons et al., 2013).
public struct DPORScheduler: Scheduler {
  struct Node {
    var runnable: [Int]
    var chosen: Int
    var backtrack: Set<Int>
    var done: Set<Int> = []
    /// Threads whose next step need not be tried here, with what that step touches.
    var sleep: [(thread: Int, accesses: [Access])] = []
    var accesses: [Access] = []
    /// Preemptions along the path, this choice included.
    var preemptions: Int
  }

  /// A choice a job of a split search makes at one of its first nodes.
  struct ForcedChoice {
    var thread: Int
    /// Siblings explored or given to a job before this one, whose step is known: asleep
    /// here, as siblings explored before are in a search on one core.
    var sleep: [(thread: Int, accesses: [Access])] = []
    /// Every sibling explored or given to a job before this one: already scheduled here.
    var scheduled: [Int] = []
  }

  let reduces: Bool
  let preemptionBound: Int?
  private(set) var stack: [Node] = []
  private var started = false
  /// The current execution: its analysis, the sleep set of the node it opens next, and how
  /// deep it is.
  private var analysis = DependenceAnalysis()
  private var pendingSleep: [(thread: Int, accesses: [Access])] = []
  private var depth = 0
  /// The node the execution just started changed: the steps before it are the last one's.
  private var changedNode = 0

  /// For a job of a ``SplitSearch``: the nodes below `frozen` belong to the search that
  /// split the tree, so this scheduler never moves them to another choice, and hands back a
  /// race reversed at one of them (`exports`) for another job to explore.
  private(set) var frozen: Int
  /// The choices a job makes at its first nodes, all frozen.
  let forced: [ForcedChoice]
  /// Reversals at frozen nodes, in the order found: the node and the thread to try there.
  private(set) var exports: [(node: Int, thread: Int)] = []

  /// Dynamic partial-order reduction with sleep sets, optionally within a preemption bound.
  public init(preemptionBound: Int? = nil) {
    self.init(reduces: true, preemptionBound: preemptionBound)
  }

  /// Every interleaving, without reduction: for measuring what the reduction saves.
  public static var exhaustive: DPORScheduler {
    DPORScheduler(reduces: false, preemptionBound: nil)
  }

  init(reduces: Bool, preemptionBound: Int?) {
    self.init(reduces: reduces, preemptionBound: preemptionBound, forced: [])
  }

  /// A job of a ``SplitSearch``: the subtree below the `forced` choices.
  init(reduces: Bool, preemptionBound: Int?, forced: [ForcedChoice]) {
    self.reduces = reduces
    self.preemptionBound = preemptionBound
    self.forced = forced
    frozen = forced.count
  }

  /// Only an unbounded search proves that every class of interleavings ran.
  public var isExhaustive: Bool { preemptionBound == nil }

  /// Before every execution but the first, moves the deepest choice point that has an untried
  /// alternative to it and drops the points below; false when no point has one.
  public mutating func startExecution() -> Bool {
    if started {
      guard moveToNextAlternative() else { return false }
    }
    started = true
    pendingSleep = []
    depth = 0
    changedNode = max(stack.count - 1, 0)
    return true
  }

  /// The steps before the node this execution changes are the same as the last one's.
  public var sharedSteps: Int? { changedNode }

  /// Goes on from step `k` of the same path: the dependence analysis of the last execution
  /// goes back to step `k` (those steps are the same), without running them.
  public mutating func resume(afterSteps k: Int) {
    precondition(k <= changedNode, "resumed past the node this execution changes")
    analysis.truncate(to: k)
    for i in analysis.steps..<k where reduces {
      analysis.record(step: i, thread: stack[i].chosen, accesses: stack[i].accesses)
    }
    depth = k
  }

  /// Replays the choices down to the current point, then opens a new point: the thread
  /// that ran last if it can, else the lowest-numbered, skipping sleeping threads and choices
  /// over the preemption bound; nil, abandoning the execution, when none is left.
  public mutating func nextThread(runnable: [Int], previous: Int?, step: Int) -> Int? {
    if depth < stack.count { return stack[depth].chosen }
    guard depth < forced.count else {
      return choose(from: runnable, previous: previous, sleep: pendingSleep, depth: depth)
    }
    let asleep = pendingSleep
    let sleep =
      asleep
      + forced[depth].sleep.filter { entry in !asleep.contains { $0.thread == entry.thread } }
    return choose(
      from: runnable, previous: previous, sleep: sleep, depth: depth, only: forced[depth].thread)
  }

  /// Records what the step touched; with reduction, also schedules the reversal of each
  /// earlier conflicting step not ordered before it, and wakes sleeping threads it conflicts with.
  public mutating func stepTaken(by chosen: Int, footprint: Footprint) {
    let accesses = footprint.accesses
    stack[depth].accesses = accesses
    if reduces {
      // An execution that did not resume starts from nothing: the last one's steps go.
      if analysis.steps > depth { analysis.truncate(to: depth) }
      for reversal in analysis.reversals(step: depth, thread: chosen, accesses: accesses) {
        addBacktrack(reversal.thread, at: reversal.step, initials: reversal.initials)
      }
      // The run ends here, so no later step can show what it conflicts with: every thread
      // that could have gone instead is tried (as if the crash conflicted with them all).
      if footprint.endsRun {
        for thread in stack[depth].runnable where thread != chosen {
          addBacktrack(thread, at: depth)
        }
      }
      pendingSleep = stack[depth].sleep.filter { entry in
        entry.thread != chosen
          && !entry.accesses.contains { a in accesses.contains { a.conflicts(with: $0) } }
      }
    }
    depth += 1
  }

  /// About how much of the search tree is done, from 0 to 1, supposing every branch is as
  /// big as the ones explored: each node's finished alternatives, weighted by the share of
  /// the tree above it.
  public var progress: Double? {
    var done = 0.0
    var weight = 1.0
    for node in stack.dropFirst(frozen) {
      let alternatives = Double(max(node.backtrack.count, 1))
      done += weight * Double(node.done.count) / alternatives
      weight /= alternatives
    }
    return min(done, 1)
  }

  /// The threads and accesses of the execution run last, step by step, once it has ended.
  var currentExecution: [(thread: Int, accesses: [Access])] {
    stack.prefix(depth).map { ($0.chosen, $0.accesses) }
  }

  /// A key equal for two executions exactly when they are the same interleaving up to
  /// reordering independent steps: the order of every conflicting pair of events, each
  /// event named by its thread and its number on that thread.
  static func classKey(of execution: [(thread: Int, accesses: [Access])]) -> [Int] {
    var counts: [Int: Int] = [:]
    let events = execution.map { step -> Int in
      counts[step.thread, default: 0] += 1
      return step.thread << 20 | counts[step.thread]!
    }
    var pairs: [(Int, Int)] = []
    for j in execution.indices {
      for i in 0..<j
      where execution[i].thread != execution[j].thread
        && execution[i].accesses.contains(where: { a in
          execution[j].accesses.contains { a.conflicts(with: $0) }
        })
      {
        pairs.append((events[i], events[j]))
      }
    }
    return pairs.sorted { $0 < $1 }.flatMap { [$0.0, $0.1] }
  }

  /// Opens a new node: the thread that ran last goes on if it can, else the lowest-numbered
  /// one, skipping sleeping threads and choices the preemption bound forbids; only `only`,
  /// when given (a job's forced choice).
  private mutating func choose(
    from runnable: [Int], previous: Int?, sleep: [(thread: Int, accesses: [Access])], depth: Int,
    only: Int? = nil
  ) -> Int? {
    let before = depth > 0 ? stack[depth - 1].preemptions : 0
    // The thread that ran last can go on without a preemption; any other preempts it.
    let goingOn = previous.flatMap { runnable.contains($0) ? $0 : nil }
    func opens(_ t: Int) -> Bool {
      guard !sleep.contains(where: { $0.thread == t }) else { return false }
      let total = before + (goingOn == nil || t == goingOn ? 0 : 1)
      if let bound = preemptionBound, total > bound { return false }
      stack.append(
        Node(
          runnable: runnable, chosen: t, backtrack: reduces ? [t] : Set(runnable), sleep: sleep,
          preemptions: total))
      return true
    }
    if let only {
      guard opens(only) else { return nil }
      stack[depth].backtrack.formUnion(forced[depth].scheduled)
      return only
    }
    if let goingOn, opens(goingOn) { return goingOn }
    for t in runnable where t != goingOn && opens(t) { return t }
    return nil
  }

  /// Whether choosing `t` at node `i` keeps the path within the preemption bound.
  private func allows(_ t: Int, at i: Int) -> Bool {
    guard let bound = preemptionBound else { return true }
    return preemptions(choosing: t, at: i) <= bound
  }

  private func preemptions(choosing t: Int, at i: Int) -> Int {
    guard i > 0 else { return 0 }
    let previous = stack[i - 1].chosen
    let preempts = stack[i].runnable.contains(previous) && previous != t
    return stack[i - 1].preemptions + (preempts ? 1 : 0)
  }

  /// Schedules thread `p` at node `i` to reverse a race, unless a thread that can start
  /// the reversal (one of its `initials`) is already scheduled there: then one of them, `p`
  /// if it is one. Without initials that can run at `i`, `p` (or, if it could not run
  /// there, every runnable thread).
  ///
  /// The initials are source sets (Abdulla, Aronis, Jonsson and Sagonas, POPL 2014): the
  /// reversed order begins with some initial's step, so scheduling one suffices, and a
  /// scheduled one already covers it. Classic DPOR schedules every runnable thread when `p`
  /// cannot run at `i`, and most of those runs end blocked by their sleep sets.
  private mutating func addBacktrack(_ p: Int, at i: Int, initials: [Int] = []) {
    let starts = initials.filter(stack[i].runnable.contains)
    if !starts.isEmpty {
      guard !starts.contains(where: stack[i].backtrack.contains) else { return }
      schedule(starts.contains(p) ? p : starts.min()!, at: i)
      return
    }
    for q in stack[i].runnable.contains(p) ? [p] : stack[i].runnable { schedule(q, at: i) }
  }

  /// Schedules `q` at node `i`, or, where the preemption bound forbids it, at the latest
  /// earlier node where it costs no preemption (Coons et al., 2013).
  private mutating func schedule(_ q: Int, at i: Int) {
    if allows(q, at: i) {
      insertBacktrack(q, at: i)
    } else if let j = (0..<i).reversed().first(where: {
      stack[$0].runnable.contains(q)
        && preemptions(choosing: q, at: $0) == ($0 > 0 ? stack[$0 - 1].preemptions : 0)
    }) {
      insertBacktrack(q, at: j)
    }
  }

  /// Adds `q` to node `i`'s backtrack set; at a frozen node, also hands it back to the split
  /// search, unless this job explores it or it sleeps there (it would never be tried).
  private mutating func insertBacktrack(_ q: Int, at i: Int) {
    guard stack[i].backtrack.insert(q).inserted, i < frozen, q != stack[i].chosen,
      !stack[i].sleep.contains(where: { $0.thread == q })
    else { return }
    exports.append((i, q))
  }

  /// Whether `t` is still to be tried at node `i`: scheduled there, not run there yet, not
  /// asleep, and within the preemption bound.
  private func isUntried(_ t: Int, at i: Int) -> Bool {
    t != stack[i].chosen && !stack[i].done.contains(t)
      && !stack[i].sleep.contains(where: { $0.thread == t }) && allows(t, at: i)
  }

  /// Gives away every untried choice: freezes the nodes down to the deepest one with an
  /// untried choice, and returns each node with one and its untried choices (ascending),
  /// deepest first, the order a search on one core would try them in.
  mutating func splitOff() -> [(node: Int, threads: [Int])] {
    var untried: [(node: Int, threads: [Int])] = []
    // A job whose forced choices could not all be taken has fewer nodes than it froze.
    for i in stack.indices.dropFirst(frozen).reversed() {
      let threads = stack[i].backtrack.filter { isUntried($0, at: i) }.sorted()
      if !threads.isEmpty { untried.append((i, threads)) }
    }
    if let deepest = untried.first { frozen = deepest.node + 1 }
    return untried
  }

  /// Moves the deepest node with an untried choice to that choice, dropping the nodes below.
  private mutating func moveToNextAlternative() -> Bool {
    while let last = stack.indices.last, last >= frozen {
      let node = stack[last]
      var untried: Int?
      for t in node.backtrack where t < (untried ?? .max) && isUntried(t, at: last) {
        untried = t
      }
      if let t = untried {
        stack[last].done.insert(node.chosen)
        if reduces { stack[last].sleep.append((node.chosen, node.accesses)) }
        stack[last].chosen = t
        stack[last].accesses = []
        stack[last].preemptions = preemptions(choosing: t, at: last)
        return true
      }
      stack.removeLast()
    }
    return false
  }
}

/// Happens-before by dependence over one execution: a step follows the earlier steps of its
/// thread and every earlier step that touched what it touches in a conflicting way.
struct DependenceAnalysis {
  private var threadClocks: [VectorClock] = []
  private var stepClocks: [VectorClock] = []
  private var stepThreads: [Int] = []
  private var stepTimes: [Int] = []
  /// By ``Access/slot``: the step that last wrote each resource (-1 for none), and the
  /// steps that read it since.
  private var lastWrite: [Int] = []
  private var readsSinceWrite: [[Int]] = []
  /// What each step overwrote, so the analysis can go back to an earlier step: its thread's
  /// clock before it, and how many of `overwritten` are its own (the last ones).
  private var clocksBefore: [VectorClock] = []
  private var overwrittenCounts: [Int] = []
  /// Per access of every step, in order: the slot, its last write before the step, and the
  /// reads since that the step's write cleared (nil for a read, which only appended one).
  private var overwritten: [(slot: Int, lastWrite: Int, reads: [Int]?)] = []

  /// How many steps are recorded.
  var steps: Int { stepThreads.count }

  /// Forgets every step from `k` on, as if only the first `k` had been recorded: a search
  /// that resumes an execution at step `k` keeps what it knows of the steps before.
  mutating func truncate(to k: Int) {
    while stepThreads.count > k {
      let p = stepThreads.removeLast()
      stepClocks.removeLast()
      stepTimes.removeLast()
      threadClocks[p] = clocksBefore.removeLast()
      for _ in 0..<overwrittenCounts.removeLast() {
        let entry = overwritten.removeLast()
        lastWrite[entry.slot] = entry.lastWrite
        if let reads = entry.reads {
          readsSinceWrite[entry.slot] = reads
        } else {
          readsSinceWrite[entry.slot].removeLast()
        }
      }
    }
  }

  /// A race to reverse: the earlier step, the thread of the later one, and the threads
  /// whose step could come first in the reversed order.
  struct Reversal {
    var step: Int
    var thread: Int
    var initials: [Int]
  }

  /// Records step `j` and returns the earlier steps it conflicts with that are not already
  /// ordered before it: the points where the reverse order must be tried.
  mutating func reversals(step j: Int, thread p: Int, accesses: [Access]) -> [Reversal] {
    let conflicting = conflicts(of: p, accesses: accesses)
    let clock = threadClocks[p]
    let races = conflicting.filter { i in
      stepThreads[i] != p && !clock.hasSeen(thread: stepThreads[i], time: stepTimes[i])
    }
    record(step: j, thread: p, accesses: accesses, after: conflicting)
    return races.map { Reversal(step: $0, thread: p, initials: initials(from: $0, to: j)) }
  }

  /// The threads that can take the first step of the reversed order of the race between
  /// steps `i` and `j`: of the steps after `i` not ordered after it, up to and including
  /// `j`, the first step of each thread that no other of those steps is ordered before.
  private func initials(from i: Int, to j: Int) -> [Int] {
    var first = Array(repeating: -1, count: threadClocks.count)
    for k in (i + 1)...j
    where first[stepThreads[k]] < 0
      && !stepClocks[k].hasSeen(thread: stepThreads[i], time: stepTimes[i])
    {
      first[stepThreads[k]] = k
    }
    return first.indices.filter { r in
      first[r] >= 0
        && first.indices.allSatisfy { u in
          u == r || first[u] < 0
            || !stepClocks[first[r]].hasSeen(thread: u, time: stepTimes[first[u]])
        }
    }
  }

  /// Records step `j` alone, for a search resuming after it: its reversals were scheduled
  /// the first time it ran.
  mutating func record(step j: Int, thread p: Int, accesses: [Access]) {
    record(step: j, thread: p, accesses: accesses, after: conflicts(of: p, accesses: accesses))
  }

  /// The earlier steps a step of thread `p` touching `accesses` conflicts with, in order.
  private mutating func conflicts(of p: Int, accesses: [Access]) -> [Int] {
    while threadClocks.count <= p { threadClocks.append(VectorClock()) }
    var conflicting: [Int] = []
    for access in accesses {
      let slot = access.slot
      guard slot < lastWrite.count else { continue }
      if lastWrite[slot] >= 0 { conflicting.append(lastWrite[slot]) }
      if access.orders { conflicting += readsSinceWrite[slot] }
    }
    // In order, each once: a step may conflict through several resources.
    conflicting.sortAndRemoveDuplicates()
    return conflicting
  }

  /// Step `j` happens after its thread's earlier steps and the `conflicting` ones.
  private mutating func record(
    step j: Int, thread p: Int, accesses: [Access], after conflicting: [Int]
  ) {
    var clock = threadClocks[p]
    clocksBefore.append(clock)
    overwrittenCounts.append(accesses.count)
    for i in conflicting { clock.join(stepClocks[i]) }
    clock[p] += 1
    threadClocks[p] = clock
    stepClocks.append(clock)
    stepThreads.append(p)
    stepTimes.append(clock[p])
    for access in accesses {
      let slot = access.slot
      if slot >= lastWrite.count {
        lastWrite += repeatElement(-1, count: slot - lastWrite.count + 1)
        readsSinceWrite += repeatElement([], count: slot - readsSinceWrite.count + 1)
      }
      if access.orders {
        overwritten.append((slot, lastWrite[slot], readsSinceWrite[slot]))
        lastWrite[slot] = j
        readsSinceWrite[slot] = []
      } else {
        overwritten.append((slot, lastWrite[slot], nil))
        readsSinceWrite[slot].append(j)
      }
    }
  }
}

/// Counts a scenario's interleavings and its classes of equivalent interleavings by brute
/// force: every interleaving is run, and two are equivalent when they order every pair of
/// conflicting steps the same way. For measuring reduction; exponential by nature.
package func countInterleavings(
  _ scenario: Scenario, options: SimulationOptions, limit: Int = 1_000_000
) -> (interleavings: Int, classes: Int, complete: Bool) {
  var quiet = options
  quiet.recordsEvents = false
  var search = DPORScheduler.exhaustive
  var classes: Set<[Int]> = []
  var count = 0
  while count < limit, search.startExecution() {
    var execution = Execution(scenario, options: quiet)
    execution.run(&search)
    count += 1
    classes.insert(DPORScheduler.classKey(of: search.currentExecution))
  }
  return (count, classes.count, count < limit)
}
