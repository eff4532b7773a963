import Foundation
import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// `ctxsim scan`: every entry point of the types that touch Core Data, from main, from a
/// background queue and in pairs; findings ranked, each replayable.
@Suite("Scanning a module")
struct ScanTests {
  static func sources(_ folder: String) throws -> [Draft.Source] {
    let url = DraftTests.root.appendingPathComponent(folder)
    return try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
      .filter { $0.hasSuffix(".swift") }
      .map {
        .init(
          name: $0, text: try String(contentsOf: url.appendingPathComponent($0), encoding: .utf8))
      }
  }

  @Test("The notes app: its two entry points, each from main and background, and the pairs")
  func notesApp() throws {
    let scan = Scan(try Self.sources("Examples/Draft/NotesApp"))
    #expect(scan.entryPoints.map(\.name) == ["CoreDataStack.saveMain", "NoteImporter.importNotes"])
    #expect(scan.results.count == 2 + 2 + 3)
    // The importer inserts into the private context from main; saveMain, called from a
    // background queue, touches viewContext there. Nothing after a trap is the app's.
    #expect(scan.findings.map(\.kind) == [.wrongQueueContext, .wrongQueueContext])
    #expect(scan.findings.map(\.place) == ["NoteImporter.swift:10", "CoreDataStack.swift:28"])
    #expect(scan.findings[0].job.name == "NoteImporter.importNotes from main")
    #expect(
      scan.findings[1].job.calls == ["DispatchQueue.global().async { coreDataStack.saveMain() }"])
    // Two imports at once have more schedules than the budget: that search is cut short,
    // and says so, but what it found stands.
    #expect(!scan.isComplete)
    #expect(
      scan.results.filter { !$0.complete }.map(\.job.name) == [
        "NoteImporter.importNotes and NoteImporter.importNotes at once"
      ])
  }

  @Test(
    "A time limit ends a scan between runs: what is left is not run, and the scan is not complete")
  func timeLimit() throws {
    var asked = 0
    // Time runs out once the first run has started: its search stops there, and each
    // later run is listed as not run.
    let scan = Scan(
      try Self.sources("Examples/Draft/NotesApp"),
      shouldStop: {
        asked += 1
        return asked > 1
      })
    #expect(scan.results.count == 7)
    #expect(scan.results[0].verdict == "incomplete")
    #expect(scan.notRunForTime == 6)
    #expect(!scan.isComplete)
    let text = ScanReport(replayPrefix: "ctxsim run").text(scan)
    #expect(text.contains("6 runs not run: --time-limit ran out\n"))
  }

  @Test("Views, app delegates and entities' methods run from main only, and on main in pairs")
  func mainOnlyEntryPoints() throws {
    let source = """
      import CoreData
      import UIKit
      final class Note: NSManagedObject {
        @NSManaged var title: String?
        func rename(_ name: String) { title = name }
      }
      struct Draft { var title: String? }
      final class NotesViewController: UIViewController {
        let container: NSPersistentContainer
        init(container: NSPersistentContainer) { self.container = container }
        func reload() { _ = try? container.viewContext.count(for: Note.fetchRequest()) }
      }
      final class Importer {
        let container: NSPersistentContainer
        init(container: NSPersistentContainer) { self.container = container }
        func run() {
          let context = container.newBackgroundContext()
          context.perform { _ = try? context.count(for: Note.fetchRequest()) }
        }
      }
      """
    let scan = Scan([.init(name: "App.swift", text: source)])
    let mainOnly = scan.entryPoints.filter(\.isMainOnly).map(\.name)
    #expect(mainOnly == ["Note.rename", "NotesViewController.reload"])
    let names = scan.results.map(\.job.name)
    #expect(!names.contains("Note.rename from a background queue"))
    #expect(names.contains("Importer.run from a background queue"))
    #expect(!names.contains("Note.rename and NotesViewController.reload at once"))
    let pair = try #require(
      scan.results.first { $0.job.name == "NotesViewController.reload and Importer.run at once" })
    #expect(pair.job.calls.first?.hasPrefix("DispatchQueue.main.async") == true)
    #expect(scan.findings.isEmpty, "\(scan.findings.map(\.place))")
  }

  @Test("Given a context, a method runs from a background queue inside that context's queue")
  func contextParameter() throws {
    let source = """
      import CoreData
      final class Mapper {
        let container: NSPersistentContainer
        init(container: NSPersistentContainer) { self.container = container }
        func insert(title: String, moc: NSManagedObjectContext) {
          let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: moc)
          note.setValue(title, forKey: "title")
        }
        func count() -> Int {
          (try? container.viewContext.count(for: NSFetchRequest<NSManagedObject>(entityName: "Note"))) ?? 0
        }
      }
      """
    let scan = Scan([.init(name: "App.swift", text: source)])
    let insert = try #require(scan.entryPoints.first { $0.method == "insert" })
    #expect(insert.contextParameter == "moc")
    let background = try #require(
      scan.results.first { $0.job.name == "Mapper.insert from a background queue" })
    #expect(background.job.calls.first?.contains("moc.performAndWait {") == true)
    // Only count's use of viewContext off main is found; insert keeps to the context given.
    #expect(scan.findings.map(\.place) == ["App.swift:10"])
  }

  @Test("A finding's calls and schedule replay it: the same violation at the same line")
  func replays() throws {
    let sources = try Self.sources("Examples/Draft/NotesApp")
    let scan = Scan(sources)
    for finding in scan.findings {
      let draft = Draft(sources, options: .init(calls: finding.job.calls))
      let scenario = try ScenarioDecoder.decode(Array(draft.json.utf8), file: "replay")
      var scheduler = ReplayScheduler(finding.schedule)
      let trace = simulate(scenario, options: SimulationOptions(scenario), scheduler: &scheduler)
      let first = try #require(trace.violations.first)
      #expect(first.kind == finding.kind)
      #expect(first.labels.first.map { Scan.line(of: $0) } == finding.place)
    }
  }

  @Test("A condition on values is scanned both ways: the path with the bug is found and replayed")
  func paths() throws {
    let source = """
      import CoreData
      final class Note: NSManagedObject {
        @NSManaged var title: String?
      }
      final class Store {
        let container: NSPersistentContainer
        init(container: NSPersistentContainer) { self.container = container }
        func add(_ title: String, fast: Bool) {
          let context = container.newBackgroundContext()
          if title.isEmpty {
            let note = Note(context: context)
            note.title = "untitled"
          } else {
            context.perform {
              let note = Note(context: context)
              note.title = title
            }
          }
        }
      }
      """
    let sources = [Draft.Source(name: "Store.swift", text: source)]
    let scan = Scan(sources)
    #expect(!scan.isUnmodelled)
    let finding = try #require(scan.findings.first)
    #expect(finding.place == "Store.swift:11")
    let path = try #require(finding.path)
    let report = ScanReport(replayPrefix: "ctxsim run Store.swift")
    #expect(report.replay(finding).contains("--path \(path) --schedule"))
    // That path, drafted alone, shows it on the finding's schedule.
    let drafts = Draft.paths(sources, options: .init(calls: finding.job.calls)).drafts
    let scenario = try ScenarioDecoder.decode(Array(drafts[path - 1].json.utf8), file: "replay")
    var scheduler = ReplayScheduler(finding.schedule)
    let trace = simulate(scenario, options: SimulationOptions(scenario), scheduler: &scheduler)
    #expect(trace.violations.first?.kind == finding.kind)
  }

  @Test("A fixed importer and a stack used on its queues scan clean")
  func clean() throws {
    let stack = """
      import CoreData
      final class Store {
        let container: NSPersistentContainer
        init(container: NSPersistentContainer) { self.container = container }
        func add(_ title: String) {
          let context = container.newBackgroundContext()
          context.perform {
            let note = Note(context: context)
            note.title = title
            try? context.save()
          }
        }
      }
      """
    let scan = Scan([.init(name: "Store.swift", text: stack)])
    #expect(scan.entryPoints.map(\.name) == ["Store.add"])
    #expect(scan.findings.isEmpty)
    #expect(!scan.isUnmodelled)
    #expect(scan.isComplete)
  }

  @Test("A line not modelled on an entry point's path keeps the scan from being clean")
  func unmodelled() throws {
    let source = """
      import CoreData
      final class Store {
        let container: NSPersistentContainer
        init(container: NSPersistentContainer) { self.container = container }
        func add() {
          container.viewContext.perform { Analytics.shared.track(self.container.viewContext) }
        }
      }
      """
    let scan = Scan([.init(name: "Store.swift", text: source)])
    #expect(scan.findings.isEmpty)
    #expect(scan.isUnmodelled)
    let report = ScanReport(replayPrefix: "ctxsim run Store.swift")
    #expect(report.verdictName(scan) == "unmodelled")
    #expect(report.text(scan).contains("Store.swift:6:"))
  }

  @Test("SARIF: a result per finding at the app's file and line, as code-scanning views read it")
  func sarif() throws {
    let scan = Scan(try Self.sources("Examples/Draft/NotesApp"))
    let report = ScanReport(
      replayPrefix: "ctxsim run Examples/Draft/NotesApp",
      paths: ["NoteImporter.swift": "Examples/Draft/NotesApp/NoteImporter.swift"])
    let json = JSONWriter.write(report.sarif(scan))
    #expect(json.contains(#""version": "2.1.0""#))
    #expect(json.contains(#""uri": "Examples/Draft/NotesApp/NoteImporter.swift""#))
    #expect(json.contains(#""startLine": 10"#))
    let junit = report.junit(scan)
    #expect(junit.contains(#"tests="7" failures="6""#))
  }
}
