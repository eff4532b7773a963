import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

@Suite("Reading JSON with positions")
struct JSONReaderTests {
  private func read(_ text: String) throws(JSONSyntaxError) -> JSONValue {
    try JSONReader.read(Array(text.utf8))
  }

  private func failure(_ text: String) -> JSONSyntaxError? {
    do {
      _ = try read(text)
      return nil
    } catch {
      return error
    }
  }

  @Test("Values remember the line and column they start at")
  func positions() throws {
    let value = try read("{\n  \"a\": [1, \"é\", true],\n  \"b\": null\n}")
    #expect(value.location == SourceLocation(line: 1, column: 1))
    let a = try #require(value["a"])
    #expect(a.location == SourceLocation(line: 2, column: 8))
    #expect(a.elements?[1].location == SourceLocation(line: 2, column: 12))
    #expect(a.elements?[2].location == SourceLocation(line: 2, column: 17))
    #expect(value.members?[1].keyLocation == SourceLocation(line: 3, column: 3))
  }

  @Test("Columns count characters, not bytes")
  func columnsCountCharacters() {
    let error = failure("[\"ééé\", ]")
    #expect(error?.location == SourceLocation(line: 1, column: 9))
  }

  @Test(
    "Malformed JSON is reported where it breaks",
    arguments: [
      ("[1, 2,]", 1, 7, "a trailing comma before ']'"),
      ("{\"a\": 1,}", 1, 9, "a trailing comma before '}'"),
      ("{\"a\": 1 \"b\": 2}", 1, 9, "expected ',' or '}' after the value of \"a\", found '\"'"),
      ("{\"a\" 1}", 1, 6, "expected ':' after the key \"a\""),
      ("[\"abc", 1, 2, "the string that starts at 1:2 is never closed"),
      ("{\n  // note\n}", 2, 3, "comments are not allowed in JSON"),
      ("{\"a\": 1, b: 2}", 1, 10, "expected a key in double quotes, found 'b'"),
      ("[// note\n]", 1, 2, "comments are not allowed in JSON"),
      ("['a']", 1, 2, "strings use double quotes in JSON"),
      ("[01]", 1, 2, "numbers cannot start with 0"),
      ("[1.]", 1, 4, "a '.' must be followed by digits"),
      ("[tru]", 1, 2, "unexpected word where a value should be"),
      ("[\"\\q\"]", 1, 3, "unknown escape \\q"),
      ("{\"a\": 1, \"a\": 2}", 1, 10, "the key \"a\" appears twice in this object"),
      ("{} {}", 1, 4, "more text after the end of the JSON value"),
      ("", 1, 1, "the file is empty"),
      ("[1,\n", 2, 1, "the file ends where a value should be"),
    ])
  func malformed(text: String, line: Int, column: Int, message: String) {
    let error = failure(text)
    #expect(error?.message == message)
    #expect(error?.location == SourceLocation(line: line, column: column))
    #expect(error?.fix.isEmpty == false)
  }

  @Test("Bytes that are not UTF-8 are refused at the first bad byte")
  func notUTF8() {
    var bytes = Array("{\n \"title\": \"".utf8)
    bytes += [0xC3, 0x28]
    bytes += Array("\"}".utf8)
    #expect(throws: JSONSyntaxError.self) { try JSONReader.read(bytes) }
    do {
      _ = try JSONReader.read(bytes)
    } catch {
      #expect(error.message == "the file is not UTF-8 text (byte 0xC3)")
      #expect(error.location == SourceLocation(line: 2, column: 12))
    }
  }

  @Test("Nesting deeper than the limit is refused, not recursed into")
  func depthLimit() {
    let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
    let error = failure(deep)
    #expect(error?.message == "lists and objects nest deeper than 128 levels")
    let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
    #expect(failure(fine) == nil)
  }

  @Test("Escapes, surrogate pairs, numbers and a byte-order mark decode to their values")
  func decodesValues() throws {
    let value = try JSONReader.read(
      [0xEF, 0xBB, 0xBF] + Array(#"["a\"\\\/\n\u00e9\ud83d\ude00", -12, 2.5e1, false, null]"#.utf8))
    #expect(
      value.elements?.map(\.kind) == [
        .string("a\"\\/\né😀"), .integer(-12), .double(25), .bool(false), .null,
      ])
  }
}
