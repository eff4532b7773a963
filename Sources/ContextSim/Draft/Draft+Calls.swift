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

  /// The `--call`s of `options` that call what no file declares. A call on a receiver
  /// (`DispatchQueue.global().async { … }`, `container.newBackgroundContext()`) is checked
  /// only for the calls of the app's own it makes: those without a receiver or on `self`.
  public static func unknownCalls(in sources: [Source], options: Options) -> [UnknownCall] {
    let files = sources.map { SwiftParser.parse($0.text, name: $0.name) }
    let declared = Set(
      files.flatMap { file in
        file.functions.map(\.name) + file.types.flatMap { [$0.name] + $0.functions.map(\.name) }
      })
    var unknown: [UnknownCall] = []
    for call in options.calls {
      let parsed = SwiftParser.parse(call, name: "--call")
      for name in ownCalls(in: parsed.statements)
      where !declared.contains(name) && !knownCalls.contains(name)
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

  /// The names of calls without a receiver, or on `self`, anywhere in `statements`.
  private static func ownCalls(in statements: [SwiftStatement]) -> [String] {
    var names: [String] = []
    func visit(_ e: SwiftExpression) {
      switch e.kind {
      case .call(let callee, let arguments):
        switch callee.kind {
        case .name(let n): names.append(n)
        case .member(let base?, let n):
          if case .name("self") = base.kind { names.append(n) } else { visit(base) }
        default: visit(callee)
        }
        for argument in arguments { visit(argument.value) }
      case .closure(let closure): visitAll(closure.body)
      case .member(let base?, _), .optionalChain(let base), .forceUnwrap(let base),
        .prefix(_, let base), .try(_, let base), .await(let base), .cast(_, let base, _):
        visit(base)
      case .binary(_, let a, let b):
        visit(a)
        visit(b)
      case .tuple(let items):
        for item in items { visit(item.value) }
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
