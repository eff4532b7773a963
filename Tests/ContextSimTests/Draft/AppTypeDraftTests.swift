import Foundation
import Testing

@testable import ContextSim

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
}
