import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// The stateful search steps a run in place, without copying it, where it can tell before
/// the step that it will take that step alone. Where it guessed wrong, it runs the state's
/// schedule again: the search must come out exactly as if it had copied the run.
@Suite("The stateful search steps in place only where it takes a step alone")
struct StepInPlaceTests {
  /// The reader's first `let` looks local, a `let` in the middle of its block, but it reads a
  /// shared var: the search steps it in place, finds it shared, and takes it back.
  static let letReadingSharedVar = """
    {"title": "A let that reads a shared var", "vars": {"counter": 0},
     "main": [
       {"async": "global", "label": "reader", "do": [
         {"let": "seen", "value": "$counter", "label": "read-counter"},
         {"print": "read"},
         {"let": "again", "value": "$counter"},
         {"print": "done"}]},
       {"async": "global", "label": "writer", "do": [
         {"print": "about to write"},
         {"write": "counter", "value": 1, "label": "write-counter"},
         {"print": "written"}]}]}
    """

  @Test("A step that looked local but read a shared var is taken back, and nothing is lost")
  func sharedStepIsTakenBack() throws {
    let s = try scenario(Self.letReadingSharedVar)
    let options = SimulationOptions(s)
    let full = explore(s, strategy: .exhaustive, options: options, shrinking: false)
    let stateful = explore(
      s, strategy: .stateful(maxStates: 1_000), options: options, shrinking: false)
    #expect(full.isComplete && stateful.isComplete)
    #expect(outcomeSet(stateful) == outcomeSet(full))
    #expect(outcomeSet(stateful).count == 2)
    // The states a search that copies every successor keeps (measured before this change).
    #expect(stateful.statesVisited == 15)
  }
}
