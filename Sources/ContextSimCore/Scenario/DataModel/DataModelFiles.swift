import Foundation

/// Where a scenario whose `"model"` names an Xcode data model finds that model's files.
///
/// The library reads no file on its own: the caller says which folder a relative path starts
/// from and what reading a path finds. The front end reads through its console, so its tests
/// can stand files in; ``disk(relativeTo:)`` reads the real file system. A scenario decoded
/// without one (a fuzzer's input, a scenario built in Swift) cannot name a model's file.
public struct DataModelFiles {
  /// What reading one path found.
  public enum Entry: Sendable, Equatable {
    /// A file's bytes.
    case file([UInt8])
    /// A folder, with the names of the entries directly inside it (hidden ones included).
    case directory([String])
    /// Nothing is there.
    case missing
    /// Something is there that cannot be read.
    case unreadable
  }

  /// The folder a relative path starts from: the scenario file's own, or `""` for the current
  /// directory (a scenario read from standard input).
  public var directory: String
  /// Reads one path, already joined to ``directory`` when it was relative.
  public var read: (String) -> Entry

  /// Files found by `read`, relative paths starting from `directory`.
  public init(directory: String, read: @escaping (String) -> Entry) {
    self.directory = directory
    self.read = read
  }

  /// `path` as `read` is given it: unchanged when absolute, else inside ``directory``.
  ///
  ///     DataModelFiles(directory: "scenarios", …).resolve("Photos.xcdatamodeld")
  ///     // "scenarios/Photos.xcdatamodeld"
  public func resolve(_ path: String) -> String {
    if path.hasPrefix("/") || directory.isEmpty || directory == "." { return path }
    return directory.hasSuffix("/") ? directory + path : directory + "/" + path
  }

  /// What one decoding read, kept so that decoding the scenario again reads the same
  /// entries without going back to the disk (``Scenario/separateCopy()``).
  final class Reads {
    private var entries: [String: Entry] = [:]

    /// `files`, noting each entry it reads.
    func recording(_ files: DataModelFiles) -> DataModelFiles {
      DataModelFiles(directory: files.directory) { path in
        let entry = files.read(path)
        self.entries[path] = entry
        return entry
      }
    }

    /// Files that hold what was read, and nothing else, as of now: a maker of them, since
    /// a reader is not `Sendable` but what it reads is.
    func replaying(in directory: String) -> @Sendable () -> DataModelFiles {
      let entries = self.entries
      return { DataModelFiles(directory: directory) { entries[$0] ?? .missing } }
    }
  }

  /// The real file system, relative paths starting from `directory`.
  public static func disk(relativeTo directory: String) -> DataModelFiles {
    DataModelFiles(directory: directory, read: readFromDisk)
  }

  /// The folder a scenario file is in, as ``directory`` wants it: `"scenarios"` for
  /// `scenarios/photos.json`, `""` for `photos.json` or standard input (`-`).
  public static func folder(ofScenario path: String) -> String {
    guard path != "-", let slash = path.lastIndex(of: "/") else { return "" }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  private static func readFromDisk(_ path: String) -> Entry {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      return .missing
    }
    if isDirectory.boolValue {
      guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
        return .unreadable
      }
      return .directory(names.sorted())
    }
    guard let data = FileManager.default.contents(atPath: path) else { return .unreadable }
    return .file(Array(data))
  }
}
