/// The numbered Markdown files `lesson`, `game` and `exercise` list and open: `NN-name.md`
/// (after a prefix such as `exercise-`) directly in their folder, found by number (`1`,
/// `01`), by part of the name, or by a path ending in `.md`.
struct NumberedFiles {
  /// The folder the files are in.
  var folder: String
  /// What the names start with before the number: `exercise-`, or nothing.
  var prefix = ""

  /// The files directly in the folder, sorted; subfolders are left out.
  func list(_ console: Console) -> [String] {
    guard case .directory(let all) = console.readFile(folder) else { return [] }
    let inside = folder.hasSuffix("/") ? folder : folder + "/"
    return all.filter { path in
      let name = path.hasPrefix(inside) ? String(path.dropFirst(inside.count)) : path
      return !name.contains("/") && name.hasSuffix(".md") && number(of: name) != nil
    }
  }

  /// A file by number, by part of its name, or by path.
  func resolve(_ name: String, in files: [String]) -> String? {
    if name.hasSuffix(".md") { return name }
    if let n = Int(name) { return files.first { number(of: $0) == n } }
    return files.first { base($0).contains(name) }
  }

  /// The number a file's name starts with, after the prefix.
  func number(of path: String) -> Int? {
    let name = base(path)
    guard name.hasPrefix(prefix) else { return nil }
    return Int(name.dropFirst(prefix.count).prefix { $0.isNumber })
  }

  /// The error when the folder has none of the files: where ctxsim looked, and how to
  /// point it elsewhere.
  func noneHere(_ what: String, option: String) -> String {
    "\(folder): error: no \(what) here\n" + Home.advice(option: option)
  }

  private func base(_ path: String) -> String {
    path.split(separator: "/").last.map(String.init) ?? path
  }
}
