import Foundation

/// The world the front end talks to: output streams, the environment, the file system.
///
/// Tests pass a console that records output, so the whole tool runs in-process.
struct Console {
  var write: (String) -> Void
  var writeError: (String) -> Void
  /// Whether standard output is a terminal, which allows colour.
  var isTerminal: Bool
  var environment: [String: String]
  var readFile: (String) -> FileRead
  /// Whether standard error is a terminal, where a long search shows that it is going on.
  var errorIsTerminal = false

  enum FileRead {
    case contents([UInt8])
    case directory([String])
    case missing
    case unreadable
  }

  static var standard: Console {
    Console(
      write: { FileHandle.standardOutput.write(Data($0.utf8)) },
      writeError: { FileHandle.standardError.write(Data($0.utf8)) },
      isTerminal: isatty(STDOUT_FILENO) == 1,
      environment: ProcessInfo.processInfo.environment,
      readFile: readFromDisk,
      errorIsTerminal: isatty(STDERR_FILENO) == 1)
  }

  /// Reads a file, or lists the files under a directory, sorted.
  /// `-` reads standard input.
  static func readFromDisk(_ path: String) -> FileRead {
    if path == "-" {
      return .contents(Array(FileHandle.standardInput.readDataToEndOfFile()))
    }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      return .missing
    }
    if isDirectory.boolValue {
      let files = FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String } ?? []
      let base = path.hasSuffix("/") ? path : path + "/"
      return .directory(files.sorted().map { base + $0 })
    }
    // Special files such as /dev/stdin have no size up front; read them as a stream.
    guard
      let data = FileManager.default.contents(atPath: path)
        ?? FileHandle(forReadingAtPath: path)?.readDataToEndOfFile()
    else { return .unreadable }
    return .contents(Array(data))
  }

  /// Colour is used only when asked for, or on a terminal without `NO_COLOR` set.
  func useColour(_ choice: ColourChoice) -> Bool {
    switch choice {
    case .always: true
    case .never: false
    case .auto:
      isTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }
  }
}

enum ColourChoice: String, CaseIterable {
  case auto, always, never
}
