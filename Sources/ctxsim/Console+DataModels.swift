import ContextSim

extension Console {
  /// How a scenario at `path` reads a data model it names: through this console, relative to
  /// the scenario's folder, or to the current directory for standard input (`-`).
  func dataModelFiles(forScenario path: String) -> DataModelFiles {
    DataModelFiles(directory: DataModelFiles.folder(ofScenario: path)) { path in
      switch readFile(path) {
      case .contents(let bytes): return .file(bytes)
      case .missing: return .missing
      case .unreadable: return .unreadable
      case .directory(let files):
        // The console lists every file under a folder; a model needs the entries directly in it.
        let base = path.hasSuffix("/") ? path : path + "/"
        let names = files.compactMap { file -> String? in
          guard file.hasPrefix(base) else { return nil }
          return file.dropFirst(base.count).split(separator: "/").first.map(String.init)
        }
        return .directory(Array(Set(names)).sorted())
      }
    }
  }
}
