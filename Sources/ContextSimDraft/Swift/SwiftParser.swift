import ContextSimCore
import ContextSimReports

/// Reads Swift source into ``SwiftFile``: a structural, recursive-descent parser for the
/// part of Swift that app code uses around Core Data.
///
/// It never fails and never stops early. A declaration or statement it cannot read is
/// skipped to the end of its line (brackets balanced) and kept as
/// ``SwiftStatement/Kind/unknown``, so the draft can still show it; nesting deeper than
/// ``maximumDepth`` is skipped the same way, so no input can exhaust the stack.
struct SwiftParser {
  var tokens: [SwiftToken]
  /// The file being read, which each closure records.
  var fileName = ""
  var i = 0
  var depth = 0
  static let maximumDepth = 120

  /// The declarations and statements of one file.
  static func parse(_ source: String, name: String) -> SwiftFile {
    var parser = SwiftParser(tokens: SwiftLexer.tokens(of: source))
    parser.fileName = name
    var file = SwiftFile(name: name)
    file.lines = source.fileLines
    parser.parseMembers(into: &file)
    file.stampFile(name)
    return file
  }

  // MARK: Tokens

  var token: SwiftToken { tokens[min(i, tokens.count - 1)] }
  func peek(_ offset: Int) -> SwiftToken { tokens[min(i + offset, tokens.count - 1)] }
  var atEnd: Bool { token.kind == .end }

  mutating func advance() {
    if i < tokens.count - 1 { i += 1 }
  }

  /// Takes the token if it is `text`.
  mutating func take(_ text: String) -> Bool {
    guard token.is(text) else { return false }
    advance()
    return true
  }

  /// Skips one token, or a whole bracketed group when it opens one.
  mutating func skipGroup() {
    let opens = ["(": ")", "[": "]", "{": "}"]
    let close = token.kind == .punctuation ? opens[token.text] : nil
    advance()
    guard let close else { return }
    while !atEnd && !token.is(close) {
      if token.is(")") || token.is("]") || token.is("}") { return }  // unbalanced: stop
      skipGroup()
    }
    _ = take(close)
  }

  /// Skips to the start of the next line, or to the `}` that closes the enclosing block.
  mutating func skipToLineEnd() {
    let start = i
    while !atEnd && !token.is("}") && (i == start || !token.startsLine) { skipGroup() }
  }

  // MARK: Declarations

  static let modifiers: Set<String> = [
    "private", "fileprivate", "internal", "public", "open", "package", "final", "static",
    "override", "lazy", "weak", "unowned", "mutating", "nonmutating", "nonisolated", "required",
    "convenience", "dynamic", "optional", "indirect", "distributed", "isolated", "consuming",
    "borrowing", "prefix", "postfix", "infix",
  ]
  static let typeKeywords: Set<String> = [
    "class", "struct", "enum", "actor", "protocol", "extension",
  ]

  /// `@MainActor`, `@discardableResult`, `@available(…)`: each as `@Name`.
  mutating func parseAttributes() -> [String] {
    var attributes: [String] = []
    while token.is("@") && peek(1).kind == .identifier {
      advance()
      attributes.append("@" + token.text)
      advance()
      if token.is("(") && !token.spaceBefore { skipGroup() }
    }
    return attributes
  }

  /// Modifiers that take a parenthesised argument: `private(set)`, `unowned(unsafe)`.
  static let modifiersWithArgument: Set<String> = [
    "private", "fileprivate", "internal", "public", "open", "package", "unowned", "nonisolated",
  ]

  mutating func parseModifiers() -> [String] {
    var modifiers: [String] = []
    while token.kind == .identifier {
      let word = token.text
      let next = peek(1)
      if word == "class" && !["func", "var", "let", "override", "final"].contains(next.text) {
        break
      }
      guard Self.modifiers.contains(word) || word == "class" else { break }
      if next.is("(") && Self.modifiersWithArgument.contains(word) {
        modifiers.append(word)
        advance()
        skipGroup()
        continue
      }
      // A modifier comes before another keyword; `optional = 3` uses the word as a name.
      guard next.kind == .identifier || next.is("@") else { break }
      modifiers.append(word)
      advance()
    }
    return modifiers
  }

  /// Members of a file or of a type's body, up to its closing `}`.
  mutating func parseMembers(into file: inout SwiftFile) {
    var type = SwiftType(keyword: "", name: "", location: token.location)
    var statements: [SwiftStatement] = []
    parseMembers(of: &type, statements: &statements, topLevel: true)
    file.types = type.types
    file.functions = type.functions
    file.statements =
      type.properties.map { property in
        SwiftStatement(
          kind: .declaration(
            isLet: property.isLet, property.pattern, type: property.type, property.value),
          location: property.location)
      } + statements
  }

  mutating func parseMembers(
    of type: inout SwiftType, statements: inout [SwiftStatement], topLevel: Bool
  ) {
    while !atEnd && !token.is("}") {
      let start = i
      parseMember(of: &type, statements: &statements, topLevel: topLevel)
      if i == start { advance() }
    }
  }

  private mutating func parseMember(
    of type: inout SwiftType, statements: inout [SwiftStatement], topLevel: Bool
  ) {
    if take(";") { return }
    if token.kind == .poundKeyword {
      skipToLineEnd()  // `#if`, `#endif`: both branches are read as they come
      return
    }
    let location = token.location
    let mark = i
    let attributes = parseAttributes()
    let modifiers = parseModifiers()
    let word = token.kind == .identifier ? token.text : ""
    switch word {
    case "case" where type.keyword == "enum":
      parseCases(into: &type)
    case "typealias" where !topLevel:
      parseTypeAlias(into: &type)
    case "import", "typealias", "associatedtype", "precedencegroup", "case":
      skipToLineEnd()
    case _ where Self.typeKeywords.contains(word):
      guard var nested = parseType(attributes: attributes, at: location) else { return }
      nested.attributes = attributes
      type.types.append(nested)
    case "func", "init", "deinit", "subscript":
      var function = parseFunction(at: location)
      function.attributes = attributes
      function.modifiers = modifiers
      if word != "subscript" { type.functions.append(function) }
    case "var", "let":
      for var property in parseProperties(at: location) {
        property.attributes = attributes
        property.modifiers = modifiers
        type.properties.append(property)
      }
    default:
      if topLevel {
        i = mark
        statements += parseStatement()
      } else {
        skipToLineEnd()
      }
    }
  }

  /// `case archive, active`, `case tag(String)`, `case low = 1`: each case's name.
  private mutating func parseCases(into type: inout SwiftType) {
    advance()
    repeat {
      if token.kind == .identifier {
        let name = token.text.trimmingCharacters(in: ["`"])
        type.cases.append(name)
        if peek(1).is("="), peek(2).kind == .string { type.rawValues[name] = peek(2).text }
      }
      let start = i
      while !atEnd && !token.is(",") && !token.is("}") && !token.is(";")
        && (i == start || !token.startsLine)
      {
        skipGroup()
      }
    } while take(",")
  }

  /// `Repository<Resource: Storable, Key>`: `Resource`, `Key`.
  static func genericParameters(in name: String) -> [String] {
    guard let open = name.firstIndex(of: "<"), let close = name.lastIndex(of: ">") else {
      return []
    }
    var names: [String] = []
    var depth = 0
    var current = ""
    for c in name[name.index(after: open)..<close] {
      if c == "<" { depth += 1 }
      if c == ">" { depth -= 1 }
      if depth == 0, c == "," {
        names.append(current)
        current = ""
      } else {
        current.append(c)
      }
    }
    names.append(current)
    return names.map { String($0.prefix { $0 != ":" }).trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
  }

  /// `typealias Object = IntMetricsEntry`.
  private mutating func parseTypeAlias(into type: inout SwiftType) {
    advance()
    let name = token.text
    advance()
    if token.is("<") { skipGenericParameters() }
    if take("=") { type.typeAliases[name] = parseTypeText() }
    if !token.startsLine { skipToLineEnd() }
  }

  private mutating func parseType(attributes: [String], at location: SourceLocation) -> SwiftType? {
    let keyword = token.text
    advance()
    // `Repository<Resource: Storable>` (or `Repository <…>`) is `Repository` to its callers.
    let name = parseTypeText()
    var type = SwiftType(
      keyword: keyword, name: String(name.prefix { $0 != "<" && $0 != " " }),
      location: location)
    type.genericParameters = Self.genericParameters(in: name)
    if take(":") {
      repeat { type.inherits.append(parseTypeText()) } while take(",")
    }
    while !atEnd && !token.is("{") && !token.startsLine { skipGroup() }  // `where …`
    guard take("{") else { return type }
    var ignored: [SwiftStatement] = []
    descend {
      $0.parseMembers(of: &type, statements: &ignored, topLevel: false)
    }
    _ = take("}")
    return type
  }

  /// `func name(parameters) async throws -> Type { body }`, and `init`, `deinit`.
  mutating func parseFunction(at location: SourceLocation) -> SwiftFunction {
    let keyword = token.text
    advance()
    var name = keyword
    if keyword == "func" {
      name = token.text
      advance()
    } else if keyword == "init" && (token.is("?") || token.is("!")) {
      advance()
    }
    var function = SwiftFunction(name: name, location: location)
    if token.is("<") { function.genericParameters = parseGenericParameters() }
    if token.is("(") { function.parameters = parseParameters() }
    while token.kind == .identifier
      && ["async", "throws", "rethrows", "reasync"].contains(token.text)
    {
      if token.text == "async" { function.isAsync = true } else { function.isThrowing = true }
      advance()
      if token.is("(") && !token.spaceBefore { skipGroup() }  // `throws(MyError)`
    }
    if take("->") { function.returnType = parseTypeText() }
    while !atEnd && !token.is("{") && !token.is("}") && !token.startsLine { skipGroup() }
    if token.is("{") { function.body = parseBlock() }
    return function
  }

  private mutating func parseParameters() -> [SwiftFunction.Parameter] {
    var parameters: [SwiftFunction.Parameter] = []
    advance()  // (
    while !atEnd && !token.is(")") {
      let start = i
      _ = parseAttributes()
      var names: [String] = []
      while token.kind == .identifier && names.count < 2 && !token.is("inout") {
        names.append(token.text)
        advance()
      }
      if take(":"), let last = names.last {
        let label = names.count == 2 ? names[0] : last
        var parameter = SwiftFunction.Parameter(
          label: label == "_" ? nil : label, name: last, type: parseTypeText())
        if take("=") { parameter.defaultValue = parseExpression() }
        parameters.append(parameter)
      }
      while !atEnd && !token.is(",") && !token.is(")") { skipGroup() }
      _ = take(",")
      if i == start { advance() }
    }
    _ = take(")")
    return parameters
  }

  /// `var a: T = v`, `let a = v, b = w`, or a computed `var a: T { … }`.
  mutating func parseProperties(at location: SourceLocation) -> [SwiftProperty] {
    let isLet = token.text == "let"
    advance()
    var properties: [SwiftProperty] = []
    repeat {
      let pattern = parsePattern()
      var property = SwiftProperty(pattern: pattern, isLet: isLet, location: location)
      if take(":") { property.type = parseTypeText() }
      if take("=") { property.value = parseExpression(trailingClosures: !observersFollow()) }
      if token.is("{"), peek(1).is("get"), ["async", "throws"].contains(peek(2).text) {
        // `var token: String { get async throws { … } }`: the getter, its effects aside (a
        // property with effects has no setter).
        advance()
        advance()
        while token.is("async") || token.is("throws") { advance() }
        property.getter = parseBlock()
        while !atEnd && !token.is("}") { skipGroup() }
        _ = take("}")
      } else if token.is("{") && !token.startsLine || (token.is("{") && property.value == nil) {
        // A getter, or `get`/`set`/`willSet`/`didSet` blocks: then the `get` block's lines
        // are the getter, and a stored property's observers leave it stored.
        let body = parseBlock()
        let accessors = body.compactMap(Self.accessor)
        if accessors.count == body.count, !body.isEmpty {
          property.getter = accessors.first { $0.name == "get" }?.body
          if let set = accessors.first(where: { $0.name == "set" }) {
            property.setter = set.body
            property.newValueName = set.parameter ?? "newValue"
          }
          property.willSet = accessors.first { $0.name == "willSet" }?.body
          property.didSet = accessors.first { $0.name == "didSet" }?.body
        } else {
          property.getter = body
        }
      }
      properties.append(property)
    } while take(",")
    return properties
  }

  /// Whether the property's value ahead is followed by its observers' braces, `= "" {
  /// didSet { … } }`, which are not a trailing closure of the value.
  func observersFollow() -> Bool {
    var depth = 0
    for offset in 0..<400 {
      let t = peek(offset)
      if offset > 0, depth == 0, t.startsLine { return false }
      if t.is("(") || t.is("[") { depth += 1 }
      if t.is(")") || t.is("]") { depth -= 1 }
      if depth == 0, t.is("{") { return ["willSet", "didSet"].contains(peek(offset + 1).text) }
      if i + offset >= tokens.count - 1 { return false }
    }
    return false
  }

  /// `get { … }`, `set(v) { … }`, `didSet { … }` in a property's braces: the accessor's name
  /// and lines.
  static func accessor(_ statement: SwiftStatement)
    -> (name: String, parameter: String?, body: [SwiftStatement])?
  {
    guard case .expression(let e) = statement.kind, case .call(let callee, let arguments) = e.kind,
      case .name(let name) = callee.kind,
      ["get", "set", "willSet", "didSet", "_modify", "_read"].contains(name),
      case .closure(let closure)? = arguments.last?.value.kind
    else { return nil }
    // `set(value) { … }`: the name it gives the value set.
    var parameter: String?
    if arguments.count == 2, case .name(let n) = arguments[0].value.kind { parameter = n }
    return (name, parameter, closure.body)
  }

  /// A name, `_`, or a tuple of patterns: what `let` and `for` bind.
  mutating func parsePattern() -> SwiftPattern {
    if take("(") {
      var items: [SwiftPattern] = []
      while !atEnd && !token.is(")") {
        let start = i
        if token.is("let") || token.is("var") { advance() }
        items.append(parsePattern())
        if take(":") { _ = parseTypeText() }
        _ = take(",")
        if i == start { advance() }
      }
      _ = take(")")
      return .tuple(items)
    }
    if token.is("let") || token.is("var") { advance() }
    guard token.kind == .identifier else { return .wildcard }
    let name = token.text
    advance()
    return name == "_" ? .wildcard : .name(name)
  }

  /// A type as written, up to what cannot be part of it: `((NSManagedObject) -> Void)?`.
  mutating func parseTypeText() -> String {
    var text = ""
    var nesting = 0
    let start = i
    while !atEnd {
      let t = token
      if nesting == 0 && i > start {
        if t.startsLine && !(text.hasSuffix("->") || text.hasSuffix("&")) { break }
        if t.is("=") || t.is("{") || t.is(",") || t.is(";") || t.is("where") || t.is(":") {
          break
        }
      }
      if t.is(")") || t.is("]") || t.is(">") {
        if nesting == 0 { break }
        nesting -= 1
      } else if t.is("(") || t.is("[") || t.is("<") {
        nesting += 1
      } else if t.is("}") {
        break
      }
      text += (t.spaceBefore && !text.isEmpty ? " " : "") + t.text
      advance()
    }
    return text
  }

  /// `<A, B>` after a name, when it closes on the same line; nil, consuming nothing,
  /// when the `<` is a comparison.
  /// `<T: NSFetchRequestResult, U>` after a function's name: skipped, brackets balanced.
  /// `<T: NSManagedObject, U>`: the names, each the first word after `<` or a `,` of its own
  /// level.
  mutating func parseGenericParameters() -> [String] {
    var names: [String] = []
    var depth = 0
    var named = true
    repeat {
      if depth == 1, named, token.kind == .identifier { names.append(token.text) }
      named = false
      if token.is("<") {
        depth += 1
        named = depth == 1
      }
      if token.text.allSatisfy({ $0 == ">" }) { depth -= token.text.count }
      if depth == 1, token.is(",") { named = true }
      advance()
    } while !atEnd && depth > 0 && !token.is("{")
    return names
  }

  mutating func skipGenericParameters() {
    var depth = 0
    repeat {
      if token.is("<") { depth += 1 }
      if token.text.allSatisfy({ $0 == ">" }) { depth -= token.text.count }
      advance()
    } while !atEnd && depth > 0 && !token.is("{")
  }

  mutating func parseGenericArguments() -> [String]? {
    let start = i
    advance()
    var arguments: [String] = []
    while !atEnd && !token.startsLine {
      arguments.append(parseTypeText())
      if take(">") { return arguments }
      if !take(",") { break }
    }
    i = start
    return nil
  }

  /// Runs `work` one level deeper, or skips the group at the cursor when too deep.
  mutating func descend(_ work: (inout SwiftParser) -> Void) {
    guard depth < Self.maximumDepth else {
      skipToLineEnd()
      return
    }
    depth += 1
    work(&self)
    depth -= 1
  }
}
