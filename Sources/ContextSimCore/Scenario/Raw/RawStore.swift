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

/// The shape pass over `"store"`.
extension SectionShape {
  func store(_ json: JSONValue) -> Field<[RawStoreRows]> {
    members(json, path: "store", what: "\"store\"") { entity, rows in
      RawStoreRows(
        entity: entity,
        rows: items(rows, path: "store.\(entity.value)", what: "a list of rows", row))
    }
  }

  private func row(_ json: JSONValue, _ path: String) -> Field<RawRow> {
    field(json, path: path) { json in
      ShapeCheck.object(json, what: "a row").map { members in
        RawRow(
          location: json.location,
          id: field(json["id"], path: path) { ShapeCheck.string($0, what: "\"id\"") },
          values: members.filter { $0.key != "id" })
      }
    }
  }
}
