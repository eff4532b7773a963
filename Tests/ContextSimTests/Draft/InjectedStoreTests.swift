import Foundation
import Testing

@testable import ContextSimCore
@testable import ContextSimDraft

/// How SDKs and larger apps reach Core Data: a container made once by a static lazy
/// singleton, a provider injected behind a protocol, a `lazy var` store it makes, generic
/// helpers and constants in nested enums. Each is followed to the context it gives, so the
/// misuse at the end of the chain shows at its own line.
@Suite("Drafting stores injected behind protocols")
struct InjectedStoreTests {
  static let stack = """
    import CoreData
    enum Const {
      enum Entity {
        enum Task {
          static let name = "TaskObject"
        }
      }
    }
    class AppContainer: NSPersistentContainer {
      static var shared: AppContainer?
      static func initialize() -> AppContainer? {
        if shared == nil {
          shared = create()
        }
        return shared
      }
      private static func create() -> AppContainer? {
        let container = AppContainer(name: "Model")
        container.loadPersistentStores { _, _ in }
        return container
      }
    }
    struct Util {
      static func create<T: NSFetchRequestResult>(context: NSManagedObjectContext, entity: String) -> T? {
        NSEntityDescription.insertNewObject(forEntityName: entity, into: context) as? T
      }
    }
    protocol ContextProvider {
      func newBackgroundContext() -> Store
    }
    protocol Store {
      func add() throws
    }
    struct CoreDataProvider: ContextProvider {
      init?() {
        guard let container = AppContainer.initialize() else { return nil }
        self.container = container
      }
      func newBackgroundContext() -> Store {
        return CoreDataStore(context: container.newBackgroundContext())
      }
      private let container: AppContainer
    }
    struct CoreDataStore: Store {
      init(context: NSManagedObjectContext) { self.context = context }
      let context: NSManagedObjectContext
      func add() throws {
        let item: NSManagedObject? = Util.create(context: context, entity: Const.Entity.Task.name)
        print(item as Any)
      }
    }
    class Scheduler {
      init(provider: ContextProvider) { self.provider = provider }
      func schedule() {
        try? store.add()
      }
      private let provider: ContextProvider
      private lazy var store: Store = { provider.newBackgroundContext() }()
    }
    """

  static func drafted(_ call: String) throws -> (Draft, Trace) {
    let draft = Draft(
      [.init(name: "Stack.swift", text: stack)],
      options: .init(calls: ["let s = Scheduler(provider: CoreDataProvider()!); \(call)"]))
    let scenario = try ScenarioDecoder.decode(Array(draft.json.utf8), file: "draft")
    return (draft, run(scenario, stopAtFirst: true))
  }

  @Test("The provider, its store and the helper are followed to the background context")
  func chain() throws {
    let (draft, trace) = try Self.drafted("s.schedule()")
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    // The static singleton starts nil: its container is made, not a condition undecided.
    #expect(draft.decisions.isEmpty)
    let first = try #require(trace.violations.first)
    #expect(first.kind == .wrongQueueContext)
    #expect(first.labels.first?.hasPrefix("Stack.swift:25") == true)
    #expect(draft.json.contains(#""insert": "TaskObject""#))
  }

  @Test("A dependency's date is a stand-in; its context is never one, so its use is not clean")
  func dependencyReads() throws {
    let source = """
      import CoreData
      protocol DataStore {
        var viewContext: NSManagedObjectContext { get }
        var currentDate: Date { get }
      }
      class Screen {
        let store: DataStore
        func go() {
          let when = store.currentDate
          let context = store.viewContext
          context.reset()
          print(when)
        }
      }
      """
    let draft = Draft([.init(name: "Screen.swift", text: source)], options: .init(calls: ["go()"]))
    #expect(draft.json.contains("Stood in: a date for `store.currentDate`"))
    #expect(!draft.unmodelled.isEmpty)
    let scenario = try ScenarioDecoder.decode(Array(draft.json.utf8), file: "draft")
    #expect(run(scenario).isUnmodelled)
  }
}
