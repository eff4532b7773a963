import Foundation
import Testing

@testable import ctxsim

@Suite("ctxsim check")
struct CheckCommandTests {
  private var wrongThread: String {
    String(
      decoding: FileManager.default.contents(atPath: packageRoot + "/scenarios/wrong-thread.json")!,
      as: UTF8.self)
  }

  @Test("Every scenario in scenarios/ holds its declared expectations")
  func repositoryScenarios() {
    let run = ctxsim("check", "scenarios/")
    #expect(run.status == 0, "\(run.out)")
    #expect(
      run.out.contains(
        "PASS  scenarios/wrong-thread.json  wrongQueueContext, wrongQueueObject, as declared (dpor: 1 schedule, all of them)"
      ))
    #expect(run.err.isEmpty)
  }

  @Test("Editing an expectation to disagree makes check fail, saying what differs")
  func editedExpectation() {
    let edited = wrongThread.replacingOccurrences(
      of: #"{ "kind": "wrongQueueObject", "at": "object-on-main" }"#,
      with: #"{ "kind": "wrongQueueObject", "at": "hand-over-by-id" }"#)
    #expect(edited != wrongThread)
    let run = ctxsim("check", "edited.json", files: ["edited.json": edited])
    #expect(run.status == 1)
    expectSnapshot(run.out, "check-edited.txt")
  }

  @Test("A clean expectation on a buggy scenario fails with each unexpected violation")
  func claimsClean() {
    let clean =
      wrongThread.components(separatedBy: "\"expect\"")[0] + #""expect": {"violations": []}}"#
    let run = ctxsim("check", "clean.json", files: ["clean.json": clean])
    #expect(run.status == 1)
    #expect(run.out.contains("unexpected: wrongQueueContext at main[1] \"context-from-main\""))
    #expect(run.out.contains("unexpected: wrongQueueObject at main[2] \"object-on-main\""))
  }

  @Test("A scenario without expect fails check; an invalid one makes it exit 65")
  func missingAndInvalid() {
    let noExpect = ctxsim("check", "a.json", files: ["a.json": #"{"title": "t", "main": []}"#])
    #expect(noExpect.status == 1)
    #expect(noExpect.out.contains("no \"expect\""))
    let invalid = ctxsim("check", "b.json", files: ["b.json": #"{"title": "t"}"#])
    #expect(invalid.status == 65)
    #expect(invalid.out.contains("b.json:1:1: error: the scenario has no \"main\""))
  }

  @Test("A missing path exits 66")
  func missingPath() {
    #expect(ctxsim("check", "nowhere/").status == 66)
  }
}
