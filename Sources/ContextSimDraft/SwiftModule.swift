/// The app's Swift as read once: its files, and what the drafter reads off all of them
/// before it drafts anything. A scan drafts the same files hundreds of times (every entry
/// point, every path), so this is shared, not read again for each draft.
struct SwiftModule: Sendable {
  let files: [SwiftFile]
  /// The app's types with their extensions' members, and the top-level ones in order.
  let types: [String: SwiftType]
  let typeOrder: [String]
  /// Names that mean the container: properties typed as one, and the usual names.
  let containerNames: Set<String>
  let typeAliases: [String: String]
  /// Every name a line declares with `let` or `var`.
  let declaredLocals: Set<String>
  /// Names declared as the file manager (`var Files: FileManager { .default }`).
  let fileManagerNames: Set<String>
  /// Containers declared at a file's top level.
  let globalContainers: Set<String>
  /// Methods named in a selector: callbacks, not entry points.
  let selectorNames: Set<String>
  /// Static optional vars with no value: nil when the app starts.
  let nilStatics: Set<String>
  /// Every line without its spaces and `?`s, to find a statement however it is spaced:
  /// `controller?.delegate = self` is `controller.delegate=self`.
  let compactLines: [String]
  /// Each file's names, every identifier it writes: what code in it can reach
  /// (``Drafter/reachableTypes(from:)``).
  let namesByFile: [String: Set<String>]
  /// The app's `NSManagedObject` subclasses, each with its superclass when that is one too.
  let managedObjectClasses: [String: String?]

  init(_ files: [SwiftFile]) {
    self.files = files
    (types, typeOrder) = Drafter.typeTable(files)
    // The usual names count even when the file declaring them is not among those read.
    containerNames = Set(
      files.flatMap(\.types).flatMap(\.properties).filter {
        ($0.type ?? "").contains("PersistentContainer")
      }.map(\.name) + ["container", "persistentContainer"])
    typeAliases = Drafter.typeAliases(in: files)
    let declarations = Drafter.lineDeclarations(in: files)
    declaredLocals = Set(declarations.map(\.name))
    // `var Files: FileManager { .default }`, `let persistentContainer: NSPersistentContainer`.
    fileManagerNames = Set(declarations.filter { $0.rest.hasPrefix("FileManager") }.map(\.name))
    globalContainers = Set(
      declarations.filter { $0.topLevel && $0.rest.contains("PersistentContainer") }.map(\.name))
    selectorNames = Drafter.selectorNames(in: files)
    nilStatics = Set(
      types.values.flatMap(\.properties).filter { p in
        (p.modifiers.contains("static") || p.modifiers.contains("class")) && !p.isLet
          && p.value == nil && p.getter == nil && (p.type ?? "").hasSuffix("?")
      }.map(\.name))
    compactLines = files.flatMap(\.lines).map { line in
      String(line.filter { $0 != " " && $0 != "?" })
    }
    var names: [String: Set<String>] = [:]
    for file in files {
      let tokens = SwiftLexer.tokens(of: file.lines.joined(separator: "\n"))
      names[file.name, default: []].formUnion(tokens.filter { $0.kind == .identifier }.map(\.text))
    }
    namesByFile = names
    managedObjectClasses = InferredModel.managedObjectClasses(in: files.flatMap(\.types))
  }
}
