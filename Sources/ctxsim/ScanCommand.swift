import ContextSim
import Foundation

/// `ctxsim scan Sources/MyApp/`: each entry point of each type that touches Core Data,
/// drafted and explored from main, from a background queue and in pairs; the findings
/// ranked, each with a replay command, and what could not be modelled.
struct ScanCommand {
  var options: ScanOptions
  var console: Console

  func execute() -> Int32 {
    let read: Drafted.Read
    switch Drafted.read(
      options.paths, options.settings, fileBytes: options.fileBytes, console)
    {
    case .success(let r): read = r
    case .failure(let failure):
      console.writeError(failure.message + "\n")
      return failure.status
    }
    guard !read.sources.isEmpty else {
      console.writeError(
        "error: no .swift files in \(options.paths.joined(separator: " "))\n"
          + "  fix: name the module's folder or its .swift files\n")
      return ExitStatus.noInput
    }
    let clock = ContinuousClock()
    let start = clock.now
    let scan = Scan(
      read.sources, options: Draft.Options(model: read.model),
      maxSchedules: options.maxSchedules, maxPairs: options.maxPairs,
      shouldStop: timeUp(after: options.timeLimit))
    let elapsed = start.duration(to: clock.now)
    var prefix = ["ctxsim", "run"] + options.paths
    if let model = options.settings.model { prefix += ["--model", model] }
    let report = ScanReport(replayPrefix: prefix.joined(separator: " "), paths: read.paths)
    switch options.format {
    case .text: console.write(report.text(scan))
    case .json: console.write(JSONWriter.write(report.document(scan)) + "\n")
    case .junit: console.write(report.junit(scan))
    case .sarif: console.write(JSONWriter.write(report.sarif(scan)) + "\n")
    }
    // Timing varies from run to run: standard error, so the report stays the same.
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    console.writeError(
      "scanned in \(String(format: "%.2f", seconds)) s: "
        + "\(scan.results.filter { $0.schedules > 0 }.count) runs\n")
    return ExitStatus.of(scan)
  }
}
