import ContextSim
import Foundation

/// Issue 13's figures: how far a complete proof of the fixed photo downloader scales with
/// the number of URLs, and what `check scenarios/` costs, so that every reduction and
/// speed-up is measured against the same table, before and after.
enum ProofScaling {
  /// The fixed downloader (scenarios/photo-downloader-fixed.json) with `urls` URLs:
  /// `1.jpg` … and a last one whose download fails, so every run still does the same
  /// kinds of work; the expectations count `urls - 1` photos. Nil when the file is not
  /// found (the bench runs from the repository's root).
  static func fixedDownloader(urls: Int) -> Scenario? {
    guard
      var json = try? String(
        contentsOfFile: "scenarios/photo-downloader-fixed.json", encoding: .utf8)
    else { return nil }
    let original = """
      "https://example.com/1.jpg",
                  "https://example.com/2.jpg",
                  "https://example.com/1.jpg",
                  "https://example.com/broken.jpg"
      """
    let list =
      (1..<urls).map { "\"https://example.com/\($0).jpg\"" }
      + ["\"https://example.com/broken.jpg\""]
    guard json.contains(original) else { return nil }
    json = json.replacingOccurrences(of: original, with: list.joined(separator: ", "))
    // The album ends with one photo per URL that downloads, and so many are marked seen.
    json = json.replacingOccurrences(of: "\"equals\": 2", with: "\"equals\": \(urls - 1)")
    return Generated.decode(json, name: "photo-downloader-fixed-\(urls)")
  }

  /// One row per N: complete (classes and time), or where the budget stopped the search.
  static func measure(sizes: ClosedRange<Int>, budget: Double, into table: inout Table) {
    var unfinished: Int?
    for n in sizes {
      let target =
        n == 6 ? "complete <= 10 s" : n == 8 ? "complete, or bounded k >= 2 <= 60 s" : "(reference)"
      guard let scenario = fixedDownloader(urls: n) else {
        table.add(
          "fixed downloader, N URLs", "skipped: run from the repository's root", target: target,
          met: nil)
        return
      }
      if let unfinished {
        table.add(
          "fixed downloader, \(n) URLs: complete DPOR",
          "not run: \(unfinished) URLs did not finish",
          target: n == 8 ? "(see bounded)" : target, met: n == 6 ? false : nil)
        addBoundedProof(scenario, urls: n, into: &table)
        continue
      }
      let stopwatch = Stopwatch()
      let e = explore(
        scenario, strategy: .dpor(preemptionBound: nil), options: SimulationOptions(scenario),
        maxSchedules: 100_000_000, workers: 1, shrinking: false,
        shouldStop: { stopwatch.seconds >= budget })
      let time = stopwatch.seconds
      let clean = e.outcomes.allSatisfy { $0.signature.isEmpty && $0.limit == nil }
      let figure =
        e.isComplete
        ? "\(e.schedulesRun) classes in \(String(format: "%.2f", time)) s, \(clean ? "clean" : "NOT clean")"
        : "not finished in \(String(format: "%.0f", time)) s (\(e.schedulesRun) classes run)"
      let met: Bool? =
        n == 6 ? e.isComplete && time <= 10 : n == 8 ? e.isComplete && time <= 60 : nil
      table.add(
        "fixed downloader, \(n) URLs: complete DPOR, 1 core", figure, target: target, met: met)
      if !e.isComplete {
        unfinished = n
        addBoundedProof(scenario, urls: n, into: &table)
      }
    }
  }

  /// One row per N: the stateful search, states visited and time.
  static func measureStateful(sizes: ClosedRange<Int>, budget: Double, into table: inout Table) {
    for n in sizes {
      guard let scenario = fixedDownloader(urls: n) else { return }
      let stopwatch = Stopwatch()
      let e = explore(
        scenario, strategy: .stateful(maxStates: defaultStateBudget),
        options: SimulationOptions(scenario), shrinking: false,
        shouldStop: { stopwatch.seconds >= budget })
      let time = stopwatch.seconds
      let clean = e.outcomes.allSatisfy { $0.isClean }
      let figure =
        (e.isComplete ? "complete" : "NOT finished")
        + ": \(e.statesVisited ?? 0) states, \(e.schedulesRun) ends, \(e.outcomes.count) outcomes, "
        + String(format: "%.2f s, ", time) + (clean ? "clean" : "NOT clean")
      table.add(
        "fixed downloader, \(n) URLs: stateful, 1 core", figure,
        target: n == 6 ? "complete <= 10 s" : n == 8 ? "complete <= 60 s" : "(reference)",
        met: n == 6 ? e.isComplete && time <= 10 : n == 8 ? e.isComplete && time <= 60 : nil)
      if !e.isComplete { return }
    }
  }

  /// What `check` falls back to when the complete search does not fit: DPOR within a
  /// preemption bound of 0, 1, 2, … for 60 s in all (iterative context bounding), and the
  /// largest bound whose search finished.
  static func addBoundedProof(_ scenario: Scenario, urls n: Int, into table: inout Table) {
    let budget = 60.0
    let stopwatch = Stopwatch()
    var proven: (bound: Int, schedules: Int, seconds: Double)?
    var bound = 0
    while stopwatch.seconds < budget {
      let e = explore(
        scenario, strategy: .dpor(preemptionBound: bound), options: SimulationOptions(scenario),
        maxSchedules: 100_000_000, workers: 1, shrinking: false,
        shouldStop: { stopwatch.seconds >= budget })
      guard e.searchFinished, e.outcomes.allSatisfy({ $0.isClean }) else { break }
      proven = (bound, e.schedulesRun, stopwatch.seconds)
      bound += 1
    }
    let figure =
      proven.map {
        "clean for every schedule with <= \($0.bound) preemptions (\($0.schedules) schedules), "
          + String(format: "%.1f s; %d not finished in 60 s", $0.seconds, $0.bound + 1)
      } ?? "no bound finished in 60 s"
    table.add(
      "fixed downloader, \(n) URLs: bounded proof, 1 core", figure,
      target: n == 8 ? "bounded k >= 2 <= 60 s" : "(reference)",
      met: n == 8 ? (proven?.bound ?? -1) >= 2 : nil)
  }

  /// `ctxsim check scenarios/` as a user runs it, wall time, with the release binary next
  /// to the bench's; nil when there is none.
  static func checkWallTime() -> (seconds: Double, status: Int32)? {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("ctxsim")
    guard FileManager.default.isExecutableFile(atPath: binary.path) else { return nil }
    let process = Process()
    process.executableURL = binary
    process.arguments = ["check", "scenarios/"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    var status: Int32 = -1
    let time = seconds {
      guard (try? process.run()) != nil else { return }
      process.waitUntilExit()
      status = process.terminationStatus
    }
    return status == -1 ? nil : (time, status)
  }
}
