import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// Xcode's types, defaults, delete rules and sub-entities in a scenario model's terms.
@Suite("Xcode data model conversion")
struct XcodeDataModelConversionTests {
  private func converted(_ entities: String) throws -> String {
    let model = try XcodeDataModel(
      contents: Array(xcodeContents(entities).utf8), file: "contents")
    return JSONWriter.write(model.scenarioModel)
  }

  @Test("Every Xcode attribute type becomes a scenario type, the unmatched ones the closest")
  func attributeTypes() throws {
    let xml = """
      <entity name="Item" representedClassName="Item" syncable="YES">
          <attribute name="amount" optional="YES" attributeType="Decimal" defaultValueString="0.0"/>
          <attribute name="link" optional="YES" attributeType="URI"/>
          <attribute name="location" optional="YES" attributeType="Composite" composite="Place"/>
          <attribute name="owner" optional="YES" attributeType="ObjectID"/>
          <attribute name="rank" attributeType="Integer 16" defaultValueString="3" usesScalarValueType="YES"/>
          <attribute name="scratch" optional="YES" transient="YES"/>
          <attribute name="score" optional="YES" attributeType="Float" defaultValueString="1.5" usesScalarValueType="YES"/>
          <attribute name="thumbnail" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
          <attribute name="token" optional="YES" attributeType="UUID" usesScalarValueType="NO"/>
      </entity>
      <composite name="Place">
          <attribute name="latitude" optional="YES" attributeType="Double" usesScalarValueType="YES"/>
      </composite>
      """
    let expected = """
      {"Item": {"attributes": {
        "amount": {"type": "double", "default": 0.0}, "link": "string", "location": "binary",
        "owner": "string", "rank": {"type": "integer", "optional": false, "default": 3},
        "scratch": "binary", "score": {"type": "double", "default": 1.5},
        "thumbnail": "binary", "token": "uuid"}}}
      """
    #expect(try converted(xml) == (try written(expected)))
  }

  @Test("No Action is read as Nullify; a required to-one is not optional")
  func deleteRules() throws {
    let xml = """
      <entity name="Folder" representedClassName="Folder" syncable="YES">
          <relationship name="notes" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/>
      </entity>
      <entity name="Note" representedClassName="Note" syncable="YES">
          <relationship name="folder" maxCount="1" deletionRule="No Action" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
      </entity>
      """
    let expected = """
      {"Folder": {"relationships": {"notes": {"to": "Note", "many": true, "inverse": "folder",
        "optional": true, "deleteRule": "deny"}}},
       "Note": {"relationships": {"folder": {"to": "Folder", "many": false, "inverse": "notes",
        "optional": false, "deleteRule": "nullify"}}}}
      """
    #expect(try converted(xml) == (try written(expected)))
  }

  @Test("A sub-entity has its parent's properties; an inherited relationship keeps no inverse")
  func subEntities() throws {
    let xml = """
      <entity name="Album" representedClassName="Album" syncable="YES">
          <relationship name="items" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Item" inverseName="album" inverseEntity="Item"/>
      </entity>
      <entity name="Item" representedClassName="Item" isAbstract="YES" syncable="YES">
          <attribute name="name" optional="YES" attributeType="String"/>
          <relationship name="album" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Album" inverseName="items" inverseEntity="Album"/>
          <uniquenessConstraints>
              <uniquenessConstraint>
                  <constraint value="name"/>
              </uniquenessConstraint>
          </uniquenessConstraints>
      </entity>
      <entity name="Video" representedClassName="Video" parentEntity="Item" syncable="YES">
          <attribute name="seconds" optional="YES" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
      </entity>
      """
    let expected = """
      {"Album": {"relationships": {"items": {"to": "Item", "many": true, "inverse": "album",
        "optional": true, "deleteRule": "cascade"}}},
       "Item": {"attributes": {"name": "string"},
        "relationships": {"album": {"to": "Album", "many": false, "inverse": "items",
          "optional": true, "deleteRule": "nullify"}},
        "unique": [["name"]]},
       "Video": {"attributes": {"name": "string", "seconds": {"type": "double", "default": 0.0}},
        "relationships": {"album": {"to": "Album", "many": false, "optional": true,
          "deleteRule": "nullify"}},
        "unique": [["name"]]}}
      """
    #expect(try converted(xml) == (try written(expected)))
  }
}
