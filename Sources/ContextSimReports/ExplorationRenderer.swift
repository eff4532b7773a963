import ContextSimCore

/// Renders an exploration for people: what ran, the outcomes, and for each failing one the
/// command that replays its shortest schedule.
///
///     Explored scenarios/race.json with dpor: 6 schedules, every class of interleavings.
///       6 ran, 6 distinct, 4 failing; steps per schedule 7 / 8 / 9 (min / median / max)
///        2  clean
///        4  dataRace at main[0].async.do[0], main[1].async.do[0]
public struct ExplorationRenderer {
  let scenario: Scenario
  /// How to say "replay this schedule" and "raise this bound".
  let advice: Advice
  private let steps: [Step]

  /// A renderer for explorations of `scenario`, wording replays with `advice`.
  public init(scenario: Scenario, advice: Advice = .plain) {
    self.scenario = scenario
    self.advice = advice
    steps = scenario.allSteps
  }

  /// A headline (how far the search got), the figures, then each outcome with its count and,
  /// for a failing one, its shortest schedule and how to replay it.
  public func render(_ exploration: Exploration) -> String {
    var out = [headline(exploration)]
    let range = exploration.stepRange
    let steps = "\(range.min) / \(range.median) / \(range.max) (min / median / max)"
    if exploration.statesVisited != nil {
      // Each run of a stateful search ends in a state no other run ended in.
      out.append(
        "  \(exploration.schedulesRun) end state\(exploration.schedulesRun == 1 ? "" : "s"), "
          + "\(exploration.failingSchedules) failing; steps to each \(steps)")
      out += interchangeable(exploration.interchangeableValues)
    } else {
      let distinct =
        exploration.distinctSchedules.map(String.init) ?? "over \(distinctScheduleLimit)"
      out.append(
        "  \(exploration.schedulesRun) ran, \(distinct) distinct, \(exploration.failingSchedules) failing; "
          + "steps per schedule \(steps)")
    }
    out.append("Outcomes:")
    let width = String(exploration.outcomes.map(\.schedules).max() ?? 0).count
    for outcome in exploration.outcomes {
      let count = String(outcome.schedules)
      let pad = String(repeating: " ", count: width - count.count)
      out.append("  \(pad)\(count)  " + describe(outcome))
      guard !outcome.isClean else { continue }
      let preemptions = outcome.preemptions.map { "\(countedPreemptions($0)), " } ?? ""
      out.append(
        "  \(String(repeating: " ", count: width))    shortest (\(preemptions)\(outcome.shortest.threads.count) steps): "
          + replayCommand(outcome.shortest))
    }
    out += unmodelled(exploration)
    return out.joined(separator: "\n") + "\n"
  }

  /// The values a stateful search swapped, if any: states equal but for a swap of them
  /// counted once.
  private func interchangeable(_ strings: [String]) -> [String] {
    let values = strings.map { Value.string($0).swiftDescription }
    guard let first = values.first, let last = values.last else { return [] }
    let listed = values.count <= 3 ? values.joined(separator: ", ") : "\(first) … \(last)"
    return [
      "  \(values.count) values taken as interchangeable (named only in a task group or loop):",
      "    " + listed,
    ]
  }

  /// How to replay a schedule with the full report.
  public func replayCommand(_ schedule: Schedule) -> String {
    advice.replay(scenario.file, schedule)
  }

  /// `clean`, the violations, the lines passed without modelling them, or the limit that
  /// cut the runs short.
  func describe(_ outcome: Outcome) -> String {
    if outcome.isClean { return "clean" }
    var parts: [String] = []
    if !outcome.signature.isEmpty { parts.append(describe(outcome.signature)) }
    if !outcome.unmodelled.isEmpty {
      let places = outcome.unmodelled.map { UnmodelledLine(passed: steps[$0]).place }
      parts.append(
        "not modelled: passed \(Messages.lineCount(places.count)) (\(places.joined(separator: ", ")))"
      )
    }
    if let limit = outcome.limit { parts.append("cut short by the \(limit.name) limit") }
    return parts.joined(separator: "; ")
  }

  /// The lines the runs passed without modelling them, when any did: why it is not clean.
  private func unmodelled(_ e: Exploration) -> [String] {
    let lines = e.unmodelledSteps.map { UnmodelledLine(passed: steps[$0]) }
    guard !lines.isEmpty else { return [] }
    let verdict =
      e.failingSchedules > 0
      ? "The runs also passed \(Messages.lineCount(lines.count)) ctxsim could not model:"
      : "Not clean: the runs passed \(Messages.lineCount(lines.count)) ctxsim could not model, so what they do is unknown (exit 3):"
    return [verdict] + Messages.unmodelledList(lines)
  }

  private func headline(_ e: Exploration) -> String {
    let schedules =
      e.statesVisited.map { "\($0) state\($0 == 1 ? "" : "s") kept" }
      ?? "\(e.schedulesRun) schedule\(e.schedulesRun == 1 ? "" : "s")"
    var line = "Explored \(scenario.file) with \(e.strategyName): \(schedules)"
    if e.isComplete {
      switch e.strategy {
      case .exhaustive?: line += ", every interleaving."
      case .stateful?: line += ", every state a run can reach."
      default: line += ", every class of interleavings."
      }
    } else if let limit = e.limit {
      line +=
        ", \(e.limitedSchedules) cut short by the \(limit.name) limit; the search is incomplete.\n  "
        + limit.message(advice)
    } else {
      if let stop = e.stop { line += ", " + advice.stopped(stop, strategy: e.strategy) }
      if let progress = e.searchProgress {
        // Rounded by hand: `rounded()` needs libm, which a package importing only
        // ContextSim does not link on Linux.
        line += " with about \(Int(progress * 100 + 0.5))% of the search done."
      } else {
        line += "."
      }
    }
    if e.prunedRuns > 0 {
      line +=
        " \(e.prunedRuns) more run\(e.prunedRuns == 1 ? " was" : "s were") cut short as repeats."
    }
    return line
  }

  /// `dataRace at main[0].async.do[0] "label"; corruption at …`.
  func describe(_ signature: [ViolationSignature]) -> String {
    signature.map { v in
      var text = "\(v.kind.rawValue) at \(place(v.stepIndex))"
      if v.otherStepIndex >= 0 { text += " and \(place(v.otherStepIndex))" }
      return text
    }.joined(separator: "; ")
  }

  private func place(_ index: Int) -> String {
    steps[index].path + (steps[index].label.map { " \"\($0)\"" } ?? "")
  }
}

extension ExplorationRenderer {
  /// The exploration as one JSON document.
  public func document(_ e: Exploration) -> JSONValue {
    let range = e.stepRange
    return .object([
      "scenario": .string(scenario.file),
      "strategy": .string(e.strategyName),
      "schedules": .integer(e.schedulesRun),
      "states": e.statesVisited.map(JSONValue.integer),
      "interchangeable": e.interchangeableValues.isEmpty
        ? nil : .array(e.interchangeableValues.map(JSONValue.string)),
      "distinct": e.distinctSchedules.map(JSONValue.integer),
      "failing": .integer(e.failingSchedules),
      "pruned": .integer(e.prunedRuns),
      "verdict": .string(e.verdict.name),
      "complete": .bool(e.isComplete),
      "limited": .integer(e.limitedSchedules),
      "stoppedBy": e.stop.map { stop in
        switch stop {
        case .maxSchedules: .string("maxSchedules")
        case .timeLimit: .string("timeLimit")
        case .searchBound: .string("searchBound")
        case .maxStates: .string("maxStates")
        case .hopeless: .string("hopeless")
        }
      },
      "steps": .object([
        "min": .integer(range.min), "median": .integer(range.median), "max": .integer(range.max),
      ]),
      "outcomes": .array(
        e.outcomes.map { outcome in
          .object([
            "schedules": .integer(outcome.schedules),
            "violations": .array(
              outcome.signature.map { v in
                .object([
                  "kind": .string(v.kind.rawValue), "path": .string(steps[v.stepIndex].path),
                  "label": steps[v.stepIndex].label.map(JSONValue.string),
                  "otherPath": v.otherStepIndex >= 0 ? .string(steps[v.otherStepIndex].path) : nil,
                ])
              }),
            "unmodelled": outcome.unmodelled.isEmpty
              ? nil
              : .array(
                outcome.unmodelled.map { UnmodelledLine(passed: steps[$0]) }.map(
                  JSONRenderer.unmodelled)),
            "limit": outcome.limit.map { .string($0.name) },
            "shortest": .string(outcome.shortest.description),
            "preemptions": outcome.preemptions.map(JSONValue.integer),
            "replay": outcome.isClean ? nil : .string(replayCommand(outcome.shortest)),
          ])
        }),
    ])
  }
}

extension Advice {
  /// Why a search ended before it was complete, as a phrase:
  /// `stopped by the budget of 50 schedules (--max-schedules raises it)`.
  package func stopped(_ stop: Exploration.Stop, strategy: ExplorationStrategy?) -> String {
    switch stop {
    case .maxSchedules(let n):
      explain("stopped by the budget of \(n) schedules", raising: .schedules)
    case .timeLimit: explain("stopped by the time limit", raising: .time)
    case .maxStates(let n): explain("stopped by the bound of \(n) states", raising: .states)
    case .hopeless(let n):
      explain(
        "given up a quarter into the budget of \(n) schedules, under 1% done", raising: .schedules)
    case .searchBound:
      if case .dpor(let bound?)? = strategy {
        "the classes dpor reaches with at most \(countedPreemptions(bound)), none with more "
          + "(only stateful is sure to reach every one)"
      } else if case .stateful(_, let bound?)? = strategy {
        "every state a run with at most \(countedPreemptions(bound)) reaches, none with more"
      } else {
        "every execution its scheduler offered; not proven to be every interleaving"
      }
    }
  }
}

/// `1 preemption`, `2 preemptions`: the one wording every report uses.
func countedPreemptions(_ n: Int) -> String { counted(n, "preemption") }

/// `1 state`, `2 states`: a count and its noun, in the plural unless it is one.
func counted(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
