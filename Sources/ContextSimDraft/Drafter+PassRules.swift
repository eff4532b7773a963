import ContextSimCore
import ContextSimReports

/// The rules by which a line that is not a Core Data call is passed over as having no Core
/// Data effect. Only these: any other line the drafter cannot turn into steps is not
/// modelled, and a run past it is never clean. docs/draft.md lists them and `PassRuleTests`
/// holds each, with a line it must not pass.
///
/// A line passed over may still read managed objects' properties or the instance's shared
/// vars (`print(photo.title)`, `label.text = "\(count)"`): those reads are drafted as `get`
/// and `read` steps, as the queue rules and the race detector judge them. A line that does
/// more with Core Data (calls a context's method, runs a closure that touches an object) is
/// passed over by no rule.
extension Drafter {
  /// Why a line has no Core Data effect.
  enum PassRule: String, CaseIterable, Sendable {
    /// `print`, `debugPrint`, `NSLog`, `os_log`, `dump`, a logger's `debug`/`info`/`error`…
    case logging
    /// A view's or view controller's own method or property: `tableView.reloadData()`,
    /// `label.text = …`, `present(alert, animated: true)`.
    case userInterface = "user interface"
    /// A value computed from plain values: a Foundation or standard-library value made
    /// (`Date()`, `URL(string:)`, `String(format:)`), a method of a local value
    /// (`missed.append(url)`, `name.lowercased()`), arithmetic on a local `var`.
    case value
    /// A value computed by a type not in the files read, in a value's place (set on an
    /// attribute, bound by `let`), by a type whose name says nothing of storage:
    /// `TransportationType.random().description`. A call made for its effect, or on
    /// `CoreDataStack`, `…Manager`, `…Store`, `…Service` and the like, is not passed over.
    case staticValue = "static value"
    /// A fetch request's option that changes which rows come back, not who touches them:
    /// `fetchLimit`, `sortDescriptors`, `fetchBatchSize`, `returnsObjectsAsFaults`…
    case requestOption = "fetch request option"
    /// Setting up the store the scenario loads at launch: `persistentStoreDescriptions`,
    /// a description's options, the model.
    case storeSetup = "store setup"
    /// A closure the entry point's caller passed (`completion(result)`): the caller's code,
    /// not in the files read, stood in by one that does nothing, as a test's would.
    case callersClosure = "caller's closure"
    /// A framework superclass's own method: `super.viewDidLoad()`, `super.init()` of
    /// `NSObject` or `UIViewController`, whose code is not the app's. A superclass the files
    /// declare is the app's, and not passed over.
    case superclass
    /// A test's assertion, `XCTAssertTrue(…)`, `XCTAssertEqual(…, …)`, `XCTFail(…)`, or the
    /// app's own `assert(…)`/`precondition(…)`: it judges values and touches nothing, and
    /// ctxsim takes it to hold. Its arguments are drafted as lines of their own, so a Core
    /// Data call inside one (`XCTAssertTrue(manager.update(p))`) runs as written.
    case testAssertion = "test assertion"
    /// A call on the file manager (`FileManager.default.removeItem(at:)`, or a name the
    /// files bind to it, `Files.createDirectory(…)`): it reads and writes files, never a
    /// context or the store's rows, which the model keeps apart from the files around them.
    case fileSystem = "file system"
    /// A network library's client, of a type no file declares and named for the network
    /// (`MageSessionManager.shared()`, `AFHTTPSessionManager()`, `manager.addTask(task)`):
    /// it is handed no context, so it touches none. Its callbacks are drafted, and a call
    /// on it handed a context, an object or a closure that touches one is not passed over.
    case networkClient = "network client"
    /// Posting a notification of the app's own name (`center.post(name: .taskScheduled,
    /// object: self)`) on `NotificationCenter.default` or a center the app holds: no
    /// observer in the run hears it, since registering one for an app's name is itself a
    /// line not modelled. A Core Data notification's name is not passed over.
    case unheardNotification = "notification no observer hears"
    /// The Security framework's keychain functions, `SecItemCopyMatching(query, &result)`,
    /// `SecItemAdd`, `SecItemUpdate`, `SecItemDelete`: they read and write the keychain,
    /// never a context or the store.
    case keychain
  }

  /// A line a rule passes over, and the rule.
  struct PassedOver: Equatable {
    var file: String
    var line: Int
    var rule: PassRule
  }

  /// The steps for an expression no Core Data step stands for, when a rule passes it over:
  /// the reads it makes, and for a binding a stand-in of the value's type. Nil when no rule
  /// applies: the line is not modelled.
  mutating func passOver(
    _ expression: SwiftExpression, result: String?, at statement: SwiftStatement
  )
    -> [JSONValue]?
  {
    var e = expression.unwrapped.expression
    if case .forceUnwrap(let inner) = e.kind { e = inner }  // `NSEntityDescription.entity(…)!`
    guard let rule = passRule(e, asValue: result != nil) else { return nil }
    if rule == .storeSetup, result == nil, let call = Call(e), let closure = call.closure,
      call.method == "forEach"
        || ["performAndWait", "performBlockAndWait"].contains(call.method)
          && call.receiver.map({ if case .name = $0.kind { true } else { false } }) == true
    {
      // `container.persistentStoreDescriptions.forEach { d in d.type = … }`, each
      // description set up with `d` a store setup's name; `coordinator.performAndWait {
      // try coordinator.addPersistentStore(…) }`, the coordinator's own queue, waited for:
      // the body drafted in place.
      let parameter = call.method == "forEach" ? closure.parameters.first ?? "$0" : nil
      let known = parameter.map(storeSetupNames.contains) ?? true
      if let parameter { storeSetupNames.insert(parameter) }
      defer { if !known, let parameter { storeSetupNames.remove(parameter) } }
      let steps = scoped { $0.steps(closure.body) }
      let line = PassedOver(file: file.name, line: statement.location.line, rule: rule)
      if !passedOver.contains(line) { passedOver.append(line) }
      return steps
    }
    guard let reads = plainReads(in: e) else {
      // `NSDictionary(contentsOf: T.file(in: context))`, `Files.removeItem(at:
      // blobURL(for: key))`: a Foundation value made, or a file's call, from what the app's
      // code computes; that code is drafted, the value stood in.
      var madeValue = false
      if rule == .value, case .call(let callee, _) = e.kind {
        // `NSDictionary(contentsOf: …)`, `JSONSerialization.data(withJSONObject: …)`, and a
        // local value's method (`parts.append("\(name(of: file))")`).
        var named = callee
        if case .member(let base?, _) = callee.kind { named = base }
        if case .name(let t) = named.kind {
          if case .value? = meaning(of: t) { madeValue = true }
          madeValue = madeValue || Self.valueTypes.contains(t)
        }
      }
      if madeValue || rule == .fileSystem {
        let steps = draftedArguments(of: e, rule: rule, at: statement)
        return steps + (result.map { [standInStep($0, for: e, at: statement)] } ?? [])
      }
      guard rule == .logging || rule == .callersClosure, result == nil else { return nil }
      return draftedArguments(of: e, rule: rule, at: statement)
    }
    passedOver.append(PassedOver(file: file.name, line: statement.location.line, rule: rule))
    var steps = reads.map { readStep($0, at: statement) }
    if rule == .storeSetup, let result { storeSetupNames.insert(result) }
    if let result, case .networkClient? = resolve(e) {
      bind(result, .networkClient)  // `let manager = MageSessionManager.shared()`
    } else if let result {
      steps.append(standInStep(result, for: e, at: statement))
    }
    return steps
  }

  /// `NSLog("%@", Self.diagnostic(error, context: context))`, `completion(.success(entity
  /// .toDomain()))`: what computing the arguments does is drafted (``argumentSteps(_:at:)``),
  /// and the logging or the caller's closure is passed over.
  private mutating func draftedArguments(
    of e: SwiftExpression, rule: PassRule, at statement: SwiftStatement
  ) -> [JSONValue] {
    guard case .call(_, let arguments) = e.kind else { return [] }
    let steps = arguments.flatMap { argumentSteps($0.value, at: statement) }
    passedOver.append(PassedOver(file: file.name, line: statement.location.line, rule: rule))
    return steps
  }

  /// The expression inside one `\(…)` of a string; nil when it is not one expression.
  static func interpolated(_ text: String) -> SwiftExpression? {
    let parsed = SwiftParser.parse(text, name: "interpolation")
    guard parsed.statements.count == 1, case .expression(let inner) = parsed.statements[0].kind
    else { return nil }
    return inner
  }

  /// The rule that passes over `e`, from what it calls or assigns; its arguments are
  /// checked apart (``plainReads(in:)``). `asValue`: `e` is in a value's place (bound,
  /// set, passed), not a statement of its own.
  func passRule(_ e: SwiftExpression, asValue: Bool = false) -> PassRule? {
    if isStoreSetup(e) { return .storeSetup }
    if isNetworkClient(e) { return .networkClient }
    switch e.kind {
    case .binary(let op, let target, let value)
    where op.hasSuffix("=") && !Self.comparisons.contains(op):
      if isInterface(target) { return .userInterface }
      if isRequestOption(target) { return .requestOption }
      if case .value? = resolve(Self.root(of: target)) { return .value }
      // `result = PrinterState(…)`: a local no step knows, given a plain value.
      if op == "=", case .name(let n) = target.kind, meaning(of: n) == nil,
        passRule(value, asValue: true) == .staticValue
      {
        return .staticValue
      }
      return nil
    case .call(let callee, _):
      // `.failure(error)`, `.Success(stack)` in a value's place: an enum's case, made.
      if asValue, case .member(nil, _) = callee.kind { return .value }
      if asValue, enumCase(callee) != nil { return .value }  // `Result.tag(name)`
      // `[T]()`, `[String: Int]()`: an empty collection of a type the brackets name.
      switch callee.kind {
      case .array, .dictionary: return .value
      default: break
      }
      guard let call = Call(e) else { return nil }
      if case .name("super")? = call.receiver?.kind {
        return subject?.inherits.first.map(isAppType) == true ? nil : .superclass
      }
      if call.receiver == nil,
        Self.loggingFunctions.contains(call.method)
          || (Self.isLoggingName(call.method) && method(named: call.method, receiver: nil) == nil)
      {
        return .logging
      }
      if let receiver = call.receiver {
        if case .networkClient? = resolve(receiver) {
          // Handed a context or an object, the client could touch it: not passed over.
          return handsOnCoreData(call) ? nil : .networkClient
        }
        if isUnheardPost(call, on: receiver) { return .unheardNotification }
        if Self.loggingMethods.contains(call.method), Self.isLogger(receiver) { return .logging }
        if isInterface(receiver) { return .userInterface }
        if isFileManager(receiver) { return .fileSystem }
        if case .value? = resolve(Self.root(of: receiver)) { return .value }
        if isPlainConstant(Self.root(of: receiver)) { return .value }  // `blobsURL.path`
        if Self.isValueType(receiver) { return .value }
        // A method the files declare (`Model.create()` of an extension of NSManagedObject)
        // is the app's code, not a plain value.
        let declared = types.values.contains { $0.functions.contains { $0.name == call.method } }
        if asValue, isPlainStatic(receiver), !declared { return .staticValue }
      } else {
        if Self.interfaceMethods.contains(call.method) || Self.isInterfaceType(call.method) {
          return .userInterface
        }
        // `addGestureRecognizer(…)` in a view: the framework's method, not the files'.
        if subjectIsInterface, method(named: call.method, receiver: nil) == nil,
          meaning(of: call.method) == nil
        {
          return .userInterface
        }
        if case .callersClosure? = meaning(of: call.method) { return .callersClosure }
        if call.method.hasPrefix("SecItem"), method(named: call.method, receiver: nil) == nil {
          return .keychain
        }
        if Self.isValueType(callee) { return .value }
        // `PrinterState(hostname: p.hostname)`: a value of a type not in the files read;
        // not one handed the instance or a context, which it may call back into.
        if asValue, isPlainStatic(callee), !handsOnCoreData(call) { return .staticValue }
      }
      return nil
    case .member(let base?, let key):
      if enumCase(e) != nil { return .value }
      if case .value? = resolve(Self.root(of: base)) { return .value }
      if case .value? = resolve(base) { return .value }  // `self.report.customData`
      if isFileManager(base) { return .fileSystem }  // `fileManager.urls(…).first`
      // `objects.count` of a fetched list or a batch's IDs: a Swift array's length.
      switch resolve(base) {
      case .objects?, .objectID?: if ["count", "isEmpty"].contains(key) { return .value }
      default: break
      }
      // `photos.count` of a shared var: its read, which the race detector sees.
      if case .name = base.kind, case .shared? = resolve(base), ["count", "isEmpty"].contains(key) {
        return .value
      }
      if Self.isValueType(base) { return .value }
      return asValue && isPlainStatic(base) ? .staticValue : nil
    case .string, .number, .bool, .nil, .array, .dictionary, .binary, .prefix, .ternary, .tuple:
      return .value
    case .cast(_, let inner, _):
      return passRule(inner, asValue: asValue)  // `json["id"] as? String`
    case .subscriptAccess(let base, _):
      // `json[Key.id.key]` of a plain value: an element of it.
      if case .value? = resolve(Self.root(of: base)) { return .value }
      return nil
    default:
      return nil
    }
  }

  /// `blobsURL` of the instance's `let blobsURL: URL`: a value no set changes, whose
  /// methods read it.
  func isPlainConstant(_ e: SwiftExpression) -> Bool {
    guard let name = Self.ownPropertyName(e), case .shared(let variable)? = resolve(e),
      constants.contains(variable),
      let type = subject?.properties.first(where: { $0.name == name })?.type
    else { return false }
    return Self.plainType(type) != nil
  }

  /// Whether a call is handed `self`, a context, an object or anything else of the app's
  /// the draft follows, which code not read could touch.
  func handsOnCoreData(_ call: Call) -> Bool {
    call.arguments.contains { a in
      if case .name("self") = a.value.kind { return true }
      guard let m = resolve(a.value) else { return false }
      return m.passesAsItself && m != .networkClient
    }
  }

  /// `NotificationCenter.default.post(name: .taskScheduled, object: self)`, or the same on
  /// a center the app holds (`let notificationCenter: NotificationCenterProtocol`), of a
  /// name that is not Core Data's, where no file declares a `post` of its own.
  private func isUnheardPost(_ call: Call, on receiver: SwiftExpression) -> Bool {
    guard call.method == "post", let name = call.argument("name") else { return false }
    let isCenter =
      isNotificationCenter(call)
      || Self.ownPropertyName(receiver)?.lowercased().hasSuffix("notificationcenter") == true
    var coreDataName = Self.notificationName(name) != nil
    if case .name(let n) = name.kind, notificationNames[n] != nil { coreDataName = true }
    let declared = types.values.contains { $0.functions.contains { $0.name == "post" } }
    return isCenter && !coreDataName && !declared
  }

  /// A managed object's property, or one of the instance's shared vars, that a line passed
  /// over reads.
  enum PlainRead: Equatable {
    case object(String, entity: String?, key: String)
    case shared(String)
  }

  /// The reads `e` makes of what the model sees, in order; nil when it does more than read
  /// (a call on a context or object, a closure that touches Core Data, a write).
  func plainReads(in e: SwiftExpression) -> [PlainRead]? {
    switch e.kind {
    case .name(let n):
      if case .shared(let variable)? = meaning(of: n), !constants.contains(variable) {
        return [.shared(variable)]
      }
      // `query` in a method of an entity's class: the object's attribute, read.
      if let (object, entity, key) = entityProperty(e) {
        return [.object(object, entity: entity, key: key)]
      }
      return []
    case .string(_, let interpolations):
      var reads: [PlainRead] = []
      for text in interpolations {
        guard let inner = Self.interpolated(text), let found = plainReads(in: inner) else {
          return nil
        }
        reads += found
      }
      return reads
    case .number, .bool, .nil:
      return []
    case .member(nil, _):
      return []
    case .member(let base?, let key):
      switch resolve(e) {
      case .context?, .container?, .controller?, .notification?: return nil  // `self.context`
      default: break
      }
      if case .name("self") = base.kind, case .shared(let variable)? = memberMeaning(of: key) {
        return constants.contains(variable) ? [] : [.shared(variable)]
      }
      switch resolve(base) {
      case .object(let name, let entity)?:
        return key == "objectID" ? [] : [.object(name, entity: entity, key: key)]
      case .objects?:
        // The list is a Swift array: its length touches no object.
        return key == "count" || key == "isEmpty" ? [] : nil
      case .request?, .batchRequest?:
        return []
      case .context?, .controller?, .container?, .notification?:
        return nil
      default:
        return plainReads(in: base)
      }
    case .call(let callee, let arguments):
      if case .name(let f) = callee.kind, !arguments.isEmpty,
        arguments.allSatisfy({ $0.label != nil && $0.value.source.isEmpty })
      {
        // `compactMap(url(fromBundle:))`: the app's function handed on, plain when its
        // body is.
        let labels = arguments.map(\.label)
        guard let (_, function) = method(named: f, receiver: nil, labels: labels),
          function.parameters.map(\.label) == labels,
          !(function.body ?? []).contains(where: { $0.mentionsName(f) }),
          !mentionsCoreData(function.body ?? [])
        else { return nil }
        return []
      }
      // A call inside a line passed over must itself be one a rule passes over.
      guard passRule(e, asValue: true) != nil else { return nil }
      var reads: [PlainRead] = []
      if case .member(let base?, _) = callee.kind {
        guard let found = plainReads(in: base) else { return nil }
        reads += found
      }
      for argument in arguments {
        guard let found = plainReads(in: argument.value) else { return nil }
        reads += found
      }
      return reads
    case .closure(let closure):
      return mentionsCoreData(closure.body) ? nil : []
    case .subscriptAccess(let base, let arguments):
      return plainReads(in: [base] + arguments.map(\.value))
    case .tuple(let items):
      return plainReads(in: items.map(\.value))
    case .array(let items):
      return plainReads(in: items)
    case .dictionary(let pairs):
      return plainReads(in: pairs.flatMap { [$0.0, $0.1] })
    case .optionalChain(let inner), .forceUnwrap(let inner), .prefix(_, let inner),
      .try(_, let inner), .await(let inner), .cast(_, let inner, _), .generic(let inner, _):
      return plainReads(in: inner)
    case .binary(let op, let a, let b):
      // An assignment writes its target: only its value's reads are drafted.
      if op.hasSuffix("=") && !Self.comparisons.contains(op) { return plainReads(in: b) }
      return plainReads(in: [a, b])
    case .ternary(let c, let a, let b):
      return plainReads(in: [c, a, b])
    case .other(let text):
      // `#keyPath(Note.title)`: a key's name, which reads nothing.
      if text.hasPrefix("#keyPath(") || text.hasPrefix("#selector(") { return [] }
      return mentionsCoreData(text) ? nil : []
    }
  }

  func plainReads(in items: [SwiftExpression]) -> [PlainRead]? {
    var reads: [PlainRead] = []
    for item in items {
      guard let found = plainReads(in: item) else { return nil }
      reads += found
    }
    return reads
  }

  /// Whether statements name anything of Core Data's or a shared var: what a closure passed
  /// over must not do.
  func mentionsCoreData(_ statements: [SwiftStatement]) -> Bool {
    statements.contains { statement in
      switch statement.kind {
      case .expression(let e), .return(let e?), .declaration(_, _, _, let e?):
        plainReads(in: e) != []
      case .declaration(_, _, _, nil), .return(nil), .break, .continue:
        false
      default:
        true
      }
    }
  }

  /// Whether Swift text names a context, object, list, container, controller or shared var
  /// the drafter knows, as a whole word.
  func mentionsCoreData(_ text: String) -> Bool {
    var word = ""
    for c in text + " " {
      if c.isLetter || c.isNumber || c == "_" {
        word.append(c)
        continue
      }
      if !word.isEmpty, let m = meaning(of: word) {
        switch m {
        case .value, .instance, .dependency, .queue, .callersClosure, .networkClient: break
        default: return true
        }
      }
      word = ""
    }
    return false
  }

  /// The read as a step: `get` of an object's key, `read` of a shared var.
  mutating func readStep(_ read: PlainRead, at statement: SwiftStatement) -> JSONValue {
    switch read {
    case .object(let name, let entity, let key):
      if let entity { model.add(key: key, to: entity, type: nil) }
      return step(["get": .string("\(name).\(key)"), "as": .string("_read")], at: statement)
    case .shared(let variable):
      return step(["read": .string(variable)], at: statement)
    }
  }

  // MARK: What the rules recognise

  static let comparisons: Set<String> = ["==", "!=", "<=", ">=", "===", "!=="]

  static let loggingFunctions: Set<String> = [
    "print", "debugPrint", "NSLog", "os_log", "dump",
  ]

  static let loggingMethods: Set<String> = [
    "trace", "debug", "info", "notice", "warning", "error", "critical", "fault", "log", "verbose",
  ]

  /// A logging library's free function, declared in no file read: CocoaLumberjack's
  /// `DDLogInfo(…)`, an SDK's own `ITBError(…)`; a name with `Log` in it, or ending in a
  /// level (`Info`, `Debug`, `Error`, `Warn`, `Warning`, `Verbose`, `Trace`) after a
  /// capitalised prefix.
  static func isLoggingName(_ name: String) -> Bool {
    guard name.first?.isUppercase == true else { return false }
    if name.hasPrefix("DDLog") || name.hasSuffix("Log") { return true }
    let levels = ["Info", "Debug", "Error", "Warn", "Warning", "Verbose", "Trace"]
    return levels.contains { level in
      name.hasSuffix(level) && name.count > level.count
        && name.dropLast(level.count).allSatisfy { $0.isUppercase || $0.isNumber }
    }
  }

  /// `logger`, `Self.logger`, `Log`, `os.Logger(...)`: a name that says it logs.
  static func isLogger(_ receiver: SwiftExpression) -> Bool {
    let text = receiver.source.lowercased()
    return text.hasSuffix("log") || text.hasSuffix("logger") || text.contains("logger(")
      || text.hasSuffix("logging")
  }

  /// A view controller's own methods that only change what is on screen.
  static let interfaceMethods: Set<String> = [
    "present", "dismiss", "performSegue", "show", "showDetailViewController",
    "setNeedsLayout", "layoutIfNeeded", "setNeedsDisplay", "setNeedsStatusBarAppearanceUpdate",
  ]

  /// Names of view and controller properties apps use for their screens.
  static let interfaceNames: Set<String> = [
    "tableView", "collectionView", "view", "navigationController", "navigationItem",
    "tabBarController", "splitViewController", "refreshControl", "activityIndicator",
    "searchController", "label", "titleLabel", "textLabel", "detailTextLabel", "imageView",
    "textField", "textView", "button", "window", "progressView", "spinner",
  ]

  /// `UIBarButtonItem`, `UIActivityIndicatorView`, `NSAlert`: UIKit's and AppKit's types,
  /// made by a screen.
  static func isInterfaceType(_ name: String) -> Bool {
    guard name.count > 2, name.dropFirst(2).first?.isUppercase == true else { return false }
    return name.hasPrefix("UI")
      || ["NSAlert", "NSMenu", "NSMenuItem", "NSImage", "NSColor", "NSFont"].contains(name)
  }

  /// Whether `e` is rooted at a view, a view controller or a UI class: a property typed
  /// `UI…`, an AppKit view, or one of the names apps give them.
  func isInterface(_ e: SwiftExpression) -> Bool {
    let root = Self.root(of: e)
    guard case .name(let name) = root.kind else { return false }
    if [
      "UIApplication", "UIView", "UIAlertController", "NSApp", "NSApplication",
      "NSLayoutConstraint",
    ].contains(name) {
      return true
    }
    if inheritedInterface(e) { return true }
    guard meaning(of: name).map({ if case .shared = $0 { true } else { false } }) ?? true else {
      return false
    }
    let declared = (subject?.properties.first { $0.name == name }?.type ?? "")
      .trimmingCharacters(in: ["?", "!"])
    if declared.hasPrefix("UI") || declared.hasPrefix("NSView") || declared.hasPrefix("NSTable")
      || declared.hasPrefix("NSWindow") || declared.hasSuffix("ViewController")
    {
      return true
    }
    return Self.interfaceNames.contains(name)
  }

  /// Whether the type being drafted is a view, a view controller or another class of a UI
  /// framework's (UIKit, AppKit, MapKit): what it inherits is the framework's.
  var subjectIsInterface: Bool {
    subject?.inherits.contains { base in
      Scan.mainOnlyBases.contains(base) || base.hasSuffix("ViewController")
        || ["UI", "MK", "NSView", "NSWindow", "NSTable", "NSCollection"].contains {
          base.hasPrefix($0)
        }
    } ?? false
  }

  /// In a UI class, what it inherits from the framework: `self.backgroundColor`,
  /// `contentView.addSubview(…)`, `self.coordinate`, a property the files do not declare.
  private func inheritedInterface(_ e: SwiftExpression) -> Bool {
    guard subjectIsInterface, let subject else { return false }
    var name: String
    switch e.kind {
    case .member(let base?, let member) where base.source == "self": name = member
    default:
      guard case .name(let root) = Self.root(of: e).kind, root != "self" else { return false }
      name = root
    }
    return meaning(of: name) == nil && !subject.properties.contains { $0.name == name }
      && !files.contains { $0.types.contains { $0.name == name } }
  }

  /// Words in a type's name that say it stores, syncs or schedules: its static members are
  /// not taken as plain values.
  static let storageWords = [
    "persist", "store", "stack", "coredata", "context", "container", "database", "manager",
    "controller", "repository", "service", "storage", "cache", "sync", "queue", "dispatch",
    "thread", "operation", "task", "notification", "session", "client", "provider", "shared",
  ]

  /// Whether `e` is rooted at a type's name that is not Core Data's, not one the files
  /// declare, and not named for storage (``storageWords``): `TransportationType.random()`.
  func isPlainStatic(_ e: SwiftExpression) -> Bool {
    guard case .name(let name) = Self.root(of: e).kind, name.first?.isUppercase == true,
      meaning(of: name) == nil, !name.hasPrefix("NS"), !model.isEntity(name),
      !files.contains(where: { $0.types.contains { $0.name == name } })
    else { return false }
    let text = e.source.lowercased()
    return !Self.storageWords.contains { text.contains($0) }
  }

  /// Whether `e` sets up the store the scenario loads at launch: a store description, its
  /// options, the model, the store's files before it loads.
  func isStoreSetup(_ e: SwiftExpression) -> Bool {
    var target = e
    if case .binary("=", let t, _) = e.kind { target = t }
    if target.source.lowercased().contains("storedescription") { return true }
    // `container.persistentStoreCoordinator`, `container.managedObjectModel` as a value.
    if case .member(let base?, let key) = target.kind, case .container? = resolve(base),
      key == "persistentStoreCoordinator" || key == "managedObjectModel"
    {
      return true
    }
    // `store.type = NSSQLiteStoreType` of `let store = NSPersistentStoreDescription(url: u)`.
    if case .name(let root) = Self.root(of: target).kind, storeSetupNames.contains(root),
      target.source != root
    {
      return true
    }
    guard let call = Call(e) else { return false }
    // `options.forEach { description.setOption($0.value, forKey: $0.key) }`: a loop whose
    // every line sets a store up.
    if let closure = call.closure, !closure.body.isEmpty,
      closure.body.allSatisfy({ line in
        if case .expression(let x) = line.kind { return isStoreSetup(x) }
        return false
      })
    {
      return true
    }
    // The entity's description, looked up in the model (Swift 2's `entityForName`).
    if call.receiver?.source == "NSEntityDescription", call.method.hasPrefix("entity") {
      return true
    }
    // A coordinator made by hand, and its store added: the scenario's one store.
    if call.method.hasPrefix("addPersistentStore") { return true }
    // The model, merged from the app's bundles: `NSManagedObjectModel.mergedModel(from: nil)`.
    if call.receiver?.source == "NSManagedObjectModel" { return true }
    // Where stores go, and a store file's metadata, read before it is loaded.
    if call.receiver?.source == "NSPersistentContainer", call.method == "defaultDirectoryURL" {
      return true
    }
    if call.receiver?.source == "NSPersistentStoreCoordinator",
      call.method.hasPrefix("metadataForPersistentStore")
    {
      return true
    }
    return [
      "NSPersistentStoreDescription", "setOption", "NSManagedObjectModel",
      "NSPersistentStoreCoordinator",
    ].contains(call.method)
  }

  /// Whether an assignment's target is an option of a fetch request being built.
  func isRequestOption(_ target: SwiftExpression) -> Bool {
    guard case .member(let base?, let key) = target.kind, case .request? = resolve(base) else {
      return false
    }
    return FetchRequestDraft.options.contains(key)
  }

  /// Foundation's and the standard library's value types, whose initialisers and static
  /// members make values and touch no context.
  static let valueTypes: Set<String> = [
    "Date", "UUID", "URL", "URLComponents", "URLRequest", "Data", "String", "Substring",
    "Character", "Int", "Int16", "Int32", "Int64", "UInt", "Double", "Float", "CGFloat", "Bool",
    "Decimal", "NSNumber", "NSString", "Array", "Dictionary", "Set", "IndexPath", "IndexSet",
    "CGPoint", "CGSize", "CGRect", "DateFormatter", "ISO8601DateFormatter", "NumberFormatter",
    "JSONDecoder", "JSONEncoder", "PropertyListDecoder", "PropertyListEncoder", "Calendar",
    "DateComponents", "TimeInterval", "Locale", "TimeZone", "CharacterSet", "NSAttributedString",
    "AttributedString", "NSSortDescriptor", "SortDescriptor", "NSError", "Result", "Optional",
    "Bundle", "FileManager", "ProcessInfo", "min", "max", "abs", "zip", "stride",
    "NSLocalizedString", "type", "NSMergePolicy", "NSPredicate", "NSCompoundPredicate",
    "NSExpression",
    "NSUUID", "NSDate", "NSDecimalNumber", "NSURL", "NSData", "ObjCBool", "NSRange", "NSValue",
    "arc4random", "arc4random_uniform", "drand48", "floor", "ceil", "round", "pow", "sqrt",
    "NSExpressionDescription", "NSDictionary", "NSMutableDictionary", "NSArray", "NSMutableArray",
    "NSSet", "NSMutableSet", "NSMutableString", "JSONSerialization", "PropertyListSerialization",
    // The unified logging system, by its module's name: `os.Logger(subsystem:category:)`.
    "os", "OSLog",
    // Swift 2's names of the same values.
    "NSBundle", "NSURLRequest", "NSMutableURLRequest", "NSJSONSerialization", "NSDateFormatter",
    "NSNumberFormatter", "NSCalendar", "NSDateComponents", "NSLocale", "NSTimeZone",
    "NSIndexPath", "NSIndexSet", "NSCharacterSet", "NSProcessInfo", "NSURLComponents",
  ]

  /// Whether `e` is rooted at a value type's name: `Date()`, `URL(string:)`,
  /// `Calendar.current.date(byAdding:…)`.
  /// `FileManager.default`, `FileManager()`, or a name the files declare as one
  /// (`var Files: FileManager { FileManager.default }`).
  func isFileManager(_ e: SwiftExpression) -> Bool {
    guard case .name(let n) = Self.root(of: e).kind else { return false }
    switch meaning(of: n) {
    // `BacktraceFileManager.excludeFromBackup(url)`: a library's file manager, not the files'.
    case nil:
      return n == "FileManager" || fileManagerNames.contains(n)
        || (n.hasSuffix("FileManager") && types[n] == nil)
    // `let fileManager = FileManager.default`, a stored property: a stand-in that is it.
    case .shared?, .value?: return fileManagerNames.contains(n)
    default: return false
    }
  }

  /// A `let` or `var` as a line of the files writes it: its name, what follows the name
  /// (its type or value), and whether the line is unindented (a file's top level). Read from
  /// the lines, as the Swift reader keeps no top-level properties or locals by name.
  struct LineDeclaration {
    var name: String
    var rest: String
    var topLevel: Bool
  }

  /// Every `let` and `var` the files' lines declare.
  static func lineDeclarations(in files: [SwiftFile]) -> [LineDeclaration] {
    var found: [LineDeclaration] = []
    for line in files.flatMap(\.lines) {
      let words = line.split(whereSeparator: { " :=(,".contains($0) })
      for (i, word) in words.enumerated()
      where (word == "let" || word == "var") && i + 1 < words.count {
        found.append(
          LineDeclaration(
            name: String(words[i + 1]), rest: words[(i + 2)...].joined(separator: " "),
            topLevel: line.hasPrefix("let ") || line.hasPrefix("var ")))
      }
    }
    return found
  }

  static func isValueType(_ e: SwiftExpression) -> Bool {
    switch root(of: e).kind {
    case .name(let n): valueTypes.contains(n)
    case .string, .number, .array, .dictionary: true
    default: false
    }
  }

  /// Whether `e` is a bare name of no Core Data meaning: a local or parameter holding a
  /// plain value, or one the draft did not follow (`type` given an app's enum).
  static func isPlainName(_ e: SwiftExpression, _ meaning: Meaning?) -> Bool {
    guard case .name = e.kind else { return false }
    switch meaning {
    case nil, .value?, .opaque?: return true
    default: return false
    }
  }

  /// The innermost base of a member chain: `self.a.b` → `a`, `x.y(z).w` → `x`.
  static func root(of e: SwiftExpression) -> SwiftExpression {
    switch e.kind {
    case .member(let base?, let name):
      if case .name("self") = base.kind {
        return SwiftExpression(kind: .name(name), location: e.location)
      }
      return root(of: base)
    case .call(let callee, _): return root(of: callee)
    case .optionalChain(let inner), .forceUnwrap(let inner), .subscriptAccess(let inner, _),
      .generic(let inner, _):
      return root(of: inner)
    default: return e
    }
  }
}
