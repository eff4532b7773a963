import ContextSim

// An object belongs to one context: rollback, permanent IDs, and inserting an existing
// object into a second context.

/// The model and contexts both files of the pair declare.
private let albums: Literal = ["Album": ["attributes": ["title": "string"]]]
private let editorAndImporter: Literal = [
  "draft": ["queue": "main", "parent": "viewContext"], "importer": ["queue": "private"],
]

extension Twin {
  static let objectInTwoContexts = Twin("object-in-two-contexts") {
    try Scenario(
      "One object, two contexts",
      about:
        "An editor screen works on a draft context. The user cancels one album, which rollback throws away, and keeps another. The background importer then wants the kept album, and inserts the very object into its own context: Core Data allows an object in one context only, and the app aborts.",
      model: albums, contexts: editorAndImporter,
      expect: [Expected(.objectInAnotherContext, at: "second-context")],
      file: "scenarios/object-in-two-contexts.json"
    ) {
      Insert("Album", into: "draft", as: "cancelled", values: ["title": "Scratch"])
      Rollback("draft").label("cancel").note("Cancel: rollback throws the unsaved album away.")
      Insert("Album", into: "draft", as: "kept", values: ["title": "Holiday"])
      Save("draft")
      Save("viewContext")
      Expect(["count": "Album", "in": "viewContext", "equals": 1]).label("one-album")
      Perform("importer") {
        InsertObject("$kept", into: "importer").label("second-context")
          .note("The album already belongs to draft: inserting it here raises an exception.")
      }
    }
  }

  static let objectInTwoContextsFixed = Twin("object-in-two-contexts-fixed") {
    try Scenario(
      "One object, two contexts, fixed",
      about:
        "The editor keeps the album and, before handing it over, asks for its permanent ID: a draft context's new object has a temporary ID that no other context can look up. The importer gets the ID, not the object, and looks the album up in its own context.",
      model: albums, contexts: editorAndImporter, expect: [],
      file: "scenarios/object-in-two-contexts-fixed.json"
    ) {
      Insert("Album", into: "draft", as: "cancelled", values: ["title": "Scratch"])
      Rollback("draft").label("cancel").note("Cancel: rollback throws the unsaved album away.")
      Insert("Album", into: "draft", as: "kept", values: ["title": "Holiday"])
      ObtainPermanentIDs("draft").label("permanent-id")
        .note("The store assigns the album its permanent ID now, before any save.")
      GetObjectID("kept", as: "keptID")
      Save("draft")
      Save("viewContext")
      Perform("importer") {
        ExistingObject("$keptID", in: "importer", as: "album").label("look-up-by-id")
          .note("The importer's own copy of the album, found by its permanent ID.")
        Expect(["value": "album.title", "equals": "Holiday"])
      }
    }
  }
}
