/// Explores a scenario and holds what its runs show to its declared `expect`.
///
/// Without a strategy the search is systematic within the budget.
///
/// - A design declared clean is first searched state by state
///   (``ExplorationStrategy/stateful(maxStates:preemptionBound:)``, keeping at most
///   `maxStates` states): where that finishes it is the proof. Where it does not, DPOR runs
///   the schedule budget, and then the stateful search within a preemption bound of 0, 1,
///   2, … (``proveWithinBounds``), each within the state budget: the largest bound that
///   finishes is a bounded proof. When not even bound 0 finishes, PCT runs the schedule
///   budget. Any violation an unfinished search found is kept.
/// - A design declared buggy is searched by DPOR; the complete search is given up a quarter
///   into a budget of 1,000 or more when it estimates itself under 1% done
///   (``Exploration/Stop/hopeless(maxSchedules:)``). Past the budget, DPOR within a bound of
///   0, 1, 2, … looks for the declared violations with a budget of its own, then PCT.
///
/// The verdict rests on every search's outcomes together, and is, in order: limited when a
/// run limit cut any schedule short; failed when the runs differ from the declaration;
/// unmodelled when any run passed a line the scenario does not model; for a design declared
/// clean, bounded when only a search within a preemption bound finished,
/// incomplete unless a search covered every interleaving; passed. A design declared buggy
/// passes once each declared violation showed where it must and nothing else did, even
/// from an incomplete search: the violations found are real.
///
/// - Parameters:
///   - options: how runs are modelled; by default as the scenario says (its
///     `concurrencyDebug`).
///   - strategy: nil for the systematic search with its fallback; a strategy given is the
///     only one run.
///   - maxSchedules: the budget of schedules, for the search and again for the fallback.
///   - maxStates: the states each stateful search of a design declared clean keeps; by
///     default ``checkStateBudget(_:)`` of `maxSchedules`.
///   - seed: the seed of the PCT fallback; a given `strategy` carries its own.
///   - workers: the cores a DPOR search of the systematic search may split across
///     (``SplitSearch``); the result is the same on any number.
///   - shouldStop: asked between schedules, or between a split search's rounds; true ends
///     the search (a time limit).
public func check(
  _ scenario: Scenario, options: SimulationOptions? = nil, strategy: ExplorationStrategy? = nil,
  maxSchedules: Int = defaultScheduleBudget, maxStates: Int? = nil, seed: UInt64 = 0,
  workers: Int = 1, shouldStop: () -> Bool = { false }
) -> ScenarioCheck {
  let options = options ?? SimulationOptions(scenario)
  let declaredClean = scenario.expectation?.violations.isEmpty == true
  var stateful: Exploration?
  if strategy == nil, declaredClean {
    stateful = explore(
      scenario, strategy: .stateful(maxStates: maxStates ?? checkStateBudget(maxSchedules)),
      options: options, shrinking: false, shouldStop: shouldStop)
  }
  var exploration: Exploration
  var fallback: ScenarioCheck.Fallback?
  if let stateful, stateful.isComplete || stateful.limit != nil {
    exploration = stateful
  } else {
    // Failing outcomes are shrunk once, after every search is merged, not once per search.
    if let strategy {
      exploration = explore(
        scenario, strategy: strategy, options: options, maxSchedules: maxSchedules,
        shrinking: false, shouldStop: shouldStop)
    } else {
      exploration = completeSearch(
        scenario, options: options, maxSchedules: maxSchedules, workers: workers,
        givesUp: scenario.expectation != nil && !declaredClean, shouldStop: shouldStop)
    }
    // Violations the unfinished stateful search found are real; its clean runs prove nothing.
    if let stateful, stateful.failingSchedules > 0 { exploration.merge(stateful) }
    let outOfBudget =
      exploration.stop == .maxSchedules(maxSchedules)
      || exploration.stop == .hopeless(maxSchedules: maxSchedules)
    if strategy == nil, outOfBudget, exploration.limit == nil {
      if declaredClean {
        fallback = proveWithinBounds(
          scenario, options: options, into: &exploration,
          maxStates: maxStates ?? checkStateBudget(maxSchedules), maxSchedules: maxSchedules,
          seed: seed, shouldStop: shouldStop)
      } else {
        fallback = boundPreemptions(
          scenario, options: options, into: &exploration, maxSchedules: maxSchedules,
          seed: seed, workers: workers, shouldStop: shouldStop)
      }
    }
  }
  exploration = shrinkFailingOutcomes(of: exploration, scenario: scenario, options: options)
  let decided = verdict(scenario, exploration, fallback)
  return ScenarioCheck(
    file: scenario.file, title: scenario.title, exploration: exploration, fallback: fallback,
    verdict: decided.verdict, findings: decided.findings, replay: decided.replay,
    unmodelledLines: decided.lines)
}

/// DPOR without a bound, within `maxSchedules`.
///
/// For a design declared buggy (`givesUp`), a hopeless complete search is given up early:
/// the bounded fallback is a better use of the budget. That search runs on one core, depth
/// first, as a search split across cores spends its budget in many subtrees at once, some
/// of them mostly runs a sleep set cuts short, and finds the declared violations no sooner.
/// A design declared clean keeps the whole budget, as a complete proof is at stake and the
/// estimate may be wrong; its search is split across `workers` cores (``SplitSearch``).
private func completeSearch(
  _ scenario: Scenario, options: SimulationOptions, maxSchedules: Int, workers: Int,
  givesUp: Bool, shouldStop: () -> Bool
) -> Exploration {
  guard givesUp else {
    var search = SplitSearch(scenario: scenario, options: options, preemptionBound: nil)
    return search.explore(maxSchedules: maxSchedules, workers: workers, shouldStop: shouldStop)
  }
  var explorer = Explorer(
    scenario: scenario, scheduler: DPORScheduler(), strategy: .dpor(preemptionBound: nil),
    options: options)
  return explorer.explore(
    maxSchedules: maxSchedules, shrinking: false, givesUp: true, shouldStop: shouldStop)
}

/// States check's stateful search keeps before it gives way to DPOR: ten per schedule of
/// the budget, at most ``defaultStateBudget``. The default budget gives 100,000 states kept,
/// about 3 MB: enough for the fixed downloader with 6 URLs (110,000 states, 35,000 kept),
/// and at most about 10 s spent on this project's machine before DPOR takes over where it
/// is not enough.
public func checkStateBudget(_ maxSchedules: Int) -> Int {
  maxSchedules > defaultStateBudget / 10 ? defaultStateBudget : maxSchedules * 10
}

/// Schedules a check or an exploration runs unless told otherwise: enough to explore the
/// fixed photo downloader's 6,720 classes of interleavings completely.
public let defaultScheduleBudget = 10_000

/// The check's verdict, with the evidence it rests on.
private struct Decided {
  var verdict: Verdict
  var findings: [ScenarioCheck.Finding] = []
  var replay: Schedule?
  var lines: [UnmodelledLine] = []
}

private func verdict(
  _ scenario: Scenario, _ exploration: Exploration, _ fallback: ScenarioCheck.Fallback?
) -> Decided {
  guard let expectation = scenario.expectation else { return Decided(verdict: .noExpectation) }
  if let limited = exploration.limitedOutcome, let limit = limited.limit {
    return Decided(verdict: .limited(limit), replay: limited.shortest)
  }
  let expectations = ExpectationCheck(expectation, traces: exploration.outcomes.map(\.example))
  guard expectations.passed else {
    let unexpected = expectations.unexpected.map { v in
      ScenarioCheck.Finding.unexpected(
        v, stepLabel: scenario.allSteps[v.site.stepIndex].label,
        replay: exploration.outcomes.first { outcome in
          outcome.example.violations.contains {
            $0.site.stepIndex == v.site.stepIndex && $0.kind == v.kind
          }
        }?.shortest)
    }
    /// The shortest schedule of an outcome whose run lacks what was declared.
    func counterexample(_ lacks: (Trace) -> Bool) -> Schedule? {
      exploration.outcomes.first { lacks($0.example) }?.shortest
    }
    let missing = expectations.missing.map { expected in
      ScenarioCheck.Finding.missing(
        expected,
        counterexample: counterexample { !$0.violations.contains(where: expected.matches) })
    }
    let missingHandled = expectations.missingHandled.map { expected in
      ScenarioCheck.Finding.missingHandled(
        expected,
        counterexample: counterexample { !$0.handledErrors.contains(where: expected.matches) })
    }
    return Decided(verdict: .failed, findings: missing + missingHandled + unexpected)
  }
  // Lines the runs passed without modelling them may do anything: neither a clean design
  // nor exactly the declared violations is shown.
  if let passing = exploration.outcomes.first(where: { !$0.unmodelled.isEmpty }) {
    let lines = exploration.unmodelledSteps.map { UnmodelledLine(passed: scenario.allSteps[$0]) }
    return Decided(verdict: .unmodelled, replay: passing.shortest, lines: lines)
  }
  if expectation.violations.isEmpty && !exploration.isComplete {
    if case .statefulBounded(let preemptions, let states)? = fallback {
      return Decided(verdict: .bounded(preemptions: preemptions, states: states))
    }
    return Decided(verdict: .incomplete(exploration.stop))
  }
  return Decided(verdict: .passed)
}
