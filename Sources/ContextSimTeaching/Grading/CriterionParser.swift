import ContextSimCore
import ContextSimReports

/// Reads the value of a `store:` or `viewContext:` header line.
///
///     2 Note
///     1 Note where title = "Milk" and isRead = true
///     2 Photo where album = album-1
///     1 Album where photos.count = 2
///
/// A value is a JSON literal (`"text"`, `3`, `2.5`, `true`, `false`, `null`), or the handle
/// of a row in the starting scenario's store for a to-one relationship. `key.count` is the
/// size of a to-many relationship.
enum CriterionParser {
  /// What went wrong, and where in the line.
  struct Failure: Error {
    var location: SourceLocation
    var message: String
    var fix: String
  }

  private struct Token {
    enum Kind: Equatable {
      case word(String)
      case number(String)
      case string(String)
      case equals
    }
    var kind: Kind
    var column: Int
  }

  /// Reads one criterion; `start` is where the value begins in the brief.
  static func parse(_ text: String, place: RowsCriterion.Place, at start: SourceLocation)
    throws(Failure) -> RowsCriterion
  {
    let tokens = try tokenize(text, at: start)
    func location(_ i: Int) -> SourceLocation {
      let column =
        i < tokens.count ? tokens[i].column : start.column + text.count
      return SourceLocation(line: start.line, column: column)
    }
    let example =
      "write \(place.rawValue): 2 Note, or \(place.rawValue): 1 Note where title = \"Milk\""
    guard case .number(let digits)? = tokens.first?.kind, let count = Int(digits), count >= 0
    else {
      throw Failure(
        location: location(0), message: "a criterion starts with how many rows: a whole number",
        fix: example)
    }
    guard tokens.count > 1, case .word(let entity) = tokens[1].kind else {
      throw Failure(
        location: location(1), message: "the entity is missing after \(count)", fix: example)
    }
    var conditions: [RowsCriterion.Condition] = []
    var i = 2
    if i < tokens.count {
      guard tokens[i].kind == .word("where") else {
        throw Failure(
          location: location(i), message: "expected where after the entity",
          fix: "add conditions as where key = value and key = value")
      }
      i += 1
      repeat {
        if !conditions.isEmpty { i += 1 }
        conditions.append(try condition(tokens, at: &i, text: text, location: location))
        if i < tokens.count && tokens[i].kind != .word("and") {
          throw Failure(
            location: location(i), message: "expected and between two conditions",
            fix: "join conditions with and: title = \"Milk\" and isRead = true")
        }
      } while i < tokens.count
    }
    return RowsCriterion(
      place: place, count: count, entity: entity, conditions: conditions, location: start)
  }

  /// `key = value` or `key.count = n`, from token `i` on.
  private static func condition(
    _ tokens: [Token], at i: inout Int, text: String, location: (Int) -> SourceLocation
  ) throws(Failure) -> RowsCriterion.Condition {
    let begin = i
    guard i < tokens.count, case .word(let path) = tokens[i].kind else {
      throw Failure(
        location: location(i), message: "expected a key such as title",
        fix: "write a condition as key = value")
    }
    guard i + 1 < tokens.count, tokens[i + 1].kind == .equals else {
      throw Failure(
        location: location(i + 1), message: "expected = after \(path)",
        fix: "compare with =: \(path) = value")
    }
    guard i + 2 < tokens.count else {
      throw Failure(
        location: location(i + 2), message: "the value after \(path) = is missing",
        fix: "write a JSON value (\"text\", 3, true, null) or a row's handle")
    }
    let valueToken = tokens[i + 2]
    i += 3
    let written = source(text, from: tokens[begin].column, through: valueToken, tokens: tokens)
    let at = location(begin)
    if path.hasSuffix(".count") {
      guard case .number(let digits) = valueToken.kind, let n = Int(digits), n >= 0 else {
        throw Failure(
          location: location(i - 1), message: "\(path) compares with a whole number",
          fix: "write \(path) = 2, say")
      }
      return .init(key: String(path.dropLast(6)), test: .count(n), text: written, location: at)
    }
    let test: RowsCriterion.Condition.Test
    switch valueToken.kind {
    case .string(let s): test = .equals(.string(s))
    case .number(let digits):
      if let n = Int(digits) {
        test = .equals(.integer(n))
      } else if let d = Double(digits) {
        test = .equals(.double(d))
      } else {
        throw Failure(
          location: location(i - 1), message: "\(digits) is not a number",
          fix: "write 3 or 2.5, say")
      }
    case .word("true"): test = .equals(.bool(true))
    case .word("false"): test = .equals(.bool(false))
    case .word("null"): test = .equals(.null)
    case .word(let handle): test = .row(handle: handle)
    case .equals:
      throw Failure(
        location: location(i - 1), message: "a second = after \(path)", fix: "compare with one =")
    }
    return .init(key: path, test: test, text: written, location: at)
  }

  /// The condition as the brief wrote it, from its key to the end of its value.
  private static func source(_ text: String, from column: Int, through last: Token, tokens: [Token])
    -> String
  {
    let start = tokens[0].column
    let characters = Array(text)
    let from = column - start
    var to = characters.count
    if let next = tokens.first(where: { $0.column > last.column }) { to = next.column - start }
    return String(characters[from..<min(to, characters.count)]).trimmed
  }

  /// Words, numbers, quoted strings and `=`, each with its column.
  private static func tokenize(_ text: String, at start: SourceLocation) throws(Failure)
    -> [Token]
  {
    let characters = Array(text)
    var tokens: [Token] = []
    var i = 0
    func isWordCharacter(_ c: Character) -> Bool {
      c.isLetter || c.isNumber || c == "_" || c == "-" || c == "."
    }
    while i < characters.count {
      let c = characters[i]
      let column = start.column + i
      if c == " " || c == "\t" {
        i += 1
      } else if c == "=" {
        tokens.append(Token(kind: .equals, column: column))
        i += 1
      } else if c == "\"" {
        var value = ""
        i += 1
        while i < characters.count && characters[i] != "\"" {
          if characters[i] == "\\" && i + 1 < characters.count {
            i += 1
            switch characters[i] {
            case "n": value.append("\n")
            case "t": value.append("\t")
            default: value.append(characters[i])
            }
          } else {
            value.append(characters[i])
          }
          i += 1
        }
        guard i < characters.count else {
          throw Failure(
            location: SourceLocation(line: start.line, column: column),
            message: "the string is never closed", fix: "end it with \"")
        }
        tokens.append(Token(kind: .string(value), column: column))
        i += 1
      } else if c.isNumber || (c == "-" && i + 1 < characters.count && characters[i + 1].isNumber) {
        var j = i + 1
        while j < characters.count && isWordCharacter(characters[j]) { j += 1 }
        let word = String(characters[i..<j])
        let isNumber = Double(word) != nil
        tokens.append(Token(kind: isNumber ? .number(word) : .word(word), column: column))
        i = j
      } else if isWordCharacter(c) {
        var j = i + 1
        while j < characters.count && isWordCharacter(characters[j]) { j += 1 }
        tokens.append(Token(kind: .word(String(characters[i..<j])), column: column))
        i = j
      } else {
        throw Failure(
          location: SourceLocation(line: start.line, column: column),
          message: "unexpected \"\(c)\"",
          fix: "write how many, the entity, and conditions: 1 Note where title = \"Milk\"")
      }
    }
    return tokens
  }
}
