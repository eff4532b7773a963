import ContextSimCore
import ContextSimReports

/// Splits Swift source into ``SwiftToken``s. It never fails: what it does not recognise
/// becomes a one-character operator token, an unterminated string or comment ends at the
/// end of the file, so the parser always gets a token list ending in `.end`.
struct SwiftLexer {
  private let scalars: [Unicode.Scalar]
  private var i = 0
  private var line = 1
  private var column = 1
  private var tokens: [SwiftToken] = []
  private var atLineStart = true
  private var sawSpace = true

  /// The tokens of `source`, ending with one `.end` token.
  static func tokens(of source: String) -> [SwiftToken] {
    var lexer = SwiftLexer(source)
    lexer.run()
    return lexer.tokens
  }

  private init(_ source: String) {
    scalars = Array(source.unicodeScalars)
  }

  private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
    let j = i + offset
    return j < scalars.count ? scalars[j] : nil
  }

  private mutating func advance() {
    guard let c = peek() else { return }
    i += 1
    if c == "\n" || (c == "\r" && peek() != "\n") {
      line += 1
      column = 1
    } else {
      column += 1
    }
  }

  private mutating func run() {
    while let c = peek() {
      if c == "\n" || c == "\r" {
        advance()
        atLineStart = true
        sawSpace = true
      } else if c == " " || c == "\t" || c == "\u{0C}" || c == "\u{0B}" {
        advance()
        sawSpace = true
      } else if c == "/" && peek(1) == "/" {
        while let d = peek(), d != "\n", d != "\r" { advance() }
        sawSpace = true
      } else if c == "/" && peek(1) == "*" {
        skipBlockComment()
        sawSpace = true
      } else {
        lexToken(c)
      }
    }
    let location = SourceLocation(line: line, column: column)
    emit(.end, "", at: location)
  }

  private mutating func skipBlockComment() {
    var depth = 0
    repeat {
      if peek() == "/" && peek(1) == "*" {
        depth += 1
        advance()
        advance()
      } else if peek() == "*" && peek(1) == "/" {
        depth -= 1
        advance()
        advance()
      } else {
        advance()
      }
    } while depth > 0 && peek() != nil
  }

  private mutating func emit(
    _ kind: SwiftToken.Kind, _ text: String, at location: SourceLocation,
    interpolations: [String] = []
  ) {
    if let last = tokens.indices.last { tokens[last].spaceAfter = sawSpace || atLineStart }
    tokens.append(
      SwiftToken(
        kind: kind, text: text, location: location, startsLine: atLineStart,
        spaceBefore: sawSpace, interpolations: interpolations))
    atLineStart = false
    sawSpace = false
  }

  private mutating func lexToken(_ c: Unicode.Scalar) {
    let start = SourceLocation(line: line, column: column)
    if c == "\"" || (c == "#" && rawStringHashes() != nil) {
      lexString(at: start)
    } else if c == "#" {
      advance()
      emit(.poundKeyword, "#" + takeWhile(Self.isIdentifierPart), at: start)
    } else if c == "`" {
      advance()
      let name = takeWhile { $0 != "`" && $0 != "\n" }
      if peek() == "`" { advance() }
      emit(.identifier, name, at: start)
    } else if c == "$" || Self.isIdentifierStart(c) {
      advance()
      emit(.identifier, String(c) + takeWhile(Self.isIdentifierPart), at: start)
    } else if Self.isDigit(c) {
      emit(.number, takeNumber(), at: start)
    } else if "(){}[],:;@".unicodeScalars.contains(c) {
      advance()
      emit(.punctuation, String(c), at: start)
    } else if c == "." && !(peek(1) == "." || peek(1) == "<") {
      advance()
      emit(.punctuation, ".", at: start)
    } else if Self.isOperator(c) || c == "." {
      lexOperator(at: start)  // `...` and `..<` too
    } else {
      advance()
      emit(.operator, String(c), at: start)
    }
  }

  private mutating func lexOperator(at start: SourceLocation) {
    var text = ""
    while let d = peek(), Self.isOperator(d) || (d == "." && (text.isEmpty || text.hasPrefix(".")))
    {
      if d == "/" && (peek(1) == "/" || peek(1) == "*") { break }
      // `>` closes generic arguments (`Set<Array<Int>>`): each stands alone unless it
      // begins `>=` or ends `->`.
      if d == ">" && !text.isEmpty && text != "-" { break }
      text.unicodeScalars.append(d)
      advance()
      if d == ">" && peek() != "=" { break }
    }
    if text.isEmpty {
      text = String(peek() ?? " ")
      advance()
    }
    emit(.operator, text, at: start)
  }

  private mutating func takeWhile(_ include: (Unicode.Scalar) -> Bool) -> String {
    var text = ""
    while let d = peek(), include(d) {
      text.unicodeScalars.append(d)
      advance()
    }
    return text
  }

  private mutating func takeNumber() -> String {
    var text = takeWhile { Self.isIdentifierPart($0) }
    // A fraction or an exponent's sign: `1.5`, `1e-3`.
    while let d = peek() {
      if d == ".", let e = peek(1), Self.isDigit(e) {
        advance()
        text += "." + takeWhile { Self.isIdentifierPart($0) }
      } else if d == "-" || d == "+", text.last == "e" || text.last == "E" || text.last == "p" {
        advance()
        text.unicodeScalars.append(d)
        text += takeWhile { Self.isIdentifierPart($0) }
      } else {
        break
      }
    }
    return text
  }

  // MARK: Strings

  /// The number of `#` before a raw string's quote, when the `#`s at the cursor start one.
  private func rawStringHashes() -> Int? {
    var n = 0
    while peek(n) == "#" { n += 1 }
    return n > 0 && peek(n) == "\"" ? n : nil
  }

  private mutating func lexString(at start: SourceLocation) {
    let hashes = rawStringHashes() ?? 0
    for _ in 0..<hashes { advance() }
    let multiline = peek() == "\"" && peek(1) == "\"" && peek(2) == "\""
    for _ in 0..<(multiline ? 3 : 1) { advance() }
    let close =
      String(repeating: "\"", count: multiline ? 3 : 1) + String(repeating: "#", count: hashes)
    let escape = "\\" + String(repeating: "#", count: hashes)
    var text = ""
    var interpolations: [String] = []
    while let d = peek() {
      if matches(close) {
        for _ in close.unicodeScalars { advance() }
        break
      }
      if !multiline && (d == "\n" || d == "\r") { break }
      if matches(escape) {
        for _ in escape.unicodeScalars { advance() }
        if peek() == "(" {
          let inner = takeInterpolation()
          interpolations.append(inner)
          text += "\\(" + inner + ")"
        } else {
          text += takeEscape()
        }
        continue
      }
      text.unicodeScalars.append(d)
      advance()
    }
    if multiline {
      // The lines' shared indent and the line breaks after the opening and before the
      // closing quotes are not part of the string.
      text = Self.dedented(text)
    }
    emit(.string, text, at: start, interpolations: interpolations)
  }

  private func matches(_ text: String) -> Bool {
    for (k, s) in text.unicodeScalars.enumerated() where peek(k) != s { return false }
    return true
  }

  /// `\(…)`'s contents, parentheses balanced, strings inside skipped whole.
  private mutating func takeInterpolation() -> String {
    advance()
    var depth = 1
    var text = ""
    var inString = false
    while let d = peek(), d != "\n" || inString {
      if inString {
        if d == "\\" {
          text.unicodeScalars.append(d)
          advance()
        } else if d == "\"" {
          inString = false
        }
      } else if d == "\"" {
        inString = true
      } else if d == "(" {
        depth += 1
      } else if d == ")" {
        depth -= 1
        if depth == 0 {
          advance()
          break
        }
      }
      if let e = peek() { text.unicodeScalars.append(e) }
      advance()
    }
    return text
  }

  private mutating func takeEscape() -> String {
    guard let e = peek() else { return "" }
    advance()
    switch e {
    case "n": return "\n"
    case "t": return "\t"
    case "r": return "\r"
    case "0": return "\0"
    case "u":
      guard peek() == "{" else { return "u" }
      advance()
      let hex = takeWhile { $0 != "}" && $0 != "\"" && $0 != "\n" }
      if peek() == "}" { advance() }
      return UInt32(hex, radix: 16).flatMap(Unicode.Scalar.init).map(String.init) ?? ""
    case "\n", "\r":
      // A backslash at a line's end in a multi-line string joins the lines.
      return ""
    default: return String(e)
    }
  }

  private static func dedented(_ text: String) -> String {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.first?.allSatisfy({ $0 == " " || $0 == "\t" }) == true { lines.removeFirst() }
    let indent =
      lines.last.map { last in
        last.allSatisfy { $0 == " " || $0 == "\t" } ? last.count : 0
      } ?? 0
    if indent > 0 || lines.last?.isEmpty == true { lines.removeLast() }
    return lines.map { line in
      String(line.dropFirst(min(indent, line.prefix { $0 == " " || $0 == "\t" }.count)))
    }.joined(separator: "\n")
  }

  // MARK: Character classes

  static func isIdentifierStart(_ c: Unicode.Scalar) -> Bool {
    c == "_" || (c >= "a" && c <= "z") || (c >= "A" && c <= "Z")
      || (c.value > 0x7F && c.properties.isXIDStart)
  }

  static func isIdentifierPart(_ c: Unicode.Scalar) -> Bool {
    isIdentifierStart(c) || isDigit(c) || (c.value > 0x7F && c.properties.isXIDContinue)
  }

  static func isDigit(_ c: Unicode.Scalar) -> Bool {
    c >= "0" && c <= "9"
  }

  static func isOperator(_ c: Unicode.Scalar) -> Bool {
    "/=-+!*%<>&|^~?".unicodeScalars.contains(c)
  }
}
