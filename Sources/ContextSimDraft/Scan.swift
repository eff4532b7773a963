import ContextSimCore
import ContextSimReports

/// `ctxsim scan Sources/MyApp/`: every entry point of every type that touches Core Data,
/// drafted and explored three ways (called from the main thread, from a background queue,
/// and with each other entry point at once from two background queues), as Lincheck does
/// for a Kotlin data structure's operations, here with Core Data's rules. What it finds is
/// ranked, each finding with the app's line, the violation, the schedule that shows it and
/// the calls that replay it; what it could not model is kept per entry point.
public struct Scan: Sendable {
  /// A method a scan calls: non-private, of a type that touches Core Data.
  public struct EntryPoint: Sendable, Hashable {
    /// The type that declares it; empty for a top-level function.
    public var type: String
    /// The method's or function's name.
    public var method: String
    /// `NoteImporter.swift:7`, where it is declared.
    public var place: String
    /// How the scan calls it, as Swift: `noteImporter.importNotes(titles)`.
    public var call: String
    /// Whether it is `async`: called in a task, not from a queue's block.
    public var isAsync: Bool
    /// Whether only the main thread calls it: a method of a view, a view controller, an
    /// app or scene delegate, or a `@MainActor` type, which UIKit, AppKit and SwiftUI call
    /// on main; or an entity's method, called on the screen's object, which is main's. The
    /// scan runs it from main, and beside background work, never from a background queue.
    public var isMainOnly = false
    /// The parameter that takes a context, if one does: from a background queue the scan
    /// gives it a private context made there and calls inside its `performAndWait`, as a
    /// caller keeping Core Data's rule would, so what is found is the method's own.
    public var contextParameter: String?
    /// `NoteImporter.importNotes`, or a top-level function's own name.
    public var name: String { type.isEmpty ? method : "\(type).\(method)" }
  }

  /// One drafted run of the scan: its calls, and the entry points they make.
  public struct Job: Sendable {
    /// `NoteImporter.importNotes from main`, `… from a background queue`, `A with B at once`.
    public var name: String
    /// The `--call`s that draft it, which also replay it.
    public var calls: [String]
    /// The entry points it calls: one, or the two of a pair.
    public var entryPoints: [EntryPoint]
  }

  /// What one job showed.
  public struct JobResult: Sendable {
    /// The run this is the result of.
    public var job: Job
    /// `clean`, `failing`, `limited`, `incomplete`, `unmodelled`, or `error` when the draft
    /// did not run (ctxsim's own fault, said in ``error``).
    public var verdict: String
    /// The schedules its search ran; 0 for a pair not run.
    public var schedules: Int
    /// Whether the search looked at every schedule it meant to.
    public var complete: Bool
    /// The lines not modelled that its runs passed.
    public var unmodelled: [Draft.Line]
    /// Why its draft did not run, when it did not.
    public var error: String?
    /// The violations it showed: `wrongQueueContext at NoteImporter.swift:10`.
    public var violations: [String] = []
  }

  /// A violation, where the app's code makes it, with the first job that shows it.
  public struct Finding: Sendable {
    /// The rule broken.
    public var kind: ViolationKind
    /// The app's line: `NoteImporter.swift:10`.
    public var place: String
    /// What happened, in a line.
    public var headline: String
    /// The job that shows it most simply, and the schedule that does.
    public var job: Job
    /// The schedule of `job`'s draft that shows it.
    public var schedule: Schedule
    /// How many jobs show it.
    public var jobs: Int
    /// The path of `job`'s draft that shows it (`--path N`), when the draft has several.
    public var path: Int?
  }

  /// Every entry point found, in the order the files declare them.
  public var entryPoints: [EntryPoint]
  /// Each run's result: those from main, then from a background queue, then the pairs.
  public var results: [JobResult]
  /// Ranked: traps and crashes first, then what the most jobs show.
  public var findings: [Finding]
  /// The lines of Swift read.
  public var lines: Int
  /// The jobs not run because `shouldStop` ended the scan (`--time-limit`) first: the scan
  /// is then not complete.
  public var notRunForTime = 0

  /// Whether every job's search finished with every line on its paths modelled.
  public var isComplete: Bool { results.allSatisfy { $0.complete && $0.error == nil } }
  /// Whether some run passed a line not modelled: then no finding is not clean.
  public var isUnmodelled: Bool { results.contains { !$0.unmodelled.isEmpty } }

  /// Scans `sources` with the drafting `options` (their calls are ignored), each job's
  /// search within `maxSchedules`; pairs of entry points beyond `maxPairs` are not run, and
  /// the scan says so (it is then not complete). `shouldStop` is asked before each job and
  /// inside each search: once it says stop (a time limit), the rest is not run.
  public init(
    _ sources: [Draft.Source], options: Draft.Options = .init(), maxSchedules: Int = 2_000,
    maxPairs: Int = 100, shouldStop: () -> Bool = { false }
  ) {
    lines = sources.reduce(0) {
      $0 + $1.text.split(separator: "\n", omittingEmptySubsequences: false).count
    }
    let files = Draft.parse(sources)  // read once, for the entry points and every job's drafts
    entryPoints = Self.entryPoints(in: files, options: options)
    let jobs = Self.jobs(for: entryPoints, maxPairs: maxPairs)
    var results: [JobResult] = []
    var found: [String: Finding] = [:]
    var order: [String] = []
    var skipped = jobs.skipped
    for job in jobs.run {
      if notRunForTime > 0 || shouldStop() {
        notRunForTime += 1
        skipped.append(job)
        continue
      }
      var drafting = options
      drafting.calls = job.calls
      let (result, findings) = Self.run(
        job, files: files, options: drafting, maxSchedules: maxSchedules, shouldStop: shouldStop)
      results.append(result)
      for finding in findings {
        let key = "\(finding.kind.rawValue) \(finding.place)"
        if found[key] == nil {
          found[key] = finding
          order.append(key)
        } else {
          found[key]!.jobs += 1
        }
      }
    }
    for job in skipped {
      results.append(
        JobResult(
          job: job, verdict: "incomplete", schedules: 0, complete: false, unmodelled: [],
          error: nil))
    }
    self.results = results
    findings = order.compactMap { found[$0] }.enumerated().sorted { a, b in
      let (x, y) = (Self.severity(a.element.kind), Self.severity(b.element.kind))
      if x != y { return x < y }
      if a.element.jobs != b.element.jobs { return a.element.jobs > b.element.jobs }
      return a.offset < b.offset
    }.map(\.element)
  }

  /// Traps and crashes end the app: first. Lost data next, then what a run may survive.
  static func severity(_ kind: ViolationKind) -> Int {
    switch kind {
    case .wrongQueueContext, .wrongQueueObject, .deadlock: 0
    case .crossContextRelationship, .faultOnDeletedObject, .objectNotFound, .uncaughtError,
      .unknownKey, .objectInAnotherContext, .invalidRequest:
      1
    case .corruption, .dataRace, .mergeConflict, .constraintConflict: 2
    case .validationFailed, .discardedError, .expectationFailed: 3
    }
  }
}
