import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

@Suite("Checking runs against expect")
struct ExpectationCheckTests {
  private let buggy = #"""
    [{"count": "Note", "in": "background", "label": "a"},
     {"perform": "background", "label": "block", "do": [{"count": "Note", "in": "viewContext", "label": "b"}]}]
    """#

  private func check(_ expect: String, runs: Int = 1) throws -> ExpectationCheck {
    let s = try notes(buggy, extra: #", "expect": {"violations": \#(expect)}"#)
    let trace = run(s)
    return ExpectationCheck(s.expectation!, traces: Array(repeating: trace, count: runs))
  }

  @Test("Declared violations at their labels pass")
  func exactMatch() throws {
    #expect(
      try check(
        #"[{"kind": "wrongQueueContext", "at": "a"}, {"kind": "wrongQueueContext", "at": "b"}]"#
      ).passed)
  }

  @Test("A label on a block covers the steps inside it")
  func enclosingLabel() throws {
    #expect(
      try check(
        #"[{"kind": "wrongQueueContext", "at": "a"}, {"kind": "wrongQueueContext", "at": "block"}]"#
      ).passed)
  }

  @Test("Without at, one declaration covers every violation of its kind")
  func anywhere() throws {
    #expect(try check(#"[{"kind": "wrongQueueContext"}]"#).passed)
  }

  @Test("A violation nobody declared is unexpected; a declared one that never shows is missing")
  func differences() throws {
    let result = try check(#"[{"kind": "wrongQueueContext", "at": "a"}, {"kind": "deadlock"}]"#)
    #expect(!result.passed)
    #expect(result.missing.map(\.kind) == [.deadlock])
    #expect(result.unexpected.map(\.site.path) == ["main[1].perform.do[0]"])
  }

  @Test("A clean declaration fails on any violation")
  func clean() throws {
    #expect(try check("[]").unexpected.count == 2)
  }

  @Test("in: every needs every run; in: some needs one")
  func quantifiers() throws {
    let s = try notes(
      buggy,
      extra:
        #", "expect": {"violations": [{"kind": "wrongQueueContext", "in": "some"}, {"kind": "deadlock", "in": "every"}]}"#
    )
    let buggyRun = run(s)
    let cleanRun = run(s, concurrencyDebug: false)
    let result = ExpectationCheck(s.expectation!, traces: [buggyRun, cleanRun])
    #expect(result.missing.map(\.kind) == [.deadlock])
    let every = ExpectedViolation(
      kind: .wrongQueueContext, label: nil, quantifier: .every, location: .init(line: 1, column: 1))
    #expect(
      !ExpectationCheck(Expectation(violations: [every]), traces: [buggyRun, cleanRun]).passed)
  }
}
