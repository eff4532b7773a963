import ContextSimCore
import ContextSimReports

/// Building drafted scenarios: objects whose members come from code, in order.
extension JSONValue {
  static let null = JSONValue(.null, at: nowhere)

  static func ordered(_ members: [(String, JSONValue)]) -> JSONValue {
    JSONValue(
      .object(members.map { Member(key: $0.0, keyLocation: nowhere, value: $0.1) }), at: nowhere)
  }

  static func double(_ d: Double) -> JSONValue { JSONValue(.double(d), at: nowhere) }
}
