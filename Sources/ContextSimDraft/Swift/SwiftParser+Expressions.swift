import ContextSimCore
import ContextSimReports

/// Expressions: operators by precedence, then prefixes, primaries and postfix chains.
extension SwiftParser {
  /// Swift's standard precedence groups, loosest first; unknown operators count as additive.
  static func precedence(of op: String) -> Int {
    switch op {
    case "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "??=": 1
    case "?": 2  // the ternary conditional
    case "??": 4
    case "||": 5
    case "&&": 6
    case "==", "!=", "<", ">", "<=", ">=", "===", "!==", "~=": 7
    case "as", "as?", "as!", "is": 8
    case "...", "..<": 9
    case "*", "/", "%", "&", "&*": 11
    case "<<", ">>": 12
    default: 10
    }
  }

  /// An expression; `trailingClosures: false` in an `if`, `guard`, `while` or `for` head,
  /// where a `{` opens the body instead.
  mutating func parseExpression(trailingClosures: Bool = true) -> SwiftExpression {
    var result = SwiftExpression(kind: .other(""), location: token.location)
    descend { result = $0.parseBinary(minimum: 1, trailingClosures: trailingClosures) }
    return result
  }

  /// The infix operator at the cursor, if the token is one: white space on both sides or
  /// neither (Swift's rule), or `as`/`is`, on the line after their operand too (no
  /// statement starts with them).
  private func infixOperator() -> String? {
    let t = token
    if t.kind == .identifier && (t.text == "as" || t.text == "is") {
      if t.text == "as", peek(1).kind == .operator, !peek(1).spaceBefore,
        peek(1).text == "?" || peek(1).text == "!"
      {
        return "as" + peek(1).text
      }
      return t.text
    }
    guard t.kind == .operator, t.spaceBefore == t.spaceAfter else { return nil }
    return t.text
  }

  private mutating func parseBinary(minimum: Int, trailingClosures: Bool) -> SwiftExpression {
    var left = parsePrefixed(trailingClosures: trailingClosures)
    while let op = infixOperator() {
      let level = Self.precedence(of: op)
      guard level >= minimum else { break }
      let location = token.location
      advance()
      if op.count == 3 && op.hasPrefix("as") { advance() }
      switch op {
      case "as", "as?", "as!", "is":
        left = SwiftExpression(kind: .cast(op, left, parseTypeText()), location: location)
      case "?":
        let then = parseBinary(minimum: 1, trailingClosures: trailingClosures)
        _ = take(":")
        let otherwise = parseBinary(minimum: 2, trailingClosures: trailingClosures)
        left = SwiftExpression(kind: .ternary(left, then, otherwise), location: left.location)
      default:
        // Assignment and `??` group to the right; the rest to the left.
        let rightMinimum = (level == 1 || level == 4) ? level : level + 1
        let right = parseBinary(minimum: rightMinimum, trailingClosures: trailingClosures)
        left = SwiftExpression(kind: .binary(op, left, right), location: left.location)
      }
    }
    return left
  }

  /// `try`, `await` and prefix operators, then a postfix chain.
  private mutating func parsePrefixed(trailingClosures: Bool) -> SwiftExpression {
    let location = token.location
    guard depth < Self.maximumDepth else {
      skipToLineEnd()
      return SwiftExpression(kind: .other(""), location: location)
    }
    depth += 1
    defer { depth -= 1 }
    if token.is("try") {
      advance()
      var mark = ""
      if (token.is("?") || token.is("!")) && !token.spaceBefore {
        mark = token.text
        advance()
      }
      // `try` covers the whole expression to its right, operators included.
      let operand = parseBinary(minimum: 2, trailingClosures: trailingClosures)
      return SwiftExpression(kind: .try(mark, operand), location: location)
    }
    if token.is("await") {
      advance()
      let operand = parseBinary(minimum: 2, trailingClosures: trailingClosures)
      return SwiftExpression(kind: .await(operand), location: location)
    }
    if token.kind == .operator && !token.spaceAfter && token.text != "<" {
      let op = token.text
      advance()
      let operand = parsePrefixed(trailingClosures: trailingClosures)
      return SwiftExpression(kind: .prefix(op, operand), location: location)
    }
    return parsePostfix(parsePrimary(), trailingClosures: trailingClosures)
  }

  private mutating func parsePrimary() -> SwiftExpression {
    let t = token
    let location = t.location
    func expression(_ kind: SwiftExpression.Kind) -> SwiftExpression {
      SwiftExpression(kind: kind, location: location)
    }
    switch t.kind {
    case .identifier:
      advance()
      switch t.text {
      case "true": return expression(.bool(true))
      case "false": return expression(.bool(false))
      case "nil": return expression(.nil)
      default:
        let name = expression(.name(t.text))
        if token.is("<") && !token.spaceBefore, let arguments = parseGenericArguments() {
          return expression(.generic(name, arguments))
        }
        return name
      }
    case .number:
      advance()
      return expression(.number(t.text))
    case .string:
      advance()
      return expression(.string(t.text, interpolations: t.interpolations))
    case .punctuation where t.text == ".":
      advance()
      guard token.kind == .identifier else { return expression(.other(".")) }
      let member = token.text
      advance()
      return expression(.member(nil, member))
    case .punctuation where t.text == "(":
      return expression(.tuple(parseArguments(close: ")")))
    case .punctuation where t.text == "[":
      return parseCollection()
    case .punctuation where t.text == "{":
      return expression(.closure(parseClosure()))
    case .poundKeyword:
      // `#selector(contextDidSave(_:))`: kept as written, so the method it names is known.
      advance()
      guard token.is("(") && !token.spaceBefore else { return expression(.other(t.text)) }
      let start = i
      skipGroup()
      let inner = tokens[start..<i].map(\.text).joined()
      return expression(.other(t.text + inner))
    default:
      if !t.is(")") && !t.is("]") && !t.is("}") && t.kind != .end { skipGroup() }
      return expression(.other(t.text))
    }
  }

  /// Member access, calls, subscripts, `?`, `!` and trailing closures.
  private mutating func parsePostfix(_ base: SwiftExpression, trailingClosures: Bool)
    -> SwiftExpression
  {
    var e = base
    while true {
      let t = token
      if t.is(".") {
        advance()
        guard token.kind == .identifier || token.kind == .number else { break }
        e = SwiftExpression(kind: .member(e, token.text), location: e.location)
        advance()
      } else if t.is("(") && !t.startsLine {
        e = SwiftExpression(kind: .call(e, parseArguments(close: ")")), location: e.location)
      } else if t.is("[") && !t.startsLine && !t.spaceBefore {
        e = SwiftExpression(
          kind: .subscriptAccess(e, parseArguments(close: "]")), location: e.location)
      } else if t.kind == .operator && (t.text == "?" || t.text == "!") && !t.spaceBefore {
        advance()
        e = SwiftExpression(
          kind: t.text == "?" ? .optionalChain(e) : .forceUnwrap(e), location: e.location)
      } else if t.is("{") && !t.startsLine && trailingClosures {
        var arguments: [SwiftArgument] = []
        if case .call(let callee, let existing) = e.kind {
          arguments = existing
          e = callee
        }
        arguments.append(SwiftArgument(value: parseClosureExpression()))
        // Labeled trailing closures: `} completion: { … }`.
        while token.kind == .identifier && peek(1).is(":") && peek(2).is("{") && !token.startsLine {
          let label = token.text
          advance()
          advance()
          arguments.append(SwiftArgument(label: label, value: parseClosureExpression()))
        }
        e = SwiftExpression(kind: .call(e, arguments), location: e.location)
      } else {
        break
      }
    }
    return e
  }

  private mutating func parseClosureExpression() -> SwiftExpression {
    let location = token.location
    return SwiftExpression(kind: .closure(parseClosure()), location: location)
  }

  /// `(a, label: b)` or `[a, b]`'s elements; the cursor is on the opening bracket.
  mutating func parseArguments(close: String) -> [SwiftArgument] {
    advance()
    var arguments: [SwiftArgument] = []
    while !atEnd && !token.is(close) {
      let start = i
      var label: String?
      if token.kind == .identifier && peek(1).is(":") && !peek(2).is(":") {
        label = token.text
        advance()
        advance()
      }
      if token.is(",") || token.is(close) {
        // `#selector(f(_:))`-like labels alone.
        arguments.append(
          SwiftArgument(label: label, value: .init(kind: .other(""), location: token.location)))
      } else {
        arguments.append(SwiftArgument(label: label, value: parseExpression()))
      }
      if !take(",") && !token.is(close) { skipGroup() }
      if i == start { advance() }
    }
    _ = take(close)
    return arguments
  }

  /// `[a, b]`, `[k: v]` or `[:]`.
  private mutating func parseCollection() -> SwiftExpression {
    let location = token.location
    if peek(1).is(":") && peek(2).is("]") {
      advance()
      advance()
      advance()
      return SwiftExpression(kind: .dictionary([]), location: location)
    }
    advance()
    var elements: [SwiftExpression] = []
    var pairs: [(SwiftExpression, SwiftExpression)] = []
    while !atEnd && !token.is("]") {
      let start = i
      let element = parseExpression()
      if take(":") {
        pairs.append((element, parseExpression()))
      } else {
        elements.append(element)
      }
      if !take(",") && !token.is("]") { skipGroup() }
      if i == start { advance() }
    }
    _ = take("]")
    let kind: SwiftExpression.Kind = pairs.isEmpty ? .array(elements) : .dictionary(pairs)
    return SwiftExpression(kind: kind, location: location)
  }

  /// `{ @MainActor [weak self] a, b in … }`; the cursor is on the `{`.
  private mutating func parseClosure() -> SwiftClosure {
    var closure = SwiftClosure(file: fileName)
    advance()
    closure.attributes = parseAttributes()
    if token.is("["), let names = signatureNames(from: i, captures: true) {
      closure.captures = names
      skipGroup()
    }
    if let names = signatureNames(from: i, captures: false) {
      closure.parameters = names
      while !atEnd && !token.is("in") { skipGroup() }
      _ = take("in")
    }
    // The body: statements up to the closing brace.
    descend { parser in
      while !parser.atEnd && !parser.token.is("}") {
        let start = parser.i
        closure.body += parser.parseStatement()
        if parser.i == start { parser.advance() }
      }
    }
    while !atEnd && !token.is("}") { skipGroup() }
    _ = take("}")
    return closure
  }

  /// Words that start a statement, never part of a closure's signature.
  static let statementKeywords: Set<String> = [
    "for", "let", "var", "if", "guard", "return", "try", "await", "switch", "while", "case",
    "do", "throw",
  ]

  /// The names a closure's signature binds when the tokens from `start` up to an `in` on
  /// the same line form one: `a, b in`, `(a: T, b) async -> U in`, or a capture list
  /// `[weak self, context] in`. Nil when there is no `in` there.
  private func signatureNames(from start: Int, captures: Bool) -> [String]? {
    var j = start
    var nesting = 0
    var names: [String] = []
    var expectName = true
    let line = tokens[min(start, tokens.count - 1)].location.line
    while j < tokens.count - 1 {
      let t = tokens[j]
      if t.location.line != line && j > start { return nil }
      if nesting == 0 && t.is("in") && t.kind == .identifier {
        return captures ? nil : names
      }
      // A dot only in a parameter's type: `(store: CoreData.Store) in`.
      if t.is("{") || t.is("}") || (t.is("=") && !captures) || t.is(";")
        || (t.is(".") && expectName) || Self.statementKeywords.contains(t.text)
      {
        return nil
      }
      if t.is("(") || t.is("[") || t.is("<") {
        nesting += 1
        expectName = true
      } else if t.is(")") || t.is("]") || t.is(">") {
        nesting -= 1
        if captures && nesting == 0 {
          // A capture list ends here: it counts only if `in` or a signature follows.
          return signatureNames(from: j + 1, captures: false) != nil ? names : nil
        }
      } else if t.is(",") {
        expectName = true
      } else if t.is(":") || t.is("->") {
        expectName = false
      } else if t.kind == .identifier && expectName && nesting <= 1 {
        let skip = ["weak", "unowned", "inout"].contains(t.text)
        if !skip && !(captures && tokens[j + 1].is("=")) {
          names.append(t.text)
          expectName = false
        } else if captures && tokens[j + 1].is("=") {
          names.append(t.text)
          expectName = false
        }
      }
      j += 1
    }
    return nil
  }
}
