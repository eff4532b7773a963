import ContextSim

/// Lessons, levels and exercises are read the same way: a Markdown file, parsed, and the
/// scenarios it names by paths from a root folder, each checked as it loads. One loader,
/// so each kind says the same thing when its file or a scenario cannot be used.
struct TeachingFile {
  var console: Console
  /// The path as given.
  var path: String
  /// What the file is, for errors: "the lesson", "the exercise's brief".
  var what: String

  /// The file parsed by `parse`; its errors are invalid input, a file that cannot be read
  /// is no input.
  func parsed<T>(_ parse: (String) throws -> T) -> Result<T, LoadFailure> {
    guard case .contents(let bytes) = console.readFile(path) else {
      return .failure(
        LoadFailure(
          message: "\(path): error: \(what) cannot be read\n  fix: check the path",
          status: ExitStatus.noInput))
    }
    do {
      return .success(try parse(String(decoding: bytes, as: UTF8.self)))
    } catch {
      return .failure(
        LoadFailure(message: String(describing: error), status: ExitStatus.invalidInput))
    }
  }

  /// The folder `up` levels above `file` (1 is its own), where the scenario paths of a
  /// lesson (2: the repository root), a level (3) or an exercise's brief (1) start.
  static func folder(of file: String, up: Int) -> String {
    let parts = file.split(separator: "/", omittingEmptySubsequences: false).dropLast(up)
    return parts.isEmpty ? "." : parts.joined(separator: "/")
  }

  /// A scenario the file names, by its path from `root`; named as the file writes it, or,
  /// with `renamed` false, by its whole path.
  func scenario(_ named: String, from root: String, renamed: Bool = true)
    -> Result<Scenario, LoadFailure>
  {
    switch loadScenario(root + "/" + named, console: console) {
    case .success(let scenario): .success(renamed ? scenario.named(named) : scenario)
    case .failure(let failure):
      .failure(
        LoadFailure(
          message: "\(path): error: its scenario \(named) cannot be used\n" + failure.message,
          status: failure.status))
    }
  }
}
