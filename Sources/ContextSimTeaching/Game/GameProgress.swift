import ContextSimCore
import ContextSimReports

/// What a learner has done in `ctxsim game`: the levels won and the tries that failed,
/// by level, as the progress file keeps them between sessions.
///
/// Pure data with its JSON form; the front end decides where the file lives and writes it.
/// Levels are keyed by their id (the file name without `.md`), so progress survives levels
/// being added or renumbered around them. A level the game no longer has is kept as it is.
///
///     {
///       "version": 1,
///       "levels": {
///         "01-the-object-in-the-cache": {"done": true, "failedTries": 2}
///       }
///     }
public struct GameProgress: Sendable, Equatable {
  /// One level's record.
  public struct Record: Sendable, Equatable {
    /// Whether the level has been won.
    public var done = false
    /// Failed tries, which decide how many hints are shown.
    public var failedTries = 0

    /// A record of a level not yet won, with no failed tries.
    public init(done: Bool = false, failedTries: Int = 0) {
      self.done = done
      self.failedTries = failedTries
    }
  }

  /// The records, by level id.
  public var levels: [String: Record]

  /// The format written; a file of another version is not read.
  public static let version = 1

  /// No level played.
  public init(levels: [String: Record] = [:]) {
    self.levels = levels
  }

  /// Whether the level with this id has been won.
  public func isDone(_ id: String) -> Bool { levels[id]?.done ?? false }

  /// Failed tries of the level with this id.
  public func failedTries(_ id: String) -> Int { levels[id]?.failedTries ?? 0 }

  /// Records what a session of the level did: won (a win is never taken back), and its
  /// failed tries so far.
  public mutating func record(_ id: String, won: Bool, failedTries: Int) {
    var record = levels[id] ?? Record()
    record.done = record.done || won
    record.failedTries = max(record.failedTries, failedTries)
    levels[id] = record
  }

  /// The first of `ids`, in order, not yet won; nil when every one is.
  public func next(among ids: [String]) -> String? {
    ids.first { !isDone($0) }
  }

  /// The progress file's text: indented JSON, levels sorted by id, a newline at the end.
  public var json: String {
    let records = levels.keys.sorted().map { id in
      JSONValue.Member(
        key: id, keyLocation: JSONValue.nowhere,
        value: .object([
          "done": .bool(levels[id]!.done), "failedTries": .integer(levels[id]!.failedTries),
        ]))
    }
    return JSONWriter.write(
      .object([
        "version": .integer(Self.version),
        "levels": JSONValue(.object(records), at: JSONValue.nowhere),
      ]))
  }

  /// Reads a progress file, `file` as errors name it; a ``Diagnostic`` that says what is
  /// wrong with it, for a warning.
  public init(json bytes: [UInt8], file: String = "progress.json") throws(Diagnostic) {
    func problem(_ message: String) -> Diagnostic {
      Diagnostic(
        file: file, location: nil, message: message,
        fix: "delete it, and the game keeps its progress afresh")
    }
    let value: JSONValue
    do {
      value = try JSONReader.read(bytes)
    } catch {
      throw problem("it is not JSON (\(error.message) at \(error.location))")
    }
    guard value.members != nil else { throw problem("it is not a JSON object") }
    guard case .integer(let version)? = value["version"]?.kind else {
      throw problem("it has no \"version\"")
    }
    guard version == Self.version else {
      throw problem("it is version \(version), and this ctxsim reads \(Self.version)")
    }
    guard let members = value["levels"]?.members else {
      throw problem("its \"levels\" is not an object")
    }
    var levels: [String: Record] = [:]
    for member in members {
      guard let done = member.value["done"]?.bool,
        case .integer(let tries)? = member.value["failedTries"]?.kind, tries >= 0
      else {
        throw problem(
          "level \"\(member.key)\" needs \"done\" (true or false) and \"failedTries\" (0 or more)")
      }
      levels[member.key] = Record(done: done, failedTries: tries)
    }
    self.levels = levels
  }
}
