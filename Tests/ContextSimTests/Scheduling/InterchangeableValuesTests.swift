import Foundation
import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// The stateful search treats a task group's or loop's elements that nothing else names as
/// interchangeable (symmetry reduction): only where every step treats them alike, and
/// never so that it misses an outcome.
@Suite("Interchangeable values")
struct InterchangeableValuesTests {
  /// Fewer than the other soundness suites: each program is searched four ways.
  static let programs = 120

  /// A main-actor task group over `items`, whose `then` inserts each into viewContext; `extra`
  /// goes after the group.
  private func program(
    items: String, child: String = #"{"write": "x", "value": "$item"}"#, then: String = "",
    extra: String = ""
  ) -> String {
    #"""
    {"title": "group", "model": {"N": {"attributes": {"t": "string"}}},
     "vars": {"x": 0, "y": 0},
     "main": [{"task": "main", "do": [
       {"taskGroup": [\#(items)], "as": "item", "child": [\#(child)],
        "then": [{"insert": "N", "into": "viewContext", "values": {"t": "$item"}}\#(then)]}\#(extra)]}]}
    """#
  }

  private func slots(_ json: String) throws -> [String: Int] {
    try scenario(json).interchangeable.slots
  }

  @Test("Elements named nowhere else are interchangeable, each once")
  func elementsNamedOnce() throws {
    #expect(try slots(program(items: #""a", "b", "c""#)) == ["a": 0, "b": 1, "c": 2])
    // `a` twice and `c` in an expectation are told apart: only `b` and `d` are alike.
    let named = program(
      items: #""a", "b", "a", "c", "d""#,
      extra: #", {"expect": {"count": "N", "in": "viewContext", "where": {"t": "c"}, "equals": 1}}"#
    )
    #expect(try slots(named) == ["b": 0, "d": 1])
    // One value alone has nothing to swap with.
    #expect(try slots(program(items: #""a", "b", "a""#)).isEmpty)
  }

  @Test("A stateful report names the values it swapped; other strategies' do not")
  func reportNamesThem() throws {
    let s = try scenario(program(items: #""a", "b", "c", "d""#))
    let renderer = ExplorationRenderer(scenario: s)
    let stateful = renderer.render(
      explore(s, strategy: .stateful(maxStates: 1_000), shrinking: false))
    #expect(
      stateful.contains(
        "  4 values taken as interchangeable (named only in a task group or loop):\n"
          + #"    "a" … "d""# + "\n"))
    let dpor = renderer.render(explore(s, strategy: .dpor(preemptionBound: nil), shrinking: false))
    #expect(!dpor.contains("interchangeable"))
    let three = try scenario(program(items: #""a", "b", "c""#))
    let listed = ExplorationRenderer(scenario: three).render(
      explore(three, strategy: .stateful(maxStates: 1_000), shrinking: false))
    #expect(listed.contains(#"    "a", "b", "c""#))
  }

  /// Grading keeps each run's rows, and two end states with the values swapped are two
  /// outcomes there.
  @Test("A search that keeps end states swaps nothing")
  func endStatesKept() throws {
    let s = try scenario(program(items: #""a", "b", "c""#))
    var options = SimulationOptions(s)
    let swapped = explore(s, strategy: .stateful(maxStates: 1_000), options: options)
    options.capturesEndState = true
    let kept = explore(s, strategy: .stateful(maxStates: 1_000), options: options)
    var plain = s
    plain.interchangeable = .none
    let unreduced = explore(plain, strategy: .stateful(maxStates: 1_000), options: options)
    #expect(swapped.interchangeableValues == ["a", "b", "c"])
    #expect(kept.interchangeableValues.isEmpty)
    #expect(kept.statesVisited == unreduced.statesVisited)
    #expect((swapped.statesVisited ?? .max) < (kept.statesVisited ?? 0))
    #expect(kept.outcomes.count == unreduced.outcomes.count)
  }

  @Test(
    "Nothing is interchangeable where a step could tell the values apart",
    arguments: [
      // An order on strings.
      #", {"fetch": "N", "in": "viewContext", "where": {"t": {"<": "m"}}}"#,
      #", {"fetch": "N", "in": "viewContext", "sortBy": [{"key": "t"}]}"#,
      // A caught error's text.
      #", {"save": "viewContext", "catch": [{"read": "x"}]}"#,
    ])
  func orderOrCatchTurnsItOff(step: String) throws {
    let json = program(items: #""a", "b", "c""#, extra: step)
    #expect(errors(json).isEmpty)
    #expect(try slots(json).isEmpty)
  }

  @Test("A task group or loop that may run twice makes its elements again: not interchangeable")
  func repeatedGroup() throws {
    let json = #"""
      {"title": "loop", "vars": {"x": 0},
       "main": [{"task": "main", "do": [{"forEach": [1, 2], "as": "n", "do": [
         {"taskGroup": ["a", "b"], "as": "item", "child": [{"write": "x", "value": "$item"}],
          "then": [{"read": "x"}]}]}]}]}
      """#
    #expect(try slots(json).isEmpty)
    let loop = #"""
      {"title": "loop", "vars": {"x": 0},
       "main": [{"forEach": ["a", "b"], "as": "item", "do": [
         {"async": "global", "do": [{"write": "x", "value": "$item"}]}]}]}
      """#
    #expect(try slots(loop) == ["a": 0, "b": 1])
    let nested = loop.replacingOccurrences(
      of: #""main": ["#, with: #""main": [{"forEach": [1, 2], "as": "n", "do": ["#
    ).replacingOccurrences(of: "]}]}]}", with: "]}]}]}]}")
    #expect(errors(nested).isEmpty)
    #expect(try slots(nested).isEmpty)
  }

  /// Why an order turns it off: `t < y` tells `u1` from `u2`. The first element `then`
  /// takes goes into `y`; after the group the rows below it are counted, none when `u1`
  /// came first and one when `u2` did. Swapping the values merges the two runs' states, and
  /// one of the two outcomes is lost.
  @Test("An order on the values would make the swap lose an outcome")
  func orderingLosesAnOutcome() throws {
    let s = try scenario(
      program(
        items: #""u1", "u2""#, child: #"{"let": "r", "value": "$item"}"#,
        then: #", {"write": "y", "value": "$item", "when": {"value": "y", "equals": 0}}"#,
        extra: #", {"expect": {"count": "N", "in": "viewContext", "where": "#
          + #"{"t": {"<": "$y"}}, "equals": 0}}"#))
    #expect(s.interchangeable.isEmpty)
    let options = SimulationOptions(s)
    let stateful = explore(
      s, strategy: .stateful(maxStates: 1_000), options: options, shrinking: false)
    let every = explore(s, strategy: .exhaustive, options: options, shrinking: false)
    #expect(stateful.isComplete && every.isComplete)
    #expect(outcomeSet(stateful) == outcomeSet(every))
    #expect(every.outcomes.contains { $0.signature.contains { $0.kind == .expectationFailed } })
    var forced = s
    forced.interchangeable = InterchangeableValues(slots: ["u1": 0, "u2": 1])
    let swapped = explore(
      forced, strategy: .stateful(maxStates: 1_000), options: options, shrinking: false)
    #expect(outcomeSet(swapped).isStrictSubset(of: outcomeSet(every)))
  }

  /// Programs whose outcomes hang on which element came when: children write their element
  /// to a shared var, `then` inserts, looks up and counts by it; or a `forEach` hands each
  /// element to blocks on other queues that do the same.
  @Test("The stateful search finds what exhaustive search finds, complete and within a bound")
  func statefulEqualsExhaustive() throws {
    var generator = ProgramGenerator(seed: 31)
    var compared: [String: Int] = [:]
    var merged: [String: Int] = [:]
    for index in 0..<Self.programs {
      let json = generator.nextWithInterchangeable()
      let s = try scenario(json, file: "generated-\(index).json")
      let label = "generated-\(index): \(json)"
      #expect(!s.interchangeable.isEmpty, "\(label)")
      let options = SimulationOptions(
        concurrencyDebug: s.concurrencyDebug, stopAtFirstCrash: index % 4 == 0)
      let bound = index % 3 == 2 ? 1 : nil
      let every = explore(
        s, scheduler: DPORScheduler(reduces: false, preemptionBound: bound), options: options,
        maxSchedules: 4_000, shrinking: false)
      guard every.searchFinished else { continue }
      let stateful = explore(
        s, strategy: .stateful(maxStates: 100_000, preemptionBound: bound), options: options,
        shrinking: false)
      #expect(stateful.searchFinished, "\(label)")
      #expect(outcomeSet(stateful) == outcomeSet(every), "\(label)")
      var plain = s
      plain.interchangeable = .none
      let unreduced = explore(
        plain, strategy: .stateful(maxStates: 100_000, preemptionBound: bound),
        options: options, shrinking: false)
      #expect(outcomeSet(unreduced) == outcomeSet(every), "\(label)")
      let kept = stateful.statesVisited ?? .max
      let keptWithout = unreduced.statesVisited ?? 0
      #expect(kept <= keptWithout, "\(label)")
      let kind = json.contains("forEach") ? "loop" : "group"
      compared[kind, default: 0] += 1
      if kept < keptWithout { merged[kind, default: 0] += 1 }
    }
    #expect(compared.values.reduce(0, +) >= Self.programs * 3 / 4)
    // The comparison is not vacuous: the values did merge states, of both kinds (21 of 52
    // groups and 4 of 43 loops: a loop's blocks mostly run on queues that keep their order).
    #expect(merged["group", default: 0] >= compared["group", default: 0] / 4, "\(merged)")
    #expect(merged["loop", default: 0] >= 3, "\(merged)")
  }

  @Test("The fixed downloader with four different URLs: the same proof in fewer states")
  func downloader() throws {
    var json = try String(contentsOfFile: "scenarios/photo-downloader-fixed.json", encoding: .utf8)
    // The repeated 1.jpg becomes 3.jpg: 2.jpg and 3.jpg are named nowhere else.
    let urls = ["1", "2", "1"].map { #""https://example.com/\#($0).jpg","# }
    json = json.replacingOccurrences(
      of: urls.joined(separator: "\n" + String(repeating: " ", count: 12)),
      with:
        #""https://example.com/1.jpg", "https://example.com/2.jpg", "https://example.com/3.jpg","#)
    json = json.replacingOccurrences(of: #""equals": 2"#, with: #""equals": 3"#)
    let s = try scenario(json, file: "photo-downloader-fixed-4.json")
    #expect(
      s.interchangeable.slots.keys.sorted() == [
        "https://example.com/2.jpg", "https://example.com/3.jpg",
      ])
    let options = SimulationOptions(s)
    let dpor = explore(
      s, strategy: .dpor(preemptionBound: nil), options: options, maxSchedules: 100_000,
      shrinking: false)
    let stateful = explore(
      s, strategy: .stateful(maxStates: 100_000), options: options, shrinking: false)
    var plain = s
    plain.interchangeable = .none
    let unreduced = explore(
      plain, strategy: .stateful(maxStates: 100_000), options: options, shrinking: false)
    #expect(dpor.isComplete && stateful.isComplete && unreduced.isComplete)
    #expect(stateful.verdict == .passed)
    #expect(outcomeSet(stateful) == outcomeSet(dpor))
    #expect((stateful.statesVisited ?? .max) < (unreduced.statesVisited ?? 0))
    // check proves it the same way, and says so.
    let checked = check(s)
    #expect(checked.passed)
    #expect(
      CheckReport().exploration(checked)
        == "(stateful: every state a run can reach, \(stateful.statesVisited ?? 0) kept, "
        + "2 values interchangeable)")
  }
}
