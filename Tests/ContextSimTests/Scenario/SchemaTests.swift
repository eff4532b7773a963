import Foundation
import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// docs/scenario.schema.json, whose `step` variants are made from the verb families'
/// declarations: a verb added or changed there changes the committed schema, or this fails.
@Suite("The JSON Schema of scenario files")
struct SchemaTests {
  private static let path = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("docs/scenario.schema.json").path

  /// The committed file's lines, and where the `step` definition's variants are in them.
  private func committed() throws -> (lines: [String], variants: Range<Int>) {
    let data = try #require(FileManager.default.contents(atPath: Self.path))
    let lines = String(decoding: data, as: UTF8.self).components(separatedBy: "\n")
    let step = try #require(lines.firstIndex(of: #"    "step": {"#))
    let open = try #require(lines[step...].firstIndex(of: #"      "oneOf": ["#))
    let close = try #require(lines[open...].firstIndex(of: "      ]"))
    return (lines, open + 1..<close)
  }

  @Test("The step variants are the registry's, one per verb, in the families' order")
  func generated() throws {
    let (lines, range) = try committed()
    let variants = Verbs.schemaVariants
    #expect(variants.count == Verbs.names.count)
    let wanted = variants.enumerated().map { i, line in
      "        " + line + (i == variants.count - 1 ? "" : ",")
    }
    guard Array(lines[range]) != wanted else { return }
    if ProcessInfo.processInfo.environment["CTXSIM_RECORD"] == "1" {
      var rewritten = lines
      rewritten.replaceSubrange(range, with: wanted)
      try Data(rewritten.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: Self.path))
      Issue.record("rewrote docs/scenario.schema.json's step variants; review the diff")
    } else {
      let fix = "CTXSIM_RECORD=1 swift test --filter SchemaTests"
      Issue.record(
        "docs/scenario.schema.json differs from the verb families' schemas; run \(fix)")
    }
  }

  @Test("The schema is valid JSON, and each variant names its verb first")
  func wellFormed() throws {
    let data = try #require(FileManager.default.contents(atPath: Self.path))
    let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let definitions = try #require(schema["$defs"] as? [String: Any])
    let step = try #require(definitions["step"] as? [String: Any])
    let variants = try #require(step["oneOf"] as? [[String: Any]])
    let verbs = variants.compactMap { ($0["required"] as? [String])?.first }
    #expect(verbs.sorted() == Verbs.names)
  }
}
