import Foundation

/// Attributes and relationships: Xcode's types, defaults and delete rules in a scenario's terms.
extension ModelConversion {
  /// Xcode's attribute types and the scenario type each becomes.
  ///
  /// Integers of every width are `integer`; `Decimal`, `Double` and `Float` are `double`. The
  /// types a scenario has no match for get the closest: a `URI` is stored as its string and an
  /// `ObjectID` attribute holds an ID's URI, so both are `string`; a `Transformable` is stored
  /// as the `Data` its transformer makes, and `Composite` and `Undefined` (a transient of any
  /// class) are values ctxsim never looks into, so all three are `binary`.
  static let attributeTypes: KeyValuePairs<String, AttributeType> = [
    "String": .string, "Integer 16": .integer, "Integer 32": .integer, "Integer 64": .integer,
    "Decimal": .double, "Double": .double, "Float": .double, "Boolean": .boolean, "Date": .date,
    "Binary": .binary, "UUID": .uuid, "URI": .string, "Transformable": .binary,
    "ObjectID": .string, "Composite": .binary, "Undefined": .binary,
  ]

  /// Core Data's delete rules; `No Action` leaves the inverse pointing at the deleted object,
  /// which ctxsim does not model, so it is read as `Nullify`, the rule it is closest to.
  static let deleteRules: KeyValuePairs<String, Relationship.DeleteRule> = [
    "Nullify": .nullify, "Cascade": .cascade, "Deny": .deny, "No Action": .nullify,
  ]

  /// `<attribute name="isSeen" attributeType="Boolean" defaultValueString="NO"/>` →
  /// `"isSeen": {"type": "boolean", "optional": false, "default": false}`; an optional one
  /// without a default is just its type: `"remoteURL": "string"`.
  mutating func attribute(_ element: ModelElement, entity: String) -> JSONValue.Member? {
    guard let name = required("name", of: element, what: "an attribute", path: "model.\(entity)")
    else { return nil }
    let path = "model.\(entity).attributes.\(name)"
    // Xcode writes no attributeType for an Undefined (transient) attribute.
    let xcodeType = element["attributeType"] ?? "Undefined"
    guard let type = Self.attributeTypes.first(where: { $0.key == xcodeType })?.value else {
      fail(
        "\(entity).\(name) has the attribute type \"\(xcodeType)\", which ctxsim does not know",
        fix: ShapeCheck.suggestion(xcodeType, Self.attributeTypes.map(\.key)), at: element.location,
        path: path)
      return nil
    }
    let isOptional = element.flag("optional")
    let defaultValue = self.defaultValue(of: element, type: type, xcodeType: xcodeType, path: path)
    let value =
      isOptional && defaultValue == nil
      ? JSONValue(.string(type.rawValue), at: element.location)
      : Self.object(
        [
          ("type", .string(type.rawValue)), ("optional", isOptional ? nil : .bool(false)),
          ("default", defaultValue),
        ], at: element.location)
    return JSONValue.Member(key: name, keyLocation: element.location, value: value)
  }

  /// The attribute's default as a scenario literal: `defaultValueString` read by type (`YES`
  /// and `NO` for a Boolean), or a Date's `defaultDateTimeInterval` (seconds since 2001) as
  /// an ISO 8601 string.
  private mutating func defaultValue(
    of element: ModelElement, type: AttributeType, xcodeType: String, path: String
  ) -> JSONValue.Kind? {
    if type == .date, let interval = element["defaultDateTimeInterval"] {
      guard let seconds = Double(interval) else {
        fail(
          "the default date \"\(interval)\" is not a number of seconds",
          fix: "set the default again in Xcode's Data Model inspector", at: element.location,
          path: path)
        return nil
      }
      let date = Date(timeIntervalSinceReferenceDate: seconds)
      return .string(ISO8601DateFormatter().string(from: date))
    }
    guard let text = element["defaultValueString"] else { return nil }
    let parsed: JSONValue.Kind? =
      switch type {
      case .string, .date, .binary, .uuid: .string(text)
      // `0.0` on an Integer 64, as Xcode writes after the type was changed: a whole number.
      case .integer:
        Int(text).map { .integer($0) }
          ?? Double(text).flatMap { $0.rounded() == $0 ? .integer(Int($0)) : nil }
      case .double: Double(text).map { .double($0) }
      case .boolean: ["YES": true, "NO": false][text].map { .bool($0) }
      }
    if parsed == nil {
      fail(
        "the \(xcodeType) attribute's default \"\(text)\" is not "
          + (type == .boolean ? "YES or NO" : type == .integer ? "a whole number" : "a number"),
        fix: "set the default again in Xcode's Data Model inspector", at: element.location,
        path: path)
    }
    return parsed
  }

  /// `<relationship name="album" optional="YES" maxCount="1" deletionRule="Nullify"
  /// destinationEntity="Album" inverseName="photos" …/>` → `"album": {"to": "Album",
  /// "many": false, "inverse": "photos", "optional": true, "deleteRule": "nullify"}`.
  ///
  /// An ordered to-many (`ordered="YES"`, an `NSOrderedSet`) is read as a set: the order
  /// makes no difference to the threading rules.
  mutating func relationship(_ element: ModelElement, entity: String) -> JSONValue.Member? {
    let path = "model.\(entity).relationships"
    guard let name = required("name", of: element, what: "a relationship", path: path),
      let destination = required(
        "destinationEntity", of: element, what: "the relationship \"\(name)\"",
        path: "\(path).\(name)")
    else { return nil }
    let xcodeRule = element["deletionRule"] ?? "Nullify"
    guard let rule = Self.deleteRules.first(where: { $0.key == xcodeRule })?.value else {
      fail(
        "\(entity).\(name) has the delete rule \"\(xcodeRule)\", which ctxsim does not know",
        fix: ShapeCheck.suggestion(xcodeRule, Self.deleteRules.map(\.key)), at: element.location,
        path: "\(path).\(name)")
      return nil
    }
    let value = Self.object(
      [
        ("to", .string(destination)), ("many", .bool(element.flag("toMany"))),
        ("inverse", element["inverseName"].map { .string($0) }),
        ("optional", .bool(element.flag("optional"))), ("deleteRule", .string(rule.rawValue)),
      ], at: element.location)
    return JSONValue.Member(key: name, keyLocation: element.location, value: value)
  }
}
