import Testing

@testable import ContextSim

@Suite("Scenario files and their twins written in Swift")
struct TwinTests {
  /// Every twin, the files first.
  static let twins: [Twin] = [
    .checkedTooEarly, .deadlock, .asyncPerform, .childContextDraft, .batchUpdate,
    .faultOnDeletedObject, .faultOnDeletedObjectFixed, .discardedSaveError, .temporaryID,
    .staleScreen, .mergePolicies, .crossContextRelationship, .photoDownloaderStoreError,
    .photoDownloader, .photoDownloaderFixed, .draftUndoneKeptAndMoved,
  ]

  @Test("A scenario written in Swift runs exactly as its JSON twin", arguments: twins)
  func twin(_ twin: Twin) throws {
    switch twin.source {
    case .file(let name): try expectTwins(twin.build(), name)
    case .inline(let json): expectTwins(try twin.build(), json: try scenario(json))
    }
  }

  @Test("The twins use every verb of the format, all but three of them from files in scenarios/")
  func everyVerb() throws {
    var fromFiles = Set<String>()
    var inline = Set<String>()
    for twin in Self.twins {
      let uses = try Self.forms(twin.build())
      if case .file = twin.source { fromFiles.formUnion(uses) } else { inline.formUnion(uses) }
    }
    let every = Set(ScenarioDecoder.verbKeys.keys).union([
      "perform await", "insert existing object", "when", "try?", "try!", "inject",
      "expect in some",
    ])
    #expect(every.subtracting(fromFiles.union(inline)).isEmpty)
    // No file in scenarios/ has these yet; a file that does should be twinned instead.
    #expect(
      every.subtracting(fromFiles) == ["insert existing object", "obtainPermanentIDs", "rollback"])
  }

  /// The verbs a scenario's steps use, with `perform`'s await form and `insert`'s
  /// existing-object form named apart, and the other forms of the format it uses.
  static func forms(_ scenario: Scenario) -> Set<String> {
    var forms = Set<String>()
    for step in scenario.allSteps {
      switch step.action {
      case .performAwait: forms.insert("perform await")
      case .insertObject: forms.insert("insert existing object")
      case .fetch(_, _, _, _, _, let mode), .count(_, _, _, _, let mode), .save(_, let mode),
        .existingObject(_, _, _, let mode), .obtainPermanentIDs(_, let mode):
        forms.insert(step.action.verb)
        if mode != .do { forms.insert("try\(mode.rawValue)") }
      default: forms.insert(step.action.verb)
      }
      if step.condition != nil { forms.insert("when") }
    }
    if !scenario.injections.isEmpty { forms.insert("inject") }
    if scenario.expectation?.violations.contains(where: { $0.quantifier == .some }) == true {
      forms.insert("expect in some")
    }
    return forms
  }
}
