import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// A drafted run never says clean when it could not look: every construct the drafter does
/// not follow is a `notModelled` step, and a run, an exploration or a check that passes one
/// is unmodelled, never clean, never a pass.
@Suite("Lines not modelled: never a clean verdict")
struct UnmodelledLineTests {
  /// A class whose `sync()` runs `line` after a save on a background context, so the run
  /// is otherwise clean.
  static func store(_ line: String, extra: String = "") -> String {
    """
    final class Store {
      let container: NSPersistentContainer
      \(extra)
      func sync() {
        let context = container.newBackgroundContext()
        context.performAndWait {
          let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
          note.setValue("a", forKey: "title")
          try? context.save()
        }
        \(line)
      }
    }
    """
  }

  static func draft(_ source: String, calls: [String] = []) -> Draft {
    Draft([.init(name: "Store.swift", text: source)], options: .init(calls: calls))
  }

  static func decoded(_ draft: Draft) throws -> Scenario {
    try ScenarioDecoder.decode(Array(draft.json.utf8), file: "Store.swift")
  }

  /// One construct of each class the drafter does not follow, with the reason it gives.
  static let constructs: [(line: String, why: String)] = [
    ("manager.saveAll()", "a call on `manager`, which ctxsim does not know"),
    ("refreshEverything()", "`refreshEverything()` is declared in no file read"),
    ("queue.addOperation { self.merge() }", "a call on `queue`, which ctxsim does not know"),
    ("runLater { print(1) }", "a closure passed to `runLater()` that ctxsim cannot follow"),
    (
      "switch mode { case .a: break; default: break }", "a `switch` on a value ctxsim cannot decide"
    ),
    ("while pending > 0 { pending -= 1 }", "a `while` loop whose test ctxsim cannot decide"),
    // A `defer` is moved to the block's end unless an early exit follows it.
    ("defer { print(1) }\n    if true { return }\n    print(2)", "`defer` is not modelled"),
    // A branch that does something the model sees (an `if` whose branches touch nothing is
    // no path of its own, and is drafted).
    ("if pending > 3 { context.perform { context.reset() } }", "a condition ctxsim cannot decide"),
  ]

  @Test("Each construct not followed is a notModelled step at its line and column, with why")
  func stepsSayWhy() throws {
    for construct in Self.constructs {
      let draft = Self.draft(Self.store(construct.line))
      let line = try #require(draft.unmodelled.first, "\(construct.line)")
      #expect(draft.unmodelled.count == 1, "\(construct.line)")
      #expect(line.place == "Store.swift:11:5", "\(construct.line)")
      #expect(line.swift == construct.line.split(separator: "\n")[0].description)
      #expect(line.why.contains(construct.why), "\(line.why)")
      let scenario = try Self.decoded(draft)
      #expect(scenario.unmodelledLines.map(\.place) == ["Store.swift:11:5"])
    }
  }

  @Test("A run past a line not modelled is unmodelled, not clean; so are explore and check")
  func neverClean() throws {
    for construct in Self.constructs {
      var scenario = try Self.decoded(Self.draft(Self.store(construct.line)))
      let trace = run(scenario)
      #expect(trace.violations.isEmpty, "\(construct.line)")
      #expect(trace.isUnmodelled, "\(construct.line)")
      #expect(trace.unmodelledLines(in: scenario).map(\.place) == ["Store.swift:11:5"])
      let explored = explore(scenario)
      #expect(explored.verdict == .unmodelled, "\(construct.line)")
      #expect(!explored.outcomes.contains { $0.isClean })
      scenario.expectation = Expectation(violations: [])
      let checked = check(scenario)
      #expect(!checked.passed, "\(construct.line)")
      guard case .unmodelled = checked.verdict else {
        Issue.record("\(construct.line): \(checked.verdict)")
        continue
      }
      #expect(
        checked.unmodelledLines.map(\.swift).first
          == construct.line.split(separator: "\n")[0].description)
    }
  }

  @Test("The same design with every line modelled is clean, and check passes it")
  func modelledIsClean() throws {
    var scenario = try Self.decoded(Self.draft(Self.store("print(\"synced\")")))
    #expect(scenario.unmodelledLines.isEmpty)
    #expect(!run(scenario).isUnmodelled)
    scenario.expectation = Expectation(violations: [])
    #expect(check(scenario).passed)
  }

  @Test("A line not modelled off the path taken leaves that run clean")
  func offThePath() throws {
    // The catch runs only if the save throws, which it does not here.
    let source = """
      final class Store {
        let container: NSPersistentContainer
        func sync() {
          let context = container.newBackgroundContext()
          context.performAndWait {
            do {
              try context.save()
            } catch {
              reporter.send(error)
            }
          }
        }
      }
      """
    let scenario = try Self.decoded(Self.draft(source))
    #expect(scenario.unmodelledLines.map(\.place) == ["Store.swift:9:9"])
    let trace = run(scenario)
    #expect(trace.unmodelled.isEmpty)
    #expect(!trace.isUnmodelled)
  }

  @Test("Violations found before a line not modelled are reported, with the line beside them")
  func violationsAndUnmodelled() throws {
    let source = """
      final class Store {
        let container: NSPersistentContainer
        func sync() {
          let context = container.newBackgroundContext()
          let notes = try? context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note"))
          manager.saveAll()
        }
      }
      """
    let scenario = try Self.decoded(Self.draft(source))
    let trace = run(scenario)
    #expect(trace.kinds.first == .wrongQueueContext)
    #expect(!trace.isUnmodelled)
    #expect(trace.unmodelled.count == 1)
    let text = TextRenderer(scenario: scenario, options: .init()).render(trace)
    #expect(text.contains("The run also passed 1 line ctxsim could not model:"))
    #expect(text.contains("Store.swift:6:5  manager.saveAll()"))
  }

  @Test("A --call of nothing declared is named, with the nearest declared name")
  func unknownCall() {
    let sources = [Draft.Source(name: "Store.swift", text: Self.store("print(1)"))]
    #expect(Draft.unknownCalls(in: sources, options: .init(calls: ["sync()"])).isEmpty)
    #expect(
      Draft.unknownCalls(
        in: sources, options: .init(calls: ["DispatchQueue.global().async { sync() }"])
      ).isEmpty)
    let typo = Draft.unknownCalls(in: sources, options: .init(calls: ["synk()"]))
    #expect(typo == [Draft.UnknownCall(call: "synk()", name: "synk", suggestion: "sync")])
    let nested = Draft.unknownCalls(
      in: sources, options: .init(calls: ["DispatchQueue.main.async { self.snyc() }"]))
    #expect(nested.map(\.name) == ["snyc"])
    // Drafted anyway (the library has no usage errors), it is a line not modelled.
    let drafted = Self.draft(Self.store("print(1)"), calls: ["synk()"])
    #expect(drafted.unmodelled.map(\.swift) == ["synk()"])
  }

  @Test("A hand-written notModelled step counts as the drafter's do, and the DSL writes one")
  func handWritten() throws {
    let json = """
      {"title": "t", "main": [
        {"print": "before"},
        {"notModelled": "a call ctxsim cannot resolve", "at": "App.swift:3:5", "swift": "sync()"}
      ]}
      """
    let file = try scenario(json)
    #expect(run(file).unmodelledLines(in: file).map(\.place) == ["App.swift:3:5"])
    let built = try Scenario("t") {
      Print("before")
      NotModelled("a call ctxsim cannot resolve", at: "App.swift:3:5")
    }
    #expect(run(built).isUnmodelled)
    #expect(built.unmodelledLines.map(\.why) == ["a call ctxsim cannot resolve"])
  }
}
