import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// The drafter's parser: what it reads of Swift, and that no input stops it.
@Suite("Reading Swift")
struct SwiftParserTests {
  @Test("Declarations, closures, control flow and call chains read as written")
  func outline() {
    let source = """
      @MainActor
      final class Saver: NSObject, Sendable {
        private let context: NSManagedObjectContext
        var onDone: ((NSManagedObjectID) -> Void)?

        func save(_ names: [String], into folder: NSManagedObject) async throws -> Int {
          let id = folder.objectID  // read on main
          try await withThrowingTaskGroup(of: (String, Data?).self) { group in
            for try await (name, data) in group {
              guard let data else { continue }
              let x = try context.fetch(request).first
                ?? NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
            }
          }
          do { try context.save() } catch { context.rollback(); throw error }
          DispatchQueue.main.async { [weak self] in self?.onDone?(id) }
          photos.forEach { $0.setValue(true, forKey: "seen") }
          return names.count > 1 ? 2 : 0
        }
      }
      """
    let file = SwiftParser.parse(source, name: "Saver.swift")
    #expect(
      file.outline == """
        @MainActor class Saver: NSObject, Sendable
          private let context: NSManagedObjectContext
          var onDone: ((NSManagedObjectID) -> Void)?
          func save(_ names: [String], into folder: NSManagedObject) async throws -> Int @6:3
            let id = folder.objectID @7
            try await withThrowingTaskGroup(of: (String, Data?).self) { group in … } @8
              { group in … }
                for (name, data) in group @9
                  guard let data else @10
                    continue @10
                  let x = try context.fetch(request).first ?? NSEntityDescription.insertNewObject(forEntityName: "Item", into: context) @11
            do @15
              try context.save() @15
            catch @15
              context.rollback() @15
              throw error @15
            DispatchQueue.main.async { [self] in … } @16
              { [self] in … }
                self?.onDone?(id) @16
            photos.forEach { … } @17
              { … }
                $0.setValue(true, forKey: "seen") @17
            return names.count > 1 ? 2 : 0 @18
        """)
  }

  @Test("async let is a child task's binding; async as a name stays a name")
  func asyncLet() {
    let source = """
      func load() async {
        async let first = count(in: a)
        async let (x, y) = pair()
        let async = 1
        print(await first + async)
      }
      """
    #expect(
      SwiftParser.parse(source, name: "Loader.swift").outline == """
        func load() async @1:1
          async let first = count(in: a) @2
          async let (x, y) = pair() @3
          let async = 1 @4
          print(await first + async) @5
        """)
  }

  @Test("Strings: escapes, interpolations, raw and multi-line")
  func strings() {
    let q = "\""
    let source =
      "let a = " + q + "x\\n\\(b + " + q + "c" + q + ")" + q + " + #" + q + "raw \\(no)" + q + "#"
      + " + " + q + q + q + "\n    two\n    " + q + q + q
    let strings = SwiftLexer.tokens(of: source).filter { $0.kind == .string }
    #expect(strings.map(\.text) == ["x\n\\(b + \"c\")", "raw \\(no)", "two"])
    #expect(strings.first?.interpolations == ["b + \"c\""])
  }

  @Test("A switch: its subject, each case's patterns and body, and default")
  func switchStatement() throws {
    let file = SwiftParser.parse(
      """
      func f() {
        switch context.concurrencyType {
        case .mainQueueConcurrencyType, .privateQueueConcurrencyType:
          save()
          break
        @unknown default:
          fatalError()
        }
      }
      """, name: "s.swift")
    let body = try #require(file.functions.first?.body)
    guard case .switch(let subject, let cases) = body.first?.kind else {
      Issue.record("not a switch: \(body)")
      return
    }
    #expect(subject.source == "context.concurrencyType")
    #expect(
      cases.map(\.patterns) == [[".mainQueueConcurrencyType", ".privateQueueConcurrencyType"], []])
    #expect(cases.map(\.body.count) == [2, 1])
  }

  @Test("Swift 2's bindings after one let, and a property's value followed by its observers")
  func swift2BindingsAndObservers() throws {
    let file = SwiftParser.parse(
      """
      class C {
        var filter: String = "" {
          didSet { reload() }
        }
        func f() {
          if let a = x, b = a.first, c: String = b["k"] as? String {
            use(c)
          }
        }
      }
      """, name: "c.swift")
    let type = try #require(file.types.first)
    let filter = try #require(type.properties.first)
    #expect(filter.value?.source == "\"\"")
    #expect(filter.didSet?.count == 1 && filter.getter == nil)
    let body = try #require(type.functions.first?.body)
    guard case .if(let conditions, _, _) = body.first?.kind else {
      Issue.record("not an if: \(body)")
      return
    }
    let bound = conditions.compactMap { c -> String? in
      if case .binding(let pattern, _) = c { return pattern.names.first }
      return nil
    }
    #expect(bound == ["a", "b", "c"])
  }

  @Test("A getter with effects, get async throws, is the property's getter")
  func effectfulGetter() throws {
    let file = SwiftParser.parse(
      """
      class API {
        var baseURL: String {
          get async throws {
            return "x"
          }
        }
      }
      """, name: "a.swift")
    let property = try #require(file.types.first?.properties.first)
    #expect(property.getter?.count == 1)
  }

  @Test("Unbalanced, truncated and deeply nested input parses to the end without failing")
  func neverStops() {
    let inputs = [
      "func f( {", "class {", "}}}}", "let x = ((((((", String(repeating: "(", count: 5_000),
      String(repeating: "{", count: 5_000), "\"unterminated", "/* never closed", "a ?? ?? ??",
      "for in { }", "guard else", "x.", "@", "#if", String(repeating: "a.b(c) { ", count: 2_000),
      "switch x { case a }", "switch x { case", "switch { }", "switch x { @unknown default: f() }",
      String(repeating: "switch x { case .a: ", count: 2_000),
      // Closures that run or hand on themselves are drafted once, not without end.
      "let b = { b() }\nb()", "let b = { c.perform(b) }\nc.perform(b)",
      "func f() -> Int { f().g() }\nf()",
    ]
    for input in inputs {
      let file = SwiftParser.parse(input, name: "bad.swift")
      _ = Draft([.init(name: "bad.swift", text: input)]).json
      #expect(file.name == "bad.swift")
    }
  }
}
