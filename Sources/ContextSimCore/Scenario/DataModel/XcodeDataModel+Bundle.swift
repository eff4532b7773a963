import Foundation

/// Finds the `contents` file of a model's current version, as Xcode and `momc` choose it.
///
/// An `.xcdatamodeld` bundle holds one `.xcdatamodel` folder per version and, once a second
/// version exists, an `.xccurrentversion` property list naming the current one under
/// `_XCCurrentVersionName`. A bundle of one version may lack that file; then the one version
/// is current. A path naming an `.xcdatamodel` folder reads that version, current or not.
///
///     Photos.xcdatamodeld/.xccurrentversion             _XCCurrentVersionName: Photos 2.xcdatamodel
///     Photos.xcdatamodeld/Photos 2.xcdatamodel/contents  ← read
struct BundleSearch {
  /// The path as written.
  var path: String
  var files: DataModelFiles
  var reference: ModelReference?

  private var trimmed: String {
    var path = path
    while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
    return path
  }

  private var resolved: String { files.resolve(trimmed) }

  /// The current version's `contents` path and bytes.
  func currentContents() throws(Diagnostics) -> (path: String, bytes: [UInt8]) {
    let version: String
    if trimmed.hasSuffix(".xcdatamodel") {
      _ = try folder(resolved)
      version = resolved
    } else if trimmed.hasSuffix(".xcdatamodeld") {
      version = resolved + "/" + (try currentVersion(among: try folder(resolved)))
    } else {
      throw failure(
        trimmed.isEmpty
          ? "the path is empty"
          : "not an Xcode data model: the name ends in neither .xcdatamodeld nor .xcdatamodel",
        fix: "name the model's .xcdatamodeld folder, or write the model as an object")
    }
    let contents = version + "/contents"
    switch files.read(contents) {
    case .file(let bytes): return (contents, bytes)
    case .missing, .directory:
      throw failure(
        "the version \"\(name(of: version))\" has no contents file",
        fix: "Xcode writes one in every version; open the model in Xcode and save it")
    case .unreadable:
      throw failure("\"\(contents)\" cannot be read", fix: "check its permissions")
    }
  }

  /// The entries of a folder the path must name, or why it does not.
  private func folder(_ path: String) throws(Diagnostics) -> [String] {
    switch files.read(path) {
    case .directory(let names): return names
    case .missing:
      throw failure(
        "no such folder",
        fix: reference == nil
          ? "check the path" : "a relative path starts from the scenario's folder; check it")
    case .file:
      throw failure(
        "this is a file, but a model is a folder",
        fix: "name the .xcdatamodeld folder Xcode saves, not a file inside it")
    case .unreadable:
      throw failure("the folder cannot be read", fix: "check its permissions")
    }
  }

  /// The version `.xccurrentversion` names, or the only one.
  private func currentVersion(among entries: [String]) throws(Diagnostics) -> String {
    let versions = entries.filter { $0.hasSuffix(".xcdatamodel") }.sorted {
      Self.order(of: $0) < Self.order(of: $1)
    }
    if entries.contains(".xccurrentversion") {
      return try namedVersion(among: versions)
    }
    switch versions.count {
    case 1: return versions[0]
    case 0:
      throw failure(
        "the bundle holds no version (no .xcdatamodel folder)",
        fix: "name the .xcdatamodeld folder Xcode saves, with its versions inside")
    default:
      throw failure(
        "the bundle holds \(versions.count) versions ("
          + versions.map { "\"\(name(of: $0))\"" }.joined(separator: ", ")
          + ") and no .xccurrentversion to say which is current",
        fix: "set the current version in Xcode (the model's File inspector, Model Version), "
          + "or name one version: \"\(trimmed)/\(versions[versions.count - 1])\"")
    }
  }

  /// The version `.xccurrentversion` names under `_XCCurrentVersionName`.
  private func namedVersion(among versions: [String]) throws(Diagnostics) -> String {
    let plist = resolved + "/.xccurrentversion"
    func problem(_ message: String, fix: String) -> Diagnostics {
      Diagnostics([
        Diagnostic(file: plist, location: nil, path: nil, message: message, fix: fix)
      ])
    }
    guard case .file(let bytes) = files.read(plist) else {
      throw problem("the file cannot be read", fix: "check its permissions")
    }
    let dictionary =
      (try? PropertyListSerialization.propertyList(from: Data(bytes), format: nil))
      as? [String: Any]
    if let dictionary, dictionary["_XCCurrentVersionName"] == nil, versions.count == 1 {
      return versions[0]  // `<dict/>`, as Xcode leaves a model never versioned: its one version
    }
    guard let named = dictionary?["_XCCurrentVersionName"] as? String else {
      throw problem(
        "not a property list naming the current version under _XCCurrentVersionName",
        fix: "set the current version again in Xcode's File inspector, which rewrites it")
    }
    guard versions.contains(named) else {
      throw problem(
        "the current version is \"\(named)\", which the bundle does not hold",
        fix: "set the current version again in Xcode's File inspector"
          + (nearestName(to: named, in: versions).map { "; did you mean \"\($0)\"?" } ?? ""))
    }
    return named
  }

  /// Versions in the order Xcode names them: `Photos`, `Photos 2`, … `Photos 10`.
  private static func order(of version: String) -> (String, Int) {
    let name = version.dropLast(".xcdatamodel".count)
    if let space = name.lastIndex(of: " "), let number = Int(name[name.index(after: space)...]) {
      return (String(name[..<space]), number)
    }
    return (String(name), 1)
  }

  private func name(of version: String) -> String {
    let last = version.split(separator: "/").last.map(String.init) ?? version
    return String(last.dropLast(".xcdatamodel".count))
  }

  /// A problem finding the model: at the scenario's `"model"` when it names the model, else
  /// in the path itself.
  private func failure(_ message: String, fix: String) -> Diagnostics {
    let error =
      if let reference {
        Diagnostic(
          file: reference.file, location: reference.location, path: "model",
          message: "\"\(resolved)\": \(message)", fix: fix)
      } else {
        Diagnostic(file: resolved, location: nil, path: nil, message: message, fix: fix)
      }
    return Diagnostics([error])
  }
}
