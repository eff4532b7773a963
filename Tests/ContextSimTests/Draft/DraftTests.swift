import Foundation
import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// `ctxsim draft`: Swift in, a scenario that runs out.
@Suite("Drafting scenarios from Swift")
struct DraftTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  private func draft(_ path: String, calls: [String] = []) throws -> Scenario {
    let text = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    return try decode(
      Draft(
        [.init(name: (path as NSString).lastPathComponent, text: text)],
        options: .init(calls: calls)))
  }

  private func decode(_ draft: Draft) throws(ScenarioErrors) -> Scenario {
    try ScenarioDecoder.decode(Array(draft.json.utf8), file: "draft.json")
  }

  @Test("The example importer traps at its first off-queue line, exit 133")
  func exampleTraps() throws {
    let trace = run(try draft("Examples/Draft/ImageImporter.swift"), stopAtFirst: true)
    let trap = try #require(trace.violations.first)
    #expect(trace.kinds == [.wrongQueueContext])
    #expect(trap.labels.first == "ImageImporter.swift:21")
    #expect(trap.termination?.exitStatus == 133)
  }

  @Test("Without the flag, the importer dies on the cross-context relationship, exit 134")
  func exampleCrossContext() throws {
    let trace = run(
      try draft("Examples/Draft/ImageImporter.swift"), concurrencyDebug: false, stopAtFirst: true)
    let crash = try #require(trace.firstCrash)
    #expect(crash.kind == .crossContextRelationship)
    #expect(crash.labels.first == "ImageImporter.swift:24")
    #expect(crash.termination?.exitStatus == 134)
  }

  @Test(
    "markAllViewed alone: clean in the default schedule without the flag, corruption in some explored"
  )
  func oneCall() throws {
    let scenario = try draft("Examples/Draft/ImageImporter.swift", calls: ["markAllViewed()"])
    // The call's global block, then the screen listing the images on main.
    #expect(scenario.main.map(\.verb) == ["async", "fetch"])
    #expect(run(scenario, concurrencyDebug: false).violations.isEmpty)
    #expect(run(scenario).kinds.first == .wrongQueueContext)
    let explored = explore(scenario, options: SimulationOptions(concurrencyDebug: false))
    #expect(explored.isComplete)
    #expect(explored.outcomes.contains { $0.signature.contains { $0.kind == .corruption } })
    #expect(explored.outcomes.contains { $0.signature.isEmpty })
  }

  @Test("The mended importer: check proves it clean, with every fetch answered or the third failed")
  func exampleFixed() throws {
    let path = "Examples/Draft/ImageImporterFixed.swift"
    let text = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    for failing in [nil, 3] {
      var scenario = try decode(
        Draft(
          [.init(name: "ImageImporterFixed.swift", text: text)],
          options: .init(failingItem: failing)))
      scenario.expectation = Expectation(violations: [])
      let result = check(scenario, maxSchedules: 2_000)
      #expect(result.passed, "failing item \(String(describing: failing))")
      #expect(result.exploration.isComplete)
      // The mended design still does the work: one image saved per fetched address, each in
      // the folder.
      var options = SimulationOptions(concurrencyDebug: true)
      options.capturesEndState = true
      var scheduler = RunToCompletionScheduler()
      let trace = simulate(scenario, options: options, scheduler: &scheduler)
      #expect(trace.violations.isEmpty)
      // The store starts with sample images (the screen's), whose strings hold their own
      // handle (`image-1`); the imported ones have the source the importer fetched.
      let imported = (trace.endState?.store["Image"] ?? []).filter {
        if case .string(let url) = $0.values["sourceURL"] {
          !url.hasPrefix("image-")
        } else {
          false
        }
      }
      #expect(imported.count == (failing == nil ? 4 : 3))
      #expect(
        imported.allSatisfy {
          if case .objectID(let folder) = $0.values["folder"] {
            folder.description == "folder-1"
          } else {
            false
          }
        })
    }
  }

  @Test("async let: child tasks off the main actor, concurrent; viewContext there traps")
  func asyncLet() throws {
    func badge(_ count: (String) -> String) -> String {
      """
      final class Badge {
        private let container: NSPersistentContainer

        func refresh() async throws {
          let context = container.viewContext
          async let notes = \(count("Note"))
          async let tags = \(count("Tag"))
          print(try await notes + tags)
        }
      }
      """
    }
    let request = { (entity: String) in
      "context.count(for: NSFetchRequest<NSManagedObject>(entityName: \"\(entity)\"))"
    }
    let bare = try decode(Draft([.init(name: "Badge.swift", text: badge { "try " + request($0) })]))
    let trap = try #require(run(bare, stopAtFirst: true).violations.first)
    #expect(trap.kind == .wrongQueueContext)
    #expect(trap.labels.first == "Badge.swift:6")
    #expect(trap.site.thread.hasPrefix("global"))
    // Inside perform, both children are clean in every interleaving, and they do overlap:
    // more than one class of interleavings.
    let performed = try decode(
      Draft([
        .init(
          name: "Badge.swift",
          text: badge { "try await context.perform { try \(request($0)) }" })
      ]))
    let explored = explore(performed)
    #expect(explored.isComplete && explored.verdict == .passed)
    #expect(explored.schedulesRun > 1)
  }

  @Test("A parent set after the context is made is its parent: parent, and Swift 2's parentContext")
  func parentAssignment() throws {
    let source = """
      final class Editor {
        private let container: NSPersistentContainer

        func edit() {
          let scratch = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
          scratch.parent = container.viewContext
          let draft = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
          draft.parentContext = scratch
          scratch.performAndWait {
            let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: scratch)
            note.setValue("a", forKey: "title")
            try? scratch.save()
          }
          try? draft.save()
        }
      }
      """
    let draft = Draft([.init(name: "Editor.swift", text: source)])
    #expect(draft.notModelled == 0)
    let scenario = try decode(draft)
    let trace = run(scenario)
    // The scratch context saves into viewContext, not the store; the draft context is
    // saved from main, off its private queue.
    #expect(trace.lines.contains { $0.contains("saved scratch into its parent viewContext") })
    #expect(trace.kinds == [.wrongQueueContext])
    #expect(trace.violations.first?.labels.first == "Editor.swift:14")
  }

  @Test("Parentheses hide nothing: (try? context.count(for:)) ?? 0 is the count")
  func parenthesised() throws {
    let source = """
      final class Badge {
        private let container: NSPersistentContainer

        func notes() -> Int {
          let context = container.newBackgroundContext()
          let request = NSFetchRequest<NSManagedObject>(entityName: "Note")
          let all = (try? context.fetch(request)) ?? []
          return (try? context.count(for: request)) ?? all.count
        }
      }
      """
    let draft = Draft([.init(name: "Badge.swift", text: source)])
    #expect(draft.json.contains(#""fetch": "Note""#))
    #expect(draft.json.contains(#""count": "Note""#))
    // Off its queue from main: the fetch, line 7, traps first.
    let trap = try #require(run(try decode(draft), stopAtFirst: true).violations.first)
    #expect(trap.kind == .wrongQueueContext)
    #expect(trap.labels.first == "Badge.swift:7")
  }

  @Test("--call is Swift: the same method called from a global queue traps there")
  func callFromGlobalQueue() throws {
    let scenario = try draft(
      "Examples/Draft/ImageImporter.swift",
      calls: ["DispatchQueue.global().async { markAllViewed() }"])
    let first = try #require(run(scenario, stopAtFirst: true).violations.first)
    #expect(first.kind == .wrongQueueContext)
    #expect(first.labels.first == "ImageImporter.swift:38")
    #expect(first.site.thread.hasPrefix("global"))
  }

  @Test("A --call's unbound arguments are stood in on the main thread before the call")
  func callArguments() throws {
    let scenario = try draft(
      "Examples/Draft/ImageImporter.swift", calls: ["importImages(addresses, into: folder)"])
    #expect(scenario.main.prefix(3).map(\.verb) == ["let", "fetch", "forEach"])
    let first = try #require(run(scenario, stopAtFirst: true).violations.first)
    #expect(first.labels.first == "ImageImporter.swift:21")
  }

  @Test("A did-save observer with no queue merges into viewContext on the saving thread: a trap")
  func observerMerge() throws {
    let source = """
      final class Store {
        let container: NSPersistentContainer
        private var token: NSObjectProtocol?
        func start() {
          let background = container.newBackgroundContext()
          token = NotificationCenter.default.addObserver(
            forName: .NSManagedObjectContextDidSave, object: background, queue: nil
          ) { [weak self] note in
            self?.container.viewContext.mergeChanges(fromContextDidSave: note)
          }
          background.perform {
            let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: background)
            try? background.save()
          }
        }
      }
      """
    let scenario = try decode(Draft([.init(name: "Store.swift", text: source)]))
    #expect(scenario.main.first?.verb == "newBackgroundContext")
    let first = try #require(run(scenario, stopAtFirst: true).violations.first)
    #expect(first.kind == .wrongQueueContext)
    #expect(first.labels.first == "Store.swift:9")
    #expect(first.site.thread == "background")
  }

  @Test("if and guard on a context's hasChanges read it, and test what it read")
  func hasChanges() throws {
    let source = """
      final class Saver {
        let container: NSPersistentContainer
        func save() {
          let context = container.newBackgroundContext()
          guard context.hasChanges else { return }
          try? context.save()
        }
      }
      """
    let scenario = try decode(Draft([.init(name: "Saver.swift", text: source)]))
    #expect(scenario.main.map(\.verb) == ["newBackgroundContext", "get", "save"])
    let first = try #require(run(scenario, stopAtFirst: true).violations.first)
    #expect(first.kind == .wrongQueueContext)
    #expect(first.labels.first == "Saver.swift:5")
  }

  @Test("--fail-item: the injected dependency's try? gives nil for that item alone")
  func failingItem() throws {
    let source = """
      protocol Loading { func load(from url: URL) async throws -> Data }
      @MainActor final class Importer {
        private let context: NSManagedObjectContext
        private let loader: any Loading
        init(container: NSPersistentContainer, loader: any Loading) {
          context = container.newBackgroundContext()
          self.loader = loader
        }
        func run(_ urls: [URL]) async {
          for url in urls {
            guard let data = try? await loader.load(from: url) else { continue }
            await context.perform {
              let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: self.context)
              item.setValue(data, forKey: "bytes")
              try? self.context.save()
            }
          }
        }
      }
      """
    let draft = Draft([.init(name: "Importer.swift", text: source)], options: .init(failingItem: 2))
    #expect(draft.json.contains(#""equals": "https://example.com/2.jpg""#))
    let trace = run(try decode(draft))
    #expect(trace.violations.isEmpty)
    let saves = trace.lines.filter { $0.contains("saved context to the store") }
    #expect(saves.count == 3)
  }

  @Test("Batch requests: an update, and a delete whose IDs are merged into viewContext")
  func batchRequests() throws {
    let source = """
      final class Cleaner {
        let container: NSPersistentContainer
        func clean() {
          let context = container.newBackgroundContext()
          context.perform {
            let update = NSBatchUpdateRequest(entityName: "Photo")
            update.propertiesToUpdate = ["isSeen": true]
            _ = try? context.execute(update)
            let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Photo")
            fetch.predicate = NSPredicate(format: "album == %@", "old")
            let delete = NSBatchDeleteRequest(fetchRequest: fetch)
            let result = try? context.execute(delete) as? NSBatchDeleteResult
            let ids = result?.result as? [NSManagedObjectID] ?? []
            NSManagedObjectContext.mergeChanges(
              fromRemoteContextSave: [NSDeletedObjectsKey: ids], into: [self.container.viewContext])
          }
        }
      }
      """
    let draft = Draft([.init(name: "Cleaner.swift", text: source)])
    #expect(draft.notModelled == 0)
    let scenario = try decode(draft)
    let perform = try #require(scenario.main.first { $0.verb == "perform" })
    #expect(perform.body.map(\.verb) == ["batchUpdate", "batchDelete", "mergeRemoteChanges"])
    #expect(run(scenario).violations.isEmpty)
  }

  @Test(
    "A fetched results controller: on viewContext its objects are the main thread's; on a private context, a trap",
    arguments: ["container.viewContext", "container.newBackgroundContext()"])
  func fetchedResultsController(context: String) throws {
    let source = """
      final class ListController: NSObject, NSFetchedResultsControllerDelegate {
        let container: NSPersistentContainer
        var controller: NSFetchedResultsController<NSManagedObject>?
        var rows = 0
        func start() {
          let request = NSFetchRequest<NSManagedObject>(entityName: "Note")
          controller = NSFetchedResultsController(
            fetchRequest: request, managedObjectContext: \(context),
            sectionNameKeyPath: nil, cacheName: nil)
          controller?.delegate = self
          try? controller?.performFetch()
          let notes = controller?.fetchedObjects ?? []
          for note in notes { note.setValue("seen", forKey: "title") }
        }
        func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
          rows = controller.fetchedObjects?.count ?? 0
        }
      }
      """
    let draft = Draft([.init(name: "List.swift", text: source)])
    #expect(draft.notModelled == 0)
    let scenario = try decode(draft)
    let made = try #require(scenario.main.first { $0.verb == "fetchedResultsController" })
    #expect(made.body.map(\.verb) == ["write"])  // the delegate's body
    let violations = run(scenario, stopAtFirst: true).violations
    if context.hasSuffix("viewContext") {
      #expect(violations.isEmpty)
    } else {
      #expect(violations.first?.kind == .wrongQueueObject)
      #expect(violations.first?.labels.first == "List.swift:13")
    }
  }

  @Test("The same files give byte-identical drafts")
  func deterministic() throws {
    let text = try String(
      contentsOf: Self.root.appendingPathComponent("Examples/Draft/ImageImporter.swift"),
      encoding: .utf8)
    let a = Draft([.init(name: "ImageImporter.swift", text: text)]).json
    let b = Draft([.init(name: "ImageImporter.swift", text: text)]).json
    #expect(a == b)
  }

  @Test("A line the draft does not model stays, as a notModelled step saying why")
  func notModelled() throws {
    let source = """
      final class Counter {
        let container: NSPersistentContainer
        func bump() {
          let context = container.viewContext
          context.undoManager?.undo()
        }
      }
      """
    let draft = Draft([.init(name: "Counter.swift", text: source)])
    #expect(draft.notModelled == 1)
    #expect(
      draft.unmodelled == [
        Draft.Line(
          place: "Counter.swift:5:5", swift: "context.undoManager?.undo()",
          why: "a call on `context.undoManager?`, which ctxsim does not know")
      ])
    #expect(draft.json.contains(#""at": "Counter.swift:5:5""#))
    #expect(draft.json.contains(#""label": "Counter.swift:5""#))
    _ = try decode(draft)
  }

  /// The seed's listings, read from the shared seeds when this checkout sits beside them.
  static let seed: String? = try? String(
    contentsOf: root.appendingPathComponent("../shared/seeds/000_6b9ac0ba98c9c71b.txt"),
    encoding: .utf8)

  private func listing(from start: String, to end: String) throws -> String {
    let text = try #require(Self.seed)
    let lines = text.components(separatedBy: "\n")
    let first = try #require(lines.firstIndex { $0.hasPrefix(start) })
    let last = try #require(lines[first...].firstIndex { $0.hasPrefix(end) })
    return lines[first..<last].joined(separator: "\n")
  }

  @Test("The seed's buggy downloader: 133 with the flag, 134 without", .enabled(if: seed != nil))
  func seedBuggy() throws {
    let code = try listing(from: "final class PhotoDownloader", to: "In Swift 6 mode")
    let scenario = try decode(Draft([.init(name: "PhotoDownloader.swift", text: code)]))
    #expect(run(scenario, stopAtFirst: true).firstCrash?.termination?.exitStatus == 133)
    let crash = run(scenario, concurrencyDebug: false, stopAtFirst: true).firstCrash
    #expect(crash?.kind == .crossContextRelationship)
    #expect(crash?.termination?.exitStatus == 134)
    // markAllSeen alone "works" without the flag, and corrupts in some interleavings.
    let seen = try decode(
      Draft(
        [.init(name: "PhotoDownloader.swift", text: code)], options: .init(calls: ["markAllSeen()"])
      ))
    #expect(run(seen, concurrencyDebug: false).violations.isEmpty)
    let explored = explore(seen, options: SimulationOptions(concurrencyDebug: false))
    #expect(explored.isComplete)
    #expect(explored.outcomes.contains { $0.signature.contains { $0.kind == .corruption } })
  }

  @Test("The seed's fixed downloader: check proves it clean", .enabled(if: seed != nil))
  func seedFixed() throws {
    let code = try listing(from: "protocol PhotoDownloading", to: "Said out loud")
    var scenario = try decode(Draft([.init(name: "PhotoDownloader.swift", text: code)]))
    scenario.expectation = Expectation(violations: [])
    let result = check(scenario, maxSchedules: 2_000)
    #expect(result.passed)
    #expect(result.exploration.isComplete)
  }

  @Test("Every Swift file in this repository drafts to a scenario that decodes")
  func everyFileDrafts() throws {
    var count = 0
    for folder in ["Sources", "Tests", "Examples"] {
      let base = Self.root.appendingPathComponent(folder)
      let paths =
        FileManager.default.enumerator(atPath: base.path)?.compactMap { $0 as? String } ?? []
      for path in paths.sorted() where path.hasSuffix(".swift") {
        let text = try String(contentsOf: base.appendingPathComponent(path), encoding: .utf8)
        let draft = Draft([.init(name: (path as NSString).lastPathComponent, text: text)])
        do {
          _ = try decode(draft)
        } catch {
          Issue.record("\(folder)/\(path): \(error.errors.map(\.description))")
        }
        count += 1
      }
    }
    #expect(count > 100)
  }
}
