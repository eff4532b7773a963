import Foundation

/// The real-program side of the race figure: two blocks on the global queue incrementing
/// one property, built with ThreadSanitizer, run many times.
enum TSanRace {
  static let source = """
    import Dispatch

    final class Counter: @unchecked Sendable { var value = 0 }
    let counter = Counter()
    let group = DispatchGroup()
    #if SYNCHRONISED
    let queue = DispatchQueue(label: "counter")
    #else
    let queue = DispatchQueue.global()
    #endif
    for _ in 0..<2 {
      queue.async(group: group) { counter.value += 1 }
    }
    group.wait()
    print(counter.value)
    """

  struct Result {
    var detected: Int
    var runs: Int
    var seconds: Double
  }

  /// Builds the program (plain, or synchronised on a serial queue) and counts the runs in
  /// which ThreadSanitizer reports the race; nil when no swiftc with TSan is available.
  static func measure(runs: Int, synchronised: Bool, in directory: URL) -> Result? {
    guard let swiftc = which("swiftc") else { return nil }
    let source = directory.appendingPathComponent("tsan-race.swift")
    let binary = directory.appendingPathComponent(synchronised ? "tsan-race-sync" : "tsan-race")
    do {
      try self.source.write(to: source, atomically: true, encoding: .utf8)
    } catch {
      return nil
    }
    var arguments = ["-sanitize=thread", "-O", source.path, "-o", binary.path]
    if synchronised { arguments += ["-D", "SYNCHRONISED"] }
    guard let build = runProcess(swiftc, arguments), build.status == 0 else { return nil }
    var detected = 0
    let time = seconds {
      for _ in 0..<runs {
        if let run = runProcess(binary.path, []), run.stderr.contains("ThreadSanitizer: data race")
        {
          detected += 1
        }
      }
    }
    return Result(detected: detected, runs: runs, seconds: time)
  }
}
