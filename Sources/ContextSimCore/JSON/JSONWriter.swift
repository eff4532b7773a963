/// Writes a ``JSONValue`` as indented JSON, keys in the order given, so output is stable
/// byte for byte and reads in the same order as the text report.
package enum JSONWriter {
  package static func write(_ value: JSONValue) -> String {
    var out = ""
    write(value, indent: 0, into: &out)
    return out + "\n"
  }

  /// The same JSON on one line, without spaces: for data embedded in a page.
  package static func compact(_ value: JSONValue) -> String {
    var out = ""
    write(value, indent: nil, into: &out)
    return out
  }

  /// Indented `indent` levels deep, or on one line when `indent` is nil.
  private static func write(_ value: JSONValue, indent: Int?, into out: inout String) {
    let pad = indent.map { "\n" + String(repeating: "  ", count: $0 + 1) } ?? ""
    let close = indent.map { "\n" + String(repeating: "  ", count: $0) } ?? ""
    let next = indent.map { $0 + 1 }
    switch value.kind {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .integer(let i): out += String(i)
    case .double(let d): out += String(d)
    case .string(let s): out += quoted(s)
    case .array(let items):
      guard !items.isEmpty else {
        out += "[]"
        return
      }
      out += "["
      for (i, item) in items.enumerated() {
        out += (i == 0 ? "" : ",") + pad
        write(item, indent: next, into: &out)
      }
      out += close + "]"
    case .object(let members):
      guard !members.isEmpty else {
        out += "{}"
        return
      }
      out += "{"
      for (i, member) in members.enumerated() {
        out += (i == 0 ? "" : ",") + pad + quoted(member.key) + (indent == nil ? ":" : ": ")
        write(member.value, indent: next, into: &out)
      }
      out += close + "}"
    }
  }

  package static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}

/// Builds JSON trees in code: `.object(["a": 1])` without positions.
extension JSONValue {
  package static let nowhere = SourceLocation(line: 0, column: 0)

  package static func object(_ pairs: KeyValuePairs<String, JSONValue?>) -> JSONValue {
    JSONValue(
      .object(
        pairs.compactMap { key, value in
          value.map { Member(key: key, keyLocation: nowhere, value: $0) }
        }), at: nowhere)
  }

  package static func array(_ items: [JSONValue]) -> JSONValue {
    JSONValue(.array(items), at: nowhere)
  }

  package static func string(_ text: String) -> JSONValue {
    JSONValue(.string(text), at: nowhere)
  }

  package static func integer(_ n: Int) -> JSONValue {
    JSONValue(.integer(n), at: nowhere)
  }

  package static func bool(_ b: Bool) -> JSONValue {
    JSONValue(.bool(b), at: nowhere)
  }
}

extension JSONValue: CustomStringConvertible {
  /// The value as indented JSON, keys in their order: what the JSON reports print.
  public var description: String { JSONWriter.write(self) }
}
