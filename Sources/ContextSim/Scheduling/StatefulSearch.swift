/// Depth-first search over the run's *states*, visiting each once: the complete search
/// that scales where a search over interleavings does not.
///
/// DPOR runs one execution per class of interleavings, and the classes of the fixed photo
/// downloader grow about 8N-fold per URL, because task-group children finish in any order.
/// Most of those orders lead to the same states: the same rows, the same objects, every
/// thread at the same step. This search steps every runnable thread from each state,
/// fingerprints the state it reaches (``Simulation/fingerprint()``) and goes on only from
/// states not seen before. Every state reachable by some schedule is visited, so every way
/// a run can end is found, each with a schedule that reaches it.
///
/// One reduction keeps it small: when a thread's next step is *local* (it touches nothing
/// another thread can see, reports nothing, and starts nothing), only that step is taken
/// from the state. Such a step commutes with every step of every other thread and stays
/// enabled until taken, so taking it first loses no state a run can end in (a persistent
/// set of one; the state graph has no cycles because the step count is part of the
/// state). docs/exploration.md states the assumptions.
///
/// The fingerprints are the memory: about 16 bytes a state, bounded by `maxStates`. A
/// search that reaches the bound stops and says so; it never reports itself complete.
struct StatefulSearch {
  let scenario: Scenario
  let options: SimulationOptions
  let maxStates: Int

  /// A state whose successors are still to be visited.
  private struct Pending {
    var successors: [Execution]
  }

  func explore(shrinking: Bool, shouldStop: () -> Bool) -> Exploration {
    var explorer = Explorer(
      scenario: scenario, scheduler: RunToCompletionScheduler(),
      strategy: .stateful(maxStates: maxStates), options: options)
    var visited: Set<StateFingerprint> = []
    var stack = [Pending(successors: [Execution(scenario, options: explorer.options)])]
    var stop: Exploration.Stop?
    search: while !stack.isEmpty {
      guard var state = stack[stack.count - 1].successors.popLast() else {
        stack.removeLast()
        continue
      }
      // Along a stretch with one way on, no state is kept: the stretch's end stands for it.
      guard visited.insert(state.simulation.fingerprint()).inserted else { continue }
      var next: [Execution] = []
      if let runnable = state.runnableThreads() {
        next = successors(of: state, runnable: runnable)
      }
      if visited.count >= maxStates {
        stop = .maxStates(maxStates)
        break search
      }
      if visited.count % 256 == 1, shouldStop() {
        stop = .timeLimit
        break search
      }
      if next.isEmpty {
        explorer.record(state.trace)
      } else {
        stack.append(Pending(successors: next))
      }
    }
    explorer.searched(states: visited.count, stop: stop)
    return explorer.finish(shrinking: shrinking)
  }

  /// The states one step on from `execution`, last to be visited first: one step alone
  /// when a persistent set of one allows it (``Simulation/tookLocalStep(_:to:)``,
  /// ``Simulation/pureChildGroups(among:except:)``), else a step by every runnable thread.
  private func successors(of execution: Execution, runnable: [Int]) -> [Execution] {
    var all: [Execution] = []
    for t in runnable {
      var next = execution
      let footprint = next.step(t)
      if footprint.isEmpty, execution.simulation.tookLocalStep(t, to: next.simulation) {
        return [next]
      }
      all.append(next)
    }
    let before = execution.simulation
    for (i, t) in runnable.enumerated() {
      if let groups = before.pureChildGroups(among: runnable, except: t),
        before.leavesChildrenAlone(all[i].simulation, groups: groups)
      {
        return [all[i]]
      }
    }
    return all.reversed()
  }
}

/// States a stateful search keeps unless told otherwise: about 130 MB of fingerprints.
public let defaultStateBudget = 5_000_000
