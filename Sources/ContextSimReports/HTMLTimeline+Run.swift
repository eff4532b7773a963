import ContextSimCore

/// The run as the page steps through it: every scheduler step with its line of Swift, the
/// world before the first step and after each one, and the arrows between steps.
///
/// Built once from the scenario and the trace; ``HTMLTimeline`` embeds it in the page as
/// JSON (see `HTMLTimeline+JSON.swift`) and the page's script draws each position from it.
struct TimelineRun {
  /// One scheduler step.
  struct Step: Equatable {
    /// The thread that took it, by lane.
    var lane: Int
    /// Its line of Swift: the scenario step's, or the call Core Data makes for a merge.
    var swift: String
    /// The listing's lines it stands for, from 0: the lines the code pane highlights.
    var lines: [Int]
    /// What it did, one sentence per effect.
    var did: [String]
    /// The context it touched, by its place in ``TimelineRun/contexts``.
    var context: Int?
    /// Its violations, by their place in ``TimelineRun/violations``.
    var violations: [Int]
    /// The scenario step's place in the file, with its label: `main[2].do[0] "insert"`.
    var place: String
    /// The queue the thread was running.
    var queue: String
    /// The scenario step's note.
    var note: String?
    /// For Core Data's automatic merge, the step whose save it takes in.
    var mergedSave: Int?
    /// Why the step happened, when the app's code does not say: an automatic merge's cause.
    var because: String?
    /// Whether its `when` did not hold.
    var skipped: Bool
  }

  /// A happens-before edge; `isMerge` when it runs from a save to the automatic merge it
  /// enqueued, the cause lesson 4 is about.
  struct Arrow: Equatable {
    var from: Int
    var to: Int
    var isMerge: Bool
  }

  /// A violation as the page tells it.
  struct Problem: Equatable {
    var step: Int
    /// `TRAP`, `CRASH`, `RACE`…
    var tag: String
    var kind: String
    var headline: String
    /// What the real app prints as it dies of it, if it does.
    var crash: String?
    /// The error's conflicts or validation failures.
    var details: [String]
    /// The scenario step's place, with its label.
    var place: String
  }

  /// A thread at one position: its next line, what it does, the queues it holds.
  struct ThreadState: Equatable {
    /// The listing line it runs next, or the line of the call it is blocked in, from 0.
    var line: Int?
    /// `next: try writer.save()`, `waits for writer`, `idle`.
    var status: String
    var holds: [String]
  }

  /// An attribute or relationship; `stored` is the store's value when it differs.
  struct Field: Equatable {
    var key: String
    var value: String
    var stored: String?
  }

  /// A managed object as one context sees it.
  struct Object: Equatable {
    var id: String
    var isFault: Bool
    var hasChanges: Bool
    var isDeleted: Bool
    var fields: [Field]
  }

  /// A context at one position.
  struct Context: Equatable {
    var name: String
    var queue: String
    var parent: String?
    var unsaved: Int
    var objects: [Object]
  }

  /// A row of the store.
  struct Row: Equatable {
    var id: String
    var fields: [Field]
  }

  /// The world at one position: before step 1, or after a step.
  struct State: Equatable {
    var threads: [ThreadState]
    var contexts: [Context]
    var store: [Row]
    var vars: [Field]
  }

  /// The threads, one lane each, in the trace's order.
  var lanes: [String]
  /// The contexts, in the order the page colours them.
  var contexts: [String]
  /// Step n is `steps[n - 1]`.
  var steps: [Step]
  var violations: [Problem]
  var arrows: [Arrow]
  /// Position n (after n steps) is `states[n]`. Fewer than `steps.count + 1` when the run
  /// is longer than ``HTMLTimeline/stateLimit``, or when replaying the schedule stopped
  /// short of where the trace went.
  var states: [State]

  init(_ scenario: Scenario, _ trace: Trace, listing: ProgramListing, stateLimit: Int) {
    lanes = trace.threads
    violations = trace.violations.map { v in
      Problem(
        step: v.site.step, tag: Messages.tag(v), kind: v.kind.rawValue,
        headline: v.headline, crash: Messages.crashLine(v),
        details: Messages.errorDetails(v), place: Self.place(v.site, scenario))
    }
    var linesOfStep: [Int: [Int]] = [:]
    for (number, line) in listing.lines.enumerated() {
      if let step = line.step { linesOfStep[step, default: []].append(number) }
    }
    let worlds = Self.worlds(scenario, trace, limit: stateLimit)
    var contexts = worlds.last?.contexts.map(\.name) ?? []
    var violationsAt: [Int: [Int]] = [:]
    for (n, v) in trace.violations.enumerated() { violationsAt[v.site.step, default: []].append(n) }
    var steps: [Step] = []
    for (i, lane) in trace.schedule.threads.enumerated() {
      let number = i + 1
      let events = trace.events(atStep: number)
      let stepViolations = trace.violations(atStep: number)
      let touched =
        events.lazy.compactMap(\.effect.context).first
        ?? stepViolations.lazy.compactMap { v -> String? in
          if case .wrongQueue(let w) = v.detail { w.subject.context } else { nil }
        }.first
      if let touched, !contexts.contains(touched) { contexts.append(touched) }
      var step = Step(
        lane: lane, swift: "starts a block", lines: [], did: [],
        context: touched.flatMap { contexts.firstIndex(of: $0) },
        violations: violationsAt[number] ?? [], place: "",
        queue: "", note: nil, mergedSave: trace.mergedSave(atStep: number), because: nil,
        skipped: trace.skipped(atStep: number))
      if let site = events.first?.site ?? stepViolations.first?.site {
        let scenarioStep = scenario.allSteps[site.stepIndex]
        step.swift = trace.swiftLine(atStep: number, of: scenarioStep)
        step.lines = linesOfStep[site.stepIndex] ?? []
        step.queue = site.queue
        if let into = trace.automaticMerge(atStep: number) {
          // The merge carries its save's site: the lines are the save's, to mark as the
          // cause; the place and note, the save's too, would mislead.
          step.because =
            "Core Data merges "
            + (step.mergedSave.map { "the save of step \($0)" } ?? "a save") + " into \(into), "
            + "in a block of its own on \(into)'s queue, because \(into) merges changes "
            + "automatically."
        } else {
          step.place = Self.place(site, scenario)
          step.note = scenarioStep.note
        }
      }
      step.did = events.compactMap { Messages.describe($0.effect, allSteps: true) }
      steps.append(step)
    }
    self.contexts = contexts
    self.steps = steps
    arrows = trace.orderings.map { o in
      Arrow(from: o.from, to: o.to, isMerge: trace.mergedSave(atStep: o.to) == o.from)
    }
    states = worlds.map { Self.state($0, scenario, linesOf: listing) }
  }

  /// Where a step is in the file, with its label: `main[2].do[0] "insert-photo"`.
  static func place(_ site: Site, _ scenario: Scenario) -> String {
    let label =
      scenario.allSteps.indices.contains(site.stepIndex)
      ? scenario.allSteps[site.stepIndex].label : nil
    return site.path + (label.map { " \"\($0)\"" } ?? "")
  }

  /// The world before the first step and after each step of the trace's schedule, up to
  /// `limit` steps: the schedule replayed, a snapshot taken at every position.
  ///
  /// Replaying is exact, since a run is a function of its schedule; limits are raised to
  /// the trace's own size, so that a run the front end let grow replays in full.
  static func worlds(_ scenario: Scenario, _ trace: Trace, limit: Int) -> [WorldSnapshot] {
    let options = SimulationOptions(
      concurrencyDebug: trace.concurrencyDebug,
      maximumSteps: max(SimulationOptions.defaultMaximumSteps, trace.schedule.threads.count),
      maximumThreads: max(SimulationOptions.defaultMaximumThreads, trace.threads.count),
      recordsEvents: false)
    var execution = Execution(scenario, options: options)
    var worlds = [execution.world]
    for thread in trace.schedule.threads.prefix(limit) {
      guard let runnable = execution.runnableThreads(), runnable.contains(thread) else { break }
      execution.step(thread)
      worlds.append(execution.world)
    }
    return worlds
  }

  /// A snapshot as the page's panes show it; each object's fields say where the store
  /// holds something else, which is what a stale screen or an unsaved change looks like.
  static func state(_ world: WorldSnapshot, _ scenario: Scenario, linesOf listing: ProgramListing)
    -> State
  {
    var stored: [ObjectID: [WorldSnapshot.Field]] = [:]
    for row in world.store { stored[row.id] = row.values }
    let threads = world.threads.map { thread -> ThreadState in
      let status: String
      switch thread.status {
      case .ready(let next): status = "next: " + scenario.allSteps[next].swift
      case .readyToStart: status = "has a block to start"
      case .waiting(let queue): status = "waits for \(queue)"
      case .idle: status = "idle"
      }
      return ThreadState(
        line: thread.at.flatMap { listing.line(ofStep: $0) }, status: status, holds: thread.holds)
    }
    let contexts = world.contexts.map { context in
      Context(
        name: context.name, queue: context.queue, parent: context.parent,
        unsaved: context.unsavedChanges,
        objects: context.objects.map { object in
          let row = stored[object.id]
          return Object(
            id: object.id.description, isFault: object.isFault, hasChanges: object.hasChanges,
            isDeleted: object.isDeleted,
            fields: object.values.map { field in
              let inStore = row?.first { $0.key == field.key }?.value
              return Field(
                key: field.key, value: field.value,
                stored: inStore == field.value ? nil : inStore)
            })
        })
    }
    return State(
      threads: threads, contexts: contexts,
      store: world.store.map { row in
        Row(
          id: row.id.description,
          fields: row.values.map { Field(key: $0.key, value: $0.value, stored: nil) })
      },
      vars: world.vars.map { Field(key: $0.name, value: $0.value.swiftDescription, stored: nil) })
  }
}
