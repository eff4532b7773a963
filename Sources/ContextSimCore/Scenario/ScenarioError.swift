/// A problem with a scenario file: what is wrong, where, and how to fix it.
///
/// Errors are for broken input only; a scenario that finds a bug in the app it models
/// has succeeded and yields violations, not errors.
public struct ScenarioError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file the problem is in.
  public var file: String
  /// Line and column in the file, when the problem has a place in the text.
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
    file: String, location: SourceLocation?, path: String?, message: String, fix: String,
    bound: Bound? = nil
  ) {
    self.file = file
    self.location = location
    self.path = path
    self.message = message
    self.fix = fix
    self.bound = bound
  }

  /// The error with the front end's way to raise its bound added to the fix.
  public func advised(_ advice: Advice) -> ScenarioError {
    guard let bound else { return self }
    var copy = self
    copy.fix = advice.explain(fix, raising: bound)
    return copy
  }

  /// `file:line:column: error: message (at path)` then the fix, as compilers print them.
  public var description: String {
    var head = file
    if let location { head += ":\(location)" }
    head += ": error: \(message)"
    if let path { head += " (at \(path))" }
    return head + "\n  fix: \(fix)"
  }
}

/// Every problem found in one scenario file, in file order.
public struct ScenarioErrors: Error, Sendable, CustomStringConvertible {
  /// The problems, sorted by place.
  public var errors: [ScenarioError]

  /// The problems of one file.
  public init(_ errors: [ScenarioError]) {
    self.errors = errors
  }

  /// Each problem as compilers print them, one after another.
  public var description: String {
    errors.map(\.description).joined(separator: "\n")
  }
}

/// The known name closest to a misspelt one, if any is close enough to be a likely typo.
public func nearestName(to name: String, in candidates: [String]) -> String? {
  let lowered = name.lowercased()
  var best: (name: String, distance: Int)?
  for candidate in candidates {
    let distance = editDistance(lowered, candidate.lowercased())
    if best == nil || distance < best!.distance {
      best = (candidate, distance)
    }
  }
  guard let best else { return nil }
  let allowed = max(1, min(3, (name.count + 1) / 3))
  return best.distance <= allowed ? best.name : nil
}

/// Edit distance over characters, counting a swap of two neighbours as one edit, the
/// commonest typo (`titel` for `title`).
func editDistance(_ a: String, _ b: String) -> Int {
  let a = Array(a)
  let b = Array(b)
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }
  var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
  for i in 0...a.count { d[i][0] = i }
  for j in 0...b.count { d[0][j] = j }
  for i in 1...a.count {
    for j in 1...b.count {
      let cost = a[i - 1] == b[j - 1] ? 0 : 1
      d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
      if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
        d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
      }
    }
  }
  return d[a.count][b.count]
}
