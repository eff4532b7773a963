/// `"store": {ENTITY: [rows]}`: the rows of one entity saved before launch.
struct RawStoreRows {
  var entity: Located<String>
  var rows: Field<[Field<RawRow>]>
}

/// `{"id": HANDLE, key: value, …}`: one row. Its values stay located JSON: whether each is
/// an attribute's literal or a relationship's handles depends on the entity.
struct RawRow {
  var location: SourceLocation
  var id: Field<String>
  /// Every member but `"id"`, in the order written.
  var values: [JSONValue.Member]
}

extension RawStoreRows {
  /// Reads `"store"` for its shape.
  static func read(_ json: JSONValue, file: String) -> Field<[RawStoreRows]> {
    Field(json, file: file, path: "store") { json in
      ShapeCheck.object(json, what: "\"store\"").map { members in
        members.map { member in
          let path = "store.\(member.key)"
          return RawStoreRows(
            entity: Located(value: member.key, location: member.keyLocation),
            rows: Field(member.value, file: file, path: path) {
              ShapeCheck.list($0, what: "a list of rows").map { items in
                items.enumerated().map { i, item in row(item, file: file, path: "\(path)[\(i)]") }
              }
            })
        }
      }
    }
  }

  private static func row(_ json: JSONValue, file: String, path: String) -> Field<RawRow> {
    Field(json, file: file, path: path) { json in
      ShapeCheck.object(json, what: "a row").map { members in
        RawRow(
          location: json.location,
          id: Field(json["id"], file: file, path: path) { ShapeCheck.string($0, what: "\"id\"") },
          values: members.filter { $0.key != "id" })
      }
    }
  }
}
