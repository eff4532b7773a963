import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

@Suite("Scenario files and their twins written in Swift")
struct TwinTests {
  /// Every twin.
  static let twins: [Twin] = [
    .checkedTooEarly, .tapAfterLoad, .deadlock, .asyncPerform, .childContextDraft, .batchUpdate,
    .refreshAllOffQueue,
    .faultOnDeletedObject, .faultOnDeletedObjectFixed, .discardedSaveError, .temporaryID,
    .staleScreen, .mergePolicies, .crossContextRelationship, .photoDownloaderStoreError,
    .photoDownloader, .photoDownloaderFixed, .objectInTwoContexts, .objectInTwoContextsFixed,
    .mergeOnPostingThreadFixed, .cacheFallback, .cacheFallbackFixed, .fetchedResultsStaleFixed,
    .batchDeleteFixed, .batchInsertValidation, .persistentHistoryFixed,
  ]

  @Test("A scenario written in Swift runs exactly as its JSON twin", arguments: twins)
  func twin(_ twin: Twin) throws {
    try expectTwins(twin.build(), twin.file)
  }

  @Test("The twins of files in scenarios/ use every verb of the format")
  func everyVerb() throws {
    var used = Set<String>()
    for twin in Self.twins { used.formUnion(try Self.forms(twin.build())) }
    let every = Set(Verbs.names).union([
      "perform await", "insert existing object", "when", "try?", "try!", "inject",
      "expect in some", "catch", "expect handled", "where operators", "sortBy", "limit",
    ])
    // `notModelled` is a draft's verb: no file in scenarios/ is a draft, as every one must
    // pass `check`, which a run past a line not modelled never does.
    #expect(every.subtracting(used) == ["notModelled"])
  }

  /// The verbs a scenario's steps use, with `perform`'s await form and `insert`'s
  /// existing-object form named apart, and the other forms of the format it uses.
  static func forms(_ scenario: Scenario) -> Set<String> {
    var forms = Set<String>()
    for step in scenario.allSteps {
      switch step.action {
      case .performAwait: forms.insert("perform await")
      case .insertObject: forms.insert("insert existing object")
      case .fetch(let request, _, _, _, let mode), .count(let request, _, _, let mode):
        forms.insert(step.verb)
        if mode != .do { forms.insert("try\(mode.rawValue)") }
        forms.formUnion(requestForms(request))
      case .save(_, let mode), .existingObject(_, _, _, let mode), .obtainPermanentIDs(_, let mode):
        forms.insert(step.verb)
        if mode != .do { forms.insert("try\(mode.rawValue)") }
      case .batchUpdate(_, _, let predicate, _, _):
        forms.insert(step.verb)
        if predicate.usesOperators { forms.insert("where operators") }
      case .expect(.count(let request, _, _)):
        forms.insert(step.verb)
        forms.formUnion(requestForms(request))
      default: forms.insert(step.verb)
      }
      if step.condition != nil { forms.insert("when") }
      if step.handler != nil { forms.insert("catch") }
    }
    if !scenario.injections.isEmpty { forms.insert("inject") }
    if scenario.expectation?.handled.isEmpty == false { forms.insert("expect handled") }
    if scenario.expectation?.violations.contains(where: { $0.quantifier == .some }) == true {
      forms.insert("expect in some")
    }
    return forms
  }

  /// What a fetch request uses beyond v1's equalities: operators, sort descriptors, a limit.
  static func requestForms(_ request: FetchRequest) -> Set<String> {
    var forms = Set<String>()
    if request.predicate.usesOperators { forms.insert("where operators") }
    if !request.sortDescriptors.isEmpty { forms.insert("sortBy") }
    if request.fetchLimit != nil { forms.insert("limit") }
    return forms
  }
}
