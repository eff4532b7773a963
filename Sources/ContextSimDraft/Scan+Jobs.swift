import ContextSimCore
import ContextSimReports

/// Which methods a scan calls, the jobs it makes of them, and what each job shows.
extension Scan {
  /// Words that say a type's code touches Core Data, besides the names of the files'
  /// entities and of other types that touch it.
  static let coreDataWords: Set<String> = [
    "NSManagedObjectContext", "NSPersistentContainer", "NSPersistentCloudKitContainer",
    "NSManagedObject", "NSManagedObjectID", "NSFetchRequest", "NSEntityDescription",
    "NSPersistentStoreCoordinator", "NSFetchedResultsController", "NSBatchDeleteRequest",
    "NSBatchInsertRequest", "NSBatchUpdateRequest", "viewContext", "newBackgroundContext",
    "performBackgroundTask", "managedObjectContext", "performBlock", "performBlockAndWait",
    "performAndWait", "MagicalRecord",
  ]

  /// The non-private methods, static ones too, of each class, struct or actor whose code
  /// touches Core Data, and of each entity's class (called on the screen's object), then
  /// the files' non-private top-level functions that touch it, in the order the files
  /// declare them. A method the system calls (a fetched results controller's delegate, a
  /// notification's selector) is not one.
  static func entryPoints(in module: SwiftModule, options: Draft.Options = .init())
    -> [EntryPoint]
  {
    let files = module.files
    // Its model (an `.xcdatamodeld`'s) names the entities whose classes Xcode generates.
    let drafter = Drafter(module: module, options: options)
    let touching = typesTouchingCoreData(files, drafter: drafter)
    var out: [EntryPoint] = []
    for name in drafter.typeOrder {
      guard let type = drafter.types[name],
        touching.contains(name) && drafter.isAppType(name) || drafter.isManagedObjectSubclass(type)
          || drafter.isContainerSubclass(name)
      else { continue }
      for f in type.functions
      where !["init", "deinit"].contains(f.name) && !f.isPrivate && !drafter.isCallback(f) {
        let receiver = f.isStatic ? name : name.prefix(1).lowercased() + name.dropFirst()
        var e = entryPoint(f, of: name, receiver: receiver)
        // An entity's method runs on its object's queue: the screen's object is on main. So
        // does a method given an object, which it works on where the object is.
        e.isMainOnly =
          isMainOnly(type) || f.attributes.contains("@MainActor")
          || (drafter.isManagedObjectSubclass(type) && !f.isStatic)
          || f.parameters.contains { takesObject($0, drafter) }
        e.contextParameter =
          f.parameters.first {
            $0.type.trimmingCharacters(in: ["?", "!"]) == "NSManagedObjectContext"
          }?
          .name
        out.append(e)
      }
    }
    for file in files {
      let text = Self.words(file.lines.joined(separator: "\n"))
      guard !text.isDisjoint(with: coreDataWords) else { continue }
      for f in file.functions where !f.isPrivate {
        out.append(entryPoint(f, of: "", receiver: nil))
      }
    }
    return out
  }

  /// How the scan calls `f`: on `receiver` when it has one, each argument its parameter's
  /// name, stood in as `draft` stands in a name nothing binds.
  private static func entryPoint(_ f: SwiftFunction, of type: String, receiver: String?)
    -> EntryPoint
  {
    let arguments = f.parameters.map { ($0.label.map { "\($0): " } ?? "") + $0.name }
    let call =
      (f.isThrowing ? "try? " : "") + (f.isAsync ? "await " : "")
      + (receiver.map { $0 + "." } ?? "") + "\(f.name)(\(arguments.joined(separator: ", ")))"
    return EntryPoint(
      type: type, method: f.name, place: "\(f.file):\(f.location.line)", call: call,
      isAsync: f.isAsync)
  }

  /// Whether a parameter takes a managed object, of an entity's class or any.
  private static func takesObject(_ p: SwiftFunction.Parameter, _ drafter: Drafter) -> Bool {
    let type = p.type.trimmingCharacters(in: ["?", "!"])
    return type == "NSManagedObject" || drafter.model.isEntity(type)
      || drafter.types[type].map(drafter.isManagedObjectSubclass) == true
  }

  /// The superclasses and protocols of types only the main thread calls into.
  static let mainOnlyBases: Set<String> = [
    "UIViewController", "UITableViewController", "UICollectionViewController", "UIResponder",
    "UIApplicationDelegate", "UIWindowSceneDelegate", "UISceneDelegate", "UIView",
    "UITableViewCell", "UICollectionViewCell", "NSViewController", "NSWindowController",
    "NSApplicationDelegate", "NSView", "View", "App", "ObservableObject",
  ]

  /// A view, a view controller, an app or scene delegate, or a `@MainActor` type.
  static func isMainOnly(_ type: SwiftType) -> Bool {
    type.attributes.contains("@MainActor") || !mainOnlyBases.isDisjoint(with: type.inherits)
      || type.inherits.contains { $0.hasSuffix("ViewController") }
  }

  /// The names of the types whose declarations (extensions included) name Core Data's
  /// types or methods, an entity, or another type that does.
  static func typesTouchingCoreData(_ files: [SwiftFile], drafter: Drafter) -> Set<String> {
    var text: [String: String] = [:]
    for file in files {
      let starts = file.types.map(\.location.line) + [file.lines.count + 1]
      for (index, type) in file.types.enumerated() {
        let lines = file.lines[
          min(
            type.location.line - 1, file.lines.count)..<min(
              starts[index + 1] - 1, file.lines.count)]
        text[type.name, default: ""] += lines.joined(separator: "\n") + "\n"
      }
    }
    let words = text.mapValues(Self.words)
    let entities = Set(drafter.types.values.filter(drafter.isManagedObjectSubclass).map(\.name))
    var touching = Set(
      words.filter { !$0.value.isDisjoint(with: coreDataWords.union(entities)) }.keys)
    while true {
      let more = Set(
        words.filter { !touching.contains($0.key) && !$0.value.isDisjoint(with: touching) }.keys)
      if more.isEmpty { return touching }
      touching.formUnion(more)
    }
  }

  static func words(_ text: String) -> Set<String> {
    Set(text.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
  }

  /// Each entry point from main and from a background queue, then each pair at once from
  /// two background queues (itself included), the first `maxPairs` run and the rest skipped.
  /// An entry point only main calls is never run from a background queue: in a pair it runs
  /// on main beside the other, and two of them on main are not a pair.
  static func jobs(for entryPoints: [EntryPoint], maxPairs: Int) -> (run: [Job], skipped: [Job]) {
    func background(_ e: EntryPoint) -> String {
      if e.isMainOnly { return "DispatchQueue.main.async { \(e.call) }" }
      if let c = e.contextParameter, !e.isAsync {
        return "DispatchQueue.global().async { "
          + "let \(c) = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType); "
          + "\(c).performAndWait { \(e.call) } }"
      }
      return e.isAsync
        ? "Task.detached { \(e.call) }" : "DispatchQueue.global().async { \(e.call) }"
    }
    var run: [Job] = []
    for e in entryPoints {
      run.append(Job(name: "\(e.name) from main", calls: [e.call], entryPoints: [e]))
    }
    for e in entryPoints where !e.isMainOnly {
      run.append(
        Job(name: "\(e.name) from a background queue", calls: [background(e)], entryPoints: [e]))
    }
    var pairs: [Job] = []
    for (i, a) in entryPoints.enumerated() {
      for b in entryPoints[i...] where !(a.isMainOnly && b.isMainOnly) {
        pairs.append(
          Job(
            name: "\(a.name) and \(b.name) at once", calls: [background(a), background(b)],
            entryPoints: [a, b]))
      }
    }
    return (run + pairs.prefix(maxPairs), Array(pairs.dropFirst(maxPairs)))
  }

  /// The paths a job's draft takes through the conditions on values it cannot decide: a
  /// scan runs many jobs, so fewer than `run` does; with more, the conditions past them stay
  /// lines not modelled (``Draft/paths(_:options:limit:)``).
  static let pathLimit = 4

  /// Drafts and explores one job, every path: its result (the worst path's verdict), and
  /// the violations any path shows at the app's lines.
  static func run(
    _ job: Job, files: SwiftModule, options: Draft.Options, maxSchedules: Int,
    shouldStop: () -> Bool
  ) -> (JobResult, [Finding]) {
    let drafts = Draft.paths(parsed: files, options: options, limit: pathLimit).drafts
    var worst: Exploration?
    var schedules = 0
    var complete = true
    var unmodelled: [Draft.Line] = []
    var findings: [Finding] = []
    for (index, draft) in drafts.enumerated() {
      let scenario: Scenario
      do {
        scenario = try ScenarioDecoder.decode(Array(draft.json.utf8), file: job.name)
      } catch {
        let message = error.errors.map(\.message).joined(separator: "; ")
        let result = JobResult(
          job: job, verdict: "error", schedules: 0, complete: false, unmodelled: [],
          error: "ctxsim drafted a scenario that does not run: \(message)")
        return (result, [])
      }
      let exploration = explore(scenario, maxSchedules: maxSchedules, shouldStop: shouldStop)
      schedules += exploration.schedulesRun
      complete = complete && exploration.isComplete
      if worst.map({ exploration.verdict.severity > $0.verdict.severity }) ?? true {
        worst = exploration
      }
      let passed = Set(
        exploration.unmodelledSteps.compactMap {
          scenario.allSteps[$0].labels.first.map { line(of: $0) }
        })
      for line in draft.unmodelled
      where passed.contains(Self.line(of: line.place)) && !unmodelled.contains(line) {
        unmodelled.append(line)
      }
      // A path's replay names it, unless the draft has only the one.
      let path = drafts.count > 1 && !draft.decisions.isEmpty ? index + 1 : nil
      for outcome in exploration.outcomes where !outcome.signature.isEmpty {
        // What the app meets: a trap or crash ends it, and what a run goes on to show after
        // that is not the app's.
        let end = outcome.example.violations.firstIndex { $0.termination != nil }
        for violation in outcome.example.violations.prefix(end.map { $0 + 1 } ?? .max) {
          let place = violation.labels.first.map { line(of: $0) } ?? violation.site.path
          guard !findings.contains(where: { $0.kind == violation.kind && $0.place == place })
          else { continue }
          findings.append(
            Finding(
              kind: violation.kind, place: place, headline: violation.headline, job: job,
              schedule: outcome.shortest, jobs: 1, path: path))
        }
      }
    }
    let result = JobResult(
      job: job, verdict: worst?.verdict.name ?? "error", schedules: schedules,
      complete: complete, unmodelled: unmodelled, error: nil,
      violations: findings.map { "\($0.kind.rawValue) at \($0.place)" })
    return (result, findings)
  }

  /// `File.swift:12` of a label `File.swift:12#2` or a place `File.swift:12:5`.
  static func line(of place: String) -> String {
    let unnumbered = place.split(separator: "#").first.map(String.init) ?? place
    let parts = unnumbered.split(separator: ":")
    guard parts.count >= 2 else { return unnumbered }
    return parts.prefix(2).joined(separator: ":")
  }
}
