import ContextSimCore
import ContextSimReports

/// A scan for people (text) and for tools: JSON, JUnit XML, and SARIF 2.1.0 for
/// code-scanning views, which show each finding on the app's line.
public struct ScanReport: Sendable {
  /// The command a finding is replayed with, before its calls: `ctxsim run Sources/App`.
  public var replayPrefix: String
  /// Each file's path as given, by the name labels use, for SARIF's locations.
  public var paths: [String: String]

  /// A report whose replay commands start with `replayPrefix`.
  public init(replayPrefix: String, paths: [String: String] = [:]) {
    self.replayPrefix = replayPrefix
    self.paths = paths
  }

  /// `ctxsim run Sources/App --call '…' --schedule 0x3,1x2`.
  public func replay(_ finding: Scan.Finding) -> String {
    let calls = finding.job.calls.map {
      "--call '\($0.replacingOccurrences(of: "'", with: "'\\''"))'"
    }
    let path = finding.path.map { ["--path", "\($0)"] } ?? []
    return ([replayPrefix] + calls + path + ["--schedule", finding.schedule.description])
      .joined(separator: " ")
  }

  // MARK: Text

  /// For people: the findings worst first, then what was not modelled, then the verdict.
  public func text(_ scan: Scan) -> String {
    let types = Set(scan.entryPoints.map(\.type).filter { !$0.isEmpty }).count
    let pairs = scan.results.filter { $0.job.entryPoints.count == 2 }
    let skipped = scan.results.filter { $0.schedules == 0 && $0.error == nil && !$0.complete }
    let pairsRun = pairs.filter { $0.schedules > 0 || $0.error != nil || $0.complete }.count
    var out =
      "Scanned \(scan.lines) lines: \(count(types, "type")) touching Core Data, "
      + "\(count(scan.entryPoints.count, "entry point")), \(count(scan.results.count - skipped.count, "run")) "
      + "(from main, from a background queue unless only main calls it, and \(count(pairsRun, "pair")) at once)\n"
    let overPairs = skipped.count - scan.notRunForTime
    if overPairs > 0 {
      out += "\(count(overPairs, "pair")) not run: over --max-pairs\n"
    }
    if scan.notRunForTime > 0 {
      out += "\(count(scan.notRunForTime, "run")) not run: --time-limit ran out\n"
    }
    if scan.findings.isEmpty {
      out += "\nNo findings.\n"
    } else {
      out += "\nFindings, worst first:\n"
      for (index, finding) in scan.findings.enumerated() {
        let more = finding.jobs > 1 ? " (and \(count(finding.jobs - 1, "more run")))" : ""
        out += "\(index + 1). \(finding.kind.rawValue) at \(finding.place)\n"
        out += "   \(finding.headline)\n"
        out += "   \(finding.job.name)\(more), schedule \(finding.schedule)\n"
        out += "   replay: \(replay(finding))\n"
      }
    }
    let unmodelled = unmodelledByEntryPoint(scan)
    if !unmodelled.isEmpty {
      out += "\nNot modelled, by entry point:\n"
      for (entry, lines) in unmodelled {
        out += "  \(entry.name) (\(entry.place))\n"
        for line in lines { out += "    \(line.place)  \(line.swift)\n      \(line.why)\n" }
      }
    }
    for result in scan.results where result.error != nil {
      out += "\n\(result.job.name): error: \(result.error!)\n"
    }
    out += "\n" + verdict(scan) + "\n"
    return out
  }

  /// The verdict's sentence: findings, or why no finding is not a clean bill.
  public func verdict(_ scan: Scan) -> String {
    if scan.entryPoints.isEmpty {
      return "Nothing scanned: no type in these files touches Core Data (not a clean bill)."
    }
    if !scan.findings.isEmpty { return "\(count(scan.findings.count, "finding"))." }
    if scan.isUnmodelled {
      return
        "No findings in what ctxsim modelled, but runs passed lines it could not model: not clean (exit 3)."
    }
    if !scan.isComplete {
      return "No findings, but some searches were cut short or not run: not proven clean (exit 75)."
    }
    return "Clean: every entry point, from main, from a background queue and in pairs."
  }

  /// The lines not modelled each entry point's runs passed, once per entry point.
  func unmodelledByEntryPoint(_ scan: Scan) -> [(Scan.EntryPoint, [Draft.Line])] {
    // One pass over the runs: a scan of a large app has thousands of them.
    var lines: [Scan.EntryPoint: [Draft.Line]] = [:]
    var seen: [Scan.EntryPoint: Set<String>] = [:]
    for result in scan.results where !result.unmodelled.isEmpty {
      for entry in result.job.entryPoints {
        for line in result.unmodelled
        where seen[entry, default: []].insert("\(line.place) \(line.why)").inserted {
          lines[entry, default: []].append(line)
        }
      }
    }
    return scan.entryPoints.compactMap { entry in lines[entry].map { (entry, $0) } }
  }

  private func count(_ n: Int, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }

  // MARK: JSON

  /// The scan as one JSON document: entry points, findings, runs, verdict.
  public func document(_ scan: Scan) -> JSONValue {
    .object([
      "lines": .integer(scan.lines),
      "entryPoints": .array(
        scan.entryPoints.map { e in
          .object(["name": .string(e.name), "place": .string(e.place), "call": .string(e.call)])
        }),
      "findings": .array(
        scan.findings.map { f in
          .object([
            "kind": .string(f.kind.rawValue), "place": .string(f.place),
            "headline": .string(f.headline), "run": .string(f.job.name),
            "calls": .array(f.job.calls.map(JSONValue.string)),
            "schedule": .string(f.schedule.description), "runs": .integer(f.jobs),
            "replay": .string(replay(f)),
          ])
        }),
      "runs": .array(
        scan.results.map { r in
          .object([
            "name": .string(r.job.name), "calls": .array(r.job.calls.map(JSONValue.string)),
            "verdict": .string(r.verdict), "schedules": .integer(r.schedules),
            "complete": .bool(r.complete),
            "violations": .array(r.violations.map(JSONValue.string)),
            "unmodelled": .array(
              r.unmodelled.map { line in
                .object([
                  "place": .string(line.place), "swift": .string(line.swift),
                  "why": .string(line.why),
                ])
              }),
            "error": r.error.map(JSONValue.string),
          ])
        }),
      "verdict": .string(verdictName(scan)),
    ])
  }

  /// `failing`, `unmodelled`, `incomplete` or `clean`.
  public func verdictName(_ scan: Scan) -> String {
    if scan.entryPoints.isEmpty { return "nothing" }
    if !scan.findings.isEmpty { return "failing" }
    if scan.isUnmodelled { return "unmodelled" }
    return scan.isComplete ? "clean" : "incomplete"
  }

  // MARK: JUnit

  /// One `<testcase>` per run; a violation, a line not modelled or a search cut short is a
  /// failure, as in `check`: none of them is a pass.
  public func junit(_ scan: Scan) -> String {
    let failing = scan.results.filter { failure($0) != nil }
    let errors = scan.results.filter { $0.error != nil }.count
    var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
    xml +=
      #"<testsuites name="ctxsim scan" tests="\#(scan.results.count)" failures="\#(failing.count - errors)" errors="\#(errors)">"#
      + "\n"
    xml +=
      #"  <testsuite name="entry points" tests="\#(scan.results.count)" failures="\#(failing.count - errors)" errors="\#(errors)">"#
      + "\n"
    for result in scan.results {
      let type = result.job.entryPoints.first?.type ?? "scan"
      xml +=
        #"    <testcase classname="ctxsim.scan.\#(Markup.escape(type))" name="\#(Markup.escape(result.job.name))""#
      if let error = result.error {
        xml += ">\n" + #"      <error message="draft does not run">"# + Markup.escape(error)
        xml += "</error>\n    </testcase>\n"
      } else if let (message, body) = failure(result) {
        xml +=
          ">\n" + #"      <failure message="\#(Markup.escape(message))">"# + Markup.escape(body)
        xml += "</failure>\n    </testcase>\n"
      } else {
        xml += "/>\n"
      }
    }
    xml += "  </testsuite>\n</testsuites>\n"
    return xml
  }

  private func failure(_ r: Scan.JobResult) -> (String, String)? {
    if r.error != nil { return ("draft does not run", r.error!) }
    if !r.violations.isEmpty {
      return (r.violations[0], r.violations.joined(separator: "\n"))
    }
    if !r.unmodelled.isEmpty {
      return (
        "not fully modelled: \(count(r.unmodelled.count, "line")) ctxsim could not model",
        r.unmodelled.map { "\($0.place)  \($0.swift)\n  \($0.why)" }.joined(separator: "\n")
      )
    }
    if !r.complete { return ("search cut short: not proven clean", "\(r.schedules) schedules") }
    return nil
  }

  // MARK: SARIF

  /// SARIF 2.1.0: a result per finding at the app's line, rules named for the violations,
  /// and each line not modelled as a note.
  public func sarif(_ scan: Scan) -> JSONValue {
    let kinds = Array(Set(scan.findings.map(\.kind.rawValue))).sorted()
    var results: [JSONValue] = scan.findings.map { f in
      .object([
        "ruleId": .string(f.kind.rawValue), "level": .string("error"),
        "message": .object([
          "text": .string("\(f.headline) (\(f.job.name); replay: \(replay(f)))")
        ]),
        "locations": .array([location(f.place)]),
      ])
    }
    for (entry, lines) in unmodelledByEntryPoint(scan) {
      for line in lines {
        results.append(
          .object([
            "ruleId": .string("notModelled"), "level": .string("note"),
            "message": .object([
              "text": .string("\(entry.name): ctxsim could not model this line: \(line.why)")
            ]),
            "locations": .array([location(line.place)]),
          ]))
      }
    }
    let rules: [JSONValue] =
      kinds.map { kind in
        .object(["id": .string(kind), "shortDescription": .object(["text": .string(kind)])])
      }
      + [
        .object([
          "id": .string("notModelled"),
          "shortDescription": .object([
            "text": .string("A line ctxsim could not model: the scan cannot call it clean.")
          ]),
        ])
      ]
    return .object([
      "version": .string("2.1.0"),
      "$schema": .string("https://json.schemastore.org/sarif-2.1.0.json"),
      "runs": .array([
        .object([
          "tool": .object([
            "driver": .object([
              "name": .string("ctxsim"), "rules": .array(rules),
            ])
          ]),
          "results": .array(results),
        ])
      ]),
    ])
  }

  /// A place `File.swift:12` or `File.swift:12:5` as a SARIF location, the file's path as given.
  private func location(_ place: String) -> JSONValue {
    let parts = place.split(separator: ":").map(String.init)
    let file = parts.first ?? place
    let line = parts.count > 1 ? Int(parts[1]) ?? 1 : 1
    let column = parts.count > 2 ? Int(parts[2]) : nil
    return .object([
      "physicalLocation": .object([
        "artifactLocation": .object(["uri": .string(paths[file] ?? file)]),
        "region": .object([
          "startLine": .integer(line), "startColumn": column.map(JSONValue.integer),
        ]),
      ])
    ])
  }
}
