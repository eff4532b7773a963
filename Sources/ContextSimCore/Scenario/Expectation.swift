/// What `ctxsim check` holds a scenario to: its top-level `expect`.
public struct Expectation: Sendable {
  /// The violations the design must show; empty means it must be clean.
  public internal(set) var violations: [ExpectedViolation]
  /// Errors a `catch` body must handle: not violations, but what the design is for.
  public internal(set) var handled: [ExpectedHandledError] = []

  package init(violations: [ExpectedViolation], handled: [ExpectedHandledError] = []) {
    self.violations = violations
    self.handled = handled
  }
}

/// One declared handled error: its Cocoa code, optionally where, and in how many schedules.
public struct ExpectedHandledError: Sendable, Equatable, CustomStringConvertible {
  /// The Cocoa error code the call throws: 133000 for an object not found.
  public internal(set) var code: Int
  /// A label of the step (or of a step containing it) whose call throws.
  public internal(set) var label: String?
  /// In every explored schedule, or in at least one.
  public internal(set) var quantifier: ExpectedViolation.Quantifier
  /// Where the declaration is written, for errors about it.
  public internal(set) var location: SourceLocation

  /// `error 133000 handled at look-up`.
  public var description: String {
    var text = "error \(code) handled"
    if let label { text += " at \(label)" }
    if quantifier == .some { text += " (in some schedule)" }
    return text
  }

  /// Whether an error a `catch` handled answers this expectation.
  public func matches(_ handled: HandledError) -> Bool {
    handled.error.code == code && (label.map { handled.site.labels.contains($0) } ?? true)
  }
}

/// One declared violation: its kind, optionally where, and in how many schedules.
public struct ExpectedViolation: Sendable, Equatable, CustomStringConvertible {
  /// Whether the violation must show in every explored schedule or in at least one.
  public enum Quantifier: String, Sendable, CaseIterable {
    case every, some
  }

  /// The kind of violation that must show.
  public internal(set) var kind: ViolationKind
  /// A label of the step (or of a step containing it) where the violation happens.
  public internal(set) var label: String?
  /// In every explored schedule, or in at least one.
  public internal(set) var quantifier: Quantifier
  /// Where the declaration is written, for errors about it.
  public internal(set) var location: SourceLocation

  /// `wrongQueueContext at fetch-on-main`.
  public var description: String {
    var text = kind.rawValue
    if let label { text += " at \(label)" }
    if quantifier == .some { text += " (in some schedule)" }
    return text
  }

  /// Whether a violation that happened answers this expectation.
  public func matches(_ violation: Violation) -> Bool {
    violation.kind == kind && (label.map { violation.labels.contains($0) } ?? true)
  }
}

/// The kinds of violation a run can report, by the scenario format's names.
public enum ViolationKind: String, Sendable, CaseIterable, Codable {
  case wrongQueueContext
  case wrongQueueObject
  case crossContextRelationship
  case faultOnDeletedObject
  case objectNotFound
  case mergeConflict
  case constraintConflict
  case validationFailed
  case uncaughtError
  case discardedError
  case dataRace
  case deadlock
  case corruption
  case expectationFailed
  /// Not in the v1 list: a key the entity does not have (`NSUnknownKeyException`).
  case unknownKey
  /// Not in the v1 list: one object inserted into a second context.
  case objectInAnotherContext
  /// Not in the v1 list: a request Core Data refuses as it is made, raising
  /// `NSInvalidArgumentException` (a batch delete of no object IDs, or of two entities').
  case invalidRequest
}
