/// A problem with a file ctxsim reads: a scenario, an Xcode data model, a lesson, a game
/// level, an exercise's brief. What is wrong, where, and how to fix it, printed as compilers
/// print errors. One type for every input, so every command reports a bad file alike.
///
/// Errors are for broken input only; a scenario that finds a bug in the app it models
/// has succeeded and yields violations, not errors.
public struct Diagnostic: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file the problem is in.
  public var file: String
  /// Line and column in the file, when the problem has a place in the text; column 0 when
  /// only the line is known (a lesson's line).
  public var location: SourceLocation?
  /// Where in the scenario's structure: `main[2].perform.do[0]` or `model.Note.attributes`.
  public var path: String?
  /// What is wrong.
  public var message: String
  /// What to change.
  public var fix: String
  /// The bound the file went past, when the problem is a limit rather than a mistake: the
  /// front end can say how to raise it (``advised(_:)``).
  public var bound: Bound?

  /// A problem at a place, with its fix.
  public init(
    file: String, location: SourceLocation?, path: String? = nil, message: String, fix: String,
    bound: Bound? = nil
  ) {
    self.file = file
    self.location = location
    self.path = path
    self.message = message
    self.fix = fix
    self.bound = bound
  }

  /// A problem on a line, or with the file as a whole when `line` is nil.
  public init(file: String, line: Int?, message: String, fix: String) {
    self.init(
      file: file, location: line.map { SourceLocation(line: $0, column: 0) }, message: message,
      fix: fix)
  }

  /// The line, from 1; nil for a problem with the file as a whole.
  public var line: Int? { location?.line }

  /// The error with the front end's way to raise its bound added to the fix.
  public func advised(_ advice: Advice) -> Diagnostic {
    guard let bound else { return self }
    var copy = self
    copy.fix = advice.explain(fix, raising: bound)
    return copy
  }

  /// `file:line:column: error: message (at path)` then the fix, as compilers print them.
  public var description: String {
    var head = file
    if let location {
      head += location.column > 0 ? ":\(location)" : ":\(location.line)"
    }
    head += ": error: \(message)"
    if let path { head += " (at \(path))" }
    return head + "\n  fix: \(fix)"
  }
}

/// Every problem found in one file, in file order.
public struct Diagnostics: Error, Sendable, CustomStringConvertible {
  /// The problems, sorted by place.
  public var errors: [Diagnostic]

  /// The problems of one file.
  public init(_ errors: [Diagnostic]) {
    self.errors = errors
  }

  /// The problems of one file.
  public init(errors: [Diagnostic]) {
    self.errors = errors
  }

  /// Each problem as compilers print them, one after another.
  public var description: String {
    errors.map(\.description).joined(separator: "\n")
  }
}

/// A problem with a scenario file (or its data model): a ``Diagnostic``.
public typealias ScenarioError = Diagnostic
/// Every problem found in one scenario file.
public typealias ScenarioErrors = Diagnostics
