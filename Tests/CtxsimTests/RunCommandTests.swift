import ContextSim
import Foundation
import Testing

@testable import ctxsim

@Suite("ctxsim run")
struct RunCommandTests {
  @Test("The first scenario prints its four steps with the trap reports and exits 133")
  func wrongThread() {
    let run = ctxsim("run", "scenarios/wrong-thread.json")
    expectSnapshot(run.out, "wrong-thread.txt")
    #expect(run.status == 133)
    #expect(run.err.isEmpty)
  }

  @Test("Without the flag the same scenario runs clean and exits 0")
  func withoutFlag() {
    let run = ctxsim("run", "scenarios/wrong-thread.json", "--no-concurrency-debug")
    expectSnapshot(run.out, "wrong-thread-no-debug.txt")
    #expect(run.status == 0)
    #expect(!run.out.contains("TRAP"))
    #expect(!run.out.contains("multi-threading assertions enabled"))
  }

  @Test("--verbose adds a backtrace: Core Data's frames, then the scenario steps as Swift")
  func verbose() {
    let run = ctxsim("run", "scenarios/wrong-thread.json", "--verbose")
    expectSnapshot(run.out, "wrong-thread-verbose.txt")
  }

  @Test("--stop-at-first ends at the first trap, as the real app would")
  func stopAtFirst() {
    let run = ctxsim("run", "scenarios/wrong-thread.json", "--stop-at-first")
    #expect(run.status == 133)
    #expect(run.out.components(separatedBy: "  TRAP  ").count == 2)
    #expect(run.out.contains("1 violation: wrongQueueContext."))
  }

  @Test("Two runs print identical bytes, with the default schedule and with a seed")
  func deterministic() {
    #expect(
      ctxsim("run", "scenarios/wrong-thread.json").out
        == ctxsim("run", "scenarios/wrong-thread.json").out)
    let seeded = ctxsim("run", "scenarios/wrong-thread.json", "--seed", "42", "--all-steps")
    #expect(
      seeded.out == ctxsim("run", "scenarios/wrong-thread.json", "--seed", "42", "--all-steps").out)
  }

  @Test("Replaying the printed schedule reproduces a seeded run exactly")
  func replay() throws {
    for seed in 0..<10 {
      let seeded = ctxsim("run", "scenarios/wrong-thread.json", "--seed", "\(seed)", "--all-steps")
      let line = try #require(seeded.out.split(separator: "\n").last { $0.hasPrefix("schedule ") })
      let schedule = String(line.dropFirst("schedule ".count))
      let replayed = ctxsim(
        "run", "scenarios/wrong-thread.json", "--schedule", schedule, "--all-steps")
      #expect(replayed.out == seeded.out)
      #expect(replayed.status == seeded.status)
    }
  }

  @Test("A schedule that does not fit the scenario is an input error")
  func scheduleMismatch() {
    let run = ctxsim("run", "scenarios/wrong-thread.json", "--schedule", "3")
    #expect(run.status == 65)
    #expect(
      run.out.contains(
        "The schedule does not fit this scenario: at step 1 thread 3 cannot run (runnable: 0)."))
  }

  @Test(
    "--format json says the run's verdict in explore's words",
    arguments: [
      ("scenarios/tap-after-load-fixed.json", "clean"), ("scenarios/wrong-thread.json", "failing"),
    ])
  func jsonVerdict(file: String, verdict: String) throws {
    let run = ctxsim("run", file, "--format", "json")
    let document = try JSONReader.read(Array(run.out.utf8))
    #expect(document["verdict"]?.string == verdict)
  }

  @Test("--format json prints one document with events, violations and the schedule")
  func json() throws {
    let run = ctxsim("run", "scenarios/wrong-thread.json", "--format", "json")
    #expect(run.status == 133)
    let document = try JSONReader.read(Array(run.out.utf8))
    #expect(document["schedule"]?.string == "0x5,1x2,0")
    #expect(document["appExitStatus"]?.kind == .integer(133))
    #expect(document["verdict"]?.string == "failing")
    let violations = try #require(document["violations"]?.elements)
    #expect(violations.map { $0["kind"]?.string } == ["wrongQueueContext", "wrongQueueObject"])
    #expect(violations.map { $0["label"]?.string } == ["context-from-main", "object-on-main"])
    #expect(violations.first?["crash"]?.string == Messages.trapSymbol)
    let effects = document["events"]?.elements?.map { $0["effect"]?.string ?? "" }
    #expect(
      effects == [
        "entered", "fetched", "trapped", "counted", "trapped", "read", "enqueued", "objectID",
        "enqueued", "lookedUp",
      ])
  }

  @Test("Colour only on a terminal, and never with NO_COLOR or --color never")
  func colour() {
    let escape = "\u{1B}["
    #expect(ctxsim("run", "scenarios/wrong-thread.json", terminal: true).out.contains(escape))
    #expect(!ctxsim("run", "scenarios/wrong-thread.json", terminal: false).out.contains(escape))
    #expect(
      !ctxsim("run", "scenarios/wrong-thread.json", environment: ["NO_COLOR": "1"], terminal: true)
        .out.contains(escape))
    #expect(
      !ctxsim("run", "scenarios/wrong-thread.json", "--color", "never", terminal: true).out
        .contains(escape))
    #expect(ctxsim("run", "scenarios/wrong-thread.json", "--color", "always").out.contains(escape))
  }

  @Test("A missing file gets one clear error and exit 66")
  func missingFile() {
    let run = ctxsim("run", "scenarios/nope.json")
    #expect(run.status == 66)
    #expect(run.out.isEmpty)
    #expect(
      run.err
        == "scenarios/nope.json: error: no such file\n  fix: check the path; scenarios live in scenarios/\n"
    )
  }

  @Test("Malformed JSON gets its line and column and exit 65")
  func malformed() {
    let run = ctxsim(
      "run", "broken.json",
      files: [
        "broken.json": "{\n  \"title\": \"t\",\n  \"main\": [\n    {\"print\": \"a\"},\n  ]\n}\n"
      ])
    #expect(run.status == 65)
    #expect(
      run.err.hasPrefix(
        "broken.json:5:3: error: a trailing comma before ']'\n  fix: remove the comma after the last element"
      ))
  }

  @Test("A scenario with several errors reports all of them and exits 65")
  func severalErrors() {
    let run = ctxsim(
      "run", "bad.json",
      files: ["bad.json": #"{"title": "t", "main": [{"fetch": "Note", "in": "nowhere"}]}"#])
    #expect(run.status == 65)
    #expect(run.err.contains("bad.json:1:35: error: unknown entity \"Note\" (at main[0])"))
    #expect(run.err.contains("bad.json:1:49: error: unknown context \"nowhere\" (at main[0])"))
    #expect(run.err.hasSuffix("2 errors in bad.json.\n"))
  }
}

@Suite("ctxsim usage")
struct UsageTests {
  @Test("Help and version exit 0; help documents every exit status")
  func help() {
    let help = ctxsim("--help")
    #expect(help.status == 0)
    for status in ["0 ", "1 ", "133", "134", "137", "139", "64", "65", "66", "75"] {
      #expect(help.out.contains("  \(status)"), "help does not document \(status)")
    }
    #expect(ctxsim("run", "--help").out.contains("--no-concurrency-debug"))
    #expect(ctxsim("--version").out == "ctxsim 0.1.0\n")
  }

  @Test(
    "Usage errors exit 64 with a hint",
    arguments: [
      (["frob"], "unknown command `frob`."),
      (["run"], "`ctxsim run` needs a scenario file"),
      (
        ["run", "a.json", "b.json"],
        "`ctxsim run` takes one scenario file; use `ctxsim check` for several"
      ),
      (["run", "a.json", "--sede", "1"], "unknown option `--sede`. Did you mean `--seed`?"),
      (["run", "a.json", "--seed", "x"], "`--seed` takes a whole number from 0 up, not `x`"),
      (["run", "a.json", "--schedule", "0x"], "`--schedule 0x` is not a schedule"),
      (["run", "a.json", "--format", "xml"], "`--format` takes one of text, json, not `xml`"),
      (
        ["run", "a.json", "--seed", "1", "--schedule", "0"],
        "use `--schedule` or `--seed`, not both"
      ),
      (["check"], "`ctxsim check` needs scenario files or folders"),
    ])
  func usageErrors(arguments: [String], message: String) {
    let console = ctxsim(arguments: arguments)
    #expect(console.status == 64)
    #expect(console.err.hasPrefix("ctxsim: error: \(message)"))
    #expect(console.out.isEmpty)
  }
}

@Suite("ctxsim run, a run cut short")
struct CutShortRunTests {
  @Test("A run cut short never says \"No violations.\"")
  func noFalseNoViolations() {
    let limited = ctxsim("run", "scenarios/checked-too-early.json", "--max-steps", "3")
    #expect(limited.status == 75)
    #expect(!limited.out.contains("No violations."))
    #expect(limited.out.contains("No violations before the run was stopped."))
    let misfit = ctxsim("run", "scenarios/wrong-thread.json", "--schedule", "7")
    #expect(misfit.status == 65)
    #expect(!misfit.out.contains("No violations"))
    #expect(misfit.out.contains("The schedule does not fit this scenario"))
  }
}
