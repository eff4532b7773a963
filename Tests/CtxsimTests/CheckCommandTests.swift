import ContextSim
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
    // A small budget keeps this debug-build test quick; CI checks with the full budget.
    // The fixed photo downloader has 6,720 classes of interleavings, which 300 schedules
    // cannot cover, but the 515 of its states its stateful search keeps fit check's first
    // search (ten states per schedule of the budget): it is proven clean, as every design
    // declared clean is.
    let run = ctxsim("check", "scenarios/", "--max-schedules", "300")
    #expect(run.status == 0, "\(run.out)")
    let rows = run.out.split(separator: "\n").filter { !$0.hasPrefix(" ") && $0.contains(".json") }
    #expect(rows.count == 72)
    #expect(rows.filter { !$0.hasPrefix("PASS") } == [])
    #expect(
      rows.contains(
        "PASS  scenarios/photo-downloader-fixed.json  clean, as declared (stateful: every state a run can reach, 515 kept)"
      ))
    // The buggy downloaders show every declared violation from the searches together.
    for file in ["photo-downloader", "photo-downloader-relationship-fixed"] {
      #expect(
        rows.contains {
          $0.hasPrefix("PASS  scenarios/\(file).json ")
            && $0.hasSuffix(
              "as declared (dpor: 600 schedules, among them a search within ≤ 0 preemptions to its end; too many interleavings for exhaustive search)"
            )
        })
    }
    #expect(
      run.out.hasSuffix(
        "72 scenarios: 72 passed, 0 failed.\n"
      ))
    #expect(
      run.out.contains(
        "PASS  scenarios/wrong-thread.json  wrongQueueContext, wrongQueueObject, as declared (dpor: 1 schedule, all of them)"
      ))
    #expect(run.err.isEmpty)
  }

  @Test("A check whose runs hit a limit says LIMIT with the replay, and exits 75")
  func limited() {
    let run = ctxsim("check", "scenarios/checked-too-early.json", "--max-steps", "3")
    #expect(run.status == 75)
    #expect(
      run.out.hasPrefix(
        """
        LIMIT  scenarios/checked-too-early.json (dpor: 1 schedule)
              a schedule hit a limit. Stopped after 3 steps, the step limit: does a block re-enqueue itself forever? (--max-steps raises it)
              replay: ctxsim run scenarios/checked-too-early.json --schedule 0x2,1
        """))
    #expect(run.out.hasSuffix("1 scenario: 0 passed, 0 failed, 1 cut short by a limit.\n"))
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

@Suite("ctxsim check reports for CI")
struct CheckReportTests {
  @Test("--junit writes one test case per scenario, with failures carrying what differed")
  func junit() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ctxsim-junit-\(getpid()).xml"
    ).path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let clean = #"{"title": "t", "main": [], "expect": {"violations": []}}"#
    let wrong = #"{"title": "t", "main": [], "expect": {"violations": [{"kind": "deadlock"}]}}"#
    let run = ctxsim(
      "check", "a.json", "b.json", "--junit", path, files: ["a.json": clean, "b.json": wrong])
    #expect(run.status == 1)
    let xml = try String(contentsOfFile: path, encoding: .utf8)
    #expect(xml.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"#))
    #expect(xml.contains(#"<testsuites name="ctxsim check" tests="2" failures="1" errors="0">"#))
    #expect(xml.contains(#"<testcase classname="ctxsim.check" name="a.json" file="a.json">"#))
    #expect(xml.contains(#"<failure message="missing: deadlock">"#))
  }

  @Test("--format json gives one entry per scenario")
  func json() throws {
    let run = ctxsim("check", "scenarios/wrong-thread.json", "--format", "json")
    let document = try JSONReader.read(Array(run.out.utf8))
    let scenarios = try #require(document["scenarios"]?.elements)
    #expect(scenarios.first?["result"]?.string == "pass")
    #expect(scenarios.first?["strategy"]?.string == "dpor")
    #expect(document["failed"]?.kind == .integer(0))
  }

  @Test("When the space is too large for the budget, check says it fell back to a preemption bound")
  func fallsBack() {
    let run = ctxsim("check", "scenarios/never-on-my-machine.json", "--max-schedules", "5")
    #expect(
      run.out.contains(
        "as declared (dpor: 10 schedules, among them a search within ≤ 1 preemption to its end; too many interleavings for exhaustive search)"
      ))
    #expect(run.status == 0)
  }

  @Test("When not even the search without preemptions fits, PCT runs the rest: incomplete, exit 75")
  func fallsBackToPCT() {
    let run = ctxsim(
      "check", "scenarios/photo-downloader-fixed.json", "--max-schedules", "6", "--max-states",
      "400")
    #expect(run.status == 75)
    #expect(
      run.out.hasPrefix(
        """
        INCOMPLETE  scenarios/photo-downloader-fixed.json (dpor: 6 schedules, then pct: 6; too many interleavings for exhaustive search)
              not proven clean: no schedule failed, but the search did not cover every interleaving; stopped by the budget of 6 schedules (--max-schedules raises it)
        """))
  }
}

@Suite("ctxsim check with a bounded proof")
struct CheckBoundedTests {
  private let fixed = "scenarios/photo-downloader-fixed.json"
  /// 200 schedules do not cover its 2,520 classes, nor 2,000 states (ten per schedule)
  /// the 93,538 its stateful search keeps; they cover the 1,693 kept within 1 preemption,
  /// not the 7,683 within 2.
  private let importers = "Tests/ContextSimTests/Fixtures/four-importers.json"

  @Test("A design declared clean is proven state by state where that finishes first")
  func statefulProof() {
    let run = ctxsim("check", fixed, "--max-schedules", "100")
    #expect(run.status == 0)
    #expect(
      run.out.hasPrefix(
        "PASS  scenarios/photo-downloader-fixed.json  clean, as declared (stateful: every state a run can reach, 515 kept)"
      ))
  }

  @Test("A bounded proof says what it proves and what it does not, and exits 75")
  func bounded() {
    let run = ctxsim("check", importers, "--max-schedules", "200")
    #expect(run.status == 75)
    #expect(
      run.out == """
        BOUNDED  Tests/ContextSimTests/Fixtures/four-importers.json (dpor: 200 schedules, then stateful within ≤ 1 preemption: 1693 states kept; too many interleavings for exhaustive search)
              clean for every schedule with ≤ 1 preemption (1693 states kept); not proven clean: a bug that needs 2 or more preemptions is not excluded
              the complete search was stopped by the budget of 200 schedules (--max-schedules raises it)

        1 scenario: 0 passed, 0 failed, 1 cut short by a limit (1 clean within a preemption bound only).

        """)
  }

  @Test(
    "--accept-bounded k lets a proof within k or more preemptions hold, and no other",
    arguments: [("0", 0), ("1", 0), ("2", 75)] as [(String, Int32)])
  func acceptBounded(k: String, status: Int32) {
    let run = ctxsim(
      "check", importers, "--max-schedules", "200", "--accept-bounded", k)
    #expect(run.status == status)
    #expect(run.out.hasPrefix("BOUNDED  "), "a row never says PASS for a bounded proof")
    #expect(run.out.hasSuffix(status == 0 ? "1 of them accepted).\n" : "bound only).\n"))
  }

  @Test("A failing scenario still fails beside an accepted bounded proof")
  func acceptedDoesNotHideFailures() {
    let wrong = #"{"title": "t", "main": [], "expect": {"violations": [{"kind": "deadlock"}]}}"#
    let run = ctxsim(
      "check", importers, "wrong.json", "--max-schedules", "200", "--accept-bounded", "1",
      files: ["wrong.json": wrong])
    #expect(run.status == 1)
  }

  @Test("--accept-bounded with --strategy is a usage error: a strategy given has no fallback")
  func acceptBoundedNeedsTheFallback() {
    let run = ctxsim("check", fixed, "--strategy", "dpor", "--accept-bounded", "1")
    #expect(run.status == 64)
    #expect(run.err.contains("`--accept-bounded` accepts the fallback's bounded proof"))
  }

  @Test("--preemption-bound without a strategy is a usage error: the fallback picks the bound")
  func preemptionBoundNeedsAStrategy() {
    let run = ctxsim("check", fixed, "--preemption-bound", "1")
    #expect(run.status == 64)
    #expect(
      run.err.contains("`--preemption-bound` needs `--strategy dpor` or `--strategy stateful`"))
    let bounded = ctxsim("check", fixed, "--strategy", "dpor", "--preemption-bound", "1")
    #expect(bounded.status == 75)
  }

  @Test("--format json gives the result, the fallback and the bound")
  func json() throws {
    let run = ctxsim(
      "check", importers, "--max-schedules", "200", "--format", "json")
    let document = try JSONReader.read(Array(run.out.utf8))
    let row = try #require(document["scenarios"]?.elements?.first)
    #expect(row["result"]?.string == "bounded")
    #expect(row["strategy"]?.string == "dpor")
    #expect(row["schedules"]?.kind == .integer(200))
    #expect(row["complete"]?.kind == .bool(false))
    #expect(row["fallback"]?.string == "bounded")
    #expect(row["bound"]?["preemptions"]?.kind == .integer(1))
    #expect(row["bound"]?["strategy"]?.string == "stateful")
    #expect(row["bound"]?["states"]?.kind == .integer(1_693))
    #expect(document["bounded"]?.kind == .integer(1))
    #expect(document["cutShort"]?.kind == .integer(1))
    #expect(document["passed"]?.kind == .integer(0))
    let pct = ctxsim(
      "check", fixed, "--max-schedules", "6", "--max-states", "400", "--format", "json")
    let other = try #require(try JSONReader.read(Array(pct.out.utf8))["scenarios"]?.elements?.first)
    #expect(other["strategy"]?.string == "pct")
    #expect(other["fallback"]?.string == "pct")
    #expect(other["bound"] == nil)
  }

  @Test("JUnit reports a bounded proof as a failure with its honest message, unless accepted")
  func junit() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ctxsim-bounded-\(getpid()).xml"
    ).path
    defer { try? FileManager.default.removeItem(atPath: path) }
    _ = ctxsim("check", importers, "--max-schedules", "200", "--junit", path)
    let xml = try String(contentsOfFile: path, encoding: .utf8)
    #expect(xml.contains(#"tests="1" failures="1" errors="0""#))
    #expect(
      xml.contains(
        #"<failure message="clean for every schedule with ≤ 1 preemption (1693 states kept); not proven clean: a bug that needs 2 or more preemptions is not excluded">"#
      ))
    _ = ctxsim(
      "check", importers, "--max-schedules", "200", "--junit", path, "--accept-bounded", "1")
    let accepted = try String(contentsOfFile: path, encoding: .utf8)
    #expect(accepted.contains(#"tests="1" failures="0" errors="0""#))
    #expect(accepted.contains("<system-out>clean for every schedule with ≤ 1 preemption"))
    #expect(!accepted.contains("<failure"))
  }
}
