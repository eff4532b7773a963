import ContextSimCore
import ContextSimReports

/// Turns parsed Swift into a scenario: the instance's properties into contexts, shared vars
/// and stand-ins, each entry point into steps on the main thread, and what the steps touch
/// into a model when none is given.
struct Drafter {
  /// What a Swift name stands for while the drafter follows the code.
  enum Meaning: Equatable {
    case container
    case context(String)
    case object(String, entity: String?)
    case objects(String, entity: String?)
    case objectID(String)
    /// A plain value bound by a step: a parameter, a `let`, a loop variable.
    case value(String)
    /// A stored property of the instance, shared between queues: race-checked.
    case shared(String)
    /// A fetch request being built.
    case request(FetchRequestDraft)
    /// An injected dependency (a protocol-typed property): it answers at once.
    case dependency
    case queue(String)
    case instance
    /// The notification an observer's body receives.
    case notification(String)
    /// A batch update or delete request being built.
    case batchRequest(BatchRequest)
    /// A fetched results controller, and the entity it lists.
    case controller(String, entity: String?)
    /// A closure the entry point's caller passed: stood in by one that does nothing.
    case callersClosure
    /// The instance the draft makes of one of the app's types (a stack, a manager): its
    /// stored properties mean what ``Drafter/instanceMembers`` says, its methods are drafted.
    case instanceOf(String)
    /// A closure held as a value (`let block = { … }`, a parameter given one): its body is
    /// drafted where it is called or handed to `perform`, not where it is written.
    /// The number is its place in ``Drafter/heldClosures``.
    case closure(Int)
    /// A parameter given what the draft cannot follow: it hides an outer name spelt the
    /// same (the instance's property), and what is done with it is not modelled.
    case opaque
    /// A network library's client, of a type no file declares (`AFHTTPSessionManager()`,
    /// `MageSessionManager.shared()`): it sends requests and calls back, and is handed no
    /// context. Its callbacks are drafted (``Drafter/callbackSteps(_:result:at:)``).
    case networkClient
    /// A list of the app's instances, one of each type named (`[Insert(), Wipe()]`, a
    /// variadic `any Command...`): a loop over it runs its body once for each.
    case instances([String])
  }

  /// The files read, and what was read off all of them once (``SwiftModule``).
  let module: SwiftModule
  var files: [SwiftFile] { module.files }
  var types: [String: SwiftType] { module.types }
  var typeOrder: [String] { module.typeOrder }
  var containerNames: Set<String> { module.containerNames }
  var typeAliases: [String: String] { module.typeAliases }
  var declaredLocals: Set<String> { module.declaredLocals }
  var selectorNames: Set<String> { module.selectorNames }
  var globalContainers: Set<String> { module.globalContainers }
  var fileManagerNames: Set<String> { module.fileManagerNames }
  var compactLines: [String] { module.compactLines }
  let options: Options
  /// The conditions on values only decided so far, in the order met.
  var decisions: [Decision] = []
  typealias Options = Draft.Options

  var summary: [String] = []
  /// Lines kept without modelling them, each once, in the order drafted.
  var unmodelled: [Unmodelled] = []
  /// Lines a rule of docs/draft.md passed over as having no Core Data effect.
  var passedOver: [PassedOver] = []
  /// How many items each list the draft made holds, by its variable: `xs.count` of one.
  var listLengths: [String: Int] = [:]
  /// Shared vars declared with `let`: never written after `init`, so reading one races
  /// with nothing and a line passed over reads it without a step.
  var constants: Set<String> = []
  var model = InferredModel()
  var scopes: [[String: Meaning]] = [[:]]
  /// Each scope's number, in step with `scopes`: a held closure finds by it the scope it
  /// was written in (``HeldClosure/scope``).
  var scopeNumbers: [Int] = [0]
  var scopesMade = 1
  /// The scopes, by number, that hold an instance's properties (the bottom one, and each
  /// inlined method's): where `self.name` looks, past the locals and parameters above.
  var memberScopes: Set<Int> = [0]
  var sharedVars: [(String, JSONValue)] = []
  /// The type whose property first named each shared var.
  var sharedVarOwners: [String: String] = [:]
  var contexts: [(String, JSONValue)] = []
  /// Dispatch queues the code makes (`DispatchQueue(label:)`), as `"queues"` declares them.
  var queues: [(String, JSONValue)] = []
  /// The file of the code being drafted, for labels and quoted lines.
  var file: SwiftFile
  /// The type whose methods are being drafted.
  var subject: SwiftType?
  /// Methods being inlined, so recursion stops.
  var inlining: [String] = []
  /// Where a `return` inside the code being inlined binds its value.
  var returnTarget: String?
  /// The flag a `return` sets, inside a statement after which the function goes on only
  /// when it did not return (``steps(_:)``); nil at a function's own top level.
  var returnFlag: String?
  /// Whether the code runs on the main actor (`@MainActor` type or function).
  var onMainActor = false
  /// Attribute types of values bound by stand-ins (`Data(contentsOf:)` gives `binary`).
  var valueTypes: [String: String] = [:]
  /// The Swift type of values the draft knows it of (`Int(count)`, `3`, a parameter
  /// `value: Double`): what a generic `T` given one stands for (`T.Object`).
  var swiftTypes: [String: String] = [:]
  /// The sample a dependency fails for (`--fail-item`), once a collection stand-in has it.
  var failingSample: JSONValue?
  /// Whether the code being drafted runs on the main thread: known for each block from its
  /// queue, so `Thread.isMainThread` has one answer; nil when it is not known.
  var onMainThread: Bool? = true
  /// The entity of each object ID bound, so an object looked up by it has one.
  var idEntities: [String: String] = [:]
  /// The properties that become shared vars: a local of the same name is renamed.
  var reservedNames: Set<String> = []
  /// Inside an entity's initialiser: the object being made, and its entity.
  var currentEntity: (object: String, entity: String)?
  /// Parents set after a context was made (`child.parent = viewContext`), by the context's
  /// name: they go into the step that makes it, as Core Data fixes a context's parent
  /// before its first use.
  var parents: [String: String] = [:]
  /// Stand-ins for a `--call`'s arguments, made on the main thread before it.
  var preamble: [JSONValue] = []
  /// The return type of the method being inlined, for a stand-in of what it looks up.
  var returning: String?
  /// Results of inlined methods, bound to nil before the method's body: `return nil` in
  /// it needs no step.
  var boundToNil: Set<String> = []
  /// The closures held as values (``Meaning/closure(_:)``), in the order they were bound.
  var heldClosures: [HeldClosure] = []
  /// While a method is inlined: where the calling code was, so a closure it hands the
  /// method is drafted as written there.
  var caller: Vantage?
  /// Arguments computed into names of their own so far (``argumentSteps(_:at:)``).
  var argumentsComputed = 0
  /// The held closures being drafted now, which a closure's own body may not run again.
  var runningClosures: Set<Int> = []
  /// Functions declared inside the code drafted so far (`func unlink(_ blob: Blob) { … }`),
  /// called by name after their declaration; the latest of a name first.
  var localFunctions: [SwiftFunction] = []
  /// Names bound to what store setup made (`let store = NSPersistentStoreDescription(url:)`):
  /// setting their properties is store setup too.
  var storeSetupNames: Set<String> = []
  /// Locals naming the default notification centre: `let center = NotificationCenter.default`.
  var notificationCenters: Set<String> = []
  /// Locals bound to a selector (`let didSave = #selector(…)`), by the method it names.
  var selectors: [String: String] = [:]
  /// Locals bound to a notification's name (`let name = NSNotification.Name…DidSave`), by
  /// the scenario's name for it; empty for one the model never posts.
  var notificationNames: [String: String] = [:]
  /// Contexts made on the main queue besides `viewContext`.
  var mainQueueContexts: Set<String> = []
  /// The contexts the draft's steps make, each once: a method that makes one, called
  /// twice, makes two (`context`, `context2`).
  var madeContexts: Set<String> = []
  /// The fetched results controllers the draft's steps make; using one it did not make
  /// is a line not modelled.
  var madeControllers: Set<String> = []
  /// Parameters given an enum case written out (`createContext(.mainQueueConcurrencyType)`),
  /// by name, with the case as written.
  var enumArguments: [String: String] = [:]

  /// `name`, or `name2`, `name3`… when a step has made a context of that name already.
  mutating func freshContext(_ name: String) -> String {
    var fresh = name
    var n = 1
    while madeContexts.contains(fresh) {
      n += 1
      fresh = name + "\(n)"
    }
    madeContexts.insert(fresh)
    return fresh
  }
  /// The literal each value name was given, where the draft knows it (a parameter given
  /// `"Task"`): an entity's name passed down to `insertNewObject(forEntityName:into:)`.
  var literals: [String: JSONValue] = [:]
  /// A generic helper's type parameters while its body is drafted (`insert<T>(_ type:
  /// T.Type)` given `Note.self`: `T` is `Note`), and those given what the draft cannot name
  /// (`T.Object.self`), which name no entity.
  var typeArguments: [String: String] = [:]
  var unnamedTypeParameters: Set<String> = []
  /// The type arguments the one instance of a generic app type was made with
  /// (`PersistentRepository<BacktraceReport>(…)`), bound while its methods are drafted.
  var madeTypeArguments: [String: [String]] = [:]
  /// Semaphores made by name (``semaphoreSteps(_:result:at:)``), and how many blocks that
  /// run later the code being drafted is inside.
  var semaphores: [String: SemaphoreDraft] = [:]
  var asyncDepth = 0
  /// The generic helper's parameters that hold a type (`type` of `_ type: T.Type`), and
  /// the type parameter each holds.
  var typeParameters: [String: String] = [:]
  /// Names nil wherever they are seen, whose `if let` never runs: the error the store's
  /// load handler is given.
  var knownNil: Set<String> = []
  /// `static var shared: Stack?` declared without a value: nil until a line sets it, as at
  /// launch, where a draft starts.
  var nilStatics: Set<String> = []
  /// The type whose method is being drafted, entities' and containers' too: where a bare
  /// call of a static method (`create()` in `initialize()`) is found.
  var enclosingType: SwiftType?
  /// The types drafted as instances, whose methods a call may name.
  var drafted: [SwiftType] = []
  /// What an enum case's payload means, for a name given `.success(stack)`.
  var enumPayloads: [String: Meaning?] = [:]
  /// What each app type's stored properties mean on the one instance the draft makes of it.
  var instanceMembers: [String: [String: Meaning]] = [:]
  /// The app types a line of the draft has made an instance of (`Store(name: "Main")`).
  var madeInstances: Set<String> = []
  /// Receivers made by a call (`Model(store: s).save()`) being drafted before their method.
  var madeReceivers: Set<SourceLocation> = []

  init(files: [SwiftFile], options: Options) {
    self.init(module: SwiftModule(files), options: options)
  }

  init(module: SwiftModule, options: Options) {
    self.module = module
    self.options = options
    file = module.files.first ?? SwiftFile(name: "input.swift")
    model = InferredModel(given: options.model)
    if options.model == nil {
      model.addManagedProperties(
        of: module.files.flatMap(\.types), classes: module.managedObjectClasses)
    }
    nilStatics = module.nilStatics
  }

  /// The given model, with the entities the code names that it lacks (an object whose
  /// entity the draft cannot tell, `Item`) added as the draft inferred them: the given
  /// model's own entities are kept as written.
  var givenModelWithAddedEntities: JSONValue? {
    guard case .object(let given)? = options.model?.kind else { return options.model }
    guard case .object(let inferred)? = model.json?.kind else { return options.model }
    let added = inferred.filter { entity in !given.contains { $0.key == entity.key } }
    return added.isEmpty ? options.model : JSONValue(.object(given + added), at: JSONValue.nowhere)
  }

  /// `typealias StackResultClosure = (result: Result) -> Void`, by name: the Swift reader
  /// passes over `typealias`, so its lines are read here.
  static func typeAliases(in files: [SwiftFile]) -> [String: String] {
    var aliases: [String: String] = [:]
    for line in files.flatMap(\.lines) {
      let words = line.split(separator: " ", omittingEmptySubsequences: true)
      guard let k = words.firstIndex(of: "typealias"), k + 2 < words.count,
        words[k + 2] == "="
      else { continue }
      aliases[String(words[k + 1])] = words[(k + 3)...].joined(separator: " ")
    }
    return aliases
  }

  // MARK: Names

  func meaning(of name: String) -> Meaning? {
    for scope in scopes.reversed() {
      if let m = scope[name] { return m }
    }
    return nil
  }

  /// What one of the instance's own properties is, whatever a local name hides it.
  func instanceMeaning(of name: String) -> Meaning? { scopes[0][name] }

  /// What `name` is among the locals and parameters of the method being drafted: those
  /// above its instance's scope, not its caller's.
  func localMeaning(of name: String) -> Meaning? {
    for i in scopes.indices.reversed() {
      if memberScopes.contains(scopeNumbers[i]) { return nil }
      if let m = scopes[i][name] { return m }
    }
    return nil
  }

  /// What `self.name` is: the property of the instance whose method is drafted, whatever
  /// local or parameter of that name (`{ context in self.context … }`) hides it.
  func memberMeaning(of name: String) -> Meaning? {
    for i in scopes.indices.reversed() where memberScopes.contains(scopeNumbers[i]) {
      if let m = scopes[i][name] { return m }
    }
    return nil
  }

  /// The scenario's name for a local the Swift calls `name`: another when a shared var
  /// has that name, as a scenario's names are one namespace.
  func localName(_ name: String) -> String {
    reservedNames.contains(name) ? name + "Local" : name
  }

  mutating func bind(_ name: String, _ meaning: Meaning) {
    scopes[scopes.count - 1][name] = meaning
  }

  mutating func scoped<T>(_ work: (inout Drafter) -> T) -> T {
    pushScope([:])
    defer { popScope() }
    return work(&self)
  }

  /// The app's types a run of `calls` can reach: those the calls name (a type, or a
  /// receiver named for one, `stack.save()`), and from each, every type the files declaring
  /// it name (an over-approximation: a file's names, not its type's alone), every type that
  /// adopts a protocol reached, and what top-level declarations name.
  func reachableTypes(from calls: [String]) -> Set<String> {
    var names = Set<String>()
    for call in calls {
      for token in SwiftLexer.tokens(of: call) where token.kind == .identifier {
        names.insert(token.text)
        names.insert(token.text.prefix(1).uppercased() + token.text.dropFirst())
      }
    }
    // Files with top-level code reach what it names wherever it runs.
    for file in files where !file.statements.isEmpty || !file.functions.isEmpty {
      names.formUnion(module.namesByFile[file.name] ?? [])
    }
    var reached = Set<String>()
    // A method called bare (`viewDidLoad()`) is of the type that declares it.
    var queue = names.filter { types[$0] != nil }
    for (name, type) in types where type.functions.contains(where: { names.contains($0.name) }) {
      queue.insert(name)
    }
    while let name = queue.popFirst() {
      guard reached.insert(name).inserted else { continue }
      var next = Set<String>()
      // The files declaring it, or a type it is declared in (`SessionEntry.Complete`).
      for file in files
      where file.types.contains(where: { $0.name == name || $0.types.contains { $0.name == name } })
      {
        next.formUnion(module.namesByFile[file.name] ?? [])
      }
      // A protocol reached: every type that adopts it may be the one behind it.
      for (other, type) in types where type.inherits.contains(name) { next.insert(other) }
      queue.formUnion(next.filter { types[$0] != nil && !reached.contains($0) })
    }
    return reached
  }

  /// Runs `work` in a method's two scopes: its instance's (a member scope, where `self.x`
  /// looks; ``bindMember(_:_:)``), and above it its parameters' and locals', which hide
  /// the instance's properties from bare names.
  mutating func inMethodScopes<T>(_ work: (inout Drafter) -> T) -> T {
    scoped { outer in
      outer.memberScopes.insert(outer.scopeNumbers[outer.scopeNumbers.count - 1])
      return outer.scoped(work)
    }
  }

  /// Binds one of the instance's properties, or `self`, in the member scope of
  /// ``inMethodScopes(_:)``, below the parameters.
  mutating func bindMember(_ name: String, _ meaning: Meaning) {
    scopes[scopes.count - 2][name] = meaning
  }

  mutating func pushScope(_ names: [String: Meaning]) {
    scopes.append(names)
    scopeNumbers.append(scopesMade)
    scopesMade += 1
  }

  @discardableResult
  mutating func popScope() -> [String: Meaning] {
    scopeNumbers.removeLast()
    return scopes.removeLast()
  }

  // MARK: The scenario

  mutating func draft() -> JSONValue {
    var main: [JSONValue] = []
    // A type with code (methods, computed properties: `var current: T { queue.sync { raw } }`)
    // or that holds a context, container or queue of its own (`final class API { let context
    // = … }`), which other code reaches through it.
    var types = typeOrder.compactMap { self.types[$0] }.filter { type in
      isAppType(type.name)
        && (!type.functions.isEmpty
          || type.properties.contains { p in
            if p.getter != nil { return true }
            guard p.value != nil else { return false }  // given by whoever makes it
            switch Self.meaning(of: p) {
            case .context, .container, .queue: return true
            default: return false
            }
          })
    }
    // Every app type's plain stored properties may become shared vars, whose names a
    // scenario's locals cannot take: a type drafted only when another makes it has them too.
    for type in self.types.values where isAppType(type.name) {
      for property in type.properties where property.getter == nil {
        if case .shared = meaning(ofProperty: property) { reservedNames.insert(property.name) }
      }
    }
    // With calls, only the types they can reach: an instance of any other would run its
    // initialiser's lines in a run that never touches it.
    if !options.calls.isEmpty {
      let reachable = reachableTypes(from: options.calls)
      types = types.filter { reachable.contains($0.name) }
    }
    drafted = types
    for type in types {
      self.file = files.first { $0.types.contains { $0.name == type.name } } ?? file
      main += draftInstance(of: type)
    }
    main += drafted(calls: options.calls)
    if !types.isEmpty { main += screen() }
    if types.isEmpty {
      for file in files {
        self.file = file
        // A script's statements are what runs; its functions run when called.
        if options.calls.isEmpty {
          main += steps(file.statements)
          for function in file.functions where file.statements.isEmpty {
            main += draftCall(function)
          }
        }
      }
    }
    main = main.map(withParents)
    if main.isEmpty {
      main.append(
        .object(["print": .string("nothing to run: no class or function uses Core Data")]))
    }
    var members: [(String, JSONValue?)] = [
      ("title", .string("Drafted from " + files.map(\.name).joined(separator: ", "))),
      (
        "about",
        .string(
          "Drafted by ctxsim draft from the app's own Swift. Each step's label is its file and line;"
            + " lines it does not model are notModelled steps, and a run past one is never clean."
            + " See docs/draft.md.")
      ),
      ("model", givenModelWithAddedEntities ?? model.json),
    ]
    let store = model.storeJSON(items: options.items)
    if !store.isEmpty { members.append(("store", .ordered(store))) }
    if !contexts.isEmpty { members.append(("contexts", .ordered(contexts))) }
    if !queues.isEmpty { members.append(("queues", .ordered(queues))) }
    if !sharedVars.isEmpty { members.append(("vars", .ordered(sharedVars))) }
    var used: [String: Int] = [:]
    members.append(("main", .array(Self.uniqueLabels(main, used: &used))))
    if options.declaresClean { members.append(("expect", .object(["violations": .array([])]))) }
    return .ordered(members.compactMap { key, value in value.map { (key, $0) } })
  }

  /// `--call`s: each is Swift, drafted on the main thread as if the app ran it there
  /// (`download(urls, into: album)`, `Journey()`, `DispatchQueue.global().async { f() }`).
  /// Names the call uses that nothing binds are the called method's parameters, stood in
  /// on the main thread before the call.
  mutating func drafted(calls: [String]) -> [JSONValue] {
    var out: [JSONValue] = []
    // One scope for every call: `let c = Controller()` in one, `c.save()` in the next.
    pushScope([:])
    defer { popScope() }
    var previousWasEvent = false
    for text in calls {
      let parsed = SwiftParser.parse(text, name: "--call")
      // A screen's method after another (`viewDidLoad()`, then `didTapAddButton(sender)`):
      // a user's later event, which comes once the work the earlier one started settled.
      let isEvent = isScreenEvent(parsed.statements)
      let later = isEvent && previousWasEvent
      previousWasEvent = isEvent
      let saved = file
      file = SwiftFile(name: "--call", lines: [text])
      preamble = []
      preamble += standInsForFreeReceivers(in: parsed.statements)
      var body = steps(parsed.statements)
      if calledMethod(of: parsed.statements)?.isAsync == true {
        // An async method is awaited in a task on the main actor, as a button's action would.
        body = [
          .object([
            "task": .string("main"), "swift": .string("Task { @MainActor in \(text) }"),
            "do": .array(body),
          ])
        ]
      }
      if later {
        body = [
          .object([
            "whenIdle": .string("main"), "do": .array(body),
            "swift": .string("// later: \(text), once the app is idle"),
          ])
        ]
      }
      out += preamble + body
      preamble = []
      file = saved
      summary.append(
        later ? "\(text) on the main thread, once the app is idle" : "\(text) on the main thread")
    }
    return out
  }

  /// A `--call`'s receivers nothing binds, named for an entity or an app type
  /// (`observation.flagImportant()`): the screen's object of that entity, or the instance.
  mutating func standInsForFreeReceivers(in statements: [SwiftStatement]) -> [JSONValue] {
    var out: [JSONValue] = []
    for statement in statements {
      guard case .expression(let e) = statement.kind, let call = Call(e.unwrapped.expression)
      else { continue }
      // `DispatchQueue.global().async { observation.update() }`: the block's calls too.
      if let closure = call.closure { out += standInsForFreeReceivers(in: closure.body) }
      guard case .name(let name)? = call.receiver?.kind, meaning(of: name) == nil,
        name.first?.isLowercase == true
      else { continue }
      let type = name.prefix(1).uppercased() + name.dropFirst()
      // An entity's class is an app type too: its instance is an object, the screen's.
      if entityTypes.contains(type) || model.isEntity(type) {
        bindStandIn(.init(label: nil, name: name, type: type, defaultValue: nil), steps: &out)
      } else if isContainerSubclass(type) {
        bind(name, .container)
      } else if isAppType(type) {
        bind(name, .instanceOf(type))
      }
    }
    return out
  }

  /// The method a `--call` of one statement calls, `try` and `await` aside.
  /// Whether `statements` are one call of a view's, view controller's or app delegate's
  /// method: what a user's action or the system runs on the main thread.
  func isScreenEvent(_ statements: [SwiftStatement]) -> Bool {
    called(by: statements)?.type.map(Scan.isMainOnly) ?? false
  }

  func calledMethod(of statements: [SwiftStatement]) -> SwiftFunction? {
    called(by: statements)?.function
  }

  /// The method (and its type) that `statements`, when they are one call, call.
  private func called(by statements: [SwiftStatement]) -> (
    type: SwiftType?, function: SwiftFunction
  )? {
    guard statements.count == 1, case .expression(let e) = statements[0].kind,
      let call = Call(e.unwrapped.expression)
    else { return nil }
    return method(named: call.method, receiver: call.receiver, labels: call.arguments.map(\.label))
  }

  /// The app's screen: once the calls are made, the main thread lists what the code
  /// fetches, in `viewContext`, as a UI does while background work goes on. Without it a
  /// background misuse of `viewContext` would overlap nothing and never show corruption.
  func screen() -> [JSONValue] {
    model.entities.filter(\.fetched).map { entity in
      .object([
        "fetch": .string(entity.name), "in": .string("viewContext"),
        "as": .string("screen" + entity.name + "s"),
        "label": .string("screen lists \(entity.name)s"),
        "note": .string("The screen lists the \(entity.name)s on the main queue."),
      ])
    }
  }

  func isManagedObjectSubclass(_ type: SwiftType) -> Bool {
    module.managedObjectClasses[type.name] != nil
  }

}
