import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

@Suite("A state's fingerprint")
struct FingerprintTests {
  /// The fingerprint of a run's first state, with context `a` declared with `options`.
  private func fingerprint(_ options: String) throws -> StateFingerprint {
    let s = try scenario(
      #"{"title": "t", "contexts": {"a": {"queue": "private"\#(options)}}, "main": [{"print": "go"}]}"#
    )
    return Execution(s).simulation.fingerprint()
  }

  @Test("Every setting of a context goes in, since a step can change each and later steps read it")
  func contextSettings() throws {
    // The fingerprint writes a context's settings field by field, because their hash value
    // differs from process to process: a field added to ContextDescription must go in too.
    let written = [
      "name", "concurrencyType", "parent", "mergePolicy", "automaticallyMergesChangesFromParent",
      "shouldDeleteInaccessibleFaults", "nameProperty", "transactionAuthor", "hasUndoManager",
    ]
    #expect(
      Mirror(reflecting: ContextDescription.viewContext).children.compactMap(\.label) == written)
    let plain = try fingerprint("")
    #expect(try fingerprint("") == plain)
    for option in [
      #", "mergePolicy": "overwrite""#, #", "automaticallyMergesChangesFromParent": true"#,
      #", "shouldDeleteInaccessibleFaults": false"#, #", "parent": "viewContext""#,
    ] {
      #expect(try fingerprint(option) != plain, "\(option)")
    }
  }
}
