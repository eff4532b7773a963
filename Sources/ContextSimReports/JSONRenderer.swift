import ContextSimCore

/// Renders a run as one JSON document for tools: events, violations, schedule.
public struct JSONRenderer {
  let scenario: Scenario
  private let steps: [Step]

  /// A renderer for runs of `scenario`, which names each step's path, label and Swift.
  public init(scenario: Scenario) {
    self.scenario = scenario
    steps = scenario.allSteps
  }

  /// The run as indented JSON, keys in a fixed order: `scenario`, `title`, `concurrencyDebug`,
  /// `verdict`, `threads`, `events`, `violations`, `unmodelled` (when the run passed lines the
  /// scenario does not model), `appExitStatus`, `stop` (when the run stopped early) and
  /// `schedule`.
  public func render(_ trace: Trace) -> String {
    JSONWriter.write(document(trace))
  }

  /// The run as a JSON tree, to embed in a larger document or inspect in tests.
  public func document(_ trace: Trace) -> JSONValue {
    .object([
      "scenario": .string(scenario.file),
      "title": .string(scenario.title),
      "concurrencyDebug": .bool(trace.concurrencyDebug),
      "verdict": .string(trace.verdict.name),
      "threads": .array(trace.threads.map(JSONValue.string)),
      "events": .array(trace.events.map(event)),
      "violations": .array(trace.violations.map(violation)),
      "unmodelled": trace.unmodelled.isEmpty
        ? nil : .array(trace.unmodelledLines(in: scenario).map(Self.unmodelled)),
      "appExitStatus": .integer(Int(trace.firstCrash?.termination?.exitStatus ?? 0)),
      "stop": trace.stop.map { .string(stopName($0)) },
      "schedule": .string(trace.schedule.description),
    ])
  }

  private func place(_ site: Site) -> [(String, JSONValue?)] {
    [
      ("step", .integer(site.step)), ("thread", .string(site.thread)),
      ("queue", .string(site.queue)), ("path", .string(site.path)),
      ("label", steps[site.stepIndex].label.map(JSONValue.string)),
      ("swift", .string(steps[site.stepIndex].swift)),
    ]
  }

  private func event(_ event: TraceEvent) -> JSONValue {
    members(
      place(event.site) + [
        ("effect", .string(event.effect.name)),
        ("text", Messages.describe(event.effect, allSteps: true).map(JSONValue.string)),
      ])
  }

  private func violation(_ v: Violation) -> JSONValue {
    members(
      [("kind", .string(v.kind.rawValue))] + place(v.site) + [
        ("labels", .array(v.labels.map(JSONValue.string))),
        ("message", .string(v.headline)),
        ("crash", Messages.crashLine(v).map(JSONValue.string)),
        ("exitStatus", v.termination.map { .integer(Int($0.exitStatus)) }),
        ("backtrace", .array(v.backtrace.map(backtraceEntry))),
      ])
  }

  /// A line the run passed without modelling it: `place`, `swift`, `why`.
  static func unmodelled(_ line: UnmodelledLine) -> JSONValue {
    .object(["place": .string(line.place), "swift": .string(line.swift), "why": .string(line.why)])
  }

  private func backtraceEntry(_ entry: BacktraceEntry) -> JSONValue {
    switch entry {
    case .step(let index):
      .object(["path": .string(steps[index].path), "swift": .string(steps[index].swift)])
    case .enqueued(let queue, let thread):
      .object(["enqueuedOn": .string(queue), "by": .string(thread)])
    case .launch:
      .object(["launch": .bool(true)])
    }
  }

  private func members(_ pairs: [(String, JSONValue?)]) -> JSONValue {
    JSONValue(
      .object(
        pairs.compactMap { key, value in
          value.map { JSONValue.Member(key: key, keyLocation: JSONValue.nowhere, value: $0) }
        }), at: JSONValue.nowhere)
  }

  private func stopName(_ stop: Trace.Stop) -> String {
    switch stop {
    case .crashed: "crashed"
    case .limit(.steps): "stepLimit"
    case .limit(.threads): "threadLimit"
    case .limit(.queues): "queueLimit"
    case .scheduleMismatch: "scheduleMismatch"
    }
  }
}

extension Effect {
  /// A stable name for the kind of effect, for machine formats.
  public var name: String {
    switch self {
    case .enqueued: "enqueued"
    case .postedEvent: "postedEvent"
    case .entered: "entered"
    case .ranInline: "ranInline"
    case .waits: "waits"
    case .asksParent: "asksParent"
    case .fetched: "fetched"
    case .counted: "counted"
    case .inserted: "inserted"
    case .read: "read"
    case .readAfterReset: "readAfterReset"
    case .readNil: "readNil"
    case .wrote: "wrote"
    case .saved: "saved"
    case .savedNothing: "savedNothing"
    case .savedToParent: "savedToParent"
    case .deleted: "deleted"
    case .merged: "merged"
    case .refreshed: "refreshed"
    case .refreshedAll: "refreshedAll"
    case .reset: "reset"
    case .rolledBack: "rolledBack"
    case .obtainedPermanentIDs: "obtainedPermanentIDs"
    case .batchUpdated: "batchUpdated"
    case .batchDeleted: "batchDeleted"
    case .batchInserted: "batchInserted"
    case .mergesOnQueue: "mergesOnQueue"
    case .recordedTransaction: "recordedTransaction"
    case .postedRemoteChange: "postedRemoteChange"
    case .fetchedHistory: "fetchedHistory"
    case .createdContext: "createdContext"
    case .objectID: "objectID"
    case .lookedUp: "lookedUp"
    case .threw: "threw"
    case .caught: "caught"
    case .property: "property"
    case .observing: "observing"
    case .removedObserver: "removedObserver"
    case .posted: "posted"
    case .listed: "listed"
    case .observerRuns: "observerRuns"
    case .loop: "loop"
    case .printed: "printed"
    case .notModelled: "notModelled"
    case .varRead: "varRead"
    case .varWritten: "varWritten"
    case .expectationHeld: "expectationHeld"
    case .expectationFailed: "expectationFailed"
    case .trapped: "trapped"
    case .taskStarted: "taskStarted"
    case .awaits: "awaits"
    case .groupStarted: "groupStarted"
    case .skipped: "skipped"
    case .bound: "bound"
    }
  }
}
