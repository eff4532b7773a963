import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

@Suite("Backtraces: where a block came from, through the blocks that enqueued it")
struct OriginTableTests {
  /// `depth` blocks on serial queue `q`, each enqueued by the one before; the innermost
  /// counts notes in viewContext off the main queue, which traps.
  private func chain(depth: Int) throws -> Scenario {
    var body = #"[{"count": "Note", "in": "viewContext"}]"#
    for _ in 0..<depth { body = #"[{"async": "q", "do": \#(body)}]"# }
    return try scenario(
      #"""
      {"title": "chain", "queues": {"q": "serial"},
       "model": {"Note": {"attributes": {"title": "string"}}}, "main": \#(body)}
      """#)
  }

  private func index(_ path: String, in scenario: Scenario) -> Int {
    scenario.allSteps.first { $0.path == path }!.index
  }

  @Test("A short chain is listed whole, down to the launch")
  func shortChain() throws {
    let s = try chain(depth: 2)
    let backtrace = run(s).violations.first?.backtrace
    #expect(
      backtrace == [
        .step(index("main[0].async.do[0].async.do[0]", in: s)),
        .enqueued(queue: "q", thread: "q"),
        .step(index("main[0].async.do[0]", in: s)),
        .enqueued(queue: "q", thread: "main"),
        .step(index("main[0]", in: s)),
        .launch,
      ])
  }

  @Test("A long chain stops at sixteen lines, the innermost first")
  func longChain() throws {
    let s = try chain(depth: 20)
    let backtrace = try #require(run(s).violations.first?.backtrace)
    var path = "main[0]" + String(repeating: ".async.do[0]", count: 20)
    var expected: [BacktraceEntry] = []
    while expected.count < 16 {
      expected.append(.step(index(path, in: s)))
      expected.append(.enqueued(queue: "q", thread: "q"))
      path.removeLast(".async.do[0]".count)
    }
    #expect(backtrace == expected)
  }
}
