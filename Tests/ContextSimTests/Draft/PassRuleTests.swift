import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// The rules of docs/draft.md by which a line is passed over as having no Core Data effect:
/// each passes a line it names, and a line that looks alike but may touch Core Data is not
/// modelled.
@Suite("Lines passed over: only by a written rule")
struct PassRuleTests {
  /// A class with a context, a fetched note, a view and a logger, whose `work()` runs `line`.
  static func source(_ line: String) -> String {
    """
    final class Screen {
      let container: NSPersistentContainer
      let tableView: UITableView
      var count = 0
      func work(completion: @escaping () -> Void) {
        let context = container.viewContext
        let note = try? context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note")).first
        var names: [String] = []
        \(line)
      }
    }
    """
  }

  struct Case: CustomTestStringConvertible, Sendable {
    var line: String
    /// The rule that passes it over; nil when it must be a line not modelled.
    var rule: Drafter.PassRule?
    var testDescription: String { line }
  }

  static let cases: [Case] = [
    Case(line: #"print("saved")"#, rule: .logging),
    Case(line: #"NSLog("saved %d", count)"#, rule: .logging),
    Case(line: #"logger.info("saved \(names.count)")"#, rule: .logging),
    // The count is drafted as a step of its own, then the logging is passed over.
    Case(
      line: #"print(try context.count(for: NSFetchRequest(entityName: "Note")))"#,
      rule: .logging),
    Case(line: "tableView.reloadData()", rule: .userInterface),
    Case(line: #"present(alert, animated: true)"#, rule: .userInterface),
    Case(line: "tableView.performBatchUpdates { context.reset() }", rule: nil),
    Case(line: #"names.append("x")"#, rule: .value),
    Case(line: "let stamp = Date()", rule: .value),
    Case(line: "let id = UUID().uuidString", rule: .value),
    Case(line: "let kind = TransportationType.random().description", rule: .staticValue),
    Case(line: "let saved = CoreDataStack.shared.saveAll()", rule: nil),
    Case(line: "TransportationType.reset()", rule: nil),
    Case(line: "let kind = Screen.work(completion: {})", rule: nil),
    Case(line: "completion()", rule: .callersClosure),
    // The object's method in the case's payload is drafted; the caller's closure passed.
    Case(line: #"completion(.success(note?.value(forKey: "title")))"#, rule: .callersClosure),
    Case(line: "refresh()", rule: nil),
    Case(line: "super.viewDidLoad()", rule: .superclass),
    Case(line: "let spinner = UIActivityIndicatorView(style: .medium)", rule: .userInterface),
    Case(
      line: #"container.persistentStoreDescriptions.first?.url = URL(fileURLWithPath: "/x")"#,
      rule: .storeSetup),
    Case(
      line: "container.persistentStoreDescriptions.forEach { d in d.type = NSInMemoryStoreType }",
      rule: .storeSetup),
    Case(line: "let status = SecItemCopyMatching(names as CFDictionary, nil)", rule: .keychain),
    Case(line: #"XCTFail("no notes")"#, rule: .testAssertion),
    Case(line: "let state = PrinterState(name: names.first)", rule: .staticValue),
    Case(line: "let state = PrinterStore(name: names.first)", rule: nil),
    Case(
      line: #"try? FileManager.default.removeItem(atPath: "/tmp/x")"#, rule: .fileSystem),
    Case(line: "try? FileStore.default.removeAll()", rule: nil),
    Case(
      line:
        "let dir = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask).first",
      rule: .fileSystem),
    Case(line: #"DDLogInfo("saved \(names.count)")"#, rule: .logging),
    Case(line: #"ITBError("could not save")"#, rule: .logging),
    Case(line: #"SaveError("could not save")"#, rule: nil),
    Case(line: "let manager = MageSessionManager.shared()", rule: .networkClient),
    Case(line: "MageSessionManager.shared()?.addTask(names)", rule: .networkClient),
    Case(line: "MageSessionManager.shared()?.addTask(note)", rule: nil),
    Case(line: "let sync = SyncSessionStore.shared()", rule: nil),
    Case(
      line: "NotificationCenter.default.post(name: .notesChanged, object: nil)",
      rule: .unheardNotification),
    // Core Data's own notification, posted by hand, reaches its observers: not passed.
    Case(
      line: "NotificationCenter.default.post(name: .NSManagedObjectContextDidSave, object: nil)",
      rule: nil),
    // A center of the app's own, whose `post` the files do not declare, may do anything.
    Case(line: "eventBus.post(name: .notesChanged, object: nil)", rule: nil),
    // A value made with the instance's container is not a plain value.
    Case(line: "let made = Widget(context: self.container)", rule: nil),
  ]

  @Test("Each rule passes over the line it names; a look-alike is not modelled", arguments: cases)
  func rule(_ c: Case) throws {
    let draft = Draft([.init(name: "Screen.swift", text: Self.source(c.line))])
    let scenario = try ScenarioDecoder.decode(Array(draft.json.utf8), file: "Screen.swift")
    if c.rule == nil {
      #expect(draft.unmodelled.map { $0.place.hasPrefix("Screen.swift:9:") } == [true])
    } else {
      #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
      #expect(!run(scenario).isUnmodelled)
    }
    var drafter = Drafter(
      files: [SwiftParser.parse(Self.source(c.line), name: "Screen.swift")], options: .init())
    _ = drafter.draft()
    let passed = drafter.passedOver.filter { $0.line == 9 }.map(\.rule)
    #expect(passed == (c.rule.map { [$0] } ?? []))
  }

  @Test("A notification of the app's own name is unheard only while no observer of it is added")
  func appNotificationObserved() throws {
    let observed = Self.source(
      """
      NotificationCenter.default.addObserver(forName: .notesChanged, object: nil, queue: nil) { _ in
            context.reset()
          }
          NotificationCenter.default.post(name: .notesChanged, object: nil)
      """)
    let draft = Draft([.init(name: "Screen.swift", text: observed)])
    // The observer's registration is a line not modelled, so the run past the post is not
    // clean: the reset it would run is never taken to have not happened.
    #expect(draft.unmodelled.map(\.place) == ["Screen.swift:9:5"])
    let scenario = try ScenarioDecoder.decode(Array(draft.json.utf8), file: "Screen.swift")
    #expect(run(scenario).isUnmodelled)
  }

  @Test("A line passed over still reads what it reads: an object's property, a shared var")
  func readsAreDrafted() throws {
    let draft = Draft([
      .init(name: "Screen.swift", text: Self.source(#"print("\(note?.value(forKey: "title"))")"#))
    ])
    // A method call on an object is more than a read: drafted as the step it is.
    #expect(draft.unmodelled.isEmpty)
    #expect(draft.json.contains(#""get": "note.title""#))
    let reads = Draft([
      .init(name: "Screen.swift", text: Self.source(#"tableView.isHidden = count == 0"#))
    ])
    #expect(reads.unmodelled.isEmpty)
    #expect(reads.json.contains(#""read": "count""#))
  }

  @Test("A shared array's count is a read of it, passed over as a value")
  func sharedArrayCount() throws {
    let source = """
      final class Screen {
        let container: NSPersistentContainer
        var titles: [String] = []
        func rows() -> Int {
          titles.count
        }
        func load() {
          _ = try? container.viewContext.count(for: NSFetchRequest<NSManagedObject>(entityName: "Note"))
        }
      }
      """
    let draft = Draft([.init(name: "Screen.swift", text: source)])
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    #expect(draft.json.filter { !$0.isWhitespace }.contains(#""read":"titles""#))
  }

  @Test("A test's assertion is passed over, and the Core Data call in its argument drafted")
  func assertionArguments() throws {
    let line =
      #"XCTAssertNotNil(try? context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note")).first)"#
    let draft = Draft([.init(name: "Screen.swift", text: Self.source(line))])
    #expect(draft.unmodelled.isEmpty, "\(draft.unmodelled)")
    let json = draft.json.filter { !$0.isWhitespace }
    #expect(
      json.contains(
        #""fetch":"Note","in":"viewContext","as":"_asserted9","label":"Screen.swift:9""#))
  }

  @Test("Stand-ins have the type the model or the Swift gives, never the Swift text")
  func typedStandIns() throws {
    let source = """
      final class Importer {
        let container: NSPersistentContainer
        func save(payloads: [String]) {
          let context = container.viewContext
          let photo = NSEntityDescription.insertNewObject(forEntityName: "Photo", into: context)
          photo.setValue(Date(), forKey: "takenAt")
          photo.setValue(payloads.count, forKey: "size")
          photo.setValue(TimeInterval.random(in: 1...9), forKey: "length")
          photo.setValue(UUID(), forKey: "uuid")
          try? context.save()
        }
      }
      """
    let draft = Draft([.init(name: "Importer.swift", text: source)])
    let json = draft.json
    #expect(json.contains(#""to": "2001-01-01T00:00:00Z""#))
    #expect(json.contains(#""to": 4"#))
    #expect(json.contains(#""to": 1.5"#))
    #expect(json.contains(#""to": "00000000-0000-0000-0000-000000000001""#))
    #expect(!json.contains(#""to": "Date()""#))
    #expect(json.contains(#""takenAt": "date""#))
    #expect(json.contains(#""size": "integer""#))
    #expect(json.contains("Stood in: a date for `Date()`."))
    #expect(draft.unmodelled.isEmpty)
    let scenario = try ScenarioDecoder.decode(Array(json.utf8), file: "Importer.swift")
    #expect(run(scenario).violations.isEmpty)
  }
}
