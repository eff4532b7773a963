import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// A step's `catch` body handles the error its call throws: the design working, not a
/// violation (issue 11, item 9).
@Suite("Errors handled by a catch block")
struct HandledErrorTests {
  private let lookUp = #"""
    {"title": "look up", "model": {"Note": {"attributes": {"title": "string"}}},
     "main": [
       {"insert": "Note", "into": "viewContext", "as": "note"},
       {"save": "viewContext"},
       {"objectID": "note", "as": "id"},
       {"delete": "note"},
       {"save": "viewContext"},
       {"existingObject": "$id", "in": "viewContext", "as": "found", "label": "look-up"CATCH}],
     "expect": EXPECT}
    """#

  private func scenario(catch body: String, expect: String) throws -> Scenario {
    try ContextSimTests.scenario(
      lookUp.replacingOccurrences(of: "CATCH", with: body)
        .replacingOccurrences(of: "EXPECT", with: expect))
  }

  @Test("A thrown error with a catch body runs the body with $error bound, and is no violation")
  func handled() throws {
    let s = try scenario(
      catch: #", "catch": [{"print": "gone: $error"}, {"let": "shown", "value": false}]"#,
      expect: #"{"violations": []}"#)
    let trace = run(s)
    #expect(trace.violations.isEmpty)
    #expect(trace.handledErrors.map(\.error.code) == [133_000])
    let printed = trace.events.compactMap { event -> String? in
      if case .printed(let text) = event.effect { text } else { nil }
    }
    #expect(
      printed == [
        #"gone: Error Domain=NSCocoaErrorDomain Code=133000 "Attempt to access an object not found in store.""#
      ])
  }

  @Test("Without a catch body the same error is a violation, as in format v1")
  func unhandled() throws {
    let trace = run(try scenario(catch: "", expect: #"{"violations": []}"#))
    #expect(trace.violations.map(\.kind) == [.objectNotFound])
    #expect(trace.handledErrors.isEmpty)
  }

  @Test("check passes a design that handles its error, and holds it to a declared handled error")
  func checkHolds() throws {
    let handles = #", "catch": [{"print": "gone"}]"#
    let declared = #"{"violations": [], "handled": [{"error": 133000, "at": "look-up"}]}"#
    #expect(check(try scenario(catch: handles, expect: declared)).passed)
    #expect(check(try scenario(catch: handles, expect: #"{"violations": []}"#)).passed)
    let missing = check(try scenario(catch: "", expect: declared))
    #expect(missing.verdict == .failed)
    #expect(
      missing.findings.contains {
        if case .missingHandled(let expected, _) = $0 { expected.code == 133_000 } else { false }
      })
  }

  @Test("catch goes with a plain try only, and only on a call that throws")
  func refused() {
    let optional = errors(
      lookUp.replacingOccurrences(of: "CATCH", with: #", "try": "?", "catch": []"#)
        .replacingOccurrences(of: "EXPECT", with: #"{"violations": []}"#))
    #expect(
      optional.map(\.message) == [
        #""catch" handles the error of a plain try, but this step is try?"#
      ])
    let notThrowing = errors(
      #"{"title": "t", "main": [{"print": "x", "catch": []}]}"#)
    #expect(notThrowing.map(\.message) == [#"unknown key "catch" in a "print" step"#])
  }
}
