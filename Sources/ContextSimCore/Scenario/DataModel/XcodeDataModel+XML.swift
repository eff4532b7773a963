import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// One element of a `contents` file: its name, its attributes, where it starts, its children.
///
///     <entity name="Photo"><attribute name="remoteURL" attributeType="String"/></entity>
///     // entity {name: Photo} at 1:21, one child: attribute {name: remoteURL, …}
struct ModelElement {
  var name: String
  var attributes: [String: String]
  /// Where its start tag begins: the `<`.
  var location: SourceLocation
  var children: [ModelElement] = []

  subscript(attribute: String) -> String? { attributes[attribute] }

  /// Whether an Xcode flag such as `optional="YES"` is set; Xcode leaves a flag out when `NO`.
  func flag(_ attribute: String) -> Bool { attributes[attribute] == "YES" }

  func children(named name: String) -> [ModelElement] { children.filter { $0.name == name } }
}

extension ModelElement {
  /// Reads a `contents` file into its element tree, or the first place its XML breaks.
  static func parse(_ bytes: [UInt8], file: String) throws(Diagnostics) -> ModelElement {
    let parser = XMLParser(data: Data(bytes))
    let builder = TreeBuilder(text: ModelText(bytes))
    parser.delegate = builder
    _ = parser.parse()
    if let problem = builder.problem {
      // XMLParser on Linux reports errors it recovers from and still returns true, so the
      // delegate's first error decides, not parse()'s result.
      throw Diagnostics([
        Diagnostic(
          file: file, location: problem.location, path: nil,
          message: "the model's XML is not well formed: \(describe(problem.code))",
          fix: "the file is Xcode's; undo the hand edit, or open the model in Xcode and save it")
      ])
    }
    guard let root = builder.root else {
      throw Diagnostics([
        Diagnostic(
          file: file, location: nil, path: nil, message: "the model's XML has no elements",
          fix: "name the contents file Xcode wrote in an .xcdatamodel folder")
      ])
    }
    return root
  }

  /// The commonest XMLParser errors in words, with the code to look up.
  ///
  /// The codes are Apple's `NSXMLParserError` values, which are libxml2's; matched as numbers,
  /// because swift-corelibs-foundation's `XMLParser.ErrorCode` numbers its cases differently
  /// from the codes its parser reports.
  private static func describe(_ code: Int) -> String {
    let words =
      switch code {
      case 4: "it does not start with an XML element"
      case 5: "the file ends too early, or goes on after its last element"
      case 9: "a character XML does not allow"
      case 26: "an undeclared entity (&name;)"
      case 38: "a '<' inside an attribute's value; is a closing quote missing?"
      case 39, 40, 41: "an attribute without a quoted value"
      case 42: "an attribute written twice in one tag"
      case 68: "a malformed tag; is a quote or '>' missing?"
      case 72, 73: "a tag not closed with '>'"
      case 76: "an element closed by a tag of another name"
      case 77: "an element that is never closed"
      default: "XMLParser could not read it"
      }
    return "\(words) (XMLParser error \(code))"
  }
}

/// Builds the element tree as XMLParser reports elements, keeping the first error's place.
private final class TreeBuilder: NSObject, XMLParserDelegate {
  let text: ModelText
  var root: ModelElement?
  var open: [ModelElement] = []
  var problem: (code: Int, location: SourceLocation)?

  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
    qualifiedName: String?, attributes: [String: String] = [:]
  ) {
    let end = Self.location(of: parser)
    open.append(
      ModelElement(name: name, attributes: attributes, location: text.tagStart(before: end)))
  }

  init(text: ModelText) {
    self.text = text
  }

  func parser(
    _ parser: XMLParser, didEndElement name: String, namespaceURI: String?,
    qualifiedName: String?
  ) {
    guard let element = open.popLast() else { return }
    if open.isEmpty {
      root = root ?? element
    } else {
      open[open.count - 1].children.append(element)
    }
  }

  func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
    guard problem == nil else { return }
    problem = ((parseError as NSError).code, Self.location(of: parser))
    parser.abortParsing()
  }

  private static func location(of parser: XMLParser) -> SourceLocation {
    SourceLocation(line: max(1, parser.lineNumber), column: max(1, parser.columnNumber))
  }
}

/// The bytes of a `contents` file by line, to find where a start tag begins: XMLParser tells
/// where it ends, and an error is clearer at the `<` that opens the element.
struct ModelText {
  let bytes: [UInt8]
  /// The offset of each line's first byte.
  let lineStarts: [Int]

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
    lineStarts = [0] + bytes.indices.filter { bytes[$0] == UInt8(ascii: "\n") }.map { $0 + 1 }
  }

  /// The `<` before `end`, the place XMLParser gives at a start tag; `end` if none is found.
  func tagStart(before end: SourceLocation) -> SourceLocation {
    guard end.line <= lineStarts.count else { return end }
    // XMLParser counts columns in characters, so walk them to find the byte.
    var offset = lineStarts[end.line - 1]
    for _ in 1..<end.column where offset < bytes.count {
      offset += 1
      while offset < bytes.count && bytes[offset] & 0xC0 == 0x80 { offset += 1 }
    }
    var start = offset - 1
    while start >= 0 && bytes[start] != UInt8(ascii: "<") { start -= 1 }
    guard start >= 0 else { return end }
    let line = (lineStarts.lastIndex { $0 <= start } ?? 0) + 1
    let column = bytes[lineStarts[line - 1]..<start].filter { $0 & 0xC0 != 0x80 }.count + 1
    return SourceLocation(line: line, column: column)
  }
}
