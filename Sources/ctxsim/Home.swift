import Foundation

/// Where `lesson`, `game` and `exercise` find their folders when none is given, so an
/// installed `ctxsim` works from any directory.
///
/// The lessons refer to `scenarios/` and `docs/` beside their own folder, so what travels
/// is the whole home: a clone of the repository, or `PREFIX/share/ctxsim` with `Lessons`,
/// `scenarios` and `docs` copied in. Looked for, in order: the working directory, as
/// before; `$CTXSIM_HOME`; the folders above the executable (after symbolic links),
/// each as itself and as its `share/ctxsim` (`.build/release/ctxsim` in a clone, or
/// `/usr/local/bin/ctxsim` beside `/usr/local/share/ctxsim`); and last the clone this
/// binary was built from, while it still exists.
struct Home {
  var console: Console
  /// The running executable's path; nil when the system cannot say.
  var executable: String? = Bundle.main.executablePath
  /// The clone the binary was built from: three folders above this source file.
  var buildClone = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

  /// `relative` (such as `Lessons/Levels`) in the first home that has it; `relative`
  /// itself when none does, so the error names what was looked for.
  func locate(_ relative: String) -> String {
    for home in candidates() {
      let path = home.isEmpty ? relative : home + "/" + relative
      // Away from the working directory, a home is ctxsim's only with its scenarios
      // beside the lessons: `~/Lessons` of the user's own is not taken for it.
      guard home.isEmpty || isFolder(home + "/scenarios") else { continue }
      if isFolder(path) { return path }
    }
    return relative
  }

  private func isFolder(_ path: String) -> Bool {
    if case .directory = console.readFile(path) { true } else { false }
  }

  /// The homes to try, in order; "" is the working directory.
  func candidates() -> [String] {
    var homes = [""]
    if let given = console.environment["CTXSIM_HOME"], !given.isEmpty { homes.append(given) }
    if let executable {
      var folder = URL(fileURLWithPath: executable).resolvingSymlinksInPath()
        .deletingLastPathComponent()
      while folder.path != "/" && !folder.path.isEmpty {
        homes += [folder.path, folder.path + "/share/ctxsim"]
        folder.deleteLastPathComponent()
      }
    }
    homes.append(buildClone)
    return homes
  }

  /// The advice given when a folder is found nowhere.
  static func advice(option: String) -> String {
    "  fix: pass \(option) DIR, set CTXSIM_HOME to a clone of ctxsim, or run from its root\n"
  }
}
