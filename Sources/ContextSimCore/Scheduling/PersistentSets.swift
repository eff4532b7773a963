/// Which steps a stateful search may take alone from a state: a *persistent set* of one
/// (Godefroid, "Partial-Order Methods for the Verification of Concurrent Systems", 1996).
///
/// Step α of thread t may be the only one taken from state s when every step the other
/// threads can take from s, for as long as t does not move, commutes with α and cannot
/// disable it. Then every run from s is equivalent to one that takes α first, and since the
/// violations so far are part of the state and the state graph has no cycles (the step
/// count is in the fingerprint), every state a run can end in is still reached.
///
/// Two cases are recognised, each checked on the state itself rather than assumed:
///
/// - a *local* step: t is in the middle of a block (nothing can take its step away), and
///   the step touched nothing (empty ``Footprint``), made nothing that is numbered in
///   order (threads, queues, contexts, groups, observers, notifications, controllers,
///   history) and reported nothing;
/// - the one step of the one thread that is not a *pure child* (a task-group child with
///   only `let` steps left over values it has bound), when that step leaves the children's
///   groups alone or only takes results from the front of a queue that still has them
///   (``leavesChildrenAlone(_:groups:)``): the children can do nothing but compute and
///   append their result, which wakes no one while no task waits on the group.
extension Simulation {
  /// Whether thread `t`'s step from this state to `next`, which touched nothing shared, is
  /// local.
  func tookLocalStep(_ t: Int, to next: Simulation) -> Bool {
    isInBlock(t) && next.tookLocalStep(after: tally)
  }

  /// Whether thread `t` is in the middle of a block: nothing can take its step away.
  func isInBlock(_ t: Int) -> Bool {
    !runtime.threads[t].frames.isEmpty && runtime.threads[t].waitingQueue == nil
  }

  /// Whether a step from a state with `tally`, which touched nothing shared, made nothing
  /// numbered in order, reported nothing and did not end the run.
  func tookLocalStep(after tally: Tally) -> Bool {
    self.tally == tally && trace.stop == nil
  }

  /// How many there are of everything numbered in order, and of what the run reported.
  struct Tally: Equatable {
    var threads, queues, contexts, taskGroups, observers, notifications, controllers: Int
    var history, violations, handledErrors: Int
  }

  var tally: Tally {
    Tally(
      threads: runtime.threads.count, queues: runtime.queues.count, contexts: graph.contexts.count,
      taskGroups: runtime.taskGroups.count, observers: center.observers.count,
      notifications: center.posted.count, controllers: changes.controllers.count,
      history: store.history.count, violations: trace.violations.count,
      handledErrors: trace.handledErrors.count)
  }

  /// Whether thread `t`'s next step may end a task group's `then` body while the group has
  /// no result waiting, so that the task waits for the next one: a step that touches the
  /// group.
  func mayAwaitResult(_ t: Int) -> Bool {
    guard let top = runtime.threads[t].frames.last, top.next + 1 >= top.steps.count else {
      return false
    }
    return runtime.threads[t].frames.contains { frame in
      frame.group.map { runtime.taskGroups[$0].results.isEmpty } ?? false
    }
  }

  /// Whether thread `t`'s next step is a `let` before the last step of its innermost frame:
  /// a step that is local unless its value or condition reads a shared var.
  func nextStepIsLet(_ t: Int) -> Bool {
    guard runtime.threads[t].waitingQueue == nil, let frame = runtime.threads[t].frames.last,
      frame.next + 1 < frame.steps.count,
      case .letValue = frame.steps[frame.next].action
    else { return false }
    return true
  }

  /// Whether thread `t`'s step to `next` is the one step of the one runnable thread that is
  /// not a pure child, and leaves the children's groups alone.
  func leavesPureChildrenAlone(stepping t: Int, among runnable: [Int], to next: Simulation)
    -> Bool
  {
    guard let groups = pureChildGroups(among: runnable, except: t) else { return false }
    return leavesChildrenAlone(next, groups: groups)
  }

  /// The task groups of the runnable threads that are pure children, or nil when some
  /// runnable thread other than the one `except` is not one.
  ///
  /// A pure child runs on a concurrent queue, holds no serial queue and no context, and has
  /// only `let` steps left (each over names its scope binds now, so none reads a shared
  /// var); its block ends by handing its bindings to a group no task waits on. So all it
  /// can still do touches its group and nothing else, enqueues nothing and frees no queue.
  func pureChildGroups(among runnable: [Int], except t: Int) -> Set<Int>? {
    var groups: Set<Int> = []
    for u in runnable where u != t {
      guard let g = pureChildGroup(u) else { return nil }
      groups.insert(g)
    }
    return groups
  }

  /// Whether the step that led from this state to `next` left the pure children's `groups`
  /// as it found them but for taking results from the front of a queue that still had them.
  ///
  /// Children only append to the back, so such a step takes the same result whether or not
  /// some of them finish first, and finishing first changes nothing else it sees: it
  /// commutes with everything the children can do. A step that found a queue empty (and
  /// waited) or appended to it does not.
  func leavesChildrenAlone(_ next: Simulation, groups: Set<Int>) -> Bool {
    next.leftChildrenAlone(groups, since: runtime.taskGroups)
  }

  /// ``leavesChildrenAlone(_:groups:)`` from this state back to one whose task groups were
  /// `before`.
  func leftChildrenAlone(_ groups: Set<Int>, since before: [TaskGroupState]) -> Bool {
    groups.allSatisfy { g in
      runtime.taskGroups[g].results.count <= before[g].results.count
        && runtime.taskGroups[g].outstanding == before[g].outstanding
        && runtime.taskGroups[g].waiting == nil
    }
  }

  /// Whether thread `t` is a task-group child whose next step is its last: the step ends
  /// its block and hands its bindings to its group, so it touches the group and is never
  /// local.
  func handsOnChildResult(_ t: Int) -> Bool {
    let frames = runtime.threads[t].frames
    guard frames.count == 1, frames[0].loop == nil, frames[0].next + 1 == frames[0].steps.count,
      case .groupChild? = frames[0].completion
    else { return false }
    return true
  }

  private func pureChildGroup(_ u: Int) -> Int? {
    let thread = runtime.threads[u]
    guard thread.waiting == nil, thread.serves == nil, thread.inFlight.isEmpty,
      thread.held.allSatisfy({ !runtime.queues[$0].isSerial }),
      case .groupChild(let g)? = thread.frames.first?.completion,
      runtime.taskGroups[g].waiting == nil
    else { return nil }
    for (i, frame) in thread.frames.enumerated() {
      guard frame.group == nil, frame.delivery == nil, i == 0 || frame.completion == nil,
        frame.acquired.map({ !runtime.queues[$0].isSerial }) ?? true
      else { return nil }
      let left = frame.loop == nil ? frame.steps[frame.next...] : frame.steps[...]
      // The names the scope binds, the loop's, and those of the `let`s before.
      var earlier: [String] = frame.loop.map { [$0.name] } ?? []
      func isBound(_ name: String) -> Bool {
        program.scopes[frame.scope, name] != nil || earlier.contains(name)
      }
      for step in left {
        guard case .letValue(let name, let value) = step.action,
          value.names.allSatisfy(isBound),
          step.condition.map({ $0.all.allSatisfy { isBound($0.variable) } }) ?? true
        else { return nil }
        earlier.append(name)
      }
    }
    return g
  }
}

extension Expression {
  /// The names it reads.
  var names: [String] {
    switch self {
    case .literal: []
    case .variable(let name): [name]
    case .list(let items): items.flatMap(\.names)
    }
  }
}
