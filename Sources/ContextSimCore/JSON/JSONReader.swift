/// A JSON syntax error with the place it was found and how to mend it.
package struct JSONSyntaxError: Error, Equatable, Sendable {
  package var message: String
  package var location: SourceLocation
  package var fix: String
  /// The bound the input went past, when it is one the reader enforces (nesting).
  package var bound: Bound? = nil
}

/// Reads strict JSON (RFC 8259) into a ``JSONValue`` tree that keeps line and column.
///
/// Strict on purpose: a trailing comma, a comment or a duplicate key in a hand-written
/// scenario is reported where it stands instead of being accepted or silently dropped.
///
///     try JSONReader.read(Array("[1, 2,]".utf8))
///     // JSONSyntaxError "a trailing comma before ']'" at 1:6
public struct JSONReader {
  /// How deep arrays and objects may nest before the reader gives up.
  public static let defaultMaximumDepth = 128

  private let bytes: [UInt8]
  private var index = 0
  private var line = 1
  private var lineStart = 0
  private var depth = 0
  private let maximumDepth: Int

  package static func read(_ bytes: [UInt8], maximumDepth: Int = defaultMaximumDepth)
    throws(JSONSyntaxError) -> JSONValue
  {
    var reader = JSONReader(bytes: bytes, maximumDepth: maximumDepth)
    try reader.checkEncoding()
    if reader.bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
      reader.index = 3
      reader.lineStart = 3
    }
    reader.skipWhitespace()
    if reader.index == bytes.count {
      throw reader.error(
        "the file is empty", fix: "write a scenario object: { \"title\": …, \"main\": […] }")
    }
    let value = try reader.readValue()
    reader.skipWhitespace()
    if reader.index < bytes.count {
      throw reader.error(
        "more text after the end of the JSON value",
        fix: "a scenario file holds one object; remove what follows its closing '}'")
    }
    return value
  }

  private init(bytes: [UInt8], maximumDepth: Int) {
    self.bytes = bytes
    self.maximumDepth = maximumDepth
  }

  // MARK: Positions

  /// The last position measured, so that the next one on the same line counts only the
  /// bytes in between: values on one long line (a minified file) stay linear to read.
  private var measured = (index: 0, column: 1)

  private var location: SourceLocation {
    // Columns count characters, not bytes: skip UTF-8 continuation bytes.
    var (i, column) =
      measured.index >= lineStart && measured.index <= index ? measured : (lineStart, 1)
    while i < index {
      if bytes[i] & 0xC0 != 0x80 { column += 1 }
      i += 1
    }
    return SourceLocation(line: line, column: column)
  }

  /// The current position, remembered as the starting point for the next.
  private mutating func here() -> SourceLocation {
    let here = location
    measured = (index, here.column)
    return here
  }

  private func error(_ message: String, fix: String) -> JSONSyntaxError {
    JSONSyntaxError(message: message, location: location, fix: fix)
  }

  private func error(_ message: String, fix: String, at location: SourceLocation)
    -> JSONSyntaxError
  {
    JSONSyntaxError(message: message, location: location, fix: fix)
  }

  /// Rejects bytes that are not UTF-8, pointing at the first bad one.
  private mutating func checkEncoding() throws(JSONSyntaxError) {
    var i = 0
    while i < bytes.count {
      let b = bytes[i]
      let length: Int
      switch b {
      case 0x00...0x7F: length = 1
      case 0xC2...0xDF: length = 2
      case 0xE0...0xEF: length = 3
      case 0xF0...0xF4: length = 4
      default: length = 0
      }
      var valid = length > 0 && i + length <= bytes.count
      if valid {
        for k in 1..<max(length, 1) where bytes[i + k] & 0xC0 != 0x80 { valid = false }
      }
      if valid && length == 3 {
        let b1 = bytes[i + 1]
        if (b == 0xE0 && b1 < 0xA0) || (b == 0xED && b1 > 0x9F) { valid = false }
      }
      if valid && length == 4 {
        let b1 = bytes[i + 1]
        if (b == 0xF0 && b1 < 0x90) || (b == 0xF4 && b1 > 0x8F) { valid = false }
      }
      if !valid {
        index = i
        throw error(
          "the file is not UTF-8 text (byte 0x\(String(b, radix: 16, uppercase: true)))",
          fix: "save the scenario as UTF-8")
      }
      if b == UInt8(ascii: "\n") {
        line += 1
        lineStart = i + 1
      }
      i += length
    }
    line = 1
    lineStart = 0
    index = 0
  }

  // MARK: Values

  private mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
        index += 1
      case UInt8(ascii: "\n"):
        index += 1
        line += 1
        lineStart = index
      default:
        return
      }
    }
  }

  private mutating func readValue() throws(JSONSyntaxError) -> JSONValue {
    guard index < bytes.count else {
      throw error(
        "the file ends where a value should be",
        fix: "finish the value, or remove the comma before it")
    }
    let start = here()
    switch bytes[index] {
    case UInt8(ascii: "{"): return try readObject()
    case UInt8(ascii: "["): return try readArray()
    case UInt8(ascii: "\""): return JSONValue(.string(try readString()), at: start)
    case UInt8(ascii: "t"):
      try readLiteral("true")
      return JSONValue(.bool(true), at: start)
    case UInt8(ascii: "f"):
      try readLiteral("false")
      return JSONValue(.bool(false), at: start)
    case UInt8(ascii: "n"):
      try readLiteral("null")
      return JSONValue(.null, at: start)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
    case UInt8(ascii: "/"):
      throw error(
        "comments are not allowed in JSON",
        fix: "remove the comment, or move the text into a \"note\"")
    case UInt8(ascii: "'"):
      throw error("strings use double quotes in JSON", fix: "replace ' with \"")
    case UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ","):
      throw error(
        "a value is missing before '\(Character(UnicodeScalar(bytes[index])))'",
        fix: "remove the extra comma, or add the value")
    default:
      throw error(
        "unexpected character \(quotedCharacter()) where a value should be",
        fix: "write a string in double quotes, a number, true, false, null, a list or an object")
    }
  }

  private func quotedCharacter() -> String {
    let rest = bytes[index...].prefix(4)
    let text = String(decoding: rest, as: UTF8.self)
    return "'\(text.first.map(String.init) ?? "")'"
  }

  private mutating func enter() throws(JSONSyntaxError) {
    depth += 1
    if depth > maximumDepth {
      var tooDeep = error(
        "lists and objects nest deeper than \(maximumDepth) levels",
        fix: "flatten the scenario; a file this deep is more likely runaway input than a scenario")
      tooDeep.bound = .nesting
      throw tooDeep
    }
  }

  private mutating func readObject() throws(JSONSyntaxError) -> JSONValue {
    let start = here()
    try enter()
    index += 1
    var members: [JSONValue.Member] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      depth -= 1
      return JSONValue(.object(members), at: start)
    }
    while true {
      skipWhitespace()
      guard index < bytes.count else {
        throw error(
          "the file ends inside the object that starts at \(start)",
          fix: "close the object with '}'")
      }
      guard bytes[index] == UInt8(ascii: "\"") else {
        if bytes[index] == UInt8(ascii: "}") {
          throw error("a trailing comma before '}'", fix: "remove the comma after the last member")
        }
        if bytes[index] == UInt8(ascii: "/") {
          throw error(
            "comments are not allowed in JSON",
            fix: "remove the comment, or move the text into a \"note\"")
        }
        throw error(
          "expected a key in double quotes, found \(quotedCharacter())",
          fix: "write the key as \"name\"")
      }
      let keyLocation = here()
      let key = try readString()
      if members.contains(where: { $0.key == key }) {
        throw error(
          "the key \"\(key)\" appears twice in this object", fix: "keep one \"\(key)\"",
          at: keyLocation)
      }
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
        throw error("expected ':' after the key \"\(key)\"", fix: "write \"\(key)\": value")
      }
      index += 1
      skipWhitespace()
      let value = try readValue()
      members.append(JSONValue.Member(key: key, keyLocation: keyLocation, value: value))
      skipWhitespace()
      guard index < bytes.count else {
        throw error(
          "the file ends inside the object that starts at \(start)",
          fix: "close the object with '}'")
      }
      switch bytes[index] {
      case UInt8(ascii: ","):
        index += 1
      case UInt8(ascii: "}"):
        index += 1
        depth -= 1
        return JSONValue(.object(members), at: start)
      default:
        throw error(
          "expected ',' or '}' after the value of \"\(key)\", found \(quotedCharacter())",
          fix: "add a comma between members")
      }
    }
  }

  private mutating func readArray() throws(JSONSyntaxError) -> JSONValue {
    let start = here()
    try enter()
    index += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      depth -= 1
      return JSONValue(.array(elements), at: start)
    }
    while true {
      skipWhitespace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
        throw error("a trailing comma before ']'", fix: "remove the comma after the last element")
      }
      elements.append(try readValue())
      skipWhitespace()
      guard index < bytes.count else {
        throw error(
          "the file ends inside the list that starts at \(start)", fix: "close the list with ']'")
      }
      switch bytes[index] {
      case UInt8(ascii: ","):
        index += 1
      case UInt8(ascii: "]"):
        index += 1
        depth -= 1
        return JSONValue(.array(elements), at: start)
      default:
        throw error(
          "expected ',' or ']' in the list, found \(quotedCharacter())",
          fix: "add a comma between elements")
      }
    }
  }

  private mutating func readLiteral(_ word: String) throws(JSONSyntaxError) {
    let expected = Array(word.utf8)
    guard bytes[index...].starts(with: expected) else {
      throw error(
        "unexpected word where a value should be",
        fix: "write true, false or null in lower case, or put text in double quotes")
    }
    index += expected.count
  }

  private mutating func readNumber() throws(JSONSyntaxError) -> JSONValue {
    let start = here()
    let first = index
    var isInteger = true
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    func digits(_ reader: inout JSONReader) -> Int {
      var count = 0
      while reader.index < reader.bytes.count,
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(reader.bytes[reader.index])
      {
        reader.index += 1
        count += 1
      }
      return count
    }
    let leadingZero = index < bytes.count && bytes[index] == UInt8(ascii: "0")
    let intDigits = digits(&self)
    guard intDigits > 0 else {
      throw error("a '-' must be followed by digits", fix: "write a number such as -1")
    }
    if leadingZero && intDigits > 1 {
      throw error("numbers cannot start with 0", fix: "remove the leading zero", at: start)
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      isInteger = false
      index += 1
      guard digits(&self) > 0 else {
        throw error("a '.' must be followed by digits", fix: "write 1.0, not 1.")
      }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      isInteger = false
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      guard digits(&self) > 0 else {
        throw error("an exponent must have digits", fix: "write 1e3, not 1e")
      }
    }
    let text = String(decoding: bytes[first..<index], as: UTF8.self)
    if isInteger, let value = Int(text) {
      return JSONValue(.integer(value), at: start)
    }
    guard let value = Double(text), value.isFinite else {
      throw error("the number \(text) is out of range", fix: "use a smaller number", at: start)
    }
    return JSONValue(.double(value), at: start)
  }

  private mutating func readString() throws(JSONSyntaxError) -> String {
    let start = here()
    index += 1
    var scalars = String.UnicodeScalarView()
    var runStart = index
    func flush(_ reader: JSONReader, into scalars: inout String.UnicodeScalarView) {
      scalars.append(
        contentsOf: String(decoding: reader.bytes[runStart..<reader.index], as: UTF8.self)
          .unicodeScalars)
    }
    while true {
      guard index < bytes.count else {
        throw error(
          "the string that starts at \(start) is never closed", fix: "add the closing '\"'",
          at: start)
      }
      let b = bytes[index]
      if b == UInt8(ascii: "\"") {
        flush(self, into: &scalars)
        index += 1
        return String(scalars)
      }
      if b == UInt8(ascii: "\n") || b < 0x20 {
        throw error(
          "a line break or control character inside a string",
          fix: "close the string on the line it starts, or write \\n")
      }
      if b == UInt8(ascii: "\\") {
        flush(self, into: &scalars)
        index += 1
        guard index < bytes.count else { continue }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""): scalars.append("\"")
        case UInt8(ascii: "\\"): scalars.append("\\")
        case UInt8(ascii: "/"): scalars.append("/")
        case UInt8(ascii: "b"): scalars.append("\u{08}")
        case UInt8(ascii: "f"): scalars.append("\u{0C}")
        case UInt8(ascii: "n"): scalars.append("\n")
        case UInt8(ascii: "r"): scalars.append("\r")
        case UInt8(ascii: "t"): scalars.append("\t")
        case UInt8(ascii: "u"):
          scalars.append(try readUnicodeEscape())
        default:
          index -= 2
          throw error(
            "unknown escape \\\(Character(UnicodeScalar(escape)))",
            fix: "use one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
        }
        runStart = index
        continue
      }
      index += 1
    }
  }

  private mutating func readHex4() throws(JSONSyntaxError) -> UInt32 {
    guard index + 4 <= bytes.count,
      let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
    else {
      throw error("\\u must be followed by four hex digits", fix: "write \\u00e9, for example")
    }
    index += 4
    return value
  }

  private mutating func readUnicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
    let high = try readHex4()
    if (0xD800...0xDBFF).contains(high) {
      if bytes[index...].starts(with: Array("\\u".utf8)) {
        index += 2
        let low = try readHex4()
        if (0xDC00...0xDFFF).contains(low),
          let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        {
          return scalar
        }
      }
      throw error(
        "a \\u surrogate pair is incomplete",
        fix: "write the character itself, or both halves of the pair")
    }
    guard let scalar = Unicode.Scalar(high) else {
      throw error("\\u escape names no character", fix: "write the character itself")
    }
    return scalar
  }
}
