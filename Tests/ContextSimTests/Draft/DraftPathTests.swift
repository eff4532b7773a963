import Foundation
import Testing

@testable import ContextSimCore
@testable import ContextSimDraft

/// Control flow real apps write around Core Data: conditions on values ctxsim cannot decide,
/// drafted every way as paths; a `return` inside an `if`; a computed property's getter; an
/// entity's class method from an extension; `@NSManaged` relationships to classes generated
/// elsewhere; keys of an app's key enum; `asyncAfter`.
@Suite("Drafting paths through what the app decides")
struct DraftPathTests {
  static func source(_ body: String, members: String = "") -> String {
    """
    import CoreData
    class Note: NSManagedObject {
      @NSManaged var title: String?
      @NSManaged var folder: Folder?
    }
    class Saver {
      let container: NSPersistentContainer
      let background = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
      \(members)
      func go(note: Note, options: [String]) {
        \(body)
      }
    }
    """
  }

  /// Every path of the draft, run to its first crash.
  static func runs(_ body: String, members: String = "") throws -> [(Draft, Trace)] {
    let sources = [Draft.Source(name: "Saver.swift", text: source(body, members: members))]
    return try Draft.paths(sources, options: .init(calls: ["go(note: n, options: o)"])).drafts
      .map { draft in
        let scenario = try ScenarioDecoder.decode(Array(draft.json.utf8), file: "draft")
        return (draft, run(scenario, stopAtFirst: true))
      }
  }

  @Test("A condition on values only is drafted both ways, and the bug on one way is found")
  func bothWays() throws {
    let body = """
      if options.contains("fast") {
        background.perform { note.title = "x" }
      } else {
        print("slow")
      }
      """
    let paths = try Self.runs(body)
    #expect(paths.count == 2)
    #expect(paths.allSatisfy { $0.0.unmodelled.isEmpty })
    #expect(paths.map { $0.0.decisions.map(\.holds) } == [[true], [false]])
    #expect(paths[0].1.violations.first?.kind == .wrongQueueObject)
    #expect(paths[1].1.violations.isEmpty && !paths[1].1.isUnmodelled)
    // Alone, a draft decides nothing: the condition stays a line not modelled.
    let alone = Draft(
      [.init(name: "Saver.swift", text: Self.source(body))],
      options: .init(calls: ["go(note: n, options: o)"]))
    #expect(alone.unmodelled.map(\.place) == ["Saver.swift:11:5"])
  }

  @Test("A guard on values only leaves on one path and goes on on the other")
  func guardBothWays() throws {
    let paths = try Self.runs(
      """
      guard FileManager.default.fileExists(atPath: "/tmp/db") else { return }
      let t = note.title
      background.performAndWait { print(t ?? "") }
      """)
    #expect(paths.count == 2)
    #expect(paths.map { $0.1.violations.isEmpty } == [true, true])
    // The read after the guard is on the path that goes on, not on the one that leaves.
    #expect(paths.map { $0.0.json.contains(#""get": "note.title""#) } == [true, false])
  }

  @Test("More paths than the limit leave the conditions past it not modelled")
  func pathLimit() throws {
    // Each branch reads the object: something the model sees, so each `if` is a path.
    let conditions = (1...5).map { "if options.contains(\"\($0)\") { print(note.title) }" }
    let sources = [
      Draft.Source(name: "Saver.swift", text: Self.source(conditions.joined(separator: "\n")))
    ]
    let (drafts, complete) = Draft.paths(
      sources, options: .init(calls: ["go(note: n, options: o)"]), limit: 16)
    #expect(!complete)
    #expect(drafts.count == 17)
    #expect(drafts.last?.decisions.isEmpty == true)
    #expect(drafts.last?.unmodelled.count == 5)
  }

  @Test("A return inside an if ends the method there: what follows runs only when it did not")
  func nestedReturn() throws {
    let members = """
      func allowed(_ note: Note) -> Bool {
          if let title = note.title {
            if title.isEmpty { return false }
          }
          return true
        }
      """
    let paths = try Self.runs(
      "if !allowed(note) { return }\nbackground.perform { note.title = \"y\" }", members: members)
    // The title's emptiness is a value ctxsim cannot decide: both ways, one path has the bug.
    #expect(paths.count == 2)
    #expect(paths.map { $0.1.violations.first?.kind } == [nil, .wrongQueueObject])
  }

  @Test("A computed property of an entity runs its getter; its object's context is a context")
  func entityGetter() throws {
    let note = """
      import CoreData
      class Note: NSManagedObject {
        @NSManaged var title: String?
        var isMine: Bool {
          get {
            guard let context = self.managedObjectContext else { return false }
            return (try? context.count(for: NSFetchRequest<Note>(entityName: "Note"))) ?? 0 > 0
          }
        }
      }
      class Screen {
        let container: NSPersistentContainer
        func tap(note: Note) {
          if !note.isMine { return }
          container.performBackgroundTask { _ in note.title = "x" }
        }
      }
      """
    let draft = Draft(
      [.init(name: "Note.swift", text: note)], options: .init(calls: ["tap(note: n)"]))
    #expect(draft.json.contains(#""get": "note.managedObjectContext""#))
    #expect(draft.json.contains(#""count": "Note""#))
  }

  @Test("An @NSManaged property of a class the files do not declare is a relationship")
  func generatedRelationship() throws {
    let draft = Draft(
      [.init(name: "Saver.swift", text: Self.source("let f = note.folder\nprint(f as Any)"))],
      options: .init(calls: ["go(note: n, options: o)"]))
    #expect(draft.json.filter { !$0.isWhitespace }.contains(#""folder":{"to":"Folder"}"#))
  }

  @Test("A class method of an NSManagedObject extension, on an entity, inserts it")
  func entityClassMethod() throws {
    let members = """
      func make() { _ = Item.create(in: background) }
      """
    let helper = """
      import CoreData
      extension NSManagedObject {
        class func create(in context: NSManagedObjectContext) -> Self {
          let object = self.init(entity: NSEntityDescription.entity(forEntityName: "Item", in: context)!, insertInto: context)
          return object
        }
      }
      """
    let sources = [
      Draft.Source(name: "Saver.swift", text: Self.source("", members: members)),
      Draft.Source(name: "Create.swift", text: helper),
    ]
    let draft = Draft(sources, options: .init(calls: ["make()"]))
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    let scenario = try ScenarioDecoder.decode(Array(draft.json.utf8), file: "draft")
    #expect(run(scenario, stopAtFirst: true).violations.first?.kind == .wrongQueueContext)
  }

  @Test("A fetch keyed by an app's key enum, by a value ctxsim does not know: a row, or none")
  func keyEnumAndUnknownValue() throws {
    let body = """
      background.performAndWait {
        let user = Note.mr_findFirst(byAttribute: NoteKey.title.key, withValue: UserDefaults.standard.string(forKey: "me") ?? "", in: background)
        print(user as Any)
      }
      """
    let paths = try Self.runs(body)
    #expect(paths.map { $0.0.decisions.map(\.holds) } == [[true], [false]])
    // The key the enum's case names is the model's; the row-or-none paths fetch by it.
    #expect(paths[0].0.json.filter { !$0.isWhitespace }.contains(#""Note":{"attributes":{"title""#))
    #expect(paths[1].0.json.contains(#""title": "no stored row""#))
    for (draft, trace) in paths {
      #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
      #expect(trace.violations.isEmpty && !trace.isUnmodelled)
    }
  }

  @Test("A while loop on values runs its body 0, 1 and 2 times; a third time is not modelled")
  func whileLoop() throws {
    let paths = try Self.runs(
      "var left = options\nwhile !left.isEmpty {\n _ = note.title\n left.removeFirst()\n}")
    #expect(
      paths.map { $0.0.decisions.map(\.holds) } == [
        [true, true, true], [false], [true, false], [true, true, false],
      ])
    #expect(paths.map { $0.0.unmodelled.count } == [1, 0, 0, 0])
    let reads = paths.map { $0.0.json.components(separatedBy: #""get": "note.title""#).count - 1 }
    #expect(reads == [2, 0, 1, 2])
    #expect(paths.allSatisfy { $0.1.violations.isEmpty })
  }

  @Test("A URLSession task's handler runs later on a background queue: the misuse shows")
  func urlSessionHandler() throws {
    let body = """
      URLSession.shared.dataTask(with: URL(string: "https://example.com")!) { data, _, _ in
        guard let data else { return }
        note.title = String(decoding: data, as: UTF8.self)
      }.resume()
      """
    let paths = try Self.runs(body)
    #expect(paths.count == 1)
    let (draft, trace) = try #require(paths.first)
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    #expect(draft.json.contains(#""async": "global""#))
    #expect(trace.violations.first?.kind == .wrongQueueObject)
  }

  @Test("A library's success and failure closures: each runs, on main and on a background queue")
  func libraryCallbacks() throws {
    let body = """
      api.get("notes", success: { response in
        note.title = "fetched"
      }, failure: { error in
        print(error)
      })
      """
    let paths = try Self.runs(body)
    // Success on main, failure on main, success on a background queue, failure there.
    #expect(
      paths.map { $0.0.decisions.map(\.holds) } == [
        [true, true], [false, true], [true, false], [false, false],
      ])
    let kinds = paths.map { $0.1.violations.first?.kind }
    #expect(kinds == [nil, nil, .wrongQueueObject, nil])
    #expect(paths.allSatisfy { $0.0.unmodelled.isEmpty })
  }

  @Test("A network library's shared client: getting it is passed over, its callbacks run")
  func networkClientCallbacks() throws {
    let body = """
      let manager = MageSessionManager.shared()
      let task = manager?.get_TASK("notes", parameters: nil, progress: nil, success: { task, response in
        note.title = "fetched"
      }, failure: { task, error in
        print(error)
      })
      manager?.addTask(task)
      """
    let paths = try Self.runs(body)
    #expect(paths.count == 4)
    #expect(paths.allSatisfy { $0.0.unmodelled.isEmpty })
    #expect(paths.map { $0.1.violations.first?.kind } == [nil, nil, .wrongQueueObject, nil])
  }

  @Test("A switch on a value ctxsim cannot decide: each case a path")
  func switchCases() throws {
    let body = """
      switch options.first {
      case "fast":
        background.perform { note.title = "x" }
      case let other?:
        print(other)
      default:
        break
      }
      """
    let paths = try Self.runs(body)
    #expect(paths.count == 3)
    #expect(paths.allSatisfy { $0.0.unmodelled.isEmpty })
    #expect(paths.map { $0.1.violations.first?.kind } == [.wrongQueueObject, nil, nil])
  }

  @Test("asyncAfter is a later async block on its queue")
  func asyncAfter() throws {
    let (draft, trace) = try #require(
      Self.runs("DispatchQueue.global().asyncAfter(deadline: .now() + 1) { _ = note.title }").first)
    #expect(draft.unmodelled.isEmpty)
    #expect(trace.violations.first?.kind == .wrongQueueObject)
  }

  @Test(
    "A fetch by a predicate ctxsim cannot read finds every row on one path and none on the next")
  func unreadPredicate() throws {
    let body = """
      let request = NSFetchRequest<Note>(entityName: "Note")
      request.predicate = NSPredicate(format: "title BEGINSWITH %@", options.first ?? "")
      background.performAndWait {
        let notes = (try? background.fetch(request)) ?? []
        for found in notes { found.title = "x" }
      }
      """
    let sources = [Draft.Source(name: "Saver.swift", text: Self.source(body))]
    let paths = try Draft.paths(sources, options: .init(calls: ["go(note: n, options: o)"])).drafts
    #expect(paths.count == 2)
    #expect(paths.allSatisfy { $0.unmodelled.isEmpty })
    #expect(paths.map { $0.json.contains("no stored row") } == [false, true])
    for draft in paths {
      let scenario = try ScenarioDecoder.decode(Array(draft.json.utf8), file: "draft")
      let trace = run(scenario)
      #expect(trace.violations.isEmpty && !trace.isUnmodelled)
    }
    // Alone, the draft keeps the fetch and says what it finds is not modelled.
    let alone = Draft(sources, options: .init(calls: ["go(note: n, options: o)"]))
    #expect(alone.unmodelled.map(\.place) == ["Saver.swift:14:3"])
  }

  @Test(
    "A throw leaves every caller that called with try, up to a catch or try?",
    arguments: [
      // The entry point ends: what follows the throwing call does not run.
      ("try load(options)\n _ = note.title", [nil, .wrongQueueObject] as [ViolationKind?]),
      // `try?` takes the error: what follows runs on both paths.
      ("try? load(options)\n _ = note.title", [.wrongQueueObject, .wrongQueueObject]),
      // The handler runs when the helper throws, and only then.
      ("do {\n try load(options)\n } catch {\n _ = note.title\n }", [.wrongQueueObject, nil]),
    ])
  func throwsToCaller(_ body: String, expected: [ViolationKind?]) throws {
    let members = """
      enum LoadError: Error { case missing }
        func load(_ options: [String]) throws {
          guard options.contains("ready") else { throw LoadError.missing }
          print("loaded")
        }
      """
    let paths = try Self.runs(
      "DispatchQueue.global().async {\n \(body)\n }", members: members)
    #expect(paths.allSatisfy { $0.0.unmodelled.isEmpty })
    // The first path takes the guard as holding (no throw), the second throws.
    #expect(paths.map { $0.1.violations.first?.kind } == expected.reversed())
  }

  @Test(
    "A batch delete by a predicate ctxsim cannot read deletes every row on one path, none on the next"
  )
  func unreadBatchPredicate() throws {
    let body = """
      let request = NSFetchRequest<NSFetchRequestResult>(entityName: Note.entity().name!)
      request.predicate = NSPredicate(format: "title BEGINSWITH %@", options.first ?? "")
      let delete = NSBatchDeleteRequest(fetchRequest: request)
      background.performAndWait { _ = try? background.execute(delete) }
      """
    let sources = [Draft.Source(name: "Saver.swift", text: Self.source(body))]
    let paths = try Draft.paths(sources, options: .init(calls: ["go(note: n, options: o)"])).drafts
    #expect(paths.count == 2)
    #expect(
      paths.allSatisfy { $0.unmodelled.isEmpty && $0.json.contains(#""batchDelete": "Note""#) })
    #expect(paths.map { $0.json.contains("no stored row") } == [false, true])
    let alone = Draft(sources, options: .init(calls: ["go(note: n, options: o)"]))
    #expect(alone.unmodelled.map(\.place) == ["Saver.swift:14:29"])  // at the execute
  }

  @Test("first(where:) finds an object on one path and none on the next: the upsert's insert runs")
  func firstWhereBothWays() throws {
    let body = """
      background.perform {
        let notes = (try? background.fetch(NSFetchRequest<Note>(entityName: "Note"))) ?? []
        if let existing = notes.first(where: { $0.title == "x" }) {
          existing.title = "y"
        } else {
          let made = Note(context: container.viewContext)
          made.title = "x"
        }
      }
      """
    let paths = try Self.runs(body, members: "")
    #expect(paths.count == 2)
    #expect(paths.allSatisfy { $0.0.unmodelled.isEmpty })
    // Found: the update, on the queue. None: the insert into viewContext, off main (the
    // block runs on the background context's own thread).
    #expect(paths.map { $0.1.violations.first?.kind } == [nil, .wrongQueueContext])
  }
}
