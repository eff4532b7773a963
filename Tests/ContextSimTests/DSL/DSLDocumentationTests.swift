import ContextSim
import Foundation
import Testing

/// docs/library.md's "The Swift DSL": its example runs as the text says, and the section
/// names every public declaration of Sources/ContextSimDSL and every case of the enums the
/// steps take, so a new step or case without documentation fails here.
@Suite("The Swift DSL's documentation")
struct DSLDocumentationTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  @Test("The documented example: the count from the wrong queue traps, and the fix is clean")
  func example() throws {
    // The two scenarios of the section's "Example", line for line (`exampleIsThisCode`).
    let buggy = try Scenario(
      "A context used from the wrong queue",
      model: ["Note": ["attributes": ["title": "string"]]],
      store: ["Note": [["id": "note-1", "title": "Buy milk"]]],
      contexts: ["background": ["queue": "private"]],
      expect: [Expected(.wrongQueueContext, at: "count-on-main")]
    ) {
      Count("Note", in: "background", as: "count").label("count-on-main")
    }

    let fixed = try Scenario(
      "A context used on its own queue",
      model: ["Note": ["attributes": ["title": "string"]]],
      store: ["Note": [["id": "note-1", "title": "Buy milk"]]],
      contexts: ["background": ["queue": "private"]],
      expect: []
    ) {
      PerformAndWait("background") {
        Count("Note", in: "background", as: "count").label("count-on-its-queue")
      }
      Expect(["value": "count", "equals": 1])
    }

    var scheduler = RunToCompletionScheduler()
    let trap = simulate(buggy, scheduler: &scheduler).violations
    #expect(trap.map(\.kind) == [.wrongQueueContext])
    #expect(trap.first?.labels == ["count-on-main"])
    var again = RunToCompletionScheduler()
    let clean = simulate(fixed, scheduler: &again).violations
    #expect(clean.isEmpty, "\(clean)")

    let (buggyCheck, fixedCheck) = (check(buggy), check(fixed))
    #expect(buggyCheck.passed, "\(buggyCheck)")
    #expect(buggyCheck.kindsSeen == [.wrongQueueContext])
    #expect(fixedCheck.passed, "\(fixedCheck)")
  }

  @Test("The section's example is the code the example test runs")
  func exampleIsThisCode() throws {
    let section = try Self.section()
    let example = try #require(section.range(of: "### Example")).lowerBound
    let documented = Self.swiftBlocks(in: String(section[example...]))
    #expect(documented.count >= 10, "no Swift example found in the section")
    let here = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
    let lines = Set(here.split(separator: "\n").map(Self.trimmed))
    for line in documented where !lines.contains(line) {
      Issue.record("the docs' example line \"\(line)\" is not in \(#fileID)")
    }
  }

  @Test("The section names every public declaration of Sources/ContextSimDSL")
  func everyDeclaration() throws {
    let folder = Self.root.appendingPathComponent("Sources/ContextSimDSL")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { $0.hasSuffix(".swift") }.sorted()
    var declared: [(file: String, name: String)] = []
    for file in files {
      let source = try String(
        contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      declared += Self.publicNames(in: source).map { (file, $0) }
    }
    // Forty-odd step types, the modifiers and the builder: fewer means the parsing broke.
    #expect(declared.count >= 50, "only \(declared.map(\.name)) found in \(files)")
    let documented = Self.codeWords(in: try Self.section())
    for (file, name) in declared where !documented.contains(name) {
      Issue.record("\(name) (DSL/\(file)) is not in docs/library.md's \"The Swift DSL\"")
    }
  }

  @Test("The section names every case of the enums the steps and declarations take")
  func everyEnumCase() throws {
    let documented = Self.codeWords(in: try Self.section())
    // TryMode is not CaseIterable: its three cases are listed by hand.
    var cases: [String: [String]] = [
      "TryMode": [TryMode.do, .optional, .force].map { "\($0)" },
      "TaskExecutor": TaskExecutor.allCases.map { "\($0)" },
      "ScheduledTaskType": ScheduledTaskType.allCases.map { "\($0)" },
      "NotificationName": NotificationName.allCases.map { "\($0)" },
      "ViolationKind": ViolationKind.allCases.map { "\($0)" },
      "Quantifier": ExpectedViolation.Quantifier.allCases.map { "\($0)" },
      "NotificationKey": NotificationKey.allCases.map { "\($0)" },
    ]
    // Written as strings in literals: the raw value, and the case name where it differs.
    cases["ConcurrencyType"] = ConcurrencyType.allCases.flatMap { ["\($0)", $0.rawValue] }
    cases["MergePolicy"] = MergePolicy.allCases.map(\.rawValue)
    cases["Attributes"] = QueueDescription.Attributes.allCases.map(\.rawValue)
    cases["AttributeType"] = AttributeType.allCases.map(\.rawValue)
    cases["DeleteRule"] = Relationship.DeleteRule.allCases.map(\.rawValue)
    for (type, names) in cases.sorted(by: { $0.key < $1.key }) {
      #expect(documented.contains(type), "\(type) is not in the section")
      for name in names where !documented.contains(name) {
        Issue.record("\(type).\(name) is not in docs/library.md's \"The Swift DSL\"")
      }
    }
  }

  /// docs/library.md from `## The Swift DSL` up to the next `## ` heading.
  static func section() throws -> String {
    let text = try String(
      contentsOf: root.appendingPathComponent("docs/library.md"), encoding: .utf8)
    let start = try #require(text.range(of: "\n## The Swift DSL\n")).lowerBound
    let rest = text[text.index(after: start)...]
    let end = rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex
    return String(rest[..<end])
  }

  /// The names `public func`, `public static func`, `public struct`, `public enum` and
  /// `public protocol` declare: `public func \`catch\`(` gives `catch`.
  static func publicNames(in source: String) -> [String] {
    let kinds: Set<Substring> = ["func", "struct", "enum", "protocol", "class", "typealias"]
    let modifiers: Set<Substring> = ["static", "indirect", "final", "mutating"]
    var names: [String] = []
    for line in source.split(separator: "\n") where trimmed(line).hasPrefix("public ") {
      let words = line.split { !($0.isLetter || $0.isNumber || $0 == "_") }
      let rest = words.dropFirst().drop { modifiers.contains($0) }
      guard rest.count > 1, let kind = rest.first, kinds.contains(kind) else { continue }
      names.append(String(rest[rest.index(after: rest.startIndex)]))
    }
    return names
  }

  /// The identifiers inside backticks, in code spans and fenced blocks alike: splitting at
  /// every backtick puts both at odd positions, as a fence is three backticks.
  static func codeWords(in markdown: String) -> Set<String> {
    let pieces = markdown.split(separator: "`", omittingEmptySubsequences: false)
    var words = Set<String>()
    for (n, piece) in pieces.enumerated() where n % 2 == 1 {
      words.formUnion(
        piece.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
    }
    return words
  }

  /// The non-empty lines of the ```swift blocks, without their indentation.
  static func swiftBlocks(in markdown: String) -> [String] {
    var lines: [String] = []
    var inside = false
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```") {
        inside = !inside && line == "```swift"
      } else if inside, !trimmed(line).isEmpty {
        lines.append(trimmed(line))
      }
    }
    return lines
  }

  static func trimmed(_ line: Substring) -> String {
    String(line.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
  }
}
