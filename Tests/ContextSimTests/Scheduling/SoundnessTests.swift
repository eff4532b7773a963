import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// Small random programs: two or three blocks over two private contexts, `viewContext` and
/// two shared vars, each block on its context's queue (`perform`) or on a global thread,
/// with inserts, fetches, counts, saves, reads and writes, with or without the flag.
///
/// ``nextWithTasks()`` adds Swift concurrency: a main-actor task whose task group's children
/// compute (or read a shared var, or write one) and whose `then` body works on viewContext
/// or awaits a context's `perform`, as the fixed photo downloader does.
///
/// A reduction is only worth having if it misses nothing: for each program the outcomes it
/// finds must be exactly those plain exhaustive search finds.
struct ProgramGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 &+ 1 }

  /// A number below `n`, from SplitMix64.
  private mutating func below(_ n: Int) -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int((z ^ (z >> 31)) % UInt64(n))
  }

  private mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

  private mutating func step(in context: String) -> String {
    let other = pick(["a", "b", "viewContext"])
    let target = below(4) == 0 ? other : context
    switch below(7) {
    case 0: return #"{"insert": "N", "into": "\#(target)", "values": {"t": "n\#(below(3))"}}"#
    case 1: return #"{"fetch": "N", "in": "\#(target)"}"#
    case 2: return #"{"count": "N", "in": "\#(target)"}"#
    case 3: return #"{"save": "\#(target)", "try": "?"}"#
    case 4: return #"{"write": "\#(pick(["x", "y"]))", "value": \#(below(3))}"#
    default: return #"{"read": "\#(pick(["x", "y"]))"}"#
    }
  }

  /// A child task's step: mostly computing from its element, sometimes touching a var.
  private mutating func childStep() -> String {
    switch below(6) {
    case 0: return #"{"let": "r", "value": "$x"}"#
    case 1: return #"{"write": "\#(pick(["x", "y"]))", "value": \#(below(3))}"#
    case 2: return #"{"let": "r", "value": 7, "when": {"value": "item", "equals": 2}}"#
    default: return #"{"let": "r", "value": "$item"}"#
    }
  }

  /// A step of a task group's `then` body, on the main actor.
  private mutating func thenStep() -> String {
    switch below(4) {
    case 0: return #"{"let": "z", "value": "$y"}"#
    case 1:
      let context = pick(["a", "b"])
      return #"{"perform": "\#(context)", "await": true, "do": [\#(step(in: context))]}"#
    default: return step(in: "viewContext")
    }
  }

  /// One program with a main-actor task running a task group, as a scenario file.
  mutating func nextWithTasks() -> String {
    let children = (0..<(2 + below(2))).map { String($0 + 1) }.joined(separator: ", ")
    let child = (0..<(1 + below(2))).map { _ in childStep() }.joined(separator: ", ")
    let then = (0..<(1 + below(2))).map { _ in thenStep() }.joined(separator: ", ")
    var task = [
      #"{"taskGroup": [\#(children)], "as": "item", "child": [\#(child)], "then": [\#(then)]}"#
    ]
    if below(2) == 0 { task.append(step(in: "viewContext")) }
    var main = [#"{"task": "main", "do": [\#(task.joined(separator: ", "))]}"#]
    if below(2) == 0 {
      let context = pick(["a", "b"])
      main.append(#"{"perform": "\#(context)", "do": [\#(step(in: context))]}"#)
    }
    return program(main)
  }

  /// One program whose task group runs over strings nothing else names, so the stateful
  /// search treats them as interchangeable (``InterchangeableValues``): children copy their
  /// element into a shared var, and `then` inserts it, looks it up by the var or by itself,
  /// and counts it, so what a run shows depends on which element came when.
  mutating func nextWithInterchangeable() -> String {
    let count = #"{"expect": {"count": "N", "in": "viewContext", "where": "#
    let children = (0..<(2 + below(2))).map { #""u\#($0 + 1)""# }.joined(separator: ", ")
    if below(2) == 0 { return loopWithInterchangeable(over: children, count: count) }
    let child = (0..<(1 + below(2))).map { _ in
      pick([
        #"{"let": "r", "value": "$item"}"#, #"{"write": "x", "value": "$item"}"#,
        #"{"read": "x"}"#, #"{"let": "r", "value": "$x"}"#,
      ])
    }.joined(separator: ", ")
    let then = (0..<(1 + below(2))).map { _ in
      pick([
        #"{"insert": "N", "into": "viewContext", "values": {"t": "$item"}}"#,
        #"{"perform": "a", "await": true, "do": [{"insert": "N", "into": "a", "values": {"t": "$item"}}, {"save": "a", "try": "?"}]}"#,
        #"{"fetch": "N", "in": "viewContext", "where": {"t": "$x"}, "first": true, "as": "f"}"#,
        #"{"write": "y", "value": "$item"}"#,
        count + #"{"t": "$x"}, "atLeast": 1}}"#, count + #"{"t": "$item"}, "atMost": 1}}"#,
      ])
    }.joined(separator: ", ")
    var task = [
      #"{"taskGroup": [\#(children)], "as": "item", "child": [\#(child)], "then": [\#(then)]}"#
    ]
    if below(2) == 0 {
      task.append(#"{"fetch": "N", "in": "viewContext", "first": true, "as": "g"}"#)
    }
    if below(2) == 0 {
      task.append(count + #"{"t": "$y"}, "equals": 1}}"#)
    }
    var main = [#"{"task": "main", "do": [\#(task.joined(separator: ", "))]}"#]
    if below(2) == 0 { main.append(#"{"perform": "b", "do": [\#(step(in: "b"))]}"#) }
    return program(main)
  }

  /// The same with a `forEach` over the strings whose body hands each element to blocks on
  /// other queues, as the photo downloader's first version does: the blocks finish in any
  /// order.
  private mutating func loopWithInterchangeable(over items: String, count: String) -> String {
    let body = (0..<(1 + below(2))).map { _ in
      pick([
        #"{"async": "global", "do": [{"write": "x", "value": "$item"}]}"#,
        #"{"async": "global", "do": [{"perform": "a", "do": [{"insert": "N", "into": "a", "values": {"t": "$item"}}, {"save": "a", "try": "?"}]}]}"#,
        #"{"async": "global", "do": [{"let": "r", "value": "$x"}, {"write": "y", "value": "$r"}]}"#,
        #"{"perform": "a", "do": [{"insert": "N", "into": "a", "values": {"t": "$item"}}, {"save": "a", "try": "?"}]}"#,
        #"{"perform": "b", "do": [{"fetch": "N", "in": "b", "where": {"t": "$x"}, "first": true, "as": "f"}]}"#,
        #"{"async": "main", "do": [{"insert": "N", "into": "viewContext", "values": {"t": "$item"}}]}"#,
      ])
    }.joined(separator: ", ")
    var main = [#"{"forEach": [\#(items)], "as": "item", "do": [\#(body)]}"#]
    let after = pick([
      count + #"{"t": "$x"}, "atLeast": 1}}"#, count + #"{"t": "$y"}, "atMost": 0}}"#,
      #"{"fetch": "N", "in": "viewContext", "first": true, "as": "g"}"#,
    ])
    main.append(#"{"async": "main", "do": [\#(after)]}"#)
    return program(main)
  }

  /// One program, as a scenario file.
  mutating func next() -> String {
    var main: [String] = []
    for _ in 0..<(2 + below(2)) {
      let context = pick(["a", "b", "viewContext"])
      let steps = (0..<(1 + below(3))).map { _ in step(in: context) }.joined(separator: ", ")
      main.append(
        below(3) == 0
          ? #"{"async": "global", "do": [\#(steps)]}"#
          : #"{"perform": "\#(context)", "do": [\#(steps)]}"#)
    }
    if below(2) == 0 { main.append(step(in: "viewContext")) }
    return program(main)
  }

  private mutating func program(_ main: [String]) -> String {
    #"""
    {"title": "generated", "concurrencyDebug": \#(below(2) == 0),
     "model": {"N": {"attributes": {"t": "string"}}},
     "store": {"N": [{"id": "n-1", "t": "first"}]},
     "vars": {"x": 0, "y": 0},
     "contexts": {"a": {"queue": "private"}, "b": {"queue": "private"}},
     "main": [\#(main.joined(separator: ", "))]}
    """#
  }
}

/// What an exploration's outcomes are, as a set: violations, handled errors, limits.
func outcomeSet(_ e: Exploration) -> Set<String> {
  Set(e.outcomes.map { "\($0.signature) \($0.handled) \(String(describing: $0.limit))" })
}

@Suite("Reduction is sound on generated programs")
struct SoundnessTests {
  static let programs = 200

  @Test("DPOR finds exactly the outcomes exhaustive search finds, program after program")
  func reducedEqualsExhaustive() throws {
    var generator = ProgramGenerator(seed: 13)
    var compared = 0
    for index in 0..<Self.programs {
      let json = generator.next()
      let s = try scenario(json, file: "generated-\(index).json")
      let options = SimulationOptions(concurrencyDebug: s.concurrencyDebug)
      let full = explore(
        s, strategy: .exhaustive, options: options, maxSchedules: 4_000, shrinking: false)
      guard full.isComplete else { continue }
      let reduced = explore(
        s, strategy: .dpor(preemptionBound: nil), options: options, maxSchedules: 4_000,
        shrinking: false)
      #expect(reduced.isComplete, "generated-\(index): \(json)")
      #expect(
        Set(reduced.outcomes.map(\.signature)) == Set(full.outcomes.map(\.signature)),
        "generated-\(index): \(json)")
      #expect(reduced.schedulesRun <= full.schedulesRun)
      compared += 1
    }
    // Most programs are small enough to enumerate; the comparison must not be vacuous.
    #expect(compared >= Self.programs * 3 / 4)
  }

  @Test(
    "DPOR, DPOR split into jobs and the stateful search find exactly what exhaustive search finds",
    arguments: [false, true])
  func statefulEqualsExhaustive(withTasks: Bool) throws {
    var generator = ProgramGenerator(seed: withTasks ? 29 : 13)
    var compared = 0
    for index in 0..<Self.programs {
      let json = withTasks ? generator.nextWithTasks() : generator.next()
      let s = try scenario(json, file: "generated-\(index).json")
      // Every third program ends at its first crash, as `stopAtFirstCrash` makes it.
      let options = SimulationOptions(
        concurrencyDebug: s.concurrencyDebug, stopAtFirstCrash: index % 3 == 0)
      let full = explore(
        s, strategy: .exhaustive, options: options, maxSchedules: 4_000, shrinking: false)
      guard full.isComplete else { continue }
      let label = "generated-\(index): \(json)"
      let stateful = explore(
        s, strategy: .stateful(maxStates: 100_000), options: options, shrinking: false)
      #expect(stateful.isComplete, "\(label)")
      #expect(outcomeSet(stateful) == outcomeSet(full), "\(label)")
      let dpor = explore(
        s, strategy: .dpor(preemptionBound: nil), options: options, maxSchedules: 4_000,
        shrinking: false)
      #expect(outcomeSet(dpor) == outcomeSet(full), "\(label)")
      // Jobs of one schedule a round, so that programs this small split at all.
      var search = SplitSearch(scenario: s, options: options, preemptionBound: nil, share: 1)
      let split = search.explore(maxSchedules: 4_000, workers: 2, shouldStop: { false })
      #expect(split.isComplete, "\(label)")
      #expect(outcomeSet(split) == outcomeSet(full), "\(label)")
      compared += 1
    }
    #expect(compared >= Self.programs * 3 / 4)
  }

  /// Generated programs, each with a bound of 0, 1 or 2 and every schedule within it, for
  /// those small enough to list: what a search within a bound is held to. With
  /// `stoppingAtFirstCrash`, every fifth program (of each bound and kind) ends at its first
  /// crash.
  private func boundedCases(seed: UInt64, programs: Int, stoppingAtFirstCrash: Bool = false)
    throws -> [BoundedCase]
  {
    var generator = ProgramGenerator(seed: seed)
    var cases: [BoundedCase] = []
    for index in 0..<programs {
      let json = index % 2 == 0 ? generator.next() : generator.nextWithTasks()
      let s = try scenario(json, file: "generated-\(index).json")
      let options = SimulationOptions(
        concurrencyDebug: s.concurrencyDebug,
        stopAtFirstCrash: stoppingAtFirstCrash && index % 5 == 0)
      let bound = index % 3
      let every = explore(
        s, scheduler: DPORScheduler(reduces: false, preemptionBound: bound), options: options,
        maxSchedules: 4_000, shrinking: false)
      guard every.searchFinished else { continue }
      cases.append(
        BoundedCase(
          name: "bound \(bound), generated-\(index)", json: json, scenario: s, options: options,
          bound: bound, every: every))
    }
    #expect(cases.count >= programs * 3 / 4, "too few programs to compare")
    return cases
  }

  /// Check's bounded proof rests on this. It does not yet fully hold: with a bound, a sleep
  /// set can claim a class covered whose only orders within the bound start a thread's run
  /// earlier, at a free point, than the covering search did (docs/exploration.md, "A
  /// preemption bound"). The one program of these 200 where that shows is named, so that a
  /// fix, or a new miss, fails this test.
  @Test("Within a preemption bound, DPOR finds what every such schedule shows, but for a known gap")
  func boundedDPOREqualsBoundedExhaustive() throws {
    var missed: [String] = []
    for c in try boundedCases(seed: 43, programs: Self.programs) {
      let dpor = explore(
        c.scenario, strategy: .dpor(preemptionBound: c.bound), options: c.options,
        maxSchedules: 4_000, shrinking: false)
      #expect(dpor.searchFinished && !dpor.isComplete, "\(c.name): \(c.json)")
      // Every schedule DPOR ran is within the bound, so all it shows is real.
      #expect(outcomeSet(dpor).isSubset(of: outcomeSet(c.every)), "\(c.name): \(c.json)")
      #expect(dpor.schedulesRun <= c.every.schedulesRun)
      if outcomeSet(dpor) != outcomeSet(c.every) { missed.append(c.name) }
    }
    #expect(missed.allSatisfy { $0 == "bound 1, generated-64" }, "new misses: \(missed)")
    withKnownIssue("DPOR within a bound misses a class a sleep set wrongly covers") {
      #expect(missed.isEmpty, "\(missed)")
    }
  }

  /// What check's fallback for a design declared buggy runs: DPOR within a bound, split into
  /// jobs (here of one schedule a round, so that programs this small split at all). It shows
  /// nothing a schedule within the bound cannot, and misses only the known gap.
  @Test("Within a preemption bound, DPOR split into jobs finds what DPOR on one core finds")
  func boundedSplitEqualsBoundedExhaustive() throws {
    var missed: [String] = []
    for c in try boundedCases(seed: 43, programs: Self.programs) {
      var search = SplitSearch(
        scenario: c.scenario, options: c.options, preemptionBound: c.bound, share: 1)
      let jobs = search.explore(maxSchedules: 4_000, workers: 2, shouldStop: { false })
      #expect(jobs.searchFinished && !jobs.isComplete, "\(c.name): \(c.json)")
      #expect(outcomeSet(jobs).isSubset(of: outcomeSet(c.every)), "\(c.name): \(c.json)")
      if outcomeSet(jobs) != outcomeSet(c.every) { missed.append(c.name) }
    }
    #expect(missed.allSatisfy { $0 == "bound 1, generated-64" }, "new misses: \(missed)")
  }

  /// Check's bounded proof rests on this. The seed 43 gives the programs where DPOR within a
  /// bound misses a class.
  @Test(
    "Within a preemption bound, the stateful search finds what every such schedule shows",
    arguments: [41, 43] as [UInt64])
  func boundedStatefulEqualsBoundedExhaustive(seed: UInt64) throws {
    var completes = 0
    for c in try boundedCases(seed: seed, programs: Self.programs, stoppingAtFirstCrash: true) {
      let stateful = explore(
        c.scenario, strategy: .stateful(maxStates: 100_000, preemptionBound: c.bound),
        options: c.options, shrinking: false)
      #expect(stateful.searchFinished, "\(c.name): \(c.json)")
      #expect(outcomeSet(stateful) == outcomeSet(c.every), "\(c.name): \(c.json)")
      // A search the bound cut nothing from says it is complete: then it is.
      if stateful.isComplete {
        let full = explore(
          c.scenario, strategy: .exhaustive, options: c.options, maxSchedules: 4_000,
          shrinking: false)
        #expect(!full.isComplete || outcomeSet(full) == outcomeSet(c.every), "\(c.name)")
        completes += 1
      }
    }
    #expect(completes > 0 && completes < Self.programs / 2)
  }
}

/// A generated program with every schedule within its bound.
private struct BoundedCase {
  var name: String
  var json: String
  var scenario: Scenario
  var options: SimulationOptions
  var bound: Int
  var every: Exploration
}
