import ContextSim
import Foundation

/// Where `ctxsim game` keeps progress between sessions, and reading and writing it there.
///
/// The file is `$XDG_STATE_HOME/ctxsim/game.json`, or `~/.local/state/ctxsim/game.json`
/// when that is unset, as the XDG Base Directory specification puts state that should
/// outlive a session but is not worth backing up. A test points `XDG_STATE_HOME` at a
/// temporary folder. Writes go to a temporary file that is then renamed over the old one,
/// so a crash or a full disk never leaves half a file; a file that cannot be read is
/// ignored with a warning, never fatal: the game starts afresh.
struct GameProgressFile {
  /// The file, or nil when the environment names no home.
  var path: String?

  /// The file the environment points at.
  ///
  /// The specification says relative paths in these variables are invalid and ignored.
  init(environment: [String: String]) {
    if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
      path = state + "/ctxsim/game.json"
    } else if let home = environment["HOME"], home.hasPrefix("/") {
      path = home + "/.local/state/ctxsim/game.json"
    } else {
      path = nil
    }
  }

  /// The progress kept; none when there is no file yet, and none, with a warning, when the
  /// file cannot be read.
  func load(console: Console) -> GameProgress {
    guard let path else { return GameProgress() }
    switch console.readFile(path) {
    case .missing:
      return GameProgress()
    case .contents(let bytes):
      do {
        return try GameProgress(json: bytes, file: path)
      } catch {
        warn("ignoring \(path): \(error.message); progress starts afresh", console)
      }
    case .directory:
      warn("ignoring \(path): it is a folder", console)
    case .unreadable:
      warn("ignoring \(path): it cannot be read", console)
    }
    return GameProgress()
  }

  /// Writes the progress; the reason it could not be written, or nil.
  func save(_ progress: GameProgress) -> String? {
    guard let path else { return "no HOME or XDG_STATE_HOME, so progress is not kept" }
    let url = URL(fileURLWithPath: path)
    do {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(progress.json.utf8).write(to: url, options: .atomic)
      return nil
    } catch {
      return "cannot write \(path): \(error.localizedDescription)"
    }
  }

  /// Forgets the progress: removes the file. The reason it could not, or nil.
  func reset() -> String? {
    guard let path, FileManager.default.fileExists(atPath: path) else { return nil }
    do {
      try FileManager.default.removeItem(atPath: path)
      return nil
    } catch {
      return "cannot remove \(path): \(error.localizedDescription)"
    }
  }

  private func warn(_ message: String, _ console: Console) {
    console.writeError("ctxsim: warning: \(message)\n")
  }
}
