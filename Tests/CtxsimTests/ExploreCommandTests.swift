import ContextSim
import Foundation
import Testing

@testable import ctxsim

@Suite("ctxsim explore")
struct ExploreCommandTests {
  @Test(
    "Exploring finds the race the default schedule misses, and prints the command that replays it")
  func findsAndReplays() throws {
    let run = ctxsim("explore", "scenarios/checked-too-early.json", "--jobs", "1")
    #expect(run.status == 1)
    expectSnapshot(run.out, "explore-checked-too-early.txt")
    #expect(run.err.hasPrefix("explored in "))
    let line = try #require(run.out.split(separator: "\n").first { $0.contains("ctxsim run ") })
    let command = line[line.range(of: "ctxsim run ")!.upperBound...].split(separator: " ").map(
      String.init)
    let replay = ctxsim(arguments: ["run"] + command)
    #expect(replay.status == 1)
    #expect(replay.out.contains("RACE  data race on self.thumbnail"))
    #expect(replay == ctxsim(arguments: ["run"] + command), "a replay is the same every time")
  }

  @Test("The same options and seed print the same report, whatever the number of cores")
  func deterministic() {
    let one = ctxsim(
      "explore", "scenarios/checked-too-early.json", "--strategy", "pct", "--seed", "5",
      "--max-schedules", "500", "--jobs", "1")
    let two = ctxsim(
      "explore", "scenarios/checked-too-early.json", "--strategy", "pct", "--seed", "5",
      "--max-schedules", "500", "--jobs", "2")
    #expect(one.out == two.out)
    #expect(one.out.contains("500 ran"))
  }

  @Test("On a terminal, a long search says it is still going, and wipes that line at the end")
  func progressLine() {
    let arguments = [
      "explore", "scenarios/photo-downloader.json", "--strategy", "stateful", "--time-limit", "4",
    ]
    let shown = ctxsim(arguments: arguments, errorTerminal: true)
    #expect(shown.err.hasPrefix("\r\u{1B}[Kstill exploring: "))
    #expect(shown.err.contains(" s (Ctrl-C stops it; --time-limit bounds it)"))
    #expect(shown.err.contains("\r\u{1B}[Kexplored in "))
    let piped = ctxsim(arguments: arguments)
    #expect(piped.err.hasPrefix("explored in "))
    #expect(!piped.err.contains("\r"))
    let dumb = ctxsim(arguments: arguments, environment: ["TERM": "dumb"], errorTerminal: true)
    #expect(dumb.err.hasPrefix("explored in "))
  }

  @Test("More jobs than cores run on all cores, and the timing line says how many")
  func moreJobsThanCores() {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let run = ctxsim(
      "explore", "scenarios/checked-too-early.json", "--strategy", "random", "--max-schedules",
      "300", "--jobs", "1000")
    #expect(run.status == 1)
    #expect(run.err.hasSuffix(" on \(cores) core\(cores == 1 ? "" : "s")\n"))
  }

  @Test("A flag that overrides the scenario's is part of the replay command")
  func flagInReplay() {
    let plain = ctxsim("explore", "scenarios/never-on-my-machine.json")
    #expect(plain.out.contains("corruption at"))
    #expect(!plain.out.contains("concurrency-debug"))
    let flagged = ctxsim("explore", "scenarios/never-on-my-machine.json", "--concurrency-debug")
    #expect(flagged.out.contains("wrongQueueContext at"))
    #expect(!flagged.out.contains("corruption at"))
    #expect(
      flagged.out.contains(
        "ctxsim run scenarios/never-on-my-machine.json --concurrency-debug --schedule"))
  }

  @Test("A bound that stops a systematic search says so and how far it got")
  func bounded() {
    let run = ctxsim(
      "explore", "scenarios/never-on-my-machine.json", "--strategy", "exhaustive",
      "--max-schedules", "10")
    #expect(
      run.out.hasPrefix(
        "Explored scenarios/never-on-my-machine.json with exhaustive: 10 schedules, stopped by the budget of 10 schedules (--max-schedules raises it) with about "
      ))
    #expect(run.out.contains("% of the search done."))
    // It found failing schedules before the bound: that answer stands.
    #expect(run.status == 1)
  }

  @Test("A run limit is never clean: the outcome says so, the search is incomplete, exit 75")
  func limited() throws {
    let steps = ctxsim("explore", "scenarios/checked-too-early.json", "--max-steps", "3")
    #expect(steps.status == 75)
    #expect(steps.out.contains("1 cut short by the step limit; the search is incomplete."))
    #expect(steps.out.contains("  1  cut short by the step limit\n"))
    #expect(!steps.out.contains("clean"))
    let threads = ctxsim(
      "explore", "scenarios/never-on-my-machine.json", "--max-threads", "1", "--format", "json")
    #expect(threads.status == 75)
    let document = try JSONReader.read(Array(threads.out.utf8))
    #expect(document["complete"]?.bool == false)
    #expect(document["verdict"]?.string == "limited")
    #expect(document["outcomes"]?.elements?.first?["limit"]?.string == "thread")
  }

  @Test("--preemption-bound bounds the default dpor search, as help's own example gives it")
  func preemptionBoundWithoutStrategy() {
    let bounded = ctxsim(
      "explore", "scenarios/photo-downloader-fixed.json", "--preemption-bound", "1")
    #expect(bounded.status == 75, "a bounded search is not a proof")
    #expect(
      bounded.out.hasPrefix(
        "Explored scenarios/photo-downloader-fixed.json with dpor: 67 schedules, the classes "
          + "dpor reaches with at most 1 preemption, none with more (only stateful is sure to "
          + "reach every one)."))
    let named = ctxsim(
      "explore", "scenarios/photo-downloader-fixed.json", "--strategy", "dpor",
      "--preemption-bound", "1")
    #expect(bounded.status == named.status && bounded.out == named.out)
  }

  @Test(
    "A bound the strategy would ignore is a usage error, not a search that only looks bounded",
    arguments: [
      (["--strategy", "pct", "--preemption-bound", "1"], "not `--strategy pct`"),
      (["--strategy", "exhaustive", "--preemption-bound", "0"], "not `--strategy exhaustive`"),
      (["--max-states", "100"], "not `--strategy dpor`"),
      (["--strategy", "random", "--max-states", "100"], "not `--strategy random`"),
    ])
  func ignoredBound(options: [String], message: String) {
    let run = ctxsim(arguments: ["explore", "scenarios/wrong-thread.json"] + options)
    #expect(run.status == 64)
    #expect(run.err.contains(message), "\(run.err)")
  }

  @Test("--format json gives the outcomes with their replay commands")
  func json() throws {
    let run = ctxsim("explore", "scenarios/checked-too-early.json", "--format", "json")
    let document = try JSONReader.read(Array(run.out.utf8))
    #expect(document["strategy"]?.string == "dpor")
    #expect(document["complete"]?.bool == true)
    let outcomes = try #require(document["outcomes"]?.elements)
    #expect(
      outcomes.contains {
        $0["replay"]?.string?.hasPrefix("ctxsim run scenarios/checked-too-early.json --schedule ")
          == true
      })
  }
}

extension ToolRun: Equatable {
  static func == (a: ToolRun, b: ToolRun) -> Bool {
    a.status == b.status && a.out == b.out && a.err == b.err
  }
}
