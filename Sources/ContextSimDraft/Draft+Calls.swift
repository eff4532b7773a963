import ContextSimCore
import ContextSimReports

extension Draft {
  /// A `--call` that calls a method, initialiser or function the files do not declare:
  /// `importImagez()` for `importImages()`. Drafted, it would run nothing and say nothing.
  public struct UnknownCall: Sendable, Equatable, CustomStringConvertible {
    /// The `--call` as given.
    public var call: String
    /// The name it calls that nothing declares.
    public var name: String
    /// The declared name nearest to it, if one is near.
    public var suggestion: String?

    /// `--call 'importImagez()': no method, initialiser or function importImagez in …`.
    public var description: String {
      "--call '\(call)': nothing in the files read declares \(name)()"
    }
  }

  /// The `--call`s of `options` whose entry point no file declares. The entry point is the
  /// outermost call of each statement (`scheduler.schedule(…)`, `Importer()`), and of the
  /// blocks a queue or task runs (`DispatchQueue.global().async { … }`); what its arguments
  /// make (`Settings()`) is stood in and not checked.
  public static func unknownCalls(in sources: [Source], options: Options) -> [UnknownCall] {
    let files = sources.map { SwiftParser.parse($0.text, name: $0.name) }
    func names(_ type: SwiftType) -> [String] {
      [type.name] + type.functions.map(\.name) + type.properties.map(\.name)
        + type.types.flatMap(names)
    }
    let declared = Set(files.flatMap { $0.functions.map(\.name) + $0.types.flatMap(names) })
    let coreData = Set(Drafter.implicitMembers.values.flatMap { $0 })
    var unknown: [UnknownCall] = []
    for call in options.calls {
      let parsed = SwiftParser.parse(call, name: "--call")
      for name in entryPoints(in: parsed.statements)
      where !declared.contains(name) && !knownCalls.contains(name) && !coreData.contains(name)
        && !unknown.contains(where: { $0.call == call && $0.name == name })
      {
        unknown.append(
          UnknownCall(
            call: call, name: name,
            suggestion: nearestName(to: name, in: declared.sorted())))
      }
    }
    return unknown
  }

  /// Calls Swift, Foundation, Dispatch and Core Data make available without a receiver.
  static let knownCalls: Set<String> = [
    "print", "Task", "DispatchQueue", "withTaskGroup", "withThrowingTaskGroup", "URL", "Data",
    "Date", "UUID", "String", "Int", "Double", "Bool", "NSManagedObjectContext",
    "NSFetchRequest", "NSPredicate", "NSPersistentContainer", "fatalError", "precondition",
    "assert",
  ]

  /// The names of the outermost calls of `statements`, and of those in the blocks a
  /// queue or a task is given.
  private static func entryPoints(in statements: [SwiftStatement]) -> [String] {
    var names: [String] = []
    func visit(_ e: SwiftExpression) {
      let e = e.unwrapped.expression
      switch e.kind {
      case .call(let callee, let arguments):
        let name: String? =
          switch callee.kind {
          case .name(let n): n
          case .member(_, let n): n
          case .generic(let base, _): base.source
          default: nil
          }
        let queue = [
          "async", "sync", "asyncAfter", "Task", "detached", "perform", "performAndWait",
        ]
        if let name, !queue.contains(name) { names.append(name) }
        for case .closure(let closure) in arguments.map(\.value.kind) { visitAll(closure.body) }
      case .binary("=", _, let value): visit(value)
      case .forceUnwrap(let base), .optionalChain(let base): visit(base)
      default: break
      }
    }
    func visitAll(_ statements: [SwiftStatement]) {
      for statement in statements {
        switch statement.kind {
        case .expression(let e), .declaration(_, _, _, let e?), .return(let e?): visit(e)
        default: break
        }
      }
    }
    visitAll(statements)
    return names
  }
}
