import ContextSim

// Twins of the files about batch requests and the merges that bring them into contexts.

extension Twin {
  private static let trashModel: Literal = [
    "Note": ["attributes": ["title": "string", "trashed": ["type": "boolean", "default": false]]]
  ]

  static let batchDeleteFixed = Twin("batch-delete-fixed") {
    try Scenario(
      "A batch delete merged into the Trash screen's context",
      about:
        "The same Empty Trash, with the request's resultType set to .resultTypeObjectIDs and the deleted IDs passed to NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSDeletedObjectsKey: ids], into: [viewContext]), as Apple's \"Implementing Batch Deletes\" and onmyway133/blog #622 show. Core Data merges into viewContext with performAndWait, so the background queue waits for the main queue; the merge deletes the notes in viewContext and processes the change, and the controller's delegate reloads an empty table before the merge returns.",
      model: trashModel,
      store: [
        "Note": [
          ["id": "note-1", "title": "Old draft", "trashed": true],
          ["id": "note-2", "title": "Shopping list", "trashed": true],
          ["id": "note-3", "title": "Recipes"],
        ]
      ],
      contexts: ["background": ["queue": "private"]], expect: [],
      file: "scenarios/batch-delete-fixed.json"
    ) {
      FetchedResultsController(
        "trash", entity: "Note", in: "viewContext", where: ["trashed": true],
        sortBy: [["key": "title"]]
      ) {
        Get("trash.numberOfObjects", as: "rows")
        Print("the Trash table reloads: $rows rows")
      }
      PerformFetch("trash")
      Perform("background") {
        BatchDelete("Note", in: "background", where: ["trashed": true], as: "deletedIDs")
        MergeRemoteChanges(deleted: "$deletedIDs", into: ["viewContext"]).note(
          "viewContext deletes what it holds of them, on the main queue.")
        Async("main") {
          Get("trash.numberOfObjects", as: "shown")
          Expect(["value": "shown", "equals": 0]).label("table-empty")
          Get("trash.fetchedObjects", as: "rows")
          ForEach("$rows", as: "note") { Get("note.title") }.label("cells")
        }
      }
    }
  }

  static let batchInsertValidation = Twin("batch-insert-validation") {
    try Scenario(
      "A batch insert skips validation; a later save pays for it",
      about:
        "A feed import writes notes with one NSBatchInsertRequest on a background context: fast, and without validation, as for every batch request. One item has no title, although the model requires one, and the insert writes the row anyway. Nothing complains until the user marks the imported notes as read: the save validates each changed note in full, and fails with Cocoa error 1570 for a title it never touched.",
      model: [
        "Note": [
          "attributes": [
            "title": ["type": "string", "optional": false],
            "read": ["type": "boolean", "default": false],
          ]
        ]
      ],
      contexts: ["importer": ["queue": "private"]],
      expect: [Expected(.validationFailed, at: "mark-read")],
      file: "scenarios/batch-insert-validation.json"
    ) {
      Perform("importer") {
        BatchInsert(
          "Note", in: "importer", objects: [["title": "Groceries"], ["read": false]],
          as: "imported"
        ).note("Two rows, one without a title: no validation runs.")
        Async("main") {
          ForEach("$imported", as: "id") {
            ExistingObject("$id", in: "viewContext", as: "note")
            SetValue("note.read", to: true)
          }
          Save("viewContext").label("mark-read").note(
            "Validation meets the untitled row only now.")
        }
      }
    }
  }
}
