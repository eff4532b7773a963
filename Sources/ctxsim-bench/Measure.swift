import Foundation

/// Wall time of a piece of work, in seconds.
func seconds(_ work: () -> Void) -> Double {
  let stopwatch = Stopwatch()
  work()
  return stopwatch.seconds
}

/// Seconds since it was made, for work that asks how long it has run as it goes.
struct Stopwatch {
  private let clock = ContinuousClock()
  private let start: ContinuousClock.Instant

  init() { start = clock.now }

  var seconds: Double {
    let elapsed = start.duration(to: clock.now)
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  }
}

/// The most memory the process has held since ``resetPeakMemory()``, in megabytes.
///
/// On Linux this is the kernel's high-water mark for this program (`VmHWM`). `getrusage`'s
/// peak carries over `exec`, so under `swift run` it was SwiftPM's own 118 MB, which hid
/// whatever the exploration did below it.
func peakMemoryMB() -> Double {
  if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
    let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
    let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
  {
    return kilobytes / 1024
  }
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  return Double(usage.ru_maxrss) / 1024
}

/// Starts the high-water mark again from what the process holds now, so that a figure
/// is not the peak of an earlier section. Linux only; elsewhere the peak goes on.
func resetPeakMemory() {
  try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
}

/// The median of some numbers.
func median(_ values: [Int]) -> Int {
  let sorted = values.sorted()
  return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

/// Runs a program and returns its exit status and standard error.
func runProcess(_ path: String, _ arguments: [String]) -> (status: Int32, stderr: String)? {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: path)
  process.arguments = arguments
  let err = Pipe()
  process.standardError = err
  process.standardOutput = FileHandle.nullDevice
  do { try process.run() } catch { return nil }
  let data = err.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// How much work two processes that share nothing get done at once, against one alone:
/// about the most two threads of one process could gain on this machine's two cores.
/// Each process is this bench running `runs` random schedules of the 29-step scenario on
/// one core (`--random-child`); the median of three pairs.
func processPairSpeedup(runs: Int) -> Double? {
  func child() -> Process? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = ["--random-child", "\(runs)"]
    return (try? process.run()) == nil ? nil : process
  }
  /// Seconds until `count` children started at once have all ended; nil if one did not start.
  func wall(_ count: Int) -> Double? {
    let stopwatch = Stopwatch()
    let children = (0..<count).compactMap { _ in child() }
    for process in children { process.waitUntilExit() }
    return children.count == count ? stopwatch.seconds : nil
  }
  var ratios: [Double] = []
  for _ in 0..<3 {
    guard let alone = wall(1), let pair = wall(2) else { return nil }
    ratios.append(2 * alone / pair)
  }
  return ratios.sorted()[1]
}

/// Finds a program on the PATH.
func which(_ name: String) -> String? {
  for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
    let path = "\(directory)/\(name)"
    if FileManager.default.isExecutableFile(atPath: path) { return path }
  }
  return nil
}

/// The table the benchmark prints: one row per figure, with its target and whether it met it.
struct Table {
  private var rows: [(String, String, String, String)] = []

  mutating func add(_ figure: String, _ measured: String, target: String, met: Bool?) {
    rows.append((figure, measured, target, met.map { $0 ? "yes" : "NO" } ?? "-"))
  }

  func render() -> String {
    let headers = ("figure", "measured", "target", "met")
    let all = [headers] + rows
    let w0 = all.map(\.0.count).max()!
    let w1 = all.map(\.1.count).max()!
    let w2 = all.map(\.2.count).max()!
    func pad(_ s: String, _ w: Int) -> String { s + String(repeating: " ", count: w - s.count) }
    return all.map { "\(pad($0.0, w0))  \(pad($0.1, w1))  \(pad($0.2, w2))  \($0.3)" }
      .joined(separator: "\n")
  }
}
