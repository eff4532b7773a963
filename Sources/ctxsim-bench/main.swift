import ContextSim
import Foundation

// ctxsim-bench: figures for exploration, printed side by side from one run.
//
//     swift run -c release ctxsim-bench            # everything (about 15 minutes)
//     swift run -c release ctxsim-bench --quick    # smaller sizes, for a smoke test
//     swift run -c release ctxsim-bench --only cost,scaling    # some sections

let arguments = CommandLine.arguments
let quick = arguments.contains("--quick")
let debug = SimulationOptions(concurrencyDebug: true)

/// `runs` seeded random schedules of `scenario` on `workers` cores, as the cost figures time
/// them.
func randomSchedules(_ scenario: Scenario, _ runs: Int, workers: Int) {
  _ = explore(
    scenario, strategy: .random(seed: 1), options: debug, maxSchedules: runs, workers: workers,
    shrinking: false)
}

// `--random-child n`: the bench run as its own child, for the two-process ceiling below.
if let i = arguments.firstIndex(of: "--random-child"), i + 1 < arguments.count,
  let runs = Int(arguments[i + 1])
{
  randomSchedules(Generated.thirtySteps, runs, workers: 1)
  exit(0)
}
/// `--only cost,scaling`: just those sections (race, reduction, bugs, cost, scaling, scan).
let only = arguments.firstIndex(of: "--only").flatMap { i in
  i + 1 < arguments.count ? Set(arguments[i + 1].split(separator: ",").map(String.init)) : nil
}
func wants(_ section: String) -> Bool { only?.contains(section) ?? true }
var tsan: TSanRace.Result?
var table = Table()
let scale = quick ? 10 : 1

func log(_ text: String) {
  FileHandle.standardError.write(Data((text + "\n").utf8))
}

// MARK: Race detection against ThreadSanitizer

if wants("race") {
  let runs = 40
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
    "ctxsim-bench-\(getpid())")
  try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  log("race detection: building and running the TSan program \(runs) times…")
  tsan = TSanRace.measure(runs: runs, synchronised: false, in: directory)
  let tsanSync = TSanRace.measure(runs: runs, synchronised: true, in: directory)
  try? FileManager.default.removeItem(at: directory)
  func ctxsimRaceSeeds(_ scenario: Scenario) -> Int {
    (0..<runs).filter { seed in
      let e = explore(
        scenario, strategy: .random(seed: UInt64(seed)),
        options: SimulationOptions(concurrencyDebug: true),
        maxSchedules: 1, shrinking: false)
      return e.outcomes.contains { $0.signature.contains { $0.kind == .dataRace } }
    }.count
  }
  let ctxsimRace = ctxsimRaceSeeds(Generated.counter(synchronised: false))
  let ctxsimSync = ctxsimRaceSeeds(Generated.counter(synchronised: true))
  table.add(
    "race found, unsynchronised (ctxsim, 1 schedule per seed)", "\(ctxsimRace)/\(runs)",
    target: "\(runs)/\(runs)",
    met: ctxsimRace == runs)
  table.add(
    "race found, synchronised (ctxsim)", "\(ctxsimSync)/\(runs)", target: "0/\(runs)",
    met: ctxsimSync == 0)
  if let tsan, let tsanSync {
    table.add(
      "race found, unsynchronised (TSan runs)", "\(tsan.detected)/\(tsan.runs)",
      target: "(reference)", met: nil)
    table.add(
      "race found, synchronised (TSan runs)", "\(tsanSync.detected)/\(tsanSync.runs)",
      target: "(reference)", met: nil)
  } else {
    table.add(
      "race found (TSan runs)", "skipped: no swiftc with -sanitize=thread", target: "(reference)",
      met: nil)
  }
}

// MARK: Reduction

if wants("reduction") {
  log("reduction: exhaustive search against dynamic partial-order reduction…")
  let steps = quick ? 5 : 10
  let disjoint = Generated.contexts(threads: 2, steps: steps, conflicts: 2)
  var plainRuns = 0
  let plainTime = seconds {
    plainRuns =
      explore(
        disjoint, strategy: .exhaustive, options: debug, maxSchedules: 2_000_000, shrinking: false
      ).schedulesRun
  }
  let reduced = explore(
    disjoint, strategy: .dpor(preemptionBound: nil), options: debug, maxSchedules: 2_000_000,
    shrinking: false)
  let share = Double(reduced.schedulesRun) / Double(max(plainRuns, 1))
  table.add(
    "2 contexts x \(steps) steps + 1 conflicting pair: exhaustive",
    "\(plainRuns) schedules in \(String(format: "%.1f", plainTime)) s",
    target: "(reference)", met: nil)
  table.add(
    "  with reduction",
    "\(reduced.schedulesRun) schedules (\(String(format: "%.2f", share * 100))%)",
    target: "<= 5%",
    met: share <= 0.05)
  let tiny: [(String, Scenario)] = [
    ("counter", Generated.counter(synchronised: false)),
    ("counter, synchronised", Generated.counter(synchronised: true)),
    ("2 contexts x 3, 1 conflict", Generated.contexts(threads: 2, steps: 3, conflicts: 2)),
    ("3 contexts x 2, 2 conflicts", Generated.contexts(threads: 3, steps: 2, conflicts: 2)),
    ("bug of depth 2, 3 steps", Generated.orderingBug(depth: 2, steps: 3)),
  ]
  for (name, scenario) in tiny {
    let brute = countInterleavings(scenario, options: debug)
    let search = explore(
      scenario, strategy: .dpor(preemptionBound: nil), options: debug, maxSchedules: 1_000_000,
      shrinking: false)
    table.add(
      "classes of \(name)",
      "\(search.schedulesRun) run / \(brute.classes) classes (\(brute.interleavings) interleavings)",
      target: "run = classes", met: search.schedulesRun == brute.classes && brute.complete)
  }
}

// MARK: Bug finding

if wants("bugs") {
  log("bug finding: PCT against random on planted ordering bugs…")
  let seeds = quick ? 20 : 100
  let cap = 20_000 / scale
  for depth in [2, 3] {
    let bug = Generated.orderingBug(depth: depth, steps: 8)
    let bugSteps = PCTScheduler.typicalSteps(of: bug, options: debug)
    func schedulesToHit<S: Scheduler>(_ scheduler: (UInt64) -> S) -> [Int] {
      (0..<seeds).map { seed in
        var explorer = Explorer(
          scenario: bug, scheduler: scheduler(UInt64(seed)), strategy: nil, options: debug)
        for n in 1...cap {
          _ = explorer.runNext()
          if explorer.result.outcomes.contains(where: {
            $0.signature.contains { $0.kind == .expectationFailed }
          }) {
            return n
          }
        }
        return cap
      }
    }
    let pct = median(
      schedulesToHit { PCTScheduler.exploring(seed: $0, depth: depth, steps: bugSteps) })
    let random = median(schedulesToHit { RandomScheduler.exploring(seed: $0) })
    table.add(
      "depth \(depth): median schedules to the bug, PCT / random",
      "\(pct) / \(random)\(random >= cap ? "+" : "")",
      target: "PCT >= 5x fewer", met: random >= 5 * pct)
    // PCT's guarantee: at least 1/(n·k^(d−1)) per schedule, n threads and k steps.
    var counter = RunToCompletionScheduler()
    let trace = simulate(bug, options: debug, scheduler: &counter)
    let n = trace.threads.count
    let k = trace.schedule.threads.count
    let bound = 1 / (Double(n) * pow(Double(k), Double(depth - 1)))
    let trials = 20_000 / scale
    let hits = explore(
      bug, strategy: .pct(seed: 7, depth: depth), options: debug, maxSchedules: trials,
      shrinking: false
    )
    .outcomes.filter { $0.signature.contains { $0.kind == .expectationFailed } }.map(\.schedules)
    .reduce(0, +)
    let rate = Double(hits) / Double(trials)
    table.add(
      "depth \(depth): PCT hit rate (n=\(n), k=\(k))", String(format: "%.4f", rate),
      target: String(format: ">= %.4f", bound), met: rate >= bound)
  }
}

// MARK: Cost

if wants("cost") {
  log("cost: schedules per second and memory…")
  let thirty = Generated.thirtySteps
  let thirtyLength = PCTScheduler.typicalSteps(of: thirty, options: debug)
  /// Random schedules of the 30-step scenario per second on one core and on two: each the
  /// median of three runs, since one run on this machine varies by a third, taken in turns
  /// (one core, two, one, two, …) so that the machine slowing or speeding up over the minute
  /// does not show as a speed-up or a loss.
  func randomRates() -> (one: Double, two: Double) {
    let runs = 100_000 / scale
    var one: [Double] = []
    var two: [Double] = []
    for _ in 0..<3 {
      one.append(Double(runs) / seconds { randomSchedules(thirty, runs, workers: 1) })
      two.append(Double(runs) / seconds { randomSchedules(thirty, runs, workers: 2) })
    }
    return (one.sorted()[1], two.sorted()[1])
  }
  let (rate, twoCoreRate) = randomRates()
  table.add(
    "schedules per second, \(thirtyLength)-step scenario, 1 core", String(format: "%.0f", rate),
    target: ">= 50000",
    met: rate >= 50_000)
  let thousand = seconds {
    _ = explore(
      thirty, strategy: .random(seed: 2), options: debug, maxSchedules: 1000, workers: 1,
      shrinking: false)
  }
  if let tsan {
    let tsanThousand = tsan.seconds / Double(tsan.runs) * 1000
    table.add(
      "1,000 schedules against 1,000 TSan runs",
      String(format: "%.2f s / %.0f s", thousand, tsanThousand),
      target: "ctxsim no slower", met: thousand <= tsanThousand)
  }
  let small = Generated.counter(synchronised: false)
  resetPeakMemory()
  _ = explore(
    small, strategy: .random(seed: 3), options: debug, maxSchedules: 100_000 / scale, workers: 1,
    shrinking: false)
  let memoryAt100k = peakMemoryMB()
  _ = explore(
    small, strategy: .random(seed: 3), options: debug, maxSchedules: 1_000_000 / scale, workers: 1,
    shrinking: false)
  let memoryAt1M = peakMemoryMB()
  table.add(
    "peak memory after \(100_000 / scale) and \(1_000_000 / scale) schedules",
    String(format: "%.1f MB / %.1f MB", memoryAt100k, memoryAt1M),
    target: "flat", met: memoryAt1M <= memoryAt100k * 1.1 + 1)

  table.add(
    "schedules per second, \(thirtyLength)-step scenario, 2 cores",
    String(format: "%.0f (%.2fx one core)", twoCoreRate, twoCoreRate / rate),
    target: ">= 1.8x one core", met: twoCoreRate >= 1.8 * rate)
  if let ceiling = processPairSpeedup(runs: 100_000 / scale) {
    table.add(
      "  two processes of 1 core at once, against one", String(format: "%.2fx", ceiling),
      target: "(the machine's ceiling)", met: nil)
  }
}

// MARK: Proof scaling

if wants("scaling") {
  log("proof scaling: the fixed photo downloader with N URLs, DPOR then stateful…")
  ProofScaling.measure(sizes: quick ? 2...4 : 2...8, budget: quick ? 10 : 180, into: &table)
  if let check = ProofScaling.checkTimes() {
    table.add(
      "ctxsim check scenarios/, wall",
      String(
        format: "%.1f s (exit %d), %.1f s of CPU: %.1f cores busy", check.seconds, check.status,
        check.cpu, check.cpu / check.seconds),
      target: "<= 4 s", met: check.seconds <= 4 && check.status == 0)
  } else {
    table.add(
      "ctxsim check scenarios/, wall", "skipped: build ctxsim first (swift build -c release)",
      target: "<= 4 s", met: nil)
  }
}

// MARK: Scanning a module

if wants("scan") {
  // Real code: MAGE's Observation model and its user, from the draft corpus.
  let folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    .appendingPathComponent(
      "Tests/ContextSimTests/Fixtures/Draft/26-mage-flagimportant-other-context-object")
  let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.sorted() ?? []
  let sources = names.filter { $0.hasSuffix(".swift.txt") }.compactMap { name in
    (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)).map {
      Draft.Source(name: String(name.dropLast(".txt".count)), text: $0)
    }
  }
  if sources.isEmpty {
    table.add(
      "scan of a module", "skipped: run from the repository's root", target: "seconds", met: nil)
  } else {
    log("scan: MAGE's Observation module, every entry point alone and 100 pairs…")
    var scan: Scan?
    let time = seconds { scan = Scan(sources) }
    let ran = scan?.results.filter { $0.schedules > 0 }.count ?? 0
    table.add(
      "scan of \(scan?.lines ?? 0) lines (\(scan?.entryPoints.count ?? 0) entry points, \(ran) runs)",
      String(format: "%.1f s", time), target: "<= 10 s", met: time <= 10)
  }
}

print(table.render())
