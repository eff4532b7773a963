import ContextSimCore
import ContextSimReports

/// The Swift the drafter reads: declarations, statements and expressions, enough to follow
/// what an app's code does with contexts, objects and queues. Anything else is kept as an
/// ``SwiftStatement/Kind/unknown`` statement with its source line, never dropped.
struct SwiftFile: Sendable {
  var name: String
  var types: [SwiftType] = []
  var functions: [SwiftFunction] = []
  /// Top-level statements outside any declaration (a script or a playground).
  var statements: [SwiftStatement] = []
  /// The source, line by line, for quoting a statement's own line.
  var lines: [String] = []
}

extension SwiftFile {
  /// Notes the file's name on every function in it.
  mutating func stampFile(_ name: String) {
    func stamp(_ type: inout SwiftType) {
      for i in type.functions.indices { type.functions[i].file = name }
      for i in type.properties.indices { type.properties[i].file = name }
      for i in type.types.indices { stamp(&type.types[i]) }
    }
    for i in functions.indices { functions[i].file = name }
    for i in types.indices { stamp(&types[i]) }
  }
}

/// `class`, `struct`, `enum`, `actor`, `protocol` or `extension`, with its members.
struct SwiftType: Sendable {
  var keyword: String
  var name: String
  var inherits: [String] = []
  var attributes: [String] = []
  var properties: [SwiftProperty] = []
  var functions: [SwiftFunction] = []
  var types: [SwiftType] = []
  /// An enum's cases, by name: `State.archive` is a value, not a static to look up.
  var cases: [String] = []
  /// `case event = "Event"`: a case's raw value as written.
  var rawValues: [String: String] = [:]
  /// `typealias Object = IntMetricsEntry` inside it or an extension: what `T.Object` is.
  var typeAliases: [String: String] = [:]
  /// `Resource` of `class Repository<Resource: Storable>`.
  var genericParameters: [String] = []
  var location: SourceLocation
}

/// A stored or computed property, or a top-level `let`/`var`.
struct SwiftProperty: Sendable {
  var pattern: SwiftPattern
  var name: String { pattern.names.first ?? "_" }
  var isLet: Bool
  var type: String?
  var value: SwiftExpression?
  var modifiers: [String] = []
  var attributes: [String] = []
  /// A computed property's getter.
  var getter: [SwiftStatement]?
  /// A computed property's setter, and the name it gives the value set (`newValue`, unless
  /// written `set(v)`).
  var setter: [SwiftStatement]?
  var newValueName = "newValue"
  /// A stored property's `willSet` and `didSet` bodies, which Swift runs around every set
  /// but those of its own type's initialisers.
  var willSet: [SwiftStatement]?
  var didSet: [SwiftStatement]?
  /// The file it is written in, for its getter's labels.
  var file = ""
  var location: SourceLocation

  /// What a one-line getter gives: `container.viewContext` of `var main: Context {
  /// container.viewContext }` (or `{ return … }`); nil for a getter of more lines.
  var gotten: SwiftExpression? {
    guard let getter, getter.count == 1 else { return nil }
    switch getter[0].kind {
    case .return(let e?), .expression(let e): return e
    default: return nil
    }
  }

  /// A computed property's getter as the method Swift runs for it.
  var getterFunction: SwiftFunction? {
    getter.map {
      SwiftFunction(name: name, file: file, returnType: type, body: $0, location: location)
    }
  }

  /// An observer as the method Swift runs for it: `willSet` or `didSet`.
  func observerFunction(_ name: String) -> SwiftFunction? {
    (name == "willSet" ? willSet : didSet).map {
      SwiftFunction(name: "\(self.name).\(name)", file: file, body: $0, location: location)
    }
  }

  /// Its setter as the method Swift runs for it, given the value set.
  var setterFunction: SwiftFunction? {
    setter.map {
      SwiftFunction(
        name: name, file: file,
        parameters: [.init(label: nil, name: newValueName, type: type ?? "", defaultValue: nil)],
        body: $0, location: location)
    }
  }
}

/// A function, method or initialiser (`name` is `init`).
struct SwiftFunction: Sendable {
  struct Parameter: Sendable {
    /// The argument label callers write; nil for `_`.
    var label: String?
    var name: String
    var type: String
    var defaultValue: SwiftExpression?
  }

  var name: String
  /// The file it is written in, for its lines' labels wherever it is called from.
  var file = ""
  /// `T` of `func save<T: MetricScalar>(value: T)`.
  var genericParameters: [String] = []
  var parameters: [Parameter] = []
  var isAsync = false
  var isThrowing = false
  var returnType: String?
  var modifiers: [String] = []
  var attributes: [String] = []
  var body: [SwiftStatement]?
  var location: SourceLocation

  var isPrivate: Bool { modifiers.contains("private") || modifiers.contains("fileprivate") }
  /// Which function this is among overloads and same-named methods of other types.
  var identity: String { "\(file):\(location.line):\(location.column)" }
  var isStatic: Bool { modifiers.contains("static") || modifiers.contains("class") }
}

/// What a `let` or a `for` binds: a name, a tuple of patterns, or `_`.
indirect enum SwiftPattern: Sendable, Equatable {
  case name(String)
  case tuple([SwiftPattern])
  case wildcard

  var names: [String] {
    switch self {
    case .name(let n): [n]
    case .tuple(let items): items.flatMap(\.names)
    case .wildcard: []
    }
  }
}

/// One condition of an `if`, `guard` or `while`.
enum SwiftCondition: Sendable {
  case expression(SwiftExpression)
  /// `let name = value`, or `let name` alone (Swift 5.7's shorthand) when `value` is nil.
  case binding(SwiftPattern, SwiftExpression?)
  /// `case …` and `#available`: kept as written.
  case other(String)
}

struct SwiftStatement: Sendable {
  indirect enum Kind: Sendable {
    case declaration(isLet: Bool, SwiftPattern, type: String?, SwiftExpression?)
    /// `async let x = expression`: a child task computing the value while the code goes on.
    case asyncLet(SwiftPattern, SwiftExpression)
    case expression(SwiftExpression)
    case `if`([SwiftCondition], then: [SwiftStatement], else: [SwiftStatement]?)
    case `guard`([SwiftCondition], else: [SwiftStatement])
    case forIn(SwiftPattern, SwiftExpression, body: [SwiftStatement])
    case `while`([SwiftCondition], body: [SwiftStatement])
    case `do`([SwiftStatement], catches: [[SwiftStatement]])
    case `return`(SwiftExpression?)
    case `throw`(SwiftExpression)
    case `break`
    case `continue`
    case `defer`([SwiftStatement])
    case function(SwiftFunction)
    case `switch`(SwiftExpression, cases: [SwiftSwitchCase])
    /// Parsed but not followed: `repeat`, a local type, a statement the parser could not
    /// read.
    case unknown
  }

  var kind: Kind
  var location: SourceLocation
}

/// One `case` of a `switch`, or its `default`.
struct SwiftSwitchCase: Sendable {
  /// Each pattern as written, `.mainQueueConcurrencyType`, `"a"`, `let x`; empty for
  /// `default`.
  var patterns: [String]
  var body: [SwiftStatement]
  var isDefault: Bool { patterns.isEmpty }
}

/// An expression, with where it starts.
struct SwiftExpression: Sendable {
  indirect enum Kind: Sendable {
    /// A name: `context`, `self`, `$0`, `Photo`.
    case name(String)
    case string(String, interpolations: [String])
    case number(String)
    case bool(Bool)
    case `nil`
    /// `base.member`, or `.member` alone when `base` is nil (an implicit member).
    case member(SwiftExpression?, String)
    /// `f(a, label: b) { trailing }`: trailing closures are arguments, the first unlabeled.
    case call(SwiftExpression, [SwiftArgument])
    case subscriptAccess(SwiftExpression, [SwiftArgument])
    case closure(SwiftClosure)
    /// `(a, b)`; one unlabeled element is a parenthesised expression, kept as itself.
    case tuple([SwiftArgument])
    case array([SwiftExpression])
    case dictionary([(SwiftExpression, SwiftExpression)])
    /// `x?` in `x?.y` or `x?(…)`.
    case optionalChain(SwiftExpression)
    case forceUnwrap(SwiftExpression)
    case prefix(String, SwiftExpression)
    /// Every infix operator, assignment included: `=`, `??`, `==`, `+=`.
    case binary(String, SwiftExpression, SwiftExpression)
    case ternary(SwiftExpression, SwiftExpression, SwiftExpression)
    /// `try`, `try?` or `try!` (the operator is `""`, `"?"` or `"!"`).
    case `try`(String, SwiftExpression)
    case await(SwiftExpression)
    /// `as`, `as?`, `as!` or `is`, with the type as written.
    case cast(String, SwiftExpression, String)
    /// `Name<Arguments>`, as in `NSFetchRequest<Photo>(entityName: "Photo")`.
    case generic(SwiftExpression, [String])
    /// Anything else, as written.
    case other(String)
  }

  var kind: Kind
  var location: SourceLocation
}

struct SwiftArgument: Sendable {
  var label: String?
  var value: SwiftExpression
}

/// `{ [capture] a, b in statements }`.
struct SwiftClosure: Sendable {
  /// The file it is written in: its lines are labelled there wherever it is drafted.
  var file = ""
  var captures: [String] = []
  var parameters: [String] = []
  /// `@MainActor in`: the attributes written before the parameters.
  var attributes: [String] = []
  var body: [SwiftStatement] = []
}
