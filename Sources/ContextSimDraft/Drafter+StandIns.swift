import ContextSimCore
import ContextSimReports

/// Stand-ins: values for what the draft does not compute, each of the type the model or the
/// code says (a date for `Date()`, an integer for `payloads.count`), never the Swift text as
/// a string, and each step that binds one says it is a stand-in.
extension Drafter {
  /// A stand-in value, what it stands for in words, and its attribute type if known.
  struct StandIn {
    var json: JSONValue
    var what: String
    var type: String?
  }

  /// The stand-in for `e`: its value where the draft knows it, else a sample of the type
  /// `attribute` names (the model's attribute it is set to), else of the type `e` makes.
  func standIn(for e: SwiftExpression, attribute: String? = nil) -> StandIn {
    let e = e.unwrapped.expression
    if let known = value(of: e) { return StandIn(json: known, what: "`\(e.source)`", type: nil) }
    if let call = Call(e), call.receiver == nil, call.method == "Data" {
      // Bytes from a file or the network: their source's value, as a fake would answer.
      let source = call.arguments.first.flatMap { value(of: $0.value) } ?? .string("stand-in")
      return StandIn(json: source, what: "Data gives a value at once", type: "binary")
    }
    let type = attribute ?? Self.type(of: e)
    let named = type == "uuid" ? "a UUID" : type == "integer" ? "an integer" : "a \(type)"
    return StandIn(
      json: Self.sample(ofAttribute: type, count: count(of: e)),
      what: "\(named) for `\(e.source)`", type: type)
  }

  /// The attribute type of a plain property `e` reads on the app's instances: `self.label`
  /// or a bare `label` of the type whose method runs (or of a protocol it adopts),
  /// `task.name` of a struct made by the call, `box.current` of a property declared
  /// `Box<UUID>`, `task.kind.rawValue` of an enum. Nil when the property is not the files'
  /// own, or holds anything but plain values (a context, an object, a type of the app's):
  /// those are what the draft follows, not stands in.
  func plainPropertyType(_ e: SwiftExpression) -> String? {
    if case .name(let n) = e.kind, meaning(of: n) != nil { return nil }
    if case .member(let base?, let n) = e.kind {
      if case .name("self") = base.kind, meaning(of: n) != nil { return nil }
      // `task.kind.rawValue`: an enum's raw value, of a value the draft does not follow.
      if n == "rawValue",
        resolve(base).map({ !$0.isCoreData && !$0.isContainerOrInstance }) ?? true,
        declaredTypeOf(base).flatMap({ types[$0] }).map({ $0.keyword == "enum" }) ?? true
      {
        return "string"
      }
      // `dateProvider.currentDate` of an injected dependency: it answers at once, as its
      // methods do; only a key whose name says a plain value (a date, a count, an id), never
      // one that may be a context or a store (`store.viewContext`).
      if isLibraryValue(base) { return Self.type(of: e) }
      if case .dependency? = resolve(base) {
        let type = Self.type(of: e)
        let plainKey = ["id", "name", "title", "url", "key", "label"].contains {
          n.lowercased().hasSuffix($0)
        }
        return type != "string" || plainKey ? type : nil
      }
    }
    guard let declared = declaredTypeOf(e) else { return nil }
    if let plain = Self.plainType(declared) { return plain }
    // `var current: Value` of `Box<UUID>`: the argument, when every argument is plain.
    guard case .member(let base?, _) = e.kind, let outer = declaredTypeOf(base) else {
      return nil
    }
    // `self.report.customData` of a library's value (`let report: PLCrashReport`), a type
    // the files do not declare whose name says nothing of storage: a plain value.
    if isPlainLibraryType(outer) { return Self.type(of: e) }
    let arguments = Self.genericParts(outer).1
    let plainArguments = arguments.compactMap { Self.plainType($0) }
    guard types[declared] == nil, !arguments.isEmpty, plainArguments.count == arguments.count
    else { return nil }
    return plainArguments.count == 1 ? plainArguments[0] : "string"
  }

  /// `report` or `self.report` of the instance's `let report: PLCrashReport`, a library's
  /// value: any key of it is a plain value, the same on every thread.
  private func isLibraryValue(_ base: SwiftExpression) -> Bool {
    guard let name = Self.ownPropertyName(base), let subject,
      let property = subject.properties.first(where: { $0.name == name }), property.isLet,
      let type = property.type
    else { return false }
    switch resolve(base) {
    case .dependency?, .shared?: return isPlainLibraryType(type)
    default: return false
    }
  }

  /// `store.count`, `self.store.notes.first`: a read of a property of the instance's `store`,
  /// whose type no file read declares and whose name says storage (`NoteStore`): its getter
  /// is code the draft has not read.
  func readsUndeclaredStore(_ e: SwiftExpression) -> Bool {
    var current = e.unwrapped.expression
    while true {
      switch current.kind {
      case .optionalChain(let inner), .forceUnwrap(let inner): current = inner
      case .binary("??", let first, _): current = first.unwrapped.expression
      case .member(let base?, _):
        if let name = Self.ownPropertyName(base), let subject,
          let type = declaredType(of: name, in: subject), isUndeclaredStore(type)
        {
          return true
        }
        current = base
      default: return false
      }
    }
  }

  /// `store` or `self.store`: a name that may be one of the instance's own properties.
  static func ownPropertyName(_ e: SwiftExpression) -> String? {
    if case .name(let p) = e.kind { return p }
    if case .member(let owner?, let p) = e.kind, case .name("self") = owner.kind { return p }
    return nil
  }

  /// `NoteStore`, `any NotesRepository`: a type no file read declares whose name says
  /// storage; what its methods and getters do is code the draft has not read.
  func isUndeclaredStore(_ declared: String) -> Bool {
    let name = Self.bareTypeName(declared)
    return types[name] == nil && Self.isDependency(name) && !isPlainLibraryType(name)
  }

  /// `any Store<Note>?` as `Store`.
  static func bareTypeName(_ declared: String) -> String {
    genericParts(declared.replacingOccurrences(of: "any ", with: "")).0
      .trimmingCharacters(in: ["?", "!", " "])
  }

  /// A library's type the files do not declare, whose name says nothing of storage
  /// (`PLCrashReport`): its values' properties are plain values.
  func isPlainLibraryType(_ declared: String) -> Bool {
    let name = Self.genericParts(declared).0.trimmingCharacters(in: ["?", "!"])
    return types[name] == nil && name.first?.isUppercase == true && !name.hasPrefix("NS")
      && !model.isEntity(name) && !Self.storageWords.contains(where: name.lowercased().contains)
  }

  /// The Swift type an expression of the app's names has, as declared: a bare property of
  /// the type whose method runs, `self.x`, the one instance of an app type, or a property
  /// of one of those.
  private func declaredTypeOf(_ e: SwiftExpression) -> String? {
    switch e.kind {
    case .name(let n):
      switch meaning(of: n) {
      case .instanceOf(let t)?: return t
      case nil: return subject.flatMap { declaredType(of: n, in: $0) }
      default: return nil
      }
    case .member(let base?, let n):
      if case .name("self") = base.kind {
        return meaning(of: n) == nil ? subject.flatMap { declaredType(of: n, in: $0) } : nil
      }
      guard let outer = declaredTypeOf(base), let type = types[Self.genericParts(outer).0]
      else { return nil }
      return declaredType(of: n, in: type)
    default:
      return nil
    }
  }

  /// A property's declared type in `type`, or in a protocol it adopts.
  private func declaredType(of name: String, in type: SwiftType) -> String? {
    if let p = type.properties.first(where: { $0.name == name }) { return p.type }
    for adopted in type.inherits {
      if let p = types[adopted]?.properties.first(where: { $0.name == name }) { return p.type }
    }
    return nil
  }

  /// The attribute type a plain Swift type is stood in by: `String?` a string, `Date` a
  /// date, any other Foundation or standard-library value (`Bundle`, `[UUID]`,
  /// `Set<String>`, `[String: Int]`) a string; nil for anything else.
  static func plainType(_ declared: String) -> String? {
    let t = declared.trimmingCharacters(in: [" ", "?", "!"])
    if let type = attributeTypes[t] { return type }
    let parts = t.split(whereSeparator: { "[]?!:<>, ".contains($0) }).map(String.init)
    return !parts.isEmpty && parts.allSatisfy({ valueTypes.contains($0) }) ? "string" : nil
  }

  /// `Box<UUID>` as `Box` and `["UUID"]`.
  static func genericParts(_ declared: String) -> (String, [String]) {
    let t = declared.trimmingCharacters(in: [" ", "?", "!"])
    guard let open = t.firstIndex(of: "<"), t.hasSuffix(">") else { return (t, []) }
    let arguments = t[t.index(after: open)..<t.index(before: t.endIndex)]
      .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    return (String(t[..<open]), arguments)
  }

  /// The number of items `xs.count` counts, when `xs` is a list the draft made.
  private func count(of e: SwiftExpression) -> Int? {
    guard case .member(let base?, "count") = e.kind, let list = value(of: base) else { return nil }
    if case .array(let items) = list.kind { return items.count }
    if case .string(let name) = list.kind, name == "$" + (resolve(base)?.variable ?? "") {
      return listLengths[String(name.dropFirst())]
    }
    return nil
  }

  /// The attribute type a Swift expression makes, from its shape; `string` when nothing says.
  static func type(of e: SwiftExpression) -> String {
    switch e.kind {
    case .bool, .prefix("!", _): return "boolean"
    case .binary(let op, let a, let b):
      if comparisons.contains(op) || ["&&", "||", "<", ">"].contains(op) { return "boolean" }
      let left = type(of: a)
      return left == "string" ? type(of: b) : left
    case .number(let n): return n.contains(".") ? "double" : "integer"
    case .string: return "string"
    case .member(_, let key):
      if ["count", "hashValue", "year", "month", "day", "hour", "minute"].contains(key) {
        return "integer"
      }
      if key.hasPrefix("is") || key.hasPrefix("has") || key == "isEmpty" { return "boolean" }
      if key == "now" || key.hasSuffix("Date") || key == "distantPast" || key == "distantFuture" {
        return "date"
      }
      if key == "timeIntervalSince1970" || key == "timeIntervalSinceNow" { return "double" }
      if key == "uuidString" { return "string" }
      if case .member(let base?, _) = e.kind, case .name(let n) = base.kind {
        return attributeTypes[n] ?? "string"
      }
      return "string"
    case .call(let callee, _):
      // `Date()`, `TimeInterval.random(in:)`: the type that makes it.
      if case .name(let n) = root(of: callee).kind, let type = attributeTypes[n] {
        return type
      }
      if case .member(_, let method) = callee.kind {
        if method.hasPrefix("date") || method == "addingTimeInterval" { return "date" }
        if method == "contains" || method.hasPrefix("is") { return "boolean" }
      }
      return "string"
    case .ternary(_, let a, _): return type(of: a)
    default: return "string"
    }
  }

  /// Swift's value types by the attribute type they make.
  static let attributeTypes: [String: String] = [
    "Date": "date", "UUID": "uuid", "Int": "integer", "Int16": "integer", "Int32": "integer",
    "Int64": "integer", "Double": "double", "Float": "double", "CGFloat": "double",
    "TimeInterval": "double", "Bool": "boolean", "Data": "binary", "String": "string",
    "URL": "string", "Decimal": "double", "NSNumber": "integer",
  ]

  /// A sample of an attribute type, as a scenario writes it: dates as ISO 8601 text.
  static func sample(ofAttribute type: String, count: Int? = nil) -> JSONValue {
    switch type {
    case "integer": .integer(count ?? 1)
    case "double": .double(1.5)
    case "boolean": .bool(true)
    case "date": .string("2001-01-01T00:00:00Z")
    case "uuid": .string("00000000-0000-0000-0000-000000000001")
    case "binary": .string("stand-in bytes")
    default: .string("stand-in")
    }
  }
}
