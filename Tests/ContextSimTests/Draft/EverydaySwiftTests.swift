import Foundation
import Testing

@testable import ContextSimCore
@testable import ContextSimDraft

/// Swift every app writes around its Core Data calls: ranged loops, a context's name, a
/// completion left out, a log line built by the app's own code, a merge policy handed in.
/// Each drafts to steps, so a run over it can be clean, and a bug beside it still shows.
@Suite("Drafting the everyday Swift around Core Data calls")
struct EverydaySwiftTests {
  /// A whole file, drafted with `calls` and run to the end (or its first crash).
  static func file(
    _ source: String, named name: String, calls: [String], stopAtFirst: Bool = false
  ) throws -> (Draft, Trace) {
    let draft = Draft([.init(name: name, text: source)], options: .init(calls: calls))
    let scenario = try ScenarioDecoder.decode(Array(draft.json.utf8), file: "draft")
    return (draft, run(scenario, stopAtFirst: stopAtFirst))
  }

  static func drafted(_ body: String, members: String = "", calls: [String] = ["Saver().go()"])
    throws -> (Draft, Trace)
  {
    let source = """
      import CoreData
      class Saver {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        \(members)
        func go() {
          \(body)
        }
      }
      """
    return try file(source, named: "Saver.swift", calls: calls, stopAtFirst: true)
  }

  @Test(
    "A ranged loop runs its body once per number; off the queue it traps on the first",
    arguments: ["for i in 1...3 {", "for _ in 0..<3 {"])
  func rangedLoop(_ loop: String) throws {
    let (draft, clean) = try Self.drafted("\(loop)\n context.performAndWait { }\n }")
    #expect(draft.unmodelled.isEmpty)
    #expect(clean.violations.isEmpty && !clean.isUnmodelled)
    #expect(clean.events.filter { if case .entered = $0.effect { true } else { false } }.count == 3)
    let (_, buggy) = try Self.drafted("\(loop)\n let changed = context.hasChanges\n }")
    #expect(buggy.violations.first?.kind == .wrongQueueContext)
  }

  @Test("A context's name is read as Core Data reads it: its getter waits for the queue")
  func contextName() throws {
    let (draft, trace) = try Self.drafted("if let name = context.name {\n print(name)\n }")
    #expect(draft.unmodelled.isEmpty)
    #expect(trace.violations.isEmpty && !trace.isUnmodelled)
  }

  @Test("A completion that defaulted to nil, called through ?, does nothing")
  func completionLeftOut() throws {
    let members = """
      func save(wait: Bool = true, completion: ((Bool) -> Void)? = nil) {
          let block = {
            try? self.context.save()
            completion?(true)
          }
          wait ? context.performAndWait(block) : context.perform(block)
        }
      """
    let (draft, trace) = try Self.drafted("save()", members: members)
    #expect(draft.unmodelled.isEmpty)
    #expect(trace.violations.isEmpty && !trace.isUnmodelled)
  }

  @Test("A log line built by the app's own code runs that code, and the logging is passed over")
  func logLineBuiltByTheApp() throws {
    let members = """
      func describe(_ context: NSManagedObjectContext) -> String {
          return "changes: \\(context.hasChanges)"
        }
      """
    let (draft, trace) = try Self.drafted("NSLog(\"%@\", describe(context))", members: members)
    #expect(draft.unmodelled.isEmpty)
    #expect(trace.violations.first?.kind == .wrongQueueContext)
  }

  @Test("A context a helper makes and returns keeps its name when the caller's local shares it")
  func contextReturnedUnderItsOwnName() throws {
    let members = """
      func makeChild() -> NSManagedObjectContext {
          let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
          child.parent = context
          return child
        }
      """
    let (draft, trace) = try Self.drafted(
      "let child = makeChild()\n child.perform { try? child.save() }\n try? child.save()",
      members: members)
    #expect(draft.unmodelled.isEmpty)
    #expect(trace.violations.first?.kind == .wrongQueueContext)
  }

  @Test("A merge policy handed in as a parameter's enum is the policy set")
  func mergePolicyParameter() throws {
    let members = """
      func configure(mergePolicyType: NSMergePolicyType = .mergeByPropertyObjectTrumpMergePolicyType) {
          context.mergePolicy = NSMergePolicy(mergeType: mergePolicyType)
        }
      """
    let (draft, _) = try Self.drafted("configure()", members: members)
    #expect(draft.unmodelled.isEmpty)
    #expect(draft.json.contains("\"to\": \"mergeByPropertyObjectTrump\""))
  }

  @Test("A closure handed to a held closure runs where that one calls it: the save it makes shows")
  func closureIntoHeldClosure() throws {
    // DBClient's shape: a write task hands its body a closure that saves the parent too.
    let members = """
      let parent = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        func write(_ closure: @escaping (NSManagedObjectContext, () throws -> Void) -> Void) {
          context.perform {
            closure(self.context) {
              try self.context.save()
              try self.parent.save()
            }
          }
        }
      """
    let body = """
      write { context, saving in
          var saved = [String]()
          try? saving()
          saved.append("done")
        }
      """
    let (draft, trace) = try Self.drafted(body, members: members)
    #expect(draft.unmodelled.isEmpty)
    #expect(trace.violations.first?.kind == .wrongQueueContext)
    #expect(trace.violations.first?.labels.first == "Saver.swift:9")
  }

  /// A fetched list used on the context's queue, or handed to another thread (`buggy`).
  static func overList(_ body: String, buggy: Bool) throws -> (Draft, Trace) {
    let used = buggy ? "DispatchQueue.global().async {\n\(body)\n}" : body
    let source = """
      import CoreData
      class Note: NSManagedObject {
        @NSManaged var title: String?
        @NSManaged var rank: Int64
      }
      class Saver {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        func go() {
          context.performAndWait {
            let notes = (try? context.fetch(NSFetchRequest<Note>(entityName: "Note"))) ?? []
            \(used)
          }
        }
        func title(of note: Note) -> String? {
          return note.title
        }
      }
      """
    // Every path, as `run` takes them (`first(where:)` finds an object, or none), the worst
    // shown; the lines not modelled of all of them.
    var worst: (Draft, Trace)?
    for draft in Draft.paths(
      [.init(name: "Saver.swift", text: source)], options: .init(calls: ["Saver().go()"])
    ).drafts {
      let trace = run(
        try ScenarioDecoder.decode(Array(draft.json.utf8), file: "draft"), stopAtFirst: true)
      if worst.map({ trace.severity > $0.1.severity || !draft.unmodelled.isEmpty }) ?? true {
        worst = (draft, trace)
      }
    }
    return try #require(worst)
  }

  @Test(
    "What apps do with a fetched list runs its closure on each object, on the queue it runs on",
    arguments: [
      "let titles = notes.map { $0.title ?? \"\" }\n print(titles)",
      "let high = notes.filter { $0.rank > 3 }\n for n in high { print(n.title ?? \"\") }",
      "if let top = notes.first(where: { $0.rank == 1 }) { print(top.title ?? \"\") }",
      "guard let first = notes.first else { return }\n print(first.title ?? \"\")",
      "for (i, note) in notes.enumerated() { print(i, note.title ?? \"\") }",
      "let any = notes.contains { $0.rank > 9 }\n print(any)",
      "func describe(_ note: Note) -> String { note.title ?? \"\" }\n notes.forEach { print(describe($0)) }",
      "for note in notes { _ = title(of: note) }",
      "if let top = notes.max(by: { $0.rank < $1.rank })?.title { print(top) }",
    ])
  func listOperations(_ body: String) throws {
    let (draft, clean) = try Self.overList(body, buggy: false)
    #expect(draft.unmodelled.isEmpty)
    #expect(clean.violations.isEmpty && !clean.isUnmodelled)
    // Handed to another thread, each touches the objects there: the first one traps.
    let (_, buggy) = try Self.overList(body, buggy: true)
    #expect(buggy.violations.first?.kind == .wrongQueueObject)
  }

  @Test(
    "A results controller as apps write one: a helper's predicate, a method's list chained, a comparison of a call"
  )
  func resultsController() throws {
    let source = """
      import CoreData
      enum Filter { case all, tag(String) }
      final class Results {
        let context: NSManagedObjectContext
        init(context: NSManagedObjectContext) { self.context = context }
        func notes(filteredBy filter: Filter = .all) -> [Note]? {
          if case let .tag(tag) = filter { print(tag) }
          let request = NSFetchRequest<Note>(entityName: "Note")
          request.predicate = predicate(for: filter)
          return try? context.fetch(request)
        }
        private func predicate(for filter: Filter) -> NSPredicate {
          return NSPredicate(format: "deleted == NO")
        }
        func note(forKey key: String) -> Note? {
          return notes()?.first { note in
            note.key == key
          }
        }
        func exists(key: String) -> Bool {
          note(forKey: key) != nil
        }
        func currentContext() -> NSManagedObjectContext {
          self.context
        }
      }
      final class Screen {
        let container: NSPersistentContainer
        init(container: NSPersistentContainer) { self.container = container }
        func refresh() {
          let results = Results(context: container.viewContext)
          DispatchQueue.global().async {
            if results.exists(key: "k") { print("yes") }
          }
        }
      }
      """
    let paths = Draft.paths(
      [.init(name: "R.swift", text: source)],
      options: .init(calls: ["Screen(container: c).refresh()"])
    ).drafts
    #expect(paths.count == 4)  // the fetch finds rows or none; first(where:) an object or none
    for draft in paths {
      #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
      let trace = run(
        try ScenarioDecoder.decode(Array(draft.json.utf8), file: "draft"), stopAtFirst: true)
      // The fetch of a main-queue context from a global queue: every path traps there.
      #expect(trace.violations.first?.kind == .wrongQueueContext)
      #expect(trace.violations.first?.labels.first == "R.swift:10")
    }
  }

  @Test("An enum's case and an element of a plain dictionary are values, set and returned")
  func enumCasesAndDictionaryElements() throws {
    let source = """
      import CoreData
      enum State: Int {
        case archive, active
      }
      class Note: NSManagedObject {
        @NSManaged var eventId: NSNumber?
        @NSManaged var state: NSNumber?
        static func state(of json: [AnyHashable: Any]) -> State {
          return State.archive
        }
        func populate(json: [AnyHashable: Any]) {
          self.eventId = json["eventId"] as? NSNumber
          let state = Note.state(of: json)
          self.state = NSNumber(value: state.rawValue)
        }
      }
      class Importer {
        let container = NSPersistentContainer(name: "Model")
        func run(json: [AnyHashable: Any]) {
          let context = container.newBackgroundContext()
          context.perform {
            let note = Note(context: context)
            note.populate(json: json)
          }
        }
      }
      """
    let (draft, trace) = try Self.file(
      source, named: "Importer.swift", calls: ["Importer().run(json: [:])"], stopAtFirst: true)
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    #expect(draft.json.filter { !$0.isWhitespace }.contains(#""let":"state","value":"archive""#))
    #expect(trace.violations.isEmpty && !trace.isUnmodelled)
  }

  @Test(
    "A semaphore signalled before its wait on the same path passes; one signalled by a later block is not modelled"
  )
  func semaphores() throws {
    let loaded = """
      let done = DispatchSemaphore(value: 0)
      container.loadPersistentStores { _, _ in done.signal() }
      done.wait()
      context.performAndWait { }
      """
    let (straight, clean) = try Self.drafted(
      loaded, members: "let container = NSPersistentContainer(name: \"Model\")")
    #expect(straight.unmodelled.isEmpty, "\(straight.unmodelled)")
    #expect(clean.violations.isEmpty && !clean.isUnmodelled)
    // On a device this wait blocks the thread until the block runs: the model has no
    // semaphore, so the run is never clean past it.
    let later = """
      let done = DispatchSemaphore(value: 0)
      context.perform { done.signal() }
      done.wait()
      """
    let (waits, run) = try Self.drafted(later)
    #expect(
      waits.unmodelled.map(\.why) == [
        "a wait on a semaphore that a later block or another queue signals"
      ])
    #expect(run.isUnmodelled)
  }

  @Test(
    "Preparing the store's files before it loads is store setup; a library value's property is a value"
  )
  func storeFilesAndLibraryValues() throws {
    let source = """
      import CoreData
      final class Repository {
        let context: NSManagedObjectContext
        let report: PLCrashReport
        init() throws {
          let container = NSPersistentContainer(name: "Model")
          try Repository.migrate(coordinator: container.persistentStoreCoordinator,
                                 directory: NSPersistentContainer.defaultDirectoryURL(),
                                 model: container.managedObjectModel)
          container.loadPersistentStores { _, _ in }
          context = container.newBackgroundContext()
          report = try PLCrashReport(data: Data())
          try CrashFileManager.excludeFromBackup(directory: NSPersistentContainer.defaultDirectoryURL())
        }
        static func migrate(coordinator: NSPersistentStoreCoordinator, directory: URL, model: NSManagedObjectModel) throws {
          let url = directory.appendingPathComponent("Model.sqlite")
          guard FileManager.default.fileExists(atPath: url.path),
            let metadata = try? NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url, options: nil),
            !model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) else { return }
          try coordinator.destroyPersistentStore(at: url, ofType: NSSQLiteStoreType, options: nil)
        }
        func count() -> Int {
          guard let data = self.report.customData else { return 0 }
          return context.performAndWait { (try? context.count(for: NSFetchRequest<Crash>(entityName: "Crash"))) ?? 0 }
        }
      }
      """
    let paths = Draft.paths(
      [.init(name: "Repository.swift", text: source)],
      options: .init(calls: ["let r = try Repository()", "_ = r.count()"]))
    #expect(paths.drafts.count > 1)
    for draft in paths.drafts {
      #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    }
  }

  @Test(
    "A local var given an object inside an if holds it after, as a variable: the line after reads what it holds then"
  )
  func varGivenAnObject() throws {
    let source = """
      import CoreData
      class Note: NSManagedObject {
        @NSManaged var title: String?
        @NSManaged var folder: Folder?
      }
      class Folder: NSManagedObject {
        @NSManaged var name: String?
      }
      final class Mover {
        let container = NSPersistentContainer(name: "Model")
        func rename(_ note: Note) {
          var target: Folder? = nil
          if let folder = note.folder {
            target = folder
          }
          target?.name = "Inbox"
          target = nil
        }
      }
      """
    let (draft, trace) = try Self.file(
      source, named: "Mover.swift", calls: ["Mover().rename(note)"], stopAtFirst: true)
    let json = draft.json.filter { !$0.isWhitespace }
    #expect(json.contains(#""let":"target","value":"$folder""#))
    #expect(json.contains(#""set":"target.name""#))
    #expect(json.contains(#""let":"target","value":null,"label":"Mover.swift:17""#))
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    #expect(trace.violations.isEmpty && !trace.isUnmodelled)
  }

  @Test("await MainActor.run { … } runs its body on main while the task waits")
  func mainActorRun() throws {
    let body = """
      let background = context
      Task.detached {
        await MainActor.run { main.performAndWait { } }
        background.performAndWait { }
      }
      """
    let members = """
      let main = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
      """
    let (draft, trace) = try Self.drafted(body, members: members)
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    #expect(draft.json.filter { !$0.isWhitespace }.contains(#""sync":"main""#))
    #expect(trace.violations.isEmpty && !trace.isUnmodelled)
  }

  @Test(
    "A var given a fetch inside performAndWait holds the objects after it: their first's title, read on main, traps"
  )
  func varGivenAFetch() throws {
    let source = """
      import CoreData
      class Note: NSManagedObject {
        @NSManaged var title: String?
      }
      final class Reader {
        let container = NSPersistentContainer(name: "Notes")
        func firstTitle() -> String? {
          let context = container.newBackgroundContext()
          var notes: [Note] = []
          context.performAndWait {
            notes = (try? context.fetch(NSFetchRequest<Note>(entityName: "Note"))) ?? []
          }
          return notes.first?.title
        }
      }
      """
    let (draft, trace) = try Self.file(
      source, named: "Reader.swift", calls: ["_ = Reader().firstTitle()"], stopAtFirst: true)
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    #expect(trace.violations.first?.kind == .wrongQueueObject)
    // The line's fourth step: the first element taken, then its title read off the queue.
    #expect(trace.violations.first?.labels.first == "Reader.swift:13#4")
  }

  @Test("An argument is computed where the call is: its reads run on the caller's thread")
  func argumentsAreComputed() throws {
    // A method that ignores its parameter, and a closure that ignores its: the read of the
    // title is still made, from the global queue.
    for call in ["self.show(title: note.title)", "done(note.title)"] {
      let (draft, trace) = try Self.drafted(
        """
        context.performAndWait {
          let note = Note(context: context)
          let done: (String?) -> Void = { _ in }
          DispatchQueue.global().async {
            \(call)
          }
        }
        """,
        members: "func show(title: String?) { print(\"x\") }")
      #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
      #expect(trace.violations.first?.kind == .wrongQueueObject, "\(call)")
    }
  }

  @Test("The app's own fetchRequest(for:) is its method, not a request for an entity called self")
  func ownFetchRequestMethod() throws {
    let (draft, _) = try Self.drafted(
      """
      let request = self.fetchRequest(for: "k")
      _ = try? context.fetch(request)
      """,
      members: """
        func fetchRequest(for key: String) -> NSFetchRequest<Note> {
          let request: NSFetchRequest = Note.fetchRequest()
          request.predicate = NSPredicate(format: "%K == %@", #keyPath(Note.key), key)
          return request
        }
        """)
    let json = draft.json.filter { !$0.isWhitespace }
    #expect(json.contains(#""fetch":"Note""#))
    #expect(!json.contains(#""self""#))
    // Only what the fetch finds is left open (a draft decides nothing).
    #expect(draft.unmodelled.map(\.place) == ["Saver.swift:11:1"])
  }

  @Test("A map whose closure gives an object or an ID is not a plain value: not modelled")
  func mapToObjects() throws {
    let (draft, _) = try Self.overList("let ids = notes.map { $0.objectID }", buggy: false)
    #expect(draft.unmodelled.map(\.swift) == ["let ids = notes.map { $0.objectID }"])
  }

  @Test("What an entry point returns is read where it returns it: off the queue, it traps")
  func returnedRead() throws {
    // Before, a `return` of anything but a call drafted nothing: a false clean.
    let source = """
      import CoreData
      class Note: NSManagedObject {
        @NSManaged var title: String?
      }
      class Saver {
        func title(of note: Note) -> String? {
          return note.title
        }
      }
      """
    let (draft, trace) = try Self.file(
      source, named: "Saver.swift",
      calls: ["DispatchQueue.global().async { _ = Saver().title(of: n) }"])
    #expect(draft.unmodelled.isEmpty)
    #expect(trace.violations.first?.kind == .wrongQueueObject)
  }

  @Test("An entity's primitive accessors and #keyPath keys are its sets and gets")
  func primitiveAccessors() throws {
    let source = """
      import CoreData
      let container = NSPersistentContainer(name: "M")
      class Setting: NSManagedObject {
        @NSManaged var createdAt: Date?
        @NSManaged var title: String?
        func touch(_ name: String) {
          setPrimitiveValue(Date(), forKey: #keyPath(Setting.createdAt))
          setValue(name, forKey: #keyPath(Setting.title))
          let t = primitiveValue(forKey: "title") as? String
          print(t ?? "")
        }
      }
      """
    let calls = [
      "let s = Setting(context: container.viewContext)",
      "DispatchQueue.global().async { s.touch(\"x\") }",
    ]
    let (draft, trace) = try Self.file(source, named: "Setting.swift", calls: calls)
    #expect(draft.unmodelled.isEmpty)
    #expect(draft.json.contains(#""set": "s.createdAt""#))
    #expect(trace.violations.first?.labels.first == "Setting.swift:7")
  }

  @Test("A container handed to a helper is the container: its stores load, its viewContext is set")
  func containerParameter() throws {
    let source = """
      import CoreData
      final class CoreDataStack {
        let persistentContainer = NSPersistentContainer(name: "M")
        static func load(persistentContainer container: NSPersistentContainer, done: @escaping () -> Void) {
          container.loadPersistentStores(completionHandler: { _, error in
            if let error = error as NSError? {
              fatalError("Unresolved error \\(error)")
            }
            container.viewContext.automaticallyMergesChangesFromParent = true
            done()
          })
        }
        func setUp() {
          CoreDataStack.load(persistentContainer: persistentContainer) { print("ready") }
        }
      }
      """
    let draft = Draft(
      [.init(name: "Stack.swift", text: source)], options: .init(calls: ["CoreDataStack().setUp()"])
    )
    #expect(draft.unmodelled.isEmpty)
    #expect(draft.json.contains(#""set": "viewContext.automaticallyMergesChangesFromParent""#))
  }

  @Test(
    "A closure's weak self, unwrapped, is the instance: what follows runs",
    arguments: ["guard let self = self else { return }", "guard let self else { return }"])
  func weakSelf(_ unwrap: String) throws {
    let (draft, trace) = try Self.drafted(
      "DispatchQueue.global().async { [weak self] in\n \(unwrap)\n _ = self.context.hasChanges\n }")
    #expect(draft.unmodelled.isEmpty)
    #expect(trace.violations.first?.kind == .wrongQueueContext)
  }

  @Test(
    "A to-many add, generated accessor or mutable set, touches the object; a body-less method is not nothing",
    arguments: [
      "note.addToTags(t)", "note.mutableSetValue(forKey: \"tags\").add(t)",
      "note.removeFromTags(t)",
    ])
  func toManyAdd(_ line: String) throws {
    let source = """
      import CoreData
      let container = NSPersistentContainer(name: "M")
      class Tag: NSManagedObject {
        @NSManaged var name: String?
      }
      class Note: NSManagedObject {
        @NSManaged var tags: Set<Tag>
        @objc(addTagsObject:)
        @NSManaged public func addToTags(_ value: Tag)
        @objc(removeTagsObject:)
        @NSManaged public func removeFromTags(_ value: Tag)
      }
      class Tagger {
        let context = container.newBackgroundContext()
        func tag(_ note: Note) {
          context.perform {
            let t = Tag(context: self.context)
            \(line)
          }
        }
      }
      """
    let (draft, trace) = try Self.file(source, named: "Tagger.swift", calls: ["Tagger().tag(n)"])
    if line.contains("remove") {
      // Its body is Core Data's, not in the files: not modelled, where it used to draft nothing.
      #expect(draft.unmodelled.map(\.swift) == [line])
    } else {
      #expect(draft.unmodelled.isEmpty)
      // The screen's note, touched on the background context's queue.
      #expect(trace.violations.first?.kind == .wrongQueueObject)
    }
  }

  @Test("A request handed to a helper is the request there: the helper's fetch is drafted")
  func requestParameter() throws {
    let members = """
      func count(_ request: NSFetchRequest<NSManagedObject>) -> Int {
          return (try? context.count(for: request)) ?? 0
        }
      """
    let (draft, trace) = try Self.drafted(
      "let request = NSFetchRequest<NSManagedObject>(entityName: \"Note\")\n _ = count(request)",
      members: members)
    #expect(draft.unmodelled.isEmpty)
    #expect(draft.json.contains(#""count": "Note""#))
    #expect(trace.violations.first?.kind == .wrongQueueContext)  // the private context, from main
  }

  @Test("A parameter given what the draft cannot follow hides the instance's property of its name")
  func parameterShadowsProperty() throws {
    let members = """
      var options: Set<String> = []
        func configure(options: Options) {
          if options.contains(.fast) { print("fast") }
        }
      """
    // `Options` is no type the files declare, nor `.standard` a value the draft knows.
    let (draft, _) = try Self.drafted("configure(options: .standard)", members: members)
    // Not the shared var `options`: the parameter, whose test is not modelled.
    #expect(!draft.json.contains(#""read": "options""#))
    #expect(!draft.unmodelled.isEmpty)
  }

  @Test(
    "An entity's static request is a request for it; an app instance unwrapped with guard is there")
  func staticRequestAndShorthandGuard() throws {
    let source = """
      import CoreData
      class Account: NSManagedObject {
        @NSManaged var name: String?
        static var sortedFetchRequest: NSFetchRequest<Account> {
          let request = NSFetchRequest<Account>(entityName: "Account")
          request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
          return request
        }
      }
      final class API {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
      }
      final class Migrator {
        weak var api: API?
        func migrate() {
          guard let api else { return }
          let accounts = try? api.context.fetch(Account.sortedFetchRequest)
          print(accounts?.count ?? 0)
        }
      }
      """
    let (draft, trace) = try Self.file(
      source, named: "Migrator.swift", calls: ["Migrator().migrate()"])
    #expect(draft.unmodelled.isEmpty)
    #expect(trace.violations.first?.kind == .wrongQueueContext)  // a private context, from main
  }

  @Test("A generic helper given a type's metatype calls that type's static methods as T's")
  func metatypeArgument() throws {
    let source = """
      import CoreData
      protocol Storage { static func file(in context: NSManagedObjectContext) -> URL }
      enum Disk: Storage {
        static func file(in context: NSManagedObjectContext) -> URL {
          _ = context.hasChanges
          return URL(fileURLWithPath: "/tmp")
        }
      }
      class Saver {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        func load<T: Storage>(storage: T.Type) -> [String: Any] {
          let dictionary = try? NSDictionary(contentsOf: T.file(in: context), error: ())
          return dictionary as? [String: Any] ?? [:]
        }
        func go() { _ = load(storage: Disk.self) }
      }
      """
    let (draft, trace) = try Self.file(
      source, named: "Saver.swift", calls: ["Saver().go()"], stopAtFirst: true)
    #expect(draft.unmodelled.isEmpty)
    // `Disk.file(in:)` ran: its read of the private context, from main, traps.
    #expect(trace.violations.first?.kind == .wrongQueueContext)
  }

  @Test(
    "A context extension's fetch of a metatype is the extension's: its request, its closure's $0")
  func contextExtensionOverload() throws {
    let source = """
      import CoreData
      extension NSManagedObjectContext {
        func fetch<T: NSManagedObject>(
          _ entity: T.Type, _ configure: (NSFetchRequest<T>) -> Void = { _ in }
        ) throws -> [T] {
          let request = NSFetchRequest<T>(entityName: String(describing: entity))
          configure(request)
          return try fetch(request)
        }
        func fetch<T: NSManagedObject, Value>(
          _ entity: T.Type, sortedBy keyPath: KeyPath<T, Value>
        ) throws -> [T] {
          try fetch(entity) { $0.sortDescriptors = [NSSortDescriptor(keyPath: keyPath, ascending: true)] }
        }
      }
      class Note: NSManagedObject {
        @NSManaged var title: String?
      }
      class Store {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        func wipe(with predicate: NSPredicate) throws {
          let notes = try context.fetch(Note.self) {
            $0.predicate = NSCompoundPredicate(andPredicateWithSubpredicates: [predicate])
          }
          let sorted = try context.fetch(Note.self, sortedBy: \\.title)
          print(notes.count, sorted.count)
        }
      }
      """
    let (draft, trace) = try Self.file(
      source, named: "Store.swift", calls: [#"try Store().wipe(with: NSPredicate(format: "x"))"#])
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    // Both fetches are Note's, in the private context, from main: each traps.
    let json = draft.json.filter { !$0.isWhitespace }
    #expect(json.contains(#""fetch":"Note","in":"context","as":"notes""#))
    #expect(json.contains(#""fetch":"Note","in":"context","as":"sorted""#))
    #expect(trace.violations.map(\.kind) == [.wrongQueueContext, .wrongQueueContext])
  }

  @Test("A stored property's didSet runs at each set but those of its own type's init")
  func propertyObservers() throws {
    let source = """
      import CoreData
      struct Manifest { var version = 1 }
      final class Screen {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        var filter: String = "" {
          didSet { _ = context.hasChanges }
        }
        var manifest = Manifest() {
          didSet { _ = context.hasChanges }
        }
        init() { filter = "all" }
        func search(_ text: String) { filter = text }
        func bump() { manifest.version = 2 }
      }
      """
    // The set in `init` calls no observer: nothing touches the context there.
    let (_, made) = try Self.file(source, named: "Screen.swift", calls: ["_ = Screen()"])
    #expect(made.violations.isEmpty && !made.isUnmodelled)
    // Off the init, the observer reads the private context from main: it traps.
    for (call, line) in [(#"Screen().search("a")"#, 6), ("Screen().bump()", 9)] {
      let (draft, trace) = try Self.file(
        source, named: "Screen.swift", calls: [call], stopAtFirst: true)
      #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
      #expect(trace.violations.first?.labels.first == "Screen.swift:\(line)")
    }
  }

  @Test(
    "A context's userInfo entry set to the app's own value is a touch; a computed context in init")
  func userInfoEntry() throws {
    let source = """
      import CoreData
      final class Weak {
        weak var store: Store?
        init(store: Store?) { self.store = store }
      }
      final class Store {
        let container = NSPersistentContainer(name: "Model")
        var viewContext: NSManagedObjectContext { container.viewContext }
        init() {
          viewContext.userInfo["store"] = Weak(store: self)
        }
        func tag() { viewContext.userInfo["tag"] = Weak(store: self) }
      }
      """
    let (draft, clean) = try Self.file(source, named: "Store.swift", calls: ["_ = Store()"])
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    #expect(clean.violations.isEmpty && !clean.isUnmodelled)
    let (_, offMain) = try Self.file(
      source, named: "Store.swift", calls: ["DispatchQueue.global().async { store.tag() }"])
    #expect(offMain.violations.first?.kind == .wrongQueueContext)
  }

  @Test("A file call on what app code computes drafts that code; a let URL's method is read")
  func fileCallOnComputedURL() throws {
    let members = """
      let blobsURL: URL = URL(fileURLWithPath: "/tmp/blobs")
        func blobURL(for key: String) -> URL {
          _ = context.hasChanges
          return blobsURL.appendingPathComponent(key)
        }
      """
    let (draft, trace) = try Self.drafted(
      #"try? FileManager.default.removeItem(at: blobURL(for: "a"))"#, members: members)
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    // The helper ran: its read of the private context, from main, traps.
    #expect(trace.violations.first?.kind == .wrongQueueContext)
  }

  @Test("A computed context made at each read is its getter at each read, on the reader's thread")
  func contextMadeAtEachRead() throws {
    let source = """
      import CoreData
      final class DAO {
        private let coordinator: NSPersistentStoreCoordinator
        private var context: NSManagedObjectContext {
          let context = Thread.isMainThread ?
            NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType) :
            NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
          context.persistentStoreCoordinator = coordinator
          return context
        }
        init(coordinator: NSPersistentStoreCoordinator) { self.coordinator = coordinator }
        func count() -> Int {
          (try? context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Note"))) ?? 0
        }
        func first() -> String? {
          guard let notes = try? self.context.fetch(request()), let note = notes.first else {
            return nil
          }
          return describe(note)
        }
        func request() -> NSFetchRequest<NSManagedObject> { helperRequest() }
        func describe(_ note: NSManagedObject) -> String { "\\(note.value(forKey: "title"))" }
      }
      """
    // On main the getter makes a main-queue context: clean.
    let (draft, onMain) = try Self.file(source, named: "DAO.swift", calls: ["_ = dao.count()"])
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    #expect(onMain.violations.isEmpty && !onMain.isUnmodelled)
    // Off main, a private one, fetched from outside its queue: the trap of the DAO bug.
    let (_, offMain) = try Self.file(
      source, named: "DAO.swift", calls: ["DispatchQueue.global().async { _ = dao.count() }"])
    #expect(offMain.violations.first?.labels.first == "DAO.swift:13")
    // A fetch the draft cannot model still touches the context the getter made; what it
    // found is not a stand-in fetched on main (which would trap where the app does not).
    let (_, guarded) = try Self.file(
      source, named: "DAO.swift", calls: ["DispatchQueue.global().async { _ = dao.first() }"],
      stopAtFirst: true)
    #expect(guarded.violations.map(\.kind) == [.wrongQueueContext])
    #expect(guarded.violations.first?.labels.first == "DAO.swift:16")
  }

  @Test("A context an app function makes, kept in a var of its own protocol, is that context")
  func contextIntoProtocolVar() throws {
    let source = """
      import CoreData
      protocol Context {}
      extension NSManagedObjectContext: Context {}
      func makeContext(_ type: NSManagedObjectContextConcurrencyType) -> NSManagedObjectContext {
        return NSManagedObjectContext(concurrencyType: type)
      }
      final class Storage {
        var mainContext: Context!
        var rootContext: NSManagedObjectContext! = nil
        init() {
          rootContext = makeContext(.privateQueueConcurrencyType)
          mainContext = makeContext(.mainQueueConcurrencyType)
        }
        func touch() { _ = (mainContext as! NSManagedObjectContext).hasChanges }
      }
      """
    let (draft, trace) = try Self.file(
      source, named: "Storage.swift",
      calls: ["DispatchQueue.global().async { storage.touch() }"])
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    #expect(trace.violations.first?.kind == .wrongQueueContext)  // main's context, off main
  }

  @Test("An entity named by an enum's raw value, made as its class by a cast, set a static number")
  func rawValueEntityAndCast() throws {
    let source = """
      import CoreData
      enum Entity: String { case event = "Event" }
      struct Status { static let active: Int32 = 0 }
      class EventEntity: NSManagedObject {
        @NSManaged var status: Int32
        @NSManaged var body: String
      }
      final class Helper {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        func create(entity: Entity) -> NSManagedObject {
          var obj: NSManagedObject!
          context.performAndWait {
            obj = NSEntityDescription.insertNewObject(forEntityName: entity.rawValue, into: context)
          }
          return obj
        }
        func count(_ status: Int32) -> Int {
          let request = NSFetchRequest<NSManagedObject>(entityName: Entity.event.rawValue)
          request.predicate = NSPredicate(format: "status == %d", status)
          var n = 0
          context.performAndWait { n = (try? context.count(for: request)) ?? 0 }
          return n
        }
        func insert() {
          if let obj = create(entity: .event) as? EventEntity {
            obj.status = Status.active
          }
        }
      }
      """
    let (draft, trace) = try Self.file(
      source, named: "Helper.swift", calls: ["_ = helper.count(1)", "helper.insert()"])
    // Only what the count finds, by a predicate of a value the draft does not know.
    #expect(draft.unmodelled.map(\.place) == ["Helper.swift:21:30"])
    let json = draft.json.filter { !$0.isWhitespace }
    // The entity is "Event", typed by the class the cast names (the predicate's guess of a
    // string is replaced); the constant is a number.
    #expect(json.contains(#""Event":{"attributes":{"status":"integer""#))
    #expect(json.contains(#""set":"obj.status","to":0"#))
    // The set is outside the private context's queue: Core Data's trap.
    #expect(trace.violations.first?.kind == .wrongQueueObject)
  }

  @Test("A parameter given a case with a payload: if-let and a switch on it reach the payload")
  func casePayloadParameter() throws {
    let source = """
      import CoreData
      enum Target { case context(NSManagedObjectContext); case none }
      final class Saver {
        let background = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        func save(into target: Target?) {
          if let target = target {
            switch target {
            case .context(let c):
              _ = c.hasChanges
            case .none:
              break
            }
          }
        }
        func go() { save(into: .context(background)) }
      }
      """
    let (draft, trace) = try Self.file(source, named: "Saver.swift", calls: ["Saver().go()"])
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    // The payload is the private context, read from main: it traps.
    #expect(trace.violations.first?.labels.first == "Saver.swift:9")
  }

  @Test("An observer's queue picked by a parameter's ternary; a closure kept in a local var")
  func observerQueueAndClosureVar() throws {
    let source = """
      import CoreData
      extension NSManagedObjectContext {
        func observe(inMainThread mainThread: Bool, saved: @escaping (Notification) -> Void) {
          let queue: OperationQueue = mainThread ? OperationQueue.main : OperationQueue()
          NotificationCenter.default.addObserver(
            forName: .NSManagedObjectContextDidSave, object: self, queue: queue, using: saved)
        }
      }
      final class Storage {
        let main = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        let background = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        func setUp() {
          background.observe(inMainThread: true) { n in self.main.mergeChanges(fromContextDidSave: n) }
          var attempt: (() -> Void)?
          attempt = { self.background.perform { try? self.background.save() } }
          attempt!()
        }
      }
      """
    let (draft, trace) = try Self.file(source, named: "Storage.swift", calls: ["Storage().setUp()"])
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    let json = draft.json.filter { !$0.isWhitespace }
    #expect(json.contains(#""queue":"main","as":"n""#))
    #expect(json.contains(#""perform":"background""#))
    #expect(trace.violations.isEmpty && !trace.isUnmodelled)
  }

  @Test("A held closure that names no parameter, called with a plain value, sees it as $0")
  func anonymousClosureParameter() throws {
    let (draft, trace) = try Self.drafted(
      "let handler: (Int) -> Void = { print($0) }\n handler(3)\n _ = context.hasChanges")
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    #expect(draft.json.filter { !$0.isWhitespace }.contains(#""let":"_arg0","value":3"#))
    #expect(trace.violations.first?.kind == .wrongQueueContext)
  }

  @Test("A closure typed with a nested type adds a store on the coordinator handed to it")
  func coordinatorInClosure() throws {
    let source = """
      import CoreData
      enum Kind { case sqlite }
      func addStore(_ coordinator: NSPersistentStoreCoordinator, url: URL) throws {
        let add = { (kind: Kind, c: NSPersistentStoreCoordinator) throws -> Void in
          c.performAndWait {
            _ = try? c.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
          }
        }
        try add(.sqlite, coordinator)
      }
      final class Stack {
        let container = NSPersistentContainer(name: "Model")
        let background = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        func load() {
          try? addStore(container.persistentStoreCoordinator, url: URL(fileURLWithPath: "/x"))
          _ = background.hasChanges
        }
      }
      """
    let (draft, trace) = try Self.file(source, named: "Stack.swift", calls: ["Stack().load()"])
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    // The store set up, the private context read from main: the one trap.
    #expect(trace.violations.map(\.labels.first) == ["Stack.swift:16"])
  }

  @Test("A helper's fetched list, returned through a generic safeFetch and a catch, stays objects")
  func listThroughHelpers() throws {
    // The entity's class is Xcode's, in no file: its name is known only once fetched.
    let source = """
      import CoreData
      extension NSManagedObjectContext {
        func safeFetch<T: NSManagedObject>(_ request: NSFetchRequest<T>) throws -> [T] {
          var results: [T] = []
          performAndWait {
            do {
              results = try self.fetch(request)
            } catch {
              print(error)
            }
          }
          return results
        }
      }
      final class Sync {
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        func bookmarks() -> [Bookmark] {
          do {
            return try context.safeFetch(Bookmark.fetchRequest())
          } catch {
            return []
          }
        }
        func sync() {
          let all = bookmarks()
          for b in all {
            guard let url = b.url else { continue }
            print(url)
          }
        }
      }
      """
    let (draft, trace) = try Self.file(
      source, named: "Sync.swift", calls: ["DispatchQueue.global().async { Sync().sync() }"],
      stopAtFirst: true)
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    // Each bookmark is the main context's, read on a global queue: a trap, never a stand-in.
    #expect(trace.violations.first?.kind == .wrongQueueObject)
    #expect(trace.violations.first?.labels.first == "Sync.swift:27")
  }

  @Test("An object's own context, optional-chained, runs the block on that context's queue")
  func objectsOwnContext() throws {
    func source(_ read: String) -> String {
      """
      import CoreData
      class Note: NSManagedObject {
        @NSManaged var title: String?
      }
      final class Sync {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        func snapshot() -> String? {
          var title: String?
          var found: Note?
          context.performAndWait {
            found = try? context.fetch(NSFetchRequest<Note>(entityName: "Note")).first
          }
          guard let note = found else { return nil }
          \(read)
          return title
        }
      }
      """
    }
    let call = ["DispatchQueue.global().async { _ = Sync().snapshot() }"]
    let (draft, clean) = try Self.file(
      source("note.managedObjectContext?.performAndWait { title = note.title }"),
      named: "Sync.swift", calls: call)
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    #expect(clean.violations.isEmpty && !clean.isUnmodelled)
    let (_, buggy) = try Self.file(source("title = note.title"), named: "Sync.swift", calls: call)
    #expect(buggy.violations.first?.kind == .wrongQueueObject)
  }

  @Test("A tuple bound from a plain call; a local's method given an app call; #file defaults")
  func tupleAndCallerPlace() throws {
    let members = """
      func fileName(_ path: String) -> String {
          _ = context.hasChanges
          return path
        }
        func log(_ message: String, file: String = #file, line: Int = #line) {
          var parts: [String] = []
          parts.append("[\\(fileName(file)):\\(line)] \\(message)")
        }
        func pair() -> (String, Int) { ("a", 1) }
      """
    let (draft, trace) = try Self.drafted(
      "let (name, count) = pair()\n log(\"\\(name) \\(count)\")", members: members)
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    // The app call inside the appended string ran: its read of the private context traps.
    #expect(trace.violations.first?.kind == .wrongQueueContext)
  }

  @Test("An if whose branches touch nothing the model sees is no path; one that does is")
  func inertBranches() throws {
    let inert = "if title.isEmpty { print(\"none\") } else { print(title) }"
    let source = { (line: String) in
      """
      import CoreData
      final class Saver {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        func go(title: String) {
          \(line)
          context.perform { try? self.context.save() }
        }
      }
      """
    }
    let sources = [Draft.Source(name: "Saver.swift", text: source(inert))]
    let paths = Draft.paths(sources, options: .init(calls: [#"Saver().go(title: "a")"#]))
    #expect(paths.drafts.count == 1 && paths.complete)
    #expect(paths.drafts[0].decisions.isEmpty && paths.drafts[0].unmodelled.isEmpty)
    // A branch that touches the context, or sets what a later test may read, is a path
    // each way.
    for line in [
      "if title.isEmpty { _ = context.hasChanges }",
      "var wait = false\n if title.isEmpty { wait = true }\n if wait { context.reset() }",
    ] {
      let split = Draft.paths(
        [Draft.Source(name: "Saver.swift", text: source(line))],
        options: .init(calls: [#"Saver().go(title: "a")"#]))
      #expect(split.drafts.count == 2, "\(line)")
    }
  }

  @Test("A loop over a plain dictionary's pairs; an entry of the instance's dictionary set")
  func dictionaryLoopAndEntry() throws {
    let members = """
      var levels: [String: Int] = [:]
        func configure(_ config: [String: Int]) {
          for (name, level) in config {
            levels[name] = level
          }
        }
      """
    let (draft, trace) = try Self.drafted(
      "DispatchQueue.global().async { self.configure([\"b\": 2]) }\n configure([\"a\": 1])",
      members: members)
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    // Main writes the instance's dictionary after handing a block that writes it to a
    // global queue: nothing orders the two, a data race.
    #expect(trace.violations.first?.kind == .dataRace)
  }
}
