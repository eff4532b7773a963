import Testing

@testable import ContextSim

@Suite("Scenario files and their twins written in Swift")
struct TwinTests {
  /// Every twin, the files first.
  static let twins: [Twin] = [
    .checkedTooEarly, .deadlock, .asyncPerform, .childContextDraft, .batchUpdate,
    .faultOnDeletedObject, .faultOnDeletedObjectFixed, .discardedSaveError, .temporaryID,
    .staleScreen, .mergePolicies, .crossContextRelationship, .photoDownloaderStoreError,
    .photoDownloader, .photoDownloaderFixed,
  ]

  @Test("A scenario written in Swift runs exactly as its JSON twin", arguments: twins)
  func twin(_ twin: Twin) throws {
    switch twin.source {
    case .file(let name): try expectTwins(twin.build(), name)
    case .inline(let json): expectTwins(try twin.build(), json: try scenario(json))
    }
  }
}
