/// Depth-first search over the run's *states*: the complete search that scales where a
/// search over interleavings does not.
///
/// DPOR runs one execution per class of interleavings, and the classes of the fixed photo
/// downloader grow about 8N-fold per URL, because task-group children finish in any order.
/// Most of those orders lead to the same states: the same rows, the same objects, every
/// thread at the same step. This search steps every runnable thread from each state,
/// fingerprints the state it reaches (``Simulation/fingerprint()``) and goes on only from
/// states not seen before; of the states with one way on, it keeps only some (``keeps``),
/// and where it can tell that way beforehand it takes it on the run itself, not on a copy
/// (``stepInPlace(_:_:children:)``). Two states equal but for a swap of a task group's
/// interchangeable elements count as one (``InterchangeableValues``).
/// Every state reachable by some schedule is visited, so every way a run can end is found,
/// each with a schedule that reaches it.
///
/// Persistent sets of one keep it small (PersistentSets.swift): a step that commutes with
/// everything the other threads can still do is taken alone, which loses no state a run
/// can end in, since the state graph has no cycles (the step count is part of the state).
/// docs/exploration.md states the assumptions and the tests that hold them.
///
/// The fingerprints are the memory: about 25 bytes a state kept with the table's overhead,
/// bounded by `maxStates`. A search that reaches the bound stops and says so; it never
/// reports itself complete.
///
/// Within a preemption bound it covers every schedule that switches away from a runnable
/// thread at most that many times (iterative context bounding, Musuvathi and Qadeer, 2007):
/// a state counts as seen together with the thread that took the last step while switching
/// away from it costs a preemption, and is visited again when reached with fewer
/// preemptions, which leave it more ways on. Only that thread's step may be taken alone, when
/// a persistent set of one allows it: moving it to the front of a run adds no preemption,
/// whereas another thread's step would spend one. A search the bound never cut is complete.
struct StatefulSearch {
  let scenario: Scenario
  let options: SimulationOptions
  let maxStates: Int
  var preemptionBound: Int? = nil

  /// A state whose successors are still to be visited, with the preemptions each spent.
  private struct Pending {
    var successors: [(execution: Execution, preemptions: Int)]
  }

  func explore(shrinking: Bool, shouldStop: () -> Bool) -> Exploration {
    var explorer = Explorer(
      scenario: scenario, scheduler: RunToCompletionScheduler(),
      strategy: .stateful(maxStates: maxStates, preemptionBound: preemptionBound),
      options: options)
    // The fewest preemptions each state was reached with (always 0 without a bound).
    var visited: [StateFingerprint: UInt8] = [:]
    var stack = [Pending(successors: [(Execution(scenario, options: explorer.options), 0)])]
    var stop: Exploration.Stop?
    // Whether the bound kept any step from being taken: if not, the search was complete.
    var cut = false
    search: while !stack.isEmpty {
      guard case (var state, let preemptions)? = stack[stack.count - 1].successors.popLast() else {
        stack.removeLast()
        continue
      }
      let steps = state.stepsTaken
      let runnable = state.runnableThreads()
      var next: [(Execution, Int)] = []
      // Whether the bound kept a step from this state; it counts only if the state is new.
      var bounded = false
      // The fingerprint of a state stepped in place, taken before the step if it is kept.
      var fingerprint: StateFingerprint?
      if let runnable {
        if let alone = firstStepAlone(of: state, runnable: runnable) {
          // A step alone cuts nothing: the bound spares the running thread's step.
          if Self.keeps(steps: steps, successors: 1, bounded: false) {
            fingerprint = seen(state, runnable: runnable)
          }
          if stepInPlace(&state, alone.thread, children: alone.children) {
            next = [(state, preemptions)]
          }
        }
        if next.isEmpty {
          next = successors(of: state, runnable: runnable, preemptions: preemptions, cut: &bounded)
        }
      }
      var before: UInt8?
      if Self.keeps(steps: steps, successors: next.count, bounded: bounded) {
        let seen = fingerprint ?? seen(state, runnable: runnable)
        before = visited[seen]
        if let before, Int(before) <= preemptions { continue }
        visited[seen] = UInt8(min(preemptions, 255))
        cut = cut || bounded
        if visited.count >= maxStates {
          stop = .maxStates(maxStates)
          break search
        }
        if visited.count % 256 == 1, shouldStop() {
          stop = .timeLimit
          break search
        }
      }
      if next.isEmpty {
        // A run ends here; reached again with fewer preemptions, it is the same end.
        if before == nil { explorer.record(state.trace) }
      } else {
        stack.append(Pending(successors: next))
      }
    }
    explorer.searched(states: visited.count, stop: stop, bounded: cut)
    return explorer.finish(shrinking: shrinking)
  }

  /// The state as the search tells states apart.
  private func seen(_ state: Execution, runnable: [Int]?) -> StateFingerprint {
    let seen = state.simulation.fingerprint()
    if preemptionBound != nil, let previous = state.trace.schedule.threads.last,
      let runnable, runnable.count > 1, runnable.contains(previous)
    {
      // Within a bound, a state counts as seen with the thread that took the last step
      // while switching away from it costs a preemption: only while it can still run and
      // another could run instead.
      return seen.with(previous)
    }
    return seen
  }

  /// The step the search takes alone from `state` when it can tell before taking it, with
  /// the pure children's groups it must leave alone, if any: stepped in place
  /// (``stepInPlace(_:_:children:)``), it spares the copy of the run a successor costs.
  ///
  /// The thread is the one ``successors`` tries first: without a bound, the first runnable
  /// thread not about to hand a child's result on; within one, the running thread. When
  /// every other runnable thread is a pure child (without a bound, one about to hand its
  /// result on), its step is taken alone if it is local or leaves those children alone,
  /// unless it may wait for a result; otherwise only a `let` in the middle of a block is
  /// stepped in place, which is local unless it reads a shared var. Not in a run that stops
  /// at its first crash, where no step is local.
  private func firstStepAlone(of state: Execution, runnable: [Int])
    -> (thread: Int, children: Set<Int>?)?
  {
    let simulation = state.simulation
    guard !simulation.options.stopAtFirstCrash else { return nil }
    let t: Int
    let othersMayBeChildren: Bool
    if preemptionBound == nil {
      let tried = runnable.filter { !simulation.handsOnChildResult($0) }
      guard let first = tried.first else { return nil }
      (t, othersMayBeChildren) = (first, tried.count == 1)
    } else {
      guard let previous = state.trace.schedule.threads.last, runnable.contains(previous),
        !simulation.handsOnChildResult(previous)
      else { return nil }
      (t, othersMayBeChildren) = (previous, true)
    }
    if othersMayBeChildren, !simulation.mayAwaitResult(t),
      let groups = simulation.pureChildGroups(among: runnable, except: t)
    {
      return (t, groups)
    }
    return simulation.nextStepIsLet(t) ? (t, nil) : nil
  }

  /// Takes thread `t`'s step in place when ``successors`` would take it alone: when it is
  /// local, or leaves the pure `children`'s groups alone. Otherwise leaves `state` as it was,
  /// by running its schedule again, and returns false.
  private func stepInPlace(_ state: inout Execution, _ t: Int, children: Set<Int>?) -> Bool {
    let tally = state.simulation.tally
    let inBlock = state.simulation.isInBlock(t)
    let groups = state.simulation.runtime.taskGroups
    let footprint = state.step(t)
    if footprint.isEmpty && inBlock && state.simulation.tookLocalStep(after: tally)
      || children.map({ state.simulation.leftChildrenAlone($0, since: groups) }) == true
    {
      return true
    }
    var again = Execution(scenario, options: state.simulation.options)
    var replay = ReplayScheduler(state.trace.schedule, stoppingAfter: state.stepsTaken - 1)
    again.run(&replay)
    state = again
    return false
  }

  /// Whether the search keeps a state's fingerprint: where runs branch or end, where the
  /// bound cut a step, and at every fourth step.
  ///
  /// Nine in ten of the fixed downloader's states have one successor (a persistent set of
  /// one), and fingerprinting them took most of the search's time. A state not kept is
  /// stepped on whenever it is reached, which visits again only what follows it up to the
  /// next kept state, at most three steps on: a state's successors depend on the state alone,
  /// so two paths to it meet again there, and that state is new or seen exactly as before.
  /// Every state a run can reach is still visited, and every end state is kept. Whether a
  /// state is kept depends on its successors, so they are worked out before it is looked up:
  /// a kept state reached again costs its steps as well as its fingerprint.
  private static func keeps(steps: Int, successors: Int, bounded: Bool) -> Bool {
    successors != 1 || bounded || steps % 4 == 0
  }

  /// The states one step on from `execution`, last to be visited first: one step alone
  /// when a persistent set of one allows it (``Simulation/tookLocalStep(_:to:)``,
  /// ``Simulation/leavesPureChildrenAlone(stepping:among:to:)``), else a step by every
  /// runnable thread. Within a bound, `cut` is set when the bound keeps a step from being
  /// taken.
  private func successors(
    of execution: Execution, runnable: [Int], preemptions: Int, cut: inout Bool
  ) -> [(Execution, Int)] {
    if let bound = preemptionBound {
      return successors(
        of: execution, runnable: runnable, preemptions: preemptions, within: bound, cut: &cut)
    }
    let before = execution.simulation
    // Each thread's step, taken once and only when needed. A pure child's last step hands
    // its result to its group, so it is never local: it waits until a step alone is ruled out.
    var all = [Execution?](repeating: nil, count: runnable.count)
    func stepped(_ i: Int) -> Execution {
      if let next = all[i] { return next }
      var next = execution
      next.step(runnable[i])
      all[i] = next
      return next
    }
    for (i, t) in runnable.enumerated() where !before.handsOnChildResult(t) {
      var next = execution
      let footprint = next.step(t)
      if footprint.isEmpty, before.tookLocalStep(t, to: next.simulation) {
        return [(next, 0)]
      }
      all[i] = next
    }
    for (i, t) in runnable.enumerated() {
      guard let groups = before.pureChildGroups(among: runnable, except: t) else { continue }
      let next = stepped(i)
      if before.leavesChildrenAlone(next.simulation, groups: groups) { return [(next, 0)] }
    }
    return runnable.indices.reversed().map { (stepped($0), 0) }
  }

  /// The successors within a preemption bound, each with the preemptions spent to reach it.
  ///
  /// Going on with the thread that took the last step spends nothing, and its step taken now
  /// rather than later, where a persistent set of one allows it, adds no preemption to any
  /// run: that step alone loses nothing within the bound.
  private func successors(
    of execution: Execution, runnable: [Int], preemptions: Int, within bound: Int,
    cut: inout Bool
  ) -> [(Execution, Int)] {
    let previous = execution.trace.schedule.threads.last
    // The running thread's step, taken once: alone, or as one of the successors below.
    var goingOn: Execution?
    if let previous, runnable.contains(previous) {
      var next = execution
      let footprint = next.step(previous)
      let before = execution.simulation
      if footprint.isEmpty && before.tookLocalStep(previous, to: next.simulation)
        || before.leavesPureChildrenAlone(stepping: previous, among: runnable, to: next.simulation)
      {
        return [(next, preemptions)]
      }
      goingOn = next
    }
    var all: [(Execution, Int)] = []
    for t in runnable.reversed() {
      if t == previous, let goingOn {
        all.append((goingOn, preemptions))
        continue
      }
      // Every other thread's step is a preemption while the running thread could go on.
      let spent = preemptions + (goingOn == nil ? 0 : 1)
      guard spent <= bound else {
        cut = true
        continue
      }
      var next = execution
      next.step(t)
      all.append((next, spent))
    }
    return all
  }
}

/// States a stateful search keeps unless told otherwise: about 125 MB of fingerprints.
public let defaultStateBudget = 5_000_000
