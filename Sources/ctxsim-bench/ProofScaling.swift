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

  /// The N table: before, DPOR's classes of interleavings (up to the first size it does not
  /// finish in `budget` seconds); after, the stateful search's states, and for each size it
  /// does not finish in 60 s a bounded proof.
  static func measure(sizes: ClosedRange<Int>, budget: Double, into table: inout Table) {
    let scenarios = sizes.map { ($0, fixedDownloader(urls: $0)) }
    guard scenarios.allSatisfy({ $0.1 != nil }) else {
      table.add(
        "fixed downloader, N URLs", "skipped: run from the repository's root",
        target: "(reference)", met: nil)
      return
    }
    for (n, scenario) in scenarios {
      guard let e = search(scenario!, .dpor(preemptionBound: nil), for: budget) else { break }
      table.add(
        "fixed downloader, \(n) URLs: before, complete DPOR", e, target: "(reference)", met: nil)
      if !e.hasPrefix("complete") { break }
    }
    var unfinished = false
    for (n, scenario) in scenarios {
      let target =
        n == 6 ? "complete <= 10 s" : n == 8 ? "complete, or bounded k >= 2 <= 60 s" : "(reference)"
      if !unfinished {
        let stopwatch = Stopwatch()
        let e = explore(
          scenario!, strategy: .stateful(maxStates: defaultStateBudget),
          options: SimulationOptions(scenario!), shrinking: false,
          shouldStop: { stopwatch.seconds >= 60 })
        let time = stopwatch.seconds
        unfinished = !e.isComplete
        table.add(
          "fixed downloader, \(n) URLs: after, complete stateful", describe(e, seconds: time),
          target: target, met: n == 6 || n == 8 ? e.isComplete && time <= (n == 6 ? 10 : 60) : nil)
      }
      if unfinished { addBoundedProof(scenario!, urls: n, into: &table) }
    }
  }

  /// A search of `scenario` for at most `seconds`, described for the table.
  private static func search(
    _ scenario: Scenario, _ strategy: ExplorationStrategy, for seconds: Double
  )
    -> String?
  {
    let stopwatch = Stopwatch()
    let e = explore(
      scenario, strategy: strategy, options: SimulationOptions(scenario),
      maxSchedules: 100_000_000, workers: 1, shrinking: false,
      shouldStop: { stopwatch.seconds >= seconds })
    return describe(e, seconds: stopwatch.seconds)
  }

  /// `complete: 6720 classes in 1.61 s, clean`, or where the search stopped.
  private static func describe(_ e: Exploration, seconds: Double) -> String {
    let size = e.statesVisited.map { "\($0) states kept" } ?? "\(e.schedulesRun) classes"
    let clean = e.outcomes.allSatisfy(\.isClean) ? "clean" : "NOT clean"
    return e.isComplete
      ? "complete: \(size) in \(String(format: "%.2f", seconds)) s, \(clean)"
      : "not finished in \(String(format: "%.0f", seconds)) s (\(size))"
  }

  /// What `check` falls back to for a design declared clean: the stateful search within a
  /// preemption bound of 0, 1, 2, … for 60 s in all (iterative context bounding), and the
  /// largest bound that finished. DPOR within a bound is faster but can miss a class the
  /// bound allows, so it proves nothing and is not measured here.
  static func addBoundedProof(_ scenario: Scenario, urls n: Int, into table: inout Table) {
    let budget = 60.0
    let stopwatch = Stopwatch()
    var proven: (bound: Int, states: Int, seconds: Double)?
    var bound = 0
    while stopwatch.seconds < budget {
      let e = explore(
        scenario, strategy: .stateful(maxStates: defaultStateBudget, preemptionBound: bound),
        options: SimulationOptions(scenario), shrinking: false,
        shouldStop: { stopwatch.seconds >= budget })
      guard e.searchFinished, e.outcomes.allSatisfy({ $0.isClean }) else { break }
      proven = (bound, e.statesVisited ?? 0, stopwatch.seconds)
      // A bound that cut nothing was the complete search: no larger bound adds to it.
      if e.isComplete { break }
      bound += 1
    }
    let figure =
      proven.map {
        "clean for every schedule with <= \($0.bound) preemptions (\($0.states) states kept), "
          + String(format: "%.1f s; %d not finished in 60 s", $0.seconds, $0.bound + 1)
      } ?? "no bound finished in 60 s"
    table.add(
      "fixed downloader, \(n) URLs: bounded stateful", figure,
      target: n == 8 ? "bounded k >= 2 <= 60 s" : "(reference)",
      met: n == 8 ? (proven?.bound ?? -1) >= 2 : nil)
  }

  /// `ctxsim check scenarios/` as a user runs it, wall time and CPU time, with the release
  /// binary next to the bench's; nil when there is none. The run of median wall time of
  /// three, since one run on this machine varies by a third; the status is the worst of them.
  static func checkTimes() -> (seconds: Double, cpu: Double, status: Int32)? {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("ctxsim")
    guard FileManager.default.isExecutableFile(atPath: binary.path) else { return nil }
    var runs: [(seconds: Double, cpu: Double, status: Int32)] = []
    for _ in 0..<3 {
      let before = childrenCPU()
      guard let run = checkOnce(binary) else { return nil }
      runs.append((run.seconds, childrenCPU() - before, run.status))
    }
    let median = runs.sorted { $0.seconds < $1.seconds }[1]
    return (median.seconds, median.cpu, runs.map(\.status).max() ?? -1)
  }

  /// CPU time, user and system, of the child processes this one has waited for.
  private static func childrenCPU() -> Double {
    var usage = rusage()
    #if canImport(Glibc)
      getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
    #else
      getrusage(RUSAGE_CHILDREN, &usage)
    #endif
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
  }

  private static func checkOnce(_ binary: URL) -> (seconds: Double, status: Int32)? {
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
