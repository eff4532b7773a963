/// DPOR on several cores: the search tree is cut into jobs, each a subtree that its own
/// ``DPORScheduler`` explores, and the jobs run in rounds.
///
/// The search starts as one job. After each round, while fewer than ``jobsPerRound`` jobs
/// are left, a job gives away every untried choice on its path, deepest first
/// (``DPORScheduler/splitOff()``): each becomes a new job, and the job freezes its nodes
/// down to the deepest of them, never moving them again. Made deepest first, the jobs run
/// in about the order a search on one core would run them. A race a job reverses
/// at a frozen node also becomes a new job, with the same choices down to that node and
/// the reversing thread there.
///
/// A new job sleeps, at its node, on the siblings explored or given to a job before it
/// (the step each takes there is found by running the choices down to it), as a search on
/// one core sleeps on the siblings it explored before. Sleep sets only leave out what
/// another job explores, so together the jobs cover what the search on one core covers.
/// SoundnessTests holds this to exhaustive search.
///
/// The result does not depend on the number of cores. Each round gives the first
/// ``jobsPerRound`` unfinished jobs, in the order they were made, `share` schedules each
/// (fewer when the budget is nearly spent); they run on whichever cores are free, and what
/// they found is taken in that order. Where a budget cuts the search short, the figures
/// differ from the search on one core's, as the two run schedules in different orders.
struct SplitSearch {
  /// Jobs run each round: enough to keep a few cores busy, few enough that a round is short.
  static let jobsPerRound = 8
  /// Schedules each job runs in a round: 64 unless a test wants many small jobs.
  let share: Int

  let scenario: Scenario
  let preemptionBound: Int?
  private let start: Execution
  private var jobs: [Job] = []
  /// The frozen nodes' choices, by the choices above them: each thread explored or given to
  /// a job there, in order, with the accesses of its step there, and whether it was
  /// explored before the node froze.
  private var given: [[Int]: [Sibling]] = [:]
  /// What finished jobs found, taken in order as they finished.
  private var merged: Exploration

  private struct Sibling {
    var thread: Int
    var accesses: [Access]
    var explored = false
  }

  init(scenario: Scenario, options: SimulationOptions, preemptionBound: Int?, share: Int = 64) {
    self.scenario = scenario
    self.share = share
    self.preemptionBound = preemptionBound
    var quiet = options
    quiet.recordsEvents = false
    start = Execution(scenario, options: quiet)
    merged = Exploration(
      strategy: .dpor(preemptionBound: preemptionBound), strategyName: "dpor",
      isExhaustive: preemptionBound == nil, isSystematic: true)
  }

  /// Searches until every job is done, `maxSchedules` have run in all, or `shouldStop` says
  /// so between rounds.
  mutating func explore(maxSchedules: Int, workers: Int, shouldStop: () -> Bool) -> Exploration {
    jobs = [Job(forced: [])]
    var total = 0
    var stop: Exploration.Stop?
    while true {
      let active = Array(jobs.filter { !$0.finished }.prefix(Self.jobsPerRound))
      guard !active.isEmpty else { break }
      if shouldStop() {
        stop = .timeLimit
        break
      }
      let left = maxSchedules - total
      guard left > 0 else {
        stop = .maxSchedules(maxSchedules)
        break
      }
      let shares = active.indices.map { k in
        min(share, left / active.count + (k < left % active.count ? 1 : 0))
      }
      let (scenario, start, bound) = (self.scenario, self.start, preemptionBound)
      let ran = concurrentMap(active.count, workers: workers) { k in
        active[k].run(shares[k], scenario: scenario, start: start, preemptionBound: bound)
      }
      total += ran.reduce(0, +)
      for job in active { take(job) }
      split()
    }
    if stop == .maxSchedules(maxSchedules), ranOut() { stop = nil }
    return finish(stop)
  }

  /// Whether every job has run out of executions, with none made from what the last runs
  /// found: the budget ended the search just as it finished. Jobs with executions left run
  /// one, unrecorded.
  private mutating func ranOut() -> Bool {
    var i = 0
    while i < jobs.count {
      let job = jobs[i]
      if !job.finished {
        guard job.explorer?.hasRunOut() == true else { return false }
        job.finished = true
        take(job)
      }
      i += 1
    }
    return true
  }

  /// What the jobs found, in order: the finished ones as they finished, then the rest.
  private func finish(_ stop: Exploration.Stop?) -> Exploration {
    var result = merged
    for job in jobs where !job.finished {
      if let explorer = job.explorer { result.merge(explorer.result) }
    }
    result.distinctSchedules = nil
    if let stop {
      result.stop = stop
      result.searchProgress = progress
    } else {
      result.searchFinished = true
      if preemptionBound != nil { result.stop = .searchBound }
    }
    return result
  }

  /// Takes in what a job's last round found: the races it reversed at frozen nodes, as new
  /// jobs, and its result once it has finished.
  private mutating func take(_ job: Job) {
    guard let scheduler = job.explorer?.scheduler else { return }
    let stack = scheduler.stack
    for (node, thread) in scheduler.exports.dropFirst(job.exportsRead)
    where !(given[stack[..<node].map(\.chosen)] ?? []).contains(where: { $0.thread == thread }) {
      give(thread, at: node, below: stack)
    }
    job.exportsRead = scheduler.exports.count
    if job.finished {
      job.path = stack.prefix(scheduler.frozen).map(\.chosen)
      merged.merge(job.explorer!.result)
      job.explorer = nil
    }
  }

  /// While fewer than ``jobsPerRound`` jobs are left, the unfinished ones, in order, each give
  /// away every untried choice on their path, deepest first.
  private mutating func split() {
    var i = 0
    while i < jobs.count, jobs.count(where: { !$0.finished }) < Self.jobsPerRound {
      let job = jobs[i]
      i += 1
      guard !job.finished, job.explorer != nil else { continue }
      let untried = job.explorer!.splitOff()
      guard let deepest = untried.first?.node else { continue }
      let stack = job.explorer!.scheduler.stack
      // The frozen nodes are taken as explored: each choice taken there, and those tried before.
      for k in 0...deepest {
        let above = stack[..<k].map(\.chosen)
        var siblings = given[above, default: []]
        for t in stack[k].done.sorted() + [stack[k].chosen]
        where !siblings.contains(where: { $0.thread == t }) {
          let accesses =
            t == stack[k].chosen
            ? stack[k].accesses
            : stack[k].sleep.first { $0.thread == t }?.accesses ?? accesses(of: t, after: above)
          siblings.append(Sibling(thread: t, accesses: accesses, explored: t != stack[k].chosen))
        }
        given[above] = siblings
      }
      for (node, threads) in untried {
        for thread in threads { give(thread, at: node, below: stack) }
      }
    }
  }

  /// Makes a job of `thread` at node `node` of the path `stack`: the path's choices down to
  /// there, each with its node's sleep set and backtrack set, then `thread`, asleep on the
  /// siblings explored or given there before it.
  private mutating func give(_ thread: Int, at node: Int, below stack: [DPORScheduler.Node]) {
    let above = stack[..<node].map(\.chosen)
    let siblings = given[above, default: []]
    var forced = stack[..<node].map { n in
      DPORScheduler.ForcedChoice(
        thread: n.chosen, sleep: n.sleep, scheduled: n.backtrack.sorted())
    }
    forced.append(
      DPORScheduler.ForcedChoice(
        thread: thread, sleep: siblings.map { ($0.thread, $0.accesses) },
        scheduled: siblings.map(\.thread)))
    given[above, default: []].append(
      Sibling(thread: thread, accesses: accesses(of: thread, after: above)))
    jobs.append(Job(forced: forced))
  }

  /// What `thread`'s step touches after the choices `path`, found by running them: what a
  /// sibling given a job after it sleeps on.
  private func accesses(of thread: Int, after path: [Int]) -> [Access] {
    var execution = start
    for t in path {
      _ = execution.runnableThreads()
      execution.step(t)
    }
    _ = execution.runnableThreads()
    return execution.step(thread).accesses
  }

  /// About how much of the search is done, from 0 to 1: at each frozen node the siblings
  /// split the tree evenly (as ``DPORScheduler/progress`` does), and each job counts for how
  /// far it got in its share.
  private var progress: Double {
    var jobAt: [[Int]: Job] = [:]
    for job in jobs {
      if let path = job.path {
        jobAt[path] = job
      } else if let scheduler = job.explorer?.scheduler {
        jobAt[scheduler.stack.prefix(scheduler.frozen).map(\.chosen)] = job
      } else {
        jobAt[job.forced.map(\.thread)] = job
      }
    }
    func done(below path: [Int]) -> Double {
      if let job = jobAt[path] { return job.finished ? 1 : job.explorer?.scheduler.progress ?? 0 }
      guard let siblings = given[path], !siblings.isEmpty else { return 0 }
      let sum = siblings.reduce(0.0) { sum, s in
        sum + (s.explored ? 1 : done(below: path + [s.thread]))
      }
      return sum / Double(siblings.count)
    }
    return min(done(below: []), 1)
  }
}

/// One job of a split search: a subtree below its forced choices. A class, so that each
/// round's worker runs it in place; only one worker touches a job in a round.
private final class Job: @unchecked Sendable {
  let forced: [DPORScheduler.ForcedChoice]
  /// Made when the job first runs, dropped once it has finished and its result is taken.
  var explorer: Explorer<DPORScheduler>?
  var finished = false
  /// The exports already made into jobs.
  var exportsRead = 0
  /// The choices at its frozen nodes, kept once it has finished.
  var path: [Int]?

  init(forced: [DPORScheduler.ForcedChoice]) { self.forced = forced }

  /// Runs up to `count` executions and returns how many ran.
  func run(_ count: Int, scenario: Scenario, start: Execution, preemptionBound: Int?) -> Int {
    if explorer == nil {
      explorer = Explorer(
        scenario: scenario,
        scheduler: DPORScheduler(reduces: true, preemptionBound: preemptionBound, forced: forced),
        strategy: .dpor(preemptionBound: preemptionBound), start: start)
    }
    let (ran, finished) = explorer!.run(count, maxAbandoned: count * 16)
    self.finished = finished
    return ran
  }
}
