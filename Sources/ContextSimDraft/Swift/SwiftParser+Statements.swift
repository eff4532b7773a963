import ContextSimCore
import ContextSimReports

/// Statements: declarations, control flow and expressions, one line of Swift each.
extension SwiftParser {
  /// `{ statements }`; the cursor is on the `{`.
  mutating func parseBlock() -> [SwiftStatement] {
    guard take("{") else { return [] }
    var statements: [SwiftStatement] = []
    descend { parser in
      while !parser.atEnd && !parser.token.is("}") {
        let start = parser.i
        statements += parser.parseStatement()
        if parser.i == start { parser.advance() }
      }
    }
    // Too deep: skip what is left of this block.
    while !atEnd && !token.is("}") { skipGroup() }
    _ = take("}")
    return statements
  }

  /// One statement, or several for `let a = 1, b = 2`; none for a lone `;`.
  mutating func parseStatement() -> [SwiftStatement] {
    if take(";") { return [] }
    let location = token.location
    func statement(_ kind: SwiftStatement.Kind) -> [SwiftStatement] {
      [SwiftStatement(kind: kind, location: location)]
    }
    if token.kind == .poundKeyword && token.text != "#selector" && token.text != "#keyPath" {
      skipToLineEnd()
      return []
    }
    // `outer: for …`: the loop's label.
    if token.kind == .identifier && peek(1).is(":")
      && ["for", "while", "repeat", "do"].contains(
        peek(2).text)
    {
      advance()
      advance()
    }
    let attributes = parseAttributes()
    let modifiers = parseModifiers()
    switch token.kind == .identifier ? token.text : "" {
    case "async" where peek(1).is("let"):
      advance()
      return parseProperties(at: location).map { property in
        SwiftStatement(
          kind: property.value.map { .asyncLet(property.pattern, $0) }
            ?? .declaration(isLet: true, property.pattern, type: property.type, nil),
          location: location)
      }
    case "let", "var":
      return parseProperties(at: location).map { property in
        SwiftStatement(
          kind: .declaration(
            isLet: property.isLet, property.pattern, type: property.type, property.value),
          location: location)
      }
    case "func":
      var function = parseFunction(at: location)
      function.attributes = attributes
      function.modifiers = modifiers
      return statement(.function(function))
    case "if":
      return statement(parseIf())
    case "guard":
      advance()
      let conditions = parseConditions()
      _ = take("else")
      return statement(.guard(conditions, else: parseBlock()))
    case "for":
      return statement(parseFor())
    case "while":
      advance()
      let conditions = parseConditions()
      return statement(.while(conditions, body: parseBlock()))
    case "do":
      return statement(parseDo())
    case "return":
      advance()
      let ends = token.startsLine || token.is("}") || token.is(";") || atEnd
      return statement(.return(ends ? nil : parseExpression()))
    case "throw":
      advance()
      return statement(.throw(parseExpression()))
    case "break", "continue":
      let isBreak = token.text == "break"
      advance()
      if token.kind == .identifier && !token.startsLine { advance() }  // a loop label
      return statement(isBreak ? .break : .continue)
    case "defer":
      advance()
      return statement(.defer(parseBlock()))
    case "switch":
      return statement(parseSwitch())
    case "typealias", "import":
      // A name for a type, or a module: nothing runs.
      skipToLineEnd()
      return statement(.declaration(isLet: true, .wildcard, type: nil, nil))
    case "repeat", "class", "struct", "enum", "actor", "protocol", "extension":
      skipToLineEnd()
      return statement(.unknown)
    default:
      let expression = parseExpression()
      guard token.startsLine || token.is("}") || token.is(";") || atEnd else {
        skipToLineEnd()
        return statement(.unknown)
      }
      return statement(.expression(expression))
    }
  }

  private mutating func parseIf() -> SwiftStatement.Kind {
    advance()
    let conditions = parseConditions()
    let then = parseBlock()
    guard take("else") else { return .if(conditions, then: then, else: nil) }
    if token.is("if") {
      let location = token.location
      return .if(
        conditions, then: then, else: [SwiftStatement(kind: parseIf(), location: location)])
    }
    return .if(conditions, then: then, else: parseBlock())
  }

  /// `switch subject { case p, q: … default: … }`, each case's patterns kept as written.
  private mutating func parseSwitch() -> SwiftStatement.Kind {
    advance()
    let subject = parseExpression(trailingClosures: false)
    guard take("{") else {
      skipToLineEnd()
      return .unknown
    }
    var cases: [SwiftSwitchCase] = []
    descend { parser in
      while !parser.atEnd && !parser.token.is("}") {
        if parser.take("@") { parser.advance() }  // `@unknown default:`
        var patterns: [String] = []
        if parser.take("case") {
          var current: [String] = []
          while !parser.atEnd && !parser.token.is(":") && !parser.token.is("}") {
            if parser.take(",") {
              patterns.append(Self.joined(current))
              current = []
              continue
            }
            let start = parser.i
            parser.skipGroup()
            current += parser.tokens[start..<parser.i].map(\.text)
          }
          patterns.append(Self.joined(current))
        } else if !parser.take("default") {
          parser.skipToLineEnd()  // not a case: left unread
          continue
        }
        _ = parser.take(":")
        var body: [SwiftStatement] = []
        while !parser.atEnd && !parser.token.is("case") && !parser.token.is("default")
          && !parser.token.is("@") && !parser.token.is("}")
        {
          let start = parser.i
          body += parser.parseStatement()
          if parser.i == start { parser.advance() }
        }
        cases.append(SwiftSwitchCase(patterns: patterns, body: body))
      }
    }
    while !atEnd && !token.is("}") { skipGroup() }
    _ = take("}")
    return .switch(subject, cases: cases)
  }

  /// Tokens as written: a space only between two words (`let x`, `.some(let x)`).
  static func joined(_ tokens: [String]) -> String {
    var text = ""
    for token in tokens {
      let word = { (c: Character?) in c.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false }
      if word(text.last) && word(token.first) { text += " " }
      text += token
    }
    return text
  }

  /// `for [try] [await] pattern in sequence [where condition] { body }`.
  private mutating func parseFor() -> SwiftStatement.Kind {
    advance()
    while token.is("try") || token.is("await") || token.is("case") { advance() }
    let pattern = parsePattern()
    if take(":") { _ = parseTypeText() }
    guard take("in") else {
      skipToLineEnd()
      return .unknown
    }
    let sequence = parseExpression(trailingClosures: false)
    if take("where") { _ = parseExpression(trailingClosures: false) }
    return .forIn(pattern, sequence, body: parseBlock())
  }

  /// `do { … } catch { … }`, every `catch` clause's pattern skipped.
  private mutating func parseDo() -> SwiftStatement.Kind {
    advance()
    if token.is("throws") {
      advance()
      if token.is("(") { skipGroup() }
    }
    let body = parseBlock()
    var catches: [[SwiftStatement]] = []
    while take("catch") {
      while !atEnd && !token.is("{") && !token.is("}") { skipGroup() }
      catches.append(parseBlock())
    }
    return .do(body, catches: catches)
  }

  /// The comma-separated conditions of `if`, `guard` and `while`, up to their `{` or `else`.
  mutating func parseConditions() -> [SwiftCondition] {
    var conditions: [SwiftCondition] = []
    repeat {
      // Swift 2 binds on after one `let`: `if let a = x, b = y, c: T = z`.
      let continuesBinding =
        conditions.last.map { if case .binding = $0 { true } else { false } } ?? false
        && token.kind == .identifier && (peek(1).is("=") || peek(1).is(":"))
      if token.is("let") || token.is("var") || continuesBinding {
        if !continuesBinding { advance() }
        let pattern = parsePattern()
        if take(":") { _ = parseTypeText() }
        let value = take("=") ? parseExpression(trailingClosures: false) : nil
        conditions.append(.binding(pattern, value))
      } else if token.is("case") || token.kind == .poundKeyword {
        // Kept as its tokens' text: `#available(iOS 15, *)`, `case .some(let x) = y`.
        let start = i
        while !atEnd && !token.is("{") && !token.is(",") && !token.is("else") { skipGroup() }
        conditions.append(.other(tokens[start..<i].map(\.text).joined(separator: " ")))
      } else {
        conditions.append(.expression(parseExpression(trailingClosures: false)))
      }
    } while take(",")
    return conditions
  }
}
