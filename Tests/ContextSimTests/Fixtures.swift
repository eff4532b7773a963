import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// Decodes a scenario written inline in a test; fails the test if it has errors.
func scenario(_ json: String, file: String = "test.json") throws -> Scenario {
  do {
    return try ScenarioDecoder.decode(Array(json.utf8), file: file)
  } catch {
    Issue.record("scenario did not decode:\n\(error)")
    throw error
  }
}

/// The errors a scenario written inline produces; empty if it decodes.
func errors(_ json: String) -> [ScenarioError] {
  do {
    _ = try ScenarioDecoder.decode(Array(json.utf8), file: "test.json")
    return []
  } catch {
    return error.errors
  }
}

/// Runs a scenario on the default schedule.
func run(
  _ scenario: Scenario, concurrencyDebug: Bool = true, stopAtFirst: Bool = false
) -> Trace {
  var scheduler = RunToCompletionScheduler()
  return simulate(
    scenario,
    options: SimulationOptions(concurrencyDebug: concurrencyDebug, stopAtFirstCrash: stopAtFirst),
    scheduler: &scheduler)
}

/// A scenario with one entity `Note(title)`, two stored notes, a private context
/// `background`, and the given steps for the main thread.
func notes(
  _ main: String, contexts: String = #"{"background": {"queue": "private"}}"#, extra: String = ""
) throws -> Scenario {
  try scenario(
    """
    {
      "title": "notes",
      "model": {"Note": {"attributes": {"title": "string", "pinned": {"type": "boolean", "default": false}}}},
      "store": {"Note": [{"id": "note-1", "title": "Buy milk"}, {"id": "note-2", "title": "Call Bob"}]},
      "contexts": \(contexts)\(extra),
      "main": \(main)
    }
    """)
}

extension Trace {
  var kinds: [ViolationKind] { violations.map(\.kind) }

  /// The text of every visible event, for assertions on what a run did.
  var lines: [String] {
    events.compactMap { Messages.describe($0.effect, allSteps: false) }
  }
}

struct UnexpectedViolation: Error {}

/// The facts of a ConcurrencyDebug trap; fails the test if the violation is not one.
func trapFacts(_ violation: Violation?) throws -> Violation.WrongQueue {
  guard case .wrongQueue(let w)? = violation?.detail else {
    Issue.record("expected a trap, found \(violation.map { "\($0.kind)" } ?? "nothing")")
    throw UnexpectedViolation()
  }
  return w
}

/// A scenario with `Album(title) <->> Photo(url, title, album)`, one stored album with one
/// photo, two private contexts `one` and `two`, and the given steps for the main thread.
func albums(
  _ main: String,
  contexts: String = #"{"one": {"queue": "private"}, "two": {"queue": "private"}}"#,
  model: String = "", extra: String = ""
) throws -> Scenario {
  try scenario(
    """
    {
      "title": "albums",
      "model": {
        "Album": {"attributes": {"title": "string"},
                  "relationships": {"photos": {"to": "Photo", "many": true, "inverse": "album", "deleteRule": "nullify"}}},
        "Photo": {"attributes": {"url": "string", "title": "string"},
                  "relationships": {"album": {"to": "Album", "inverse": "photos"}}}\(model)
      },
      "store": {
        "Album": [{"id": "album-1", "title": "Trip"}],
        "Photo": [{"id": "photo-1", "url": "a.jpg", "album": "album-1"}]
      },
      "contexts": \(contexts)\(extra),
      "main": \(main)
    }
    """)
}

extension Trace {
  /// Every visible line, including those the default report hides.
  var allLines: [String] {
    events.compactMap { Messages.describe($0.effect, allSteps: true) }
  }
}

/// The Core Data error a caught violation carries; fails the test if it is not one.
func caughtError(_ violation: Violation?) throws -> CoreDataError {
  guard case .caughtError(let error, _)? = violation?.detail else {
    Issue.record("expected a caught error, found \(violation.map { "\($0.kind)" } ?? "nothing")")
    throw UnexpectedViolation()
  }
  return error
}
