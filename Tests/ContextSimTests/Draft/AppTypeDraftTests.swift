import Foundation
import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// Code spread as apps spread it: a stack type with lazy and computed contexts, extensions of
/// Core Data's types, and callers in other files.
@Suite("Drafting the app's own types across files")
struct AppTypeDraftTests {
  static let folder = DraftTests.root.appendingPathComponent("Examples/Draft/NotesApp")

  static func sources(replacing name: String? = nil, with text: String = "") throws
    -> [Draft.Source]
  {
    try ["CoreDataStack.swift", "NSManagedObjectContext+Save.swift", "NoteImporter.swift"].map {
      file in
      let read = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      return Draft.Source(name: file, text: file == name ? text : read)
    }
  }

  static func trace(_ sources: [Draft.Source], calls: [String]) throws -> Trace {
    let draft = Draft(sources, options: .init(calls: calls))
    return run(try ScenarioDecoder.decode(Array(draft.json.utf8), file: "draft"), stopAtFirst: true)
  }

  static let call = #"NoteImporter().importNotes(["Groceries"])"#

  @Test("A lazy context property of a shared stack, used from main in another file, traps there")
  func lazyContextAcrossFiles() throws {
    let trace = try Self.trace(Self.sources(), calls: [Self.call])
    let trap = try #require(trace.violations.first)
    #expect(trap.kind == .wrongQueueContext)
    #expect(trap.labels.first == "NoteImporter.swift:10")
    #expect(!trace.isUnmodelled)
  }

  @Test("The same importer inside the context's perform is clean, and says so")
  func fixedImporter() throws {
    let fixed = """
      import CoreData

      final class NoteImporter {
        let stack = CoreDataStack.shared

        func importNotes(_ titles: [String]) {
          let context = stack.importContext
          context.perform {
            for title in titles {
              let note = Note(context: context)
              note.title = title
            }
            context.saveIfNeeded()
          }
        }
      }
      """
    let trace = try Self.trace(
      Self.sources(replacing: "NoteImporter.swift", with: fixed), calls: [Self.call])
    #expect(trace.violations.isEmpty)
    #expect(trace.unmodelled.isEmpty)
  }

  @Test("A computed context property and an extension's bare hasChanges are the context's")
  func computedPropertyAndExtension() throws {
    let draft = Draft(
      try Self.sources(), options: .init(calls: ["CoreDataStack.shared.saveMain()"]))
    let json = draft.json
    // `mainContext` is `container.viewContext`: its hasChanges is read there, on main.
    #expect(json.contains(#""get": "viewContext.hasChanges""#))
    #expect(json.contains(#""save": "viewContext""#))
    #expect(draft.unmodelled.isEmpty)
  }

  @Test("A generic type is called by its name without its parameters")
  func genericTypeName() throws {
    let source = """
      import CoreData
      final class Repository<Resource: NSManagedObject> {
        let context: NSManagedObjectContext
        init(container: NSPersistentContainer) { context = container.newBackgroundContext() }
        func count() -> Int { (try? context.count(for: NSFetchRequest<Resource>(entityName: "Item"))) ?? 0 }
      }
      """
    let calls = ["let r = Repository<Item>(container: container); _ = r.count()"]
    #expect(
      Draft.unknownCalls(in: [.init(name: "R.swift", text: source)], options: .init(calls: calls))
        .isEmpty)
    let typo = ["let r = Repository<Item>(container: container); _ = r.cuont()"]
    #expect(
      Draft.unknownCalls(in: [.init(name: "R.swift", text: source)], options: .init(calls: typo))
        .map(\.name) == ["cuont"])
  }

  /// JSQCoreDataKit's shape: a generic subclass of NSFetchRequest (declared with a space
  /// before its parameters), made in a helper that returns it, sorted, then fetched.
  static let typedRequest = """
    import CoreData
    public class FetchRequest <T: NSManagedObject>: NSFetchRequest {
      public init(entity: NSEntityDescription) {
        super.init()
        self.entity = entity
      }
    }
    class Company: NSManagedObject {
      @NSManaged var name: String
    }
    class CompanyList {
      let context = NSManagedObjectContext(concurrencyType: .PrivateQueueConcurrencyType)
      func request() -> FetchRequest<Company> {
        let fetch = FetchRequest<Company>(entity: NSEntityDescription.entityForName("Company", inManagedObjectContext: context)!)
        fetch.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        return fetch
      }
      func load() {
        let rows = try! context.executeFetchRequest(request())
        print(rows)
      }
    }
    """

  @Test("An app's generic NSFetchRequest subclass, returned from a helper, is the fetch's request")
  func appFetchRequestSubclass() throws {
    let sources = [Draft.Source(name: "List.swift", text: Self.typedRequest)]
    let trace = try Self.trace(sources, calls: ["CompanyList().load()"])
    let trap = try #require(trace.violations.first)
    #expect(trap.kind == .wrongQueueContext)
    // The line's second step: the helper's result is bound first, then fetched with.
    #expect(trap.labels.first == "List.swift:19#2")
    #expect(!trace.isUnmodelled)
  }

  /// A stack made in the screen with a context of its own: `init`'s and a struct's
  /// memberwise form.
  static func screen(stack: String, made: String, add: String) -> String {
    """
    import CoreData
    \(stack)
    class Screen {
      var stack: Stack!
      func viewDidLoad() {
        let background = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        self.stack = \(made)
      }
      func add() {
        \(add)
      }
    }
    """
  }

  static let classStack = """
    class Stack {
      let writer: NSManagedObjectContext
      init(writer: NSManagedObjectContext) {
        self.writer = writer
      }
    }
    """

  @Test(
    "An app type made with the caller's context holds that context, through init or memberwise",
    arguments: [
      (classStack, "Stack(writer: background)"),
      ("struct Stack {\n  let writer: NSManagedObjectContext\n}", "Stack(writer: background)"),
    ])
  func instanceMadeWithCallersContext(stack: String, made: String) throws {
    let calls = ["viewDidLoad()", "add()"]
    let buggy = Self.screen(stack: stack, made: made, add: "try? stack.writer.save()")
    let trace = try Self.trace([.init(name: "Screen.swift", text: buggy)], calls: calls)
    let trap = try #require(trace.violations.first)
    #expect(trap.kind == .wrongQueueContext)
    #expect(trap.headline.contains("background"))
    #expect(!trace.isUnmodelled)
    let fixed = Self.screen(
      stack: stack, made: made, add: "stack.writer.performAndWait { try? stack.writer.save() }")
    let clean = try Self.trace([.init(name: "Screen.swift", text: fixed)], calls: calls)
    #expect(clean.violations.isEmpty)
    #expect(!clean.isUnmodelled)
  }

  /// A screen that makes its stack on a background queue and hands it to the main queue;
  /// the user's tap uses it later.
  static func loadingScreen(tap: String) -> String {
    """
    import CoreData
    import UIKit
    \(classStack)
    class ListViewController: UIViewController {
      var stack: Stack!
      override func viewDidLoad() {
        DispatchQueue.global().async {
          let background = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
          DispatchQueue.main.async {
            self.stack = Stack(writer: background)
          }
        }
      }
      func didTapAdd() {
        \(tap)
      }
    }
    """
  }

  @Test("A tap after the screen loaded runs once the load settled, on the stack it made")
  func tapAfterLoad() throws {
    let calls = ["viewDidLoad()", "didTapAdd()"]
    let buggy = [
      Draft.Source(name: "List.swift", text: Self.loadingScreen(tap: "try? stack.writer.save()"))
    ]
    let draft = Draft(buggy, options: .init(calls: calls))
    #expect(draft.unmodelled.isEmpty)
    #expect(draft.json.contains(#""whenIdle": "main""#))
    #expect(draft.summary.contains("didTapAdd() on the main thread, once the app is idle"))
    let trace = try Self.trace(buggy, calls: calls)
    let trap = try #require(trace.violations.first)
    #expect(trap.kind == .wrongQueueContext)
    #expect(trap.labels.first == "List.swift:20")
    let fixed = [
      Draft.Source(
        name: "List.swift",
        text: Self.loadingScreen(tap: "stack.writer.performAndWait { try? stack.writer.save() }"))
    ]
    let clean = try Self.trace(fixed, calls: calls)
    #expect(clean.violations.isEmpty && !clean.isUnmodelled)
  }

  @Test("An app type made with a context by an init the files do not declare is not modelled")
  func instanceMadeByUndeclaredInit() throws {
    let stack = "class Stack: BaseStack {\n  func ping() {}\n}"
    let source = Self.screen(
      stack: stack, made: "Stack(writer: background)", add: "try? stack.writer.save()")
    let draft = Draft(
      [.init(name: "Screen.swift", text: source)], options: .init(calls: ["viewDidLoad()"]))
    #expect(draft.unmodelled.map(\.place) == ["Screen.swift:9:32"])
  }
}

/// Closures held as values, Swift 2's spellings, overloads and calls that build on each other.
@Suite("Drafting closures as values and every spelling since Swift 2")
struct ClosureDraftTests {
  static func draft(_ source: String, calls: [String]) throws -> (Draft, Trace) {
    let draft = Draft([.init(name: "App.swift", text: source)], options: .init(calls: calls))
    let scenario = try ScenarioDecoder.decode(Array(draft.json.utf8), file: "draft")
    return (draft, run(scenario, stopAtFirst: true))
  }

  static let stack = """
    import CoreData
    final class Stack {
      let container: NSPersistentContainer
      let background: NSManagedObjectContext
      init(container: NSPersistentContainer) {
        self.container = container
        background = container.newBackgroundContext()
      }
      func save(_ context: NSManagedObjectContext, wait: Bool) {
        let block = {
          try? context.save()
        }
        wait ? context.performAndWait(block) : context.perform(block)
      }
      func write(_ change: (NSManagedObjectContext) -> Void) {
        change(background)
      }
    }
    """

  @Test("A block held in a let and handed to perform or performAndWait by a ternary")
  func heldBlock() throws {
    let (draft, trace) = try Self.draft(
      Self.stack,
      calls: [
        "Stack(container: container).save(Stack(container: container).background, wait: true)"
      ])
    #expect(draft.unmodelled.isEmpty)
    // The block is drafted where it runs, once per branch: inside performAndWait, and perform.
    #expect(draft.json.components(separatedBy: #""save": "background""#).count - 1 == 2)
    #expect(trace.violations.isEmpty)
    #expect(!trace.isUnmodelled)
  }

  @Test("A closure passed as an argument runs where the method calls it, with its argument")
  func closureArgument() throws {
    let (_, trace) = try Self.draft(
      Self.stack,
      calls: ["Stack(container: container).write { context in try? context.save() }"])
    // Called straight from main on the private context: the trap is the closure's line.
    let trap = try #require(trace.violations.first)
    #expect(trap.kind == .wrongQueueContext)
    #expect(trap.labels.first == "--call:1")
  }

  @Test("Swift 2: NSNotificationCenter, Selector(\"x:\"), the …Notification name, dispatch_async")
  func swift2() throws {
    let source = """
      import CoreData
      class Stack: NSObject {
        let container: NSPersistentContainer
        let main: NSManagedObjectContext
        init(container: NSPersistentContainer) {
          self.container = container
          main = container.viewContext
          super.init()
          let center = NSNotificationCenter.defaultCenter()
          center.addObserver(self, selector: Selector("didSave:"),
            name: NSManagedObjectContextDidSaveNotification, object: nil)
        }
        func didSave(notification: NSNotification) {
          main.mergeChangesFromContextDidSaveNotification(notification)
        }
        func importAll() {
          dispatch_async(dispatch_get_global_queue(DISPATCH_QUEUE_PRIORITY_HIGH, 0)) {
            let context = self.container.newBackgroundContext()
            context.performBlockAndWait {
              NSEntityDescription.insertNewObjectForEntityForName("Item", inManagedObjectContext: context)
              try! context.save()
            }
          }
        }
      }
      """
    let (draft, trace) = try Self.draft(source, calls: ["Stack(container: container).importAll()"])
    #expect(draft.unmodelled.isEmpty)
    #expect(draft.json.contains(#""observe": "didSave""#))
    #expect(draft.json.contains(#""async": "global""#))
    // The observer merges into the main context from the saving thread: a trap there.
    let trap = try #require(trace.violations.first)
    #expect(trap.kind == .wrongQueueContext)
    #expect(trap.labels.first == "App.swift:14")
  }

  @Test("A notification's name kept in a local; one the model never posts is passed over")
  func notificationLocals() throws {
    let source = """
      import CoreData
      final class Stack {
        let container: NSPersistentContainer
        init(container: NSPersistentContainer) {
          self.container = container
          let center = NotificationCenter.default
          let didSave = #selector(contextDidSave(_:))
          let didSaveName = NSNotification.Name.NSManagedObjectContextDidSave
          center.addObserver(self, selector: didSave, name: didSaveName, object: nil)
          let didChangeName = NSNotification.Name.NSPersistentStoreCoordinatorStoresDidChange
          center.addObserver(self, selector: #selector(storesDidChange(_:)), name: didChangeName, object: nil)
        }
        @objc func contextDidSave(_ notification: Notification) {
          container.viewContext.mergeChanges(fromContextDidSave: notification)
        }
        @objc func storesDidChange(_ notification: Notification) {}
      }
      """
    let (draft, _) = try Self.draft(source, calls: ["_ = Stack(container: container)"])
    #expect(draft.unmodelled.isEmpty)
    #expect(draft.json.components(separatedBy: #""observe": "#).count - 1 == 1)
    #expect(draft.json.contains(#""observe": "didSave""#))
  }

  @Test("A switch on a context's concurrencyType (Swift 2's spelling too) runs its case")
  func switchOnConcurrencyType() throws {
    let source = """
      import CoreData
      final class Saver {
        let main = NSManagedObjectContext(concurrencyType: .MainQueueConcurrencyType)
        let background = NSManagedObjectContext(concurrencyType: .PrivateQueueConcurrencyType)
        func save(context: NSManagedObjectContext) {
          switch context.concurrencyType {
          case .MainQueueConcurrencyType:
            try? context.save()
          case .PrivateQueueConcurrencyType, .ConfinementConcurrencyType:
            context.performBlockAndWait {
              try? context.save()
            }
          }
        }
      }
      """
    let (mainDraft, mainTrace) = try Self.draft(source, calls: ["saver.save(context: saver.main)"])
    #expect(mainDraft.unmodelled.isEmpty)
    #expect(mainDraft.json.contains(#""queue": "main""#))
    #expect(!mainDraft.json.contains(#""performAndWait""#))
    #expect(mainTrace.violations.isEmpty)
    let (draft, trace) = try Self.draft(source, calls: ["saver.save(context: saver.background)"])
    #expect(draft.unmodelled.isEmpty)
    #expect(draft.json.contains(#""performAndWait": "background""#))
    #expect(trace.violations.isEmpty)
    // On a value the draft cannot know, the switch is a line not modelled.
    let (unknown, _) = try Self.draft(
      source.replacingOccurrences(of: "context.concurrencyType", with: "kind"),
      calls: ["saver.save(context: saver.main)"])
    #expect(unknown.unmodelled.map(\.why) == ["a `switch` on a value ctxsim cannot decide"])
  }

  @Test("A context-making method called twice makes two contexts, each of the queue it is given")
  func contextFactory() throws {
    let source = """
      import CoreData
      final class Factory {
        func makeStack(queue: dispatch_queue_t = dispatch_get_global_queue(0, 0),
                       completion: (NSManagedObjectContext) -> Void) {
          dispatch_async(queue) {
            let background = self.createContext(.PrivateQueueConcurrencyType)
            let main = self.createContext(.MainQueueConcurrencyType)
            main.parentContext = background
            completion(main)
          }
        }
        private func createContext(_ type: NSManagedObjectContextConcurrencyType) -> NSManagedObjectContext {
          let context = NSManagedObjectContext(concurrencyType: type)
          return context
        }
      }
      """
    let (draft, trace) = try Self.draft(
      source, calls: ["factory.makeStack { context in try? context.save() }"])
    #expect(draft.unmodelled.isEmpty)
    #expect(draft.json.contains(#""async": "global""#))
    #expect(draft.json.contains(#""newContext": "context","#))
    #expect(draft.json.contains(#""newContext": "context2""#))
    #expect(draft.json.contains(#""parent": "context""#))
    // The completion saves the main-queue context from the global queue: a trap.
    let trap = try #require(trace.violations.first)
    #expect(trap.kind == .wrongQueueContext)
    #expect(trap.labels.first == "--call:1")
  }

  @Test("defer runs at the block's end; with an early exit after it, it is not modelled")
  func deferred() throws {
    let source = """
      import CoreData
      final class Store {
        let container: NSPersistentContainer
        init(container: NSPersistentContainer) { self.container = container }
        func tidy() {
          let context = container.newBackgroundContext()
          defer { context.reset() }
          context.performAndWait { try? context.save() }
        }
        func early(skip: Bool) {
          let context = container.newBackgroundContext()
          defer { context.reset() }
          guard skip else { return }
          context.performAndWait { try? context.save() }
        }
      }
      """
    let (draft, trace) = try Self.draft(source, calls: ["store.tidy()"])
    #expect(draft.unmodelled.isEmpty)
    let json = draft.json
    let save = try #require(json.range(of: #""save": "context""#))
    let reset = try #require(json.range(of: #""reset": "context""#))
    #expect(save.lowerBound < reset.lowerBound)
    // The reset is off the context's queue, after the performAndWait: a trap there.
    #expect(trace.violations.first?.labels.first == "App.swift:7")
    let (early, _) = try Self.draft(source, calls: ["store.early(skip: true)"])
    #expect(early.unmodelled.map(\.why) == ["`defer` is not modelled"])
  }

  @Test("try await Task.detached { … }.value runs the block off the main actor, awaited")
  func detachedTaskValue() throws {
    let source = """
      import CoreData
      final class Exporter {
        let background: NSManagedObjectContext
        init(container: NSPersistentContainer) { background = container.newBackgroundContext() }
        func export() async throws {
          let count = try await Task.detached {
            try self.background.count(for: NSFetchRequest<NSManagedObject>(entityName: "Item"))
          }.value
          print(count)
        }
        func exportSafely() async throws {
          let count = try await background.perform {
            try self.background.count(for: NSFetchRequest<NSManagedObject>(entityName: "Item"))
          }
          print(count)
        }
      }
      """
    let (draft, trace) = try Self.draft(source, calls: ["try await exporter.export()"])
    #expect(draft.unmodelled.isEmpty)
    #expect(draft.json.contains(#""taskGroup": ["#))
    #expect(trace.violations.first?.kind == .wrongQueueContext)
    #expect(trace.violations.first?.labels.first == "App.swift:7")
    let (_, safe) = try Self.draft(source, calls: ["try await exporter.exportSafely()"])
    #expect(safe.violations.isEmpty)
  }

  @Test("A switch on a parameter given an enum case runs that case")
  func switchOnArgument() throws {
    let source = """
      import CoreData
      final class Exporter {
        let background: NSManagedObjectContext
        init(container: NSPersistentContainer) { background = container.newBackgroundContext() }
        func export(as kind: Kind = .archive) {
          switch kind {
          case .archive: background.performAndWait { try? background.save() }
          case .package: try? background.save()
          }
        }
      }
      """
    let (archive, clean) = try Self.draft(source, calls: ["exporter.export()"])
    #expect(archive.unmodelled.isEmpty)
    #expect(clean.violations.isEmpty)
    let (package, trapped) = try Self.draft(source, calls: ["exporter.export(as: .package)"])
    #expect(package.unmodelled.isEmpty)
    #expect(trapped.violations.first?.labels.first == "App.swift:8")
  }

  @Test("MagicalRecord: the default context is on main; mr_createEntity(in:) inserts")
  func magicalRecord() throws {
    let source = """
      import CoreData
      final class Notes {
        func add(title: String) {
          DispatchQueue.global().async {
            let context = NSManagedObjectContext.mr_default()
            let note = Note.mr_createEntity(in: context)
          }
        }
      }
      """
    let (draft, trace) = try Self.draft(source, calls: ["notes.add(title: title)"])
    #expect(draft.unmodelled.isEmpty)
    #expect(draft.json.contains(#""insert": "Note""#))
    #expect(trace.violations.first?.kind == .wrongQueueContext)
    #expect(trace.violations.first?.labels.first == "App.swift:6")
  }

  @Test("MagicalRecord.save's block runs on a new private context; an object from outside traps")
  func magicalRecordSave() throws {
    let source = """
      import CoreData
      final class Note: NSManagedObject {
        @NSManaged var title: String?
        @NSManaged var pinned: NSNumber?
        func pin() {
          MagicalRecord.save({ localContext in
            if let local = self.mr_(in: localContext), let title = self.title {
              local.pinned = 1
            }
          }, completion: nil)
        }
      }
      """
    let (draft, trace) = try Self.draft(source, calls: ["note.pin()"])
    #expect(draft.unmodelled.isEmpty)
    let json = draft.json.filter { !$0.isWhitespace }
    #expect(json.contains(#""newContext":"localContext","queue":"private""#))
    #expect(json.contains(#""existingObject":"$_noteID","in":"localContext""#))
    // `self.title` is the outside note's, read on localContext's queue.
    #expect(trace.violations.first?.kind == .wrongQueueObject)
    #expect(trace.violations.first?.labels.first == "App.swift:7#3")
  }

  @Test(
    "MagicalRecord's finders fetch inside performAndWait; a predicate the draft cannot read is not modelled"
  )
  func magicalRecordFinders() throws {
    let source = """
      import CoreData
      final class Users {
        func current(key: String) {
          DispatchQueue.global().async {
            let user = User.mr_findFirst()
            let seven = User.mr_findFirst(byAttribute: "remoteId", withValue: "7")
            let other = User.mr_findFirst(byAttribute: key, withValue: "7", in: NSManagedObjectContext.mr_default())
            user?.name = "x"
          }
        }
      }
      """
    let (draft, trace) = try Self.draft(source, calls: ["users.current(key: key)"])
    let json = draft.json.filter { !$0.isWhitespace }
    #expect(json.contains(#""performAndWait":"viewContext","do":[{"fetch":"User""#))
    #expect(json.contains(#""where":{"remoteId":"7"}"#))
    #expect(draft.unmodelled.map(\.place) == ["App.swift:7:7"])
    // The finder waits for the default context's queue (main), so it never traps; the user
    // it found, set from the global queue, does.
    #expect(trace.violations.first?.kind == .wrongQueueObject)
    #expect(trace.violations.first?.labels.first == "App.swift:8")
  }

  @Test(
    "A generic helper's T is the entity its T.Type argument names; one it cannot name is not modelled"
  )
  func genericHelper() throws {
    let source = """
      import CoreData
      extension NSManagedObjectContext {
        func make<T: NSManagedObject>(_ type: T.Type) -> T {
          return T(entity: NSEntityDescription.entity(forEntityName: String(describing: type), in: self)!, insertInto: self)
        }
        func first<T: NSManagedObject>(_ type: T.Type) throws -> T? {
          let request = NSFetchRequest<T>(entityName: String(describing: type))
          return try fetch(request).first
        }
      }
      final class Saver<M: Metric> {
        let context: NSManagedObjectContext
        init(context: NSManagedObjectContext) { self.context = context }
        func save() {
          let note = context.make(Note.self)
          let found = try? context.first(Folder.self)
          let metric = context.make(M.Object.self)
        }
      }
      """
    let (draft, _) = try Self.draft(source, calls: ["Saver(context: c).save()"])
    let json = draft.json.filter { !$0.isWhitespace }
    #expect(json.contains(#""insert":"Note""#))
    #expect(json.contains(#""fetch":"Folder""#))
    #expect(!json.contains(#""insert":"T""#) && !json.contains(#""fetch":"T""#))
    // `M.Object` names no entity the draft knows: that insert is a line not modelled.
    #expect(draft.unmodelled.map(\.place) == ["App.swift:4:5"])
  }

  @Test(
    "A generic value's T is the type it is given, T.Object its typealias; a class under an entity class is a sub-entity"
  )
  func genericValueAndSubEntity() throws {
    let source = """
      import CoreData
      protocol Scalar { associatedtype Object: Metric }
      extension Int: Scalar { typealias Object = IntMetric }
      extension Double: Scalar { typealias Object = DoubleMetric }
      class Session: NSManagedObject {
        @NSManaged var endDate: Date?
        @NSManaged var metrics: Set<Metric>
      }
      class Metric: SyncableEntry {
        @NSManaged var name: String?
        @NSManaged var session: Session?
      }
      final class IntMetric: Metric { @NSManaged var value: Int }
      final class DoubleMetric: Metric { @NSManaged var value: Double }
      extension NSManagedObjectContext {
        func make<T: NSManagedObject>(_ type: T.Type) -> T {
          return T(entity: NSEntityDescription.entity(forEntityName: String(describing: type), in: self)!, insertInto: self)
        }
      }
      func save<T: Scalar>(_ name: String, value: T, session: Session, _ context: NSManagedObjectContext) throws {
        let metric = context.make(T.Object.self)
        metric.name = name
        metric.session = session
        try context.save()
      }
      final class Counter {
        let container = NSPersistentContainer(name: "Model")
        func increment(by value: Int64, session: Session) {
          log(value: Int(value), session: session)
        }
        func log(value: some Scalar, session: Session) {
          let context = container.viewContext
          try? save("count", value: value, session: session, context)
        }
      }
      """
    let (draft, trace) = try Self.draft(
      source,
      calls: [
        "let counter = Counter()", "let s = Session(context: counter.container.viewContext)",
        "counter.increment(by: 1, session: s)",
      ])
    let json = draft.json.filter { !$0.isWhitespace }
    #expect(json.contains(#""insert":"IntMetric""#))
    #expect(json.contains(#""parent":"Metric""#))
    #expect(json.contains(#""session":{"to":"Session","inverse":"metrics"}"#))
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    #expect(trace.violations.isEmpty)
  }

  @Test(
    "A generic type made with a type argument binds its parameter in every method: typealiases, a static entity name, map(Resource.init)"
  )
  func genericTypeArguments() throws {
    let source = """
      import CoreData
      protocol Storable {
        associatedtype ManagedObjectType: NSManagedObject
        static var entityName: String { get }
        init(managedObject: ManagedObjectType) throws
      }
      class Crash: NSManagedObject {
        @NSManaged var reportData: Data?
      }
      final class Report: Storable {
        typealias ManagedObjectType = Crash
        static var entityName: String { return "Crash" }
        let data: Data
        init(managedObject: Crash) throws {
          guard let data = managedObject.reportData else { throw ReportError.empty }
          self.data = data
        }
      }
      final class Repository<Resource: Storable> {
        let context: NSManagedObjectContext
        init(container: NSPersistentContainer) { context = container.newBackgroundContext() }
        func all() throws -> [Resource] {
          let request = NSFetchRequest<Resource.ManagedObjectType>(entityName: Resource.entityName)
          let found = try context.fetch(request)
          return try found.map(Resource.init)
        }
      }
      """
    let (draft, trace) = try Self.draft(
      source,
      calls: [
        "let repository = Repository<Report>(container: NSPersistentContainer(name: \"M\"))",
        "_ = try repository.all()",
      ])
    let json = draft.json.filter { !$0.isWhitespace }
    #expect(json.contains(#""fetch":"Crash""#))
    #expect(json.contains(#""get":"crash.reportData""#) || json.contains("reportData"))
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    // Fetched off the background context's queue: the repository's bug, found.
    #expect(trace.violations.first?.kind == .wrongQueueContext)
  }

  @Test(
    "A second instance of a type that makes its own context is not modelled: its context is not the first's"
  )
  func secondInstance() throws {
    // Pulse's export: `target` is another store, whose context a block on this store's
    // queue touches. On a device that traps; the draft has one instance of each type, so
    // the two contexts would be one and the run clean. It is never clean.
    let source = """
      import CoreData
      final class Store {
        let container: NSPersistentContainer
        let backgroundContext: NSManagedObjectContext
        init(name: String) {
          container = NSPersistentContainer(name: name)
          container.loadPersistentStores { _, _ in }
          backgroundContext = container.newBackgroundContext()
        }
        func cleanUp() {
          if backgroundContext.hasChanges { try? backgroundContext.save() }
        }
        func export() {
          let target = Store(name: "Copy")
          backgroundContext.performAndWait { target.cleanUp() }
        }
      }
      """
    let (draft, trace) = try Self.draft(
      source, calls: ["let store = Store(name: \"Main\")", "store.export()"])
    #expect(draft.unmodelled.map(\.place) == ["App.swift:14:5"])
    #expect(trace.violations.isEmpty && trace.isUnmodelled)
  }

  @Test(
    "A stored dependency of a type no file read declares is not stood in: calls on it are not modelled"
  )
  func undeclaredDependency() throws {
    let source = """
      import CoreData
      final class NotesViewModel {
        let store: NoteStore
        init(store: NoteStore) { self.store = store }
        func wipe() {
          DispatchQueue.global().async { self.store.deleteAll() }
        }
      }
      """
    let (draft, trace) = try Self.draft(source, calls: ["NotesViewModel(store: s).wipe()"])
    #expect(draft.unmodelled.map(\.place) == ["App.swift:6:36"])
    #expect(trace.isUnmodelled)
    // A parameter of such a type is no plain value whose methods a rule passes over.
    let parameter = """
      import CoreData
      final class Wiper {
        func wipe(store: NoteStore) {
          DispatchQueue.global().async { store.deleteAll() }
        }
      }
      """
    let (wiper, wiped) = try Self.draft(parameter, calls: ["Wiper().wipe(store: s)"])
    #expect(wiper.unmodelled.map(\.place) == ["App.swift:4:36"])
    #expect(wiped.isUnmodelled)
    // Nor is a property of it, given to the instance's own var: its getter is code not read.
    let property = """
      import CoreData
      final class ListModel {
        let store: NoteStore
        var rows = 0
        init(store: NoteStore) { self.store = store }
        func refresh() {
          DispatchQueue.global().async { self.rows = self.store.count }
        }
      }
      """
    let (list, listed) = try Self.draft(property, calls: ["ListModel(store: s).refresh()"])
    #expect(list.unmodelled.map(\.place) == ["App.swift:7:48"])
    #expect(listed.isUnmodelled)
  }

  @Test(
    "An instance made with the app's store and called at once runs its method on that store: Model(store: Store()).wipe()"
  )
  func receiverMadeWithAStore() throws {
    let source = """
      import CoreData
      protocol NoteStoring {
        func deleteAll()
      }
      final class CoreDataNoteStore: NoteStoring {
        let container = NSPersistentContainer(name: "Notes")
        func deleteAll() {
          let context = container.viewContext
          let request = NSFetchRequest<NSManagedObject>(entityName: "Note")
          for note in (try? context.fetch(request)) ?? [] { context.delete(note) }
        }
      }
      final class NotesViewModel {
        let store: NoteStoring
        init(store: NoteStoring) { self.store = store }
        func wipe() {
          DispatchQueue.global().async { self.store.deleteAll() }
        }
      }
      """
    // Called on the instance made with stand-ins, the store was the protocol's stand-in,
    // which answers at once: the run was clean. The store given is the one that runs.
    let (draft, trace) = try Self.draft(
      source, calls: ["NotesViewModel(store: CoreDataNoteStore()).wipe()"])
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    #expect(trace.violations.first?.kind == .wrongQueueContext)
    #expect(trace.violations.first?.labels.first == "App.swift:10")
  }

  @Test(
    "A computed property read by its bare name in the type's own method runs its getter at each read"
  )
  func bareComputedProperty() throws {
    let source = """
      import CoreData
      class Note: NSManagedObject {
        @NSManaged var title: String?
      }
      final class Stack {
        let container = NSPersistentContainer(name: "Notes")
        var newContext: NSManagedObjectContext { container.newBackgroundContext() }
        func copyTitle() {
          let a = newContext
          let b = newContext
          a.perform {
            let note = Note(context: a)
            b.perform { note.title = "x" }
          }
        }
      }
      """
    // Two reads, two contexts: the object made in one is set on the other's queue.
    let (draft, trace) = try Self.draft(source, calls: ["Stack().copyTitle()"])
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    #expect(trace.violations.first?.kind == .wrongQueueObject)
    #expect(trace.violations.first?.labels.first == "App.swift:13")
  }

  @Test(
    "A call whose result a stored property takes is drafted first: a fetch off its context's queue traps"
  )
  func propertyGivenACall() throws {
    let source = """
      import CoreData
      class Note: NSManagedObject {
        @NSManaged var title: String?
      }
      final class Loader {
        let container = NSPersistentContainer(name: "Notes")
        var items: [Note] = []
        var titles: [String] = []
        func load() {
          let context = container.newBackgroundContext()
          items = (try? context.fetch(NSFetchRequest<Note>(entityName: "Note"))) ?? []
        }
        func show(_ notes: [Note]) {
          titles = notes.compactMap { $0.title }
        }
      }
      """
    // It was stood in: "No violations." where the app traps at the fetch.
    let (_, fetched) = try Self.draft(source, calls: ["Loader().load()"])
    #expect(fetched.violations.first?.kind == .wrongQueueContext)
    #expect(fetched.violations.first?.labels.first == "App.swift:11")
  }

  @Test(
    "A closure written in one type and run by another's method sees its own names, and its lines are labelled in its file"
  )
  func closureRunByAnotherType() throws {
    let storage = """
      import CoreData
      final class Storage {
        static let shared = Storage()
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        let container = NSPersistentContainer(name: "Model")
        func performBackgroundTask(_ block: @escaping (NSManagedObjectContext) -> Void) {
          container.performBackgroundTask(block)
        }
      }
      """
    func queries(_ body: String) -> String {
      """
      import CoreData
      final class Queries {
        private let storage: Storage
        let context: NSManagedObjectContext
        init(storage: Storage = Storage.shared, context: NSManagedObjectContext) {
          self.storage = storage
          self.context = context
        }
        func save() {
          storage.performBackgroundTask { [weak self] context in
            guard let self = self else { return }
            \(body)
          }
        }
        private func cleanUp(in context: NSManagedObjectContext) {
          context.reset()
        }
      }
      """
    }
    func drafted(_ body: String) throws -> (Draft, Trace) {
      let draft = Draft(
        [
          .init(name: "Storage.swift", text: storage),
          .init(name: "Queries.swift", text: queries(body)),
        ],
        options: .init(calls: ["Queries(context: container.viewContext).save()"]))
      let scenario = try ScenarioDecoder.decode(Array(draft.json.utf8), file: "draft")
      return (draft, run(scenario, stopAtFirst: true))
    }
    // The helper is handed the block's own context, not Queries' (or Storage's) property.
    let (fine, clean) = try drafted("self.cleanUp(in: context)")
    #expect(fine.unmodelled.isEmpty, "\(fine.unmodelled)")
    #expect(clean.violations.isEmpty)
    // `self.context` in the block is Queries' context, on main: the reset traps, and the
    // line is Queries.swift's.
    let (_, buggy) = try drafted("self.cleanUp(in: self.context)")
    #expect(buggy.violations.first?.kind == .wrongQueueContext)
    #expect(buggy.violations.first?.labels.first == "Queries.swift:16")
  }

  @Test(
    "A storage as the clean-architecture sample writes it: Xcode's generated attributes, lists handed inout and narrowed, a related object's method"
  )
  func generatedEntitiesAndLists() throws {
    let source = """
      import CoreData
      struct Query { let text: String }
      extension QueryEntity {
        convenience init(query: Query, insertInto context: NSManagedObjectContext) {
          self.init(context: context)
          text = query.text
        }
        func toDomain() -> Query { .init(text: text ?? "") }
      }
      final class Storage {
        let container: NSPersistentContainer
        init(container: NSPersistentContainer) { self.container = container }
        func save(query: Query) {
          let context = container.viewContext
          var result = (try? context.fetch(QueryEntity.fetchRequest())) ?? []
          removeDuplicates(of: query, in: &result, context: context)
          _ = QueryEntity(query: query, insertInto: context)
          let recent = result.map { $0.toDomain() }
          print(recent)
          let first = result.first
          _ = first?.owner?.toDomain()
        }
        private func removeDuplicates(of query: Query, in queries: inout [QueryEntity], context: NSManagedObjectContext) {
          queries.filter { $0.text == query.text }.forEach { context.delete($0) }
          queries.suffix(2).forEach { context.delete($0) }
          queries.removeAll { $0.text == query.text }
        }
      }
      """
    let model = try JSONReader.read(
      Array(
        #"{"QueryEntity": {"attributes": {"text": "string"}, "relationships": {"owner": {"to": "QueryEntity"}}}}"#
          .utf8))
    let draft = Draft(
      [.init(name: "App.swift", text: source)],
      options: .init(calls: ["Storage(container: c).save(query: q)"], model: model))
    let json = draft.json.filter { !$0.isWhitespace }
    // `text = …` in the generated class's initialiser is the new object's attribute.
    #expect(json.contains(#""set":"queryEntity.text""#))
    // The list handed `inout`, narrowed and chained, is the fetched objects.
    #expect(json.contains(#""forEach":"$_filter","as":"element","do":[{"delete":"element""#))
    #expect(json.contains(#""forEach":"$_suffix","as":"element","do":[{"delete":"element""#))
    // The related object read, then its method run on it.
    #expect(json.contains(#""get":"first.owner","as":"_owner""#))
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    // On the main thread with the main queue's context: clean.
    let trace = run(
      try ScenarioDecoder.decode(Array(draft.json.utf8), file: "draft"), stopAtFirst: true)
    #expect(trace.violations.isEmpty && !trace.isUnmodelled)
  }

  @Test(
    "A storage behind a protocol, defaulted in the init: its setters run, a set on what a method gives, a cast on the next line"
  )
  func settersAndDefaults() throws {
    let source = """
      import CoreData
      protocol PromptStorage { var lastShown: Date? { get set } }
      final class Prompt {
        var storage: PromptStorage
        init(storage: PromptStorage = CoreDataPromptStorage()) { self.storage = storage }
        func shown(on date: Date) {
          typealias Stamp = (date: Date, day: Int)
          storage.lastShown = date
        }
      }
      final class CoreDataPromptStorage: PromptStorage {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        var lastShown: Date? {
          get { entity()?.lastShown }
          set(shownOn) {
            entity()?.lastShown = shownOn
            try? context.save()
          }
        }
        func entity() -> PromptEntity? {
          guard let made = NSEntityDescription.insertNewObject(forEntityName: "PromptEntity", into: context)
            as? PromptEntity else { return nil }
          return made
        }
      }
      """
    let (draft, trace) = try Self.draft(source, calls: ["Prompt().shown(on: Date())"])
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    let json = draft.json.filter { !$0.isWhitespace }
    #expect(json.contains(#""insert":"PromptEntity""#))
    // The object the method gave is the one set (its own name for it).
    #expect(json.contains(#""set":"made.lastShown","to":"$shownOn""#))
    // The private context, touched from main by the setter: the insert traps.
    #expect(trace.violations.first?.kind == .wrongQueueContext)
    #expect(trace.violations.first?.labels.first == "App.swift:21")
  }

  @Test(
    "A context a store behind a protocol makes by its type; a static request of Self; a fetch of dictionaries"
  )
  func storeMadeContext() throws {
    let source = """
      import CoreData
      protocol Store { func makeContext(concurrencyType: NSManagedObjectContextConcurrencyType) -> NSManagedObjectContext }
      final class Search {
        let store: Store
        init(store: Store) { self.store = store }
        func titles() {
          let context = store.makeContext(concurrencyType: .privateQueueConcurrencyType)
          let request = Self.request()
          _ = try? context.fetch(request)
        }
        static func request() -> NSFetchRequest<NSFetchRequestResult> {
          let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Bookmark")
          request.resultType = .dictionaryResultType
          request.propertiesToFetch = ["title"]
          return request
        }
      }
      """
    let (draft, trace) = try Self.draft(source, calls: ["Search(store: s).titles()"])
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    let json = draft.json.filter { !$0.isWhitespace }
    #expect(json.contains(#""newContext":"context","queue":"private""#))
    // Dictionaries, no objects: the context is touched as a count touches it.
    #expect(json.contains(#""count":"Bookmark","in":"context""#))
    #expect(trace.violations.first?.kind == .wrongQueueContext)
    #expect(trace.violations.first?.labels.first == "App.swift:9")
  }

  @Test("Only the types a call can reach are made: another type's initialiser is not the run's")
  func reachableTypesOnly() throws {
    let notes = """
      import CoreData
      protocol Saving { func save() }
      final class Notes: Saving {
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        func save() { try? context.save() }
      }
      final class Screen {
        let saver: Saving = Notes()
        func tap() { saver.save() }
      }
      """
    let other = """
      import CoreData
      final class Analytics {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        init() { Tracker.configure(context) }
        func flush() { try? context.save() }
      }
      """
    let draft = Draft(
      [.init(name: "Notes.swift", text: notes), .init(name: "Analytics.swift", text: other)],
      options: .init(calls: ["Screen().tap()"]))
    // Analytics is named by no file the call reaches: its initialiser's unresolved line is
    // not this run's. Notes is reached through the protocol Screen names.
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    #expect(draft.json.contains(#""save": "context""#))
    let reaching = Draft(
      [.init(name: "Notes.swift", text: notes), .init(name: "Analytics.swift", text: other)],
      options: .init(calls: ["Analytics().flush()"]))
    #expect(reaching.unmodelled.map(\.place) == ["Analytics.swift:4:12"])
  }

  @Test("A relationship declared both ways is one pair: each is the other's inverse")
  func inferredInverse() throws {
    var model = InferredModel()
    model.add(key: "session", to: "Metric", type: nil, destination: "Session")
    model.add(key: "metrics", to: "Session", type: nil, destination: "Metric", many: true)
    model.add(key: "owner", to: "Metric", type: nil, destination: "User")
    let json = JSONWriter.write(try #require(model.json)).filter { !$0.isWhitespace }
    #expect(json.contains(#""session":{"to":"Session","inverse":"metrics"}"#))
    #expect(json.contains(#""metrics":{"to":"Metric","many":true,"inverse":"session"}"#))
    // Declared one way only: no inverse is guessed.
    #expect(json.contains(#""owner":{"to":"User"}"#))
  }

  @Test("Commands: a variadic list of the app's instances, a nested type, a stored closure")
  func commands() throws {
    let source = """
      import CoreData
      protocol Command { func execute(in context: NSManagedObjectContext) throws }
      enum Entry {
        struct Add: Command {
          let title: String
          func execute(in context: NSManagedObjectContext) throws {
            let note = Note(context: context)
            note.title = title
          }
        }
      }
      struct Wipe: Command {
        func execute(in context: NSManagedObjectContext) throws { context.reset() }
      }
      final class Runner {
        let container: NSPersistentContainer
        let done: () -> Void
        init(container: NSPersistentContainer, done: @escaping () -> Void) {
          self.container = container
          self.done = done
        }
        func run(_ commands: any Command...) {
          let context = container.newBackgroundContext()
          for command in commands {
            try? command.execute(in: context)
          }
          let done = self.done
          done()
        }
      }
      """
    let (draft, trace) = try Self.draft(
      source,
      calls: [
        "let r = Runner(container: c, done: { print(\"done\") })",
        "r.run(Entry.Add(title: \"a\"), Wipe())",
      ])
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    let json = draft.json.filter { !$0.isWhitespace }
    // The loop's body once for each command, in order: the insert, then the reset.
    let insert = try #require(json.range(of: #""insert":"Note""#))
    let reset = try #require(json.range(of: #""reset":"context""#))
    #expect(insert.lowerBound < reset.lowerBound)
    // Both touch the background context from main, outside perform.
    #expect(trace.violations.first?.kind == .wrongQueueContext)
    #expect(trace.violations.first?.labels.first == "App.swift:7")
  }

  @Test("MagicalRecord's contexts: the root saving context, and a child made of it")
  func magicalRecordContexts() throws {
    let source = """
      import CoreData
      final class Importer {
        func run() {
          let root = NSManagedObjectContext.mr_rootSaving()
          let local = NSManagedObjectContext.mr_context(withParent: root)
          autoreleasepool {
            let note = Note(context: local)
          }
          try? local.save()
        }
      }
      """
    let (draft, trace) = try Self.draft(source, calls: ["Importer().run()"])
    let json = draft.json.filter { !$0.isWhitespace }
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    #expect(json.contains(#""contexts":{"rootSavingContext":{"queue":"private"}}"#))
    #expect(json.contains(#""newContext":"local","queue":"private","parent":"rootSavingContext""#))
    // The insert inside the pool, and the save, are off the private context's queue.
    #expect(trace.violations.first?.kind == .wrongQueueContext)
    #expect(trace.violations.first?.labels.first == "App.swift:7")
  }

  @Test(
    "MagicalRecord's mr_deleteEntity(in:) deletes the object as that context has it; mr_setWorkingName touches the context"
  )
  func magicalRecordDeleteAndName() throws {
    let source = """
      import CoreData
      class Note: NSManagedObject {
        @NSManaged var title: String?
      }
      final class Cleaner {
        func run(_ note: Note) {
          let local = NSManagedObjectContext.mr_newPrivateQueue()
          local.mr_setWorkingName("cleaner")
          note.mr_deleteEntity(in: local)
        }
      }
      """
    let (draft, trace) = try Self.draft(source, calls: ["Cleaner().run(note)"])
    let json = draft.json.filter { !$0.isWhitespace }
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    #expect(json.contains(#""existingObject":"$_noteID","in":"local","as":"_noteInlocal""#))
    #expect(json.contains(#""delete":"_noteInlocal""#))
    // Named from main, off the private context's queue: the first trap.
    #expect(trace.violations.first?.kind == .wrongQueueContext)
    #expect(trace.violations.first?.labels.first == "App.swift:8")
  }

  @Test("An if inside an if: the inner steps run only when both conditions hold")
  func nestedConditions() throws {
    let source = """
      import CoreData
      final class Store {
        let container = NSPersistentContainer(name: "Model")
        func clear() {
          let context = container.viewContext
          let background = container.newBackgroundContext()
          if let note = try? context.fetch(Note.fetchRequest()).first, let title = note.title {
            if title == "keep" {
              print("kept")
            } else {
              background.reset()
            }
          }
        }
      }
      """
    let (draft, trace) = try Self.draft(source, calls: ["Store().clear()"])
    #expect(draft.unmodelled.isEmpty)
    #expect(
      draft.json.filter { !$0.isWhitespace }.contains(
        #""when":[{"value":"title","notEquals":"keep"},{"value":"title","notEquals":null}]"#))
    // The stored note has a title, so the reset runs, off background's queue.
    #expect(trace.violations.first?.kind == .wrongQueueContext)
    #expect(trace.violations.first?.labels.first == "App.swift:11")
  }

  @Test("A protocol extension's method is the adopting class's, with the instance as self")
  func protocolExtension() throws {
    let source = """
      import CoreData
      protocol Persisting {}
      extension Persisting {
        func persist(_ context: NSManagedObjectContext) { try? context.save() }
      }
      final class Logger: Persisting {
        let container: NSPersistentContainer
        init(container: NSPersistentContainer) { self.container = container }
        func log() {
          let background = container.newBackgroundContext()
          persist(background)
        }
      }
      """
    let (draft, trace) = try Self.draft(source, calls: ["Logger(container: c).log()"])
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    #expect(trace.violations.first?.kind == .wrongQueueContext)
    #expect(trace.violations.first?.labels.first == "App.swift:4")
  }

  @Test("A catch that only logs is the format's plain try: the error is reported")
  func catchThatOnlyLogs() throws {
    let source = """
      import CoreData
      final class Writers {
        let container: NSPersistentContainer
        init(container: NSPersistentContainer) { self.container = container }
        func race() {
          let one = container.newBackgroundContext()
          let two = container.newBackgroundContext()
          two.performAndWait {
            let b = try? two.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note")).first
            b?.setValue("second", forKey: "title")
          }
          one.performAndWait {
            let a = try? one.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note")).first
            a?.setValue("first", forKey: "title")
            try? one.save()
          }
          two.performAndWait {
            do {
              try two.save()
            } catch {
              NSLog("Could not save")
            }
          }
        }
      }
      """
    let (draft, trace) = try Self.draft(source, calls: ["Writers(container: c).race()"])
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    #expect(!draft.json.contains(#""catch""#))
    #expect(trace.violations.first?.kind == .mergeConflict)
    #expect(trace.violations.first?.labels.first == "App.swift:19")
  }

  @Test("performAndWaitThrowing: a wrapper's `result = try block()` runs the caller's closure")
  func throwingWrapper() throws {
    let source = """
      import CoreData
      extension NSManagedObjectContext {
        func performAndWaitThrowing<T>(_ block: () throws -> T) throws -> T {
          var result: T!
          var thrownError: Error?
          performAndWait {
            do {
              result = try block()
            } catch {
              thrownError = error
            }
          }
          if let thrownError = thrownError { throw thrownError }
          return result
        }
      }
      final class Repository {
        let background: NSManagedObjectContext
        init(container: NSPersistentContainer) { background = container.newBackgroundContext() }
        func count() throws -> Int {
          try background.performAndWaitThrowing {
            try background.count(for: NSFetchRequest<NSManagedObject>(entityName: "Report"))
          }
        }
        func countUnwrapped() throws -> Int {
          try background.count(for: NSFetchRequest<NSManagedObject>(entityName: "Report"))
        }
      }
      """
    let (wrapped, clean) = try Self.draft(
      source, calls: ["_ = try Repository(container: c).count()"])
    #expect(wrapped.json.contains(#""performAndWait": "background""#))
    #expect(clean.violations.isEmpty)
    #expect(!clean.isUnmodelled)
    let (_, trapped) = try Self.draft(
      source, calls: ["_ = try Repository(container: c).countUnwrapped()"])
    #expect(trapped.violations.first?.kind == .wrongQueueContext)
  }

  @Test("In an entity's method a bare property is the object's; two types' ids never share")
  func entityPropertiesAndSharedNames() throws {
    let source = """
      import CoreData
      struct Contact { var id: String; var name: String }
      final class Cache { let container: NSPersistentContainer; var id: String? = nil }
      final class Other { let container: NSPersistentContainer; var id: String? = nil }
      final class ContactData: NSManagedObject {
        @NSManaged var id: String?
        @NSManaged var name: String?
        func configure(with contact: Contact) {
          id = contact.id
          self.name = contact.name
        }
      }
      """
    let (draft, trace) = try Self.draft(
      source,
      calls: ["DispatchQueue.global().async { contactData.configure(with: contact) }"])
    let json = draft.json.filter { !$0.isWhitespace }
    #expect(json.contains(#""set":"contactData.id""#))
    #expect(json.contains(#""set":"contactData.name""#))
    #expect(!json.contains(#""write":"id""#))
    // `Cache.id` is the shared var `id`; `Other.id`, made after it, `otherId`.
    var drafter = Drafter(files: [SwiftParser.parse(source, name: "App.swift")], options: .init())
    for name in ["Cache", "Other"] {
      _ = drafter.draftInstance(of: try #require(drafter.types[name]))
    }
    #expect(drafter.sharedVars.map(\.0) == ["id", "otherId"])
    // The screen's object, set from a background queue.
    #expect(trace.violations.first?.kind == .wrongQueueObject)
    #expect(trace.violations.first?.labels.first == "App.swift:9")
    #expect(draft.unmodelled.isEmpty)
  }

  @Test("A subclass of NSPersistentContainer is the container; its bare viewContext is its own")
  func containerSubclass() throws {
    let source = """
      import CoreData
      final class AppContainer: NSPersistentContainer {
        func saveContext(backgroundContext: NSManagedObjectContext? = nil) {
          let context = backgroundContext ?? viewContext
          guard context.hasChanges else { return }
          try? context.save()
        }
      }
      """
    let (draft, trace) = try Self.draft(
      source, calls: ["DispatchQueue.global().async { appContainer.saveContext() }"])
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    #expect(trace.violations.first?.kind == .wrongQueueContext)
    #expect(trace.violations.first?.labels.first == "App.swift:5")
  }

  @Test("In a view, what UIKit gives it is passed over; a call set on it still runs")
  func inheritedInterface() throws {
    let source = """
      import CoreData
      import UIKit
      final class NoteCell: UICollectionViewCell {
        let container: NSPersistentContainer
        init(container: NSPersistentContainer) { self.container = container }
        func show() {
          backgroundColor = UIColor.white
          contentView.addSubview(UIView())
          addGestureRecognizer(UITapGestureRecognizer())
          self.accessibilityValue = summary()
        }
        func summary() -> String {
          let count = try? container.viewContext.count(for: NSFetchRequest<NSManagedObject>(entityName: "Note"))
          return "\\(count ?? 0)"
        }
      }
      """
    let (draft, trace) = try Self.draft(source, calls: ["NoteCell(container: c).show()"])
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    #expect(draft.json.contains(#""count": "Note""#))
    #expect(trace.violations.isEmpty)
  }

  @Test("A Swift 2 stack built by hand: its setup, result enum, completion alias and switch")
  func handBuiltStack() throws {
    let source = """
      import CoreData
      public enum StackResult { case Success(Stack); case Failure(NSError) }
      public typealias StackClosure = (result: StackResult) -> Void
      public final class Stack {
        let main: NSManagedObjectContext
        init(main: NSManagedObjectContext) { self.main = main }
      }
      public final class Factory {
        let model: NSManagedObjectModel
        init(model: NSManagedObjectModel) { self.model = model }
        func create(onQueue queue: dispatch_queue_t? = dispatch_get_global_queue(QOS_CLASS_USER_INITIATED, 0),
                    completion: StackClosure) {
          let work = {
            assert(!NSThread.isMainThread(), "not on main")
            let coordinator: NSPersistentStoreCoordinator
            do {
              coordinator = try self.makeCoordinator()
            } catch {
              completion(result: .Failure(error as NSError))
              return
            }
            let main = NSManagedObjectContext(concurrencyType: .MainQueueConcurrencyType)
            main.persistentStoreCoordinator = coordinator
            completion(result: .Success(Stack(main: main)))
          }
          if let queue = queue {
            dispatch_async(queue, work)
          } else {
            work()
          }
        }
        private func makeCoordinator() throws -> NSPersistentStoreCoordinator {
          let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
          try coordinator.addPersistentStoreWithType(NSSQLiteStoreType, configuration: nil, URL: nil, options: nil)
          return coordinator
        }
      }
      final class Screen {
        let factory: Factory
        init(factory: Factory) { self.factory = factory }
        func load() {
          factory.create { (result: StackResult) -> Void in
            switch result {
            case .Success(let stack):
              _ = try? stack.main.countForFetchRequest(NSFetchRequest(entityName: "Company"))
            case .Failure(let error):
              assertionFailure("\\(error)")
            }
          }
        }
      }
      """
    let (draft, trace) = try Self.draft(source, calls: ["Screen(factory: f).load()"])
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    // The completion runs on the global queue that made the stack: the main context's
    // count there traps.
    #expect(trace.violations.first?.kind == .wrongQueueContext)
    #expect(trace.violations.first?.labels.first == "App.swift:45")
  }

  @Test("Overloads are told apart by their argument labels")
  func overloads() throws {
    let source = """
      import CoreData
      final class Loader {
        let container: NSPersistentContainer
        init(container: NSPersistentContainer) { self.container = container }
        func load(initial: Bool) {
          load(initial: initial, context: container.newBackgroundContext())
        }
        func load(initial: Bool, context: NSManagedObjectContext) {
          context.perform { _ = try? context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Item")) }
        }
      }
      """
    let (draft, trace) = try Self.draft(
      source, calls: ["Loader(container: container).load(initial: true)"])
    #expect(draft.unmodelled.isEmpty)
    #expect(draft.json.contains(#""perform""#))
    #expect(trace.violations.isEmpty)
  }

  @Test("One --call's names are the next one's; a free receiver named for an entity is stood in")
  func callsShareNames() throws {
    let source = """
      import CoreData
      final class Note: NSManagedObject {
        @NSManaged var title: String?
        func rename() { title = "renamed" }
      }
      final class Saver {
        let context: NSManagedObjectContext
        init(container: NSPersistentContainer) { context = container.newBackgroundContext() }
        func save() { context.perform { try? self.context.save() } }
      }
      """
    let (draft, trace) = try Self.draft(
      source, calls: ["let saver = Saver(container: container)", "saver.save()", "note.rename()"])
    #expect(draft.unmodelled.isEmpty)
    #expect(draft.json.contains(#""fetch": "Note""#))  // the screen's note, in viewContext
    #expect(trace.violations.isEmpty)
  }
}

/// What the draft could not model never stops it running, and never hides a touch.
@Suite("Drafts that run past what they could not model")
struct UnmodelledContextTests {
  @Test("A context made by lines not modelled is a private one, and the run is never clean")
  func contextMadeByLinesNotModelled() throws {
    let source = """
      import CoreData
      final class Repository {
        let store: NSManagedObjectContext
        init(container: NSPersistentContainer, kind: Kind) {
          switch kind {
          case .main: store = container.viewContext
          case .background: store = container.newBackgroundContext()
          }
        }
        func count() {
          store.performAndWait { _ = try? store.save() }
        }
        private func renew(container: NSPersistentContainer) {
          store = container.newBackgroundContext()
        }
      }
      """
    let draft = Draft(
      [.init(name: "Repository.swift", text: source)],
      options: .init(calls: ["repository.count()"]))
    let scenario = try ScenarioDecoder.decode(Array(draft.json.utf8), file: "draft")
    #expect(
      draft.summary.contains("store: made by lines not modelled, taken as a private-queue context"))
    #expect(
      draft.unmodelled.contains { $0.why == "uses store, made by lines ctxsim could not model" })
    let trace = run(scenario)
    #expect(trace.violations.isEmpty)
    #expect(trace.isUnmodelled)
  }

  @Test("A checked getter with no step of its own (userInfo) is still a touch of the context")
  func userInfoTouch() throws {
    let source = """
      import CoreData
      final class Store {
        let background: NSManagedObjectContext
        init(container: NSPersistentContainer) { background = container.newBackgroundContext() }
        func tag() {
          background.userInfo["owner"] = Owner(store: self)
        }
        func tagSafely() {
          background.performAndWait { background.userInfo["owner"] = Owner(store: self) }
        }
      }
      """
    let draft = Draft(
      [.init(name: "Store.swift", text: source)], options: .init(calls: ["store.tag()"]))
    let trace = run(
      try ScenarioDecoder.decode(Array(draft.json.utf8), file: "draft"), stopAtFirst: true)
    #expect(trace.violations.first?.kind == .wrongQueueContext)
    #expect(trace.violations.first?.labels.first == "Store.swift:6")
    let safe = Draft(
      [.init(name: "Store.swift", text: source)], options: .init(calls: ["store.tagSafely()"]))
    let safeTrace = run(try ScenarioDecoder.decode(Array(safe.json.utf8), file: "draft"))
    #expect(safeTrace.violations.isEmpty)
    #expect(safeTrace.isUnmodelled)  // what the line stores is still not modelled
  }

  @Test("A context guessed from its name is a guess: the run goes on, and is never clean")
  func guessedContext() throws {
    let source = """
      import CoreData
      final class Repository {
        let backgroundContext: NSManagedObjectContext
        init(factory: ContextFactory) { backgroundContext = factory.makeBackgroundContext() }
        func save() { backgroundContext.perform { try? self.backgroundContext.save() } }
      }
      """
    let draft = Draft(
      [.init(name: "Repository.swift", text: source)], options: .init(calls: ["repository.save()"]))
    let trace = run(try ScenarioDecoder.decode(Array(draft.json.utf8), file: "draft"))
    #expect(trace.violations.isEmpty)
    #expect(trace.isUnmodelled)
    #expect(
      draft.unmodelled.map(\.why) == ["made by code not read: taken as a new private context"])
  }

  @Test("A context's method the draft cannot read still touches the context, and traps off-queue")
  func touchOfAMethodNotModelled() throws {
    let source = """
      import CoreData
      final class Repository {
        let context: NSManagedObjectContext
        init(container: NSPersistentContainer) { context = container.newBackgroundContext() }
        func items(matching filter: Filter) -> [NSManagedObject] {
          return (try? context.fetch(filter.request())) ?? []
        }
      }
      """
    let draft = Draft(
      [.init(name: "Repository.swift", text: source)],
      options: .init(calls: ["_ = Repository(container: container).items(matching: filter)"]))
    let trace = run(
      try ScenarioDecoder.decode(Array(draft.json.utf8), file: "draft"), stopAtFirst: true)
    let trap = try #require(trace.violations.first)
    #expect(trap.kind == .wrongQueueContext)
    #expect(trap.labels.first == "Repository.swift:6")
    #expect(!draft.unmodelled.isEmpty)
  }
}

@Suite("do and catch around several throwing calls")
struct DoCatchDraftTests {
  static let source = """
    import CoreData
    final class Store {
      let container: NSPersistentContainer
      init(container: NSPersistentContainer) { self.container = container }
      func tidy() {
        let context = container.viewContext
        do {
          try context.save()
          let count = try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Note"))
          print(count)
        } catch {
          print("failed: \\(error)")
        }
      }
    }
    """

  @Test("Each call gets the handler; a run where none throws is exact, and clean")
  func noneThrows() throws {
    let draft = Draft(
      [.init(name: "Store.swift", text: Self.source)], options: .init(calls: ["store.tidy()"]))
    #expect(draft.json.components(separatedBy: #""catch": ["#).count - 1 == 2)
    let trace = run(try ScenarioDecoder.decode(Array(draft.json.utf8), file: "draft"))
    #expect(trace.violations.isEmpty)
    #expect(!trace.isUnmodelled)
  }

  @Test("An early call that throws passes a line not modelled: the skipped rest is not followed")
  func earlyCallThrows() throws {
    let draft = Draft(
      [.init(name: "Store.swift", text: Self.source)], options: .init(calls: ["store.tidy()"]))
    #expect(
      draft.unmodelled.map(\.why) == [
        "after this error the rest of the `do` block is skipped, which ctxsim does not model"
      ])
    #expect(draft.unmodelled.first?.place == "Store.swift:7:5")
  }

  @Test(
    "An extension in another file, on the line its type is declared on in its own, adds its methods"
  )
  func extensionOnTheSameLine() throws {
    let type = "import CoreData\nstruct Identity {\n  let install: UUID\n}\n"
    let table = """
      import CoreData
      extension Identity {
        func leave(_ context: NSManagedObjectContext) {
          _ = context.hasChanges
        }
      }
      """
    let sources = [
      Draft.Source(name: "Identity.swift", text: type),
      Draft.Source(name: "Identity+Table.swift", text: table),
    ]
    let calls = [
      "let identity = Identity(install: UUID())",
      "identity.leave(NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType))",
    ]
    let draft = Draft(sources, options: .init(calls: calls))
    #expect(draft.unmodelled.isEmpty)
    let trace = run(try ScenarioDecoder.decode(Array(draft.json.utf8), file: "draft"))
    #expect(trace.violations.first?.labels.first == "Identity+Table.swift:4")
  }

  @Test(
    "A value a queue's sync block returns, and an object a context's extension finds, are bound")
  func syncValueAndExtensionResult() throws {
    let source = """
      import CoreData
      class Folder: NSManagedObject {
        @NSManaged var name: String?
      }
      class Note: NSManagedObject {
        @NSManaged var folder: Folder?
      }
      extension NSManagedObjectContext {
        func anyFolder() -> Folder? {
          let request = NSFetchRequest<Folder>(entityName: "Folder")
          return try? fetch(request).first
        }
      }
      final class Box {
        private let queue = DispatchQueue(label: "box")
        private var raw = 0
        var current: Int { queue.sync { raw } }
      }
      class Filer {
        let box = Box()
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        func file(_ note: Note) {
          let count = box.current
          print(count)
          context.performAndWait {
            note.folder = context.anyFolder()
          }
        }
      }
      """
    let draft = Draft(
      [.init(name: "Filer.swift", text: source)], options: .init(calls: ["Filer().file(n)"]))
    #expect(draft.unmodelled.isEmpty)
    #expect(draft.json.contains(#""sync": "queue""#))
    #expect(draft.json.contains(#""fetch": "Folder""#))
  }

  @Test("A generic DAO made with a translator subclass: its entity from the superclass clause")
  func inferredTypeArguments() throws {
    let source = """
      import CoreData
      class CDEntity: NSManagedObject {
        @NSManaged var entryId: String
      }
      open class Translator<CDModel: NSManagedObject, Model> {
        open var entryClassName: String {
          return NSStringFromClass(CDModel.self).components(separatedBy: ".").last!
        }
        required public init() { }
      }
      class CDEntityTranslator: Translator<CDEntity, String> {
        required init() { }
      }
      open class DAO<CDModel: NSManagedObject, Model> {
        private var translator: Translator<CDModel, Model>
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        public init(_ translator: Translator<CDModel, Model>) { self.translator = translator }
        private func request(_ id: String) -> NSFetchRequest<CDModel> {
          return NSFetchRequest<CDModel>(entityName: translator.entryClassName)
        }
        private func entries(_ id: String) -> [CDModel] {
          if let found = try? context.fetch(request(id)) {
            return found
          } else {
            return [CDModel]()
          }
        }
        func touch(_ id: String) {
          context.performAndWait {
            entries(id).forEach { $0.entryId = id }
          }
        }
        func create() {
          _ = NSEntityDescription.insertNewObject(
            forEntityName: translator.entryClassName, into: context)
        }
      }
      """
    let sources = [Draft.Source(name: "DAO.swift", text: source)]
    let made = "let dao = DAO(CDEntityTranslator())"
    let clean = Draft.paths(sources, options: .init(calls: [made, #"dao.touch("x")"#]))
    for draft in clean.drafts {
      #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
      #expect(draft.json.filter { !$0.isWhitespace }.contains(#""fetch":"CDEntity""#))
      let trace = run(try ScenarioDecoder.decode(Array(draft.json.utf8), file: "draft"))
      #expect(trace.violations.isEmpty && !trace.isUnmodelled)
    }
    // The insert outside the context's queue is the entity the translator names, trapped.
    let trace = try AppTypeDraftTests.trace(sources, calls: [made, "dao.create()"])
    #expect(trace.violations.first?.kind == .wrongQueueContext)
    #expect(!trace.isUnmodelled)
  }
}
