import ContextSim

// Twins of the files about objects across contexts: drafts, batch updates, deleted rows.

extension Twin {
  static let childContextDraft = Twin("child-context-draft") {
    try Scenario(
      "A child context as a draft: saved only one level",
      about:
        "An edit screen works in a child of viewContext, so Cancel can simply drop it. Saving the child pushes the new note into viewContext's memory, one level up, and no further: the store never sees it, so a background sync finds nothing. The cancelled draft in the second screen is gone, as it should be.",
      model: ["Note": ["attributes": ["title": "string"]]],
      contexts: [
        "editor": ["queue": "main", "parent": "viewContext"],
        "cancelled": ["queue": "main", "parent": "viewContext"], "sync": ["queue": "private"],
      ],
      expect: [Expected(.expectationFailed, at: "store-has-note")],
      file: "scenarios/child-context-draft.json"
    ) {
      Insert("Note", into: "editor", values: ["title": "Draft"]).note("The user types a new note.")
      Save("editor").note("Save: into viewContext, one level up.")
      Insert("Note", into: "cancelled", values: ["title": "Thrown away"])
      Reset("cancelled").note("Cancel: drop the child, and its draft with it.")
      Expect(["count": "Note", "in": "viewContext", "equals": 1]).note(
        "The screen's context has the draft, unsaved.")
      PerformAndWait("sync") {
        Expect(["count": "Note", "in": "sync", "equals": 1]).label("store-has-note").note(
          "The store does not: viewContext was never saved.")
      }
    }
  }

  static let batchUpdate = Twin("batch-update") {
    try Scenario(
      "A batch update the screen never hears about",
      about:
        "Mark all seen, done the efficient way: one NSBatchUpdateRequest writes isSeen straight into the store's rows, without loading a single object. But a batch update bypasses every context, so the photo the screen already holds still says unseen.",
      model: [
        "Photo": [
          "attributes": ["url": "string", "isSeen": ["type": "boolean", "default": false]]
        ]
      ],
      store: [
        "Photo": [
          ["id": "photo-1", "url": "1.jpg"], ["id": "photo-2", "url": "2.jpg"],
          ["id": "photo-3", "url": "3.jpg"], ["id": "photo-4", "url": "4.jpg"],
        ]
      ],
      contexts: ["background": ["queue": "private"]],
      expect: [Expected(.expectationFailed, at: "screen-shows-seen")],
      file: "scenarios/batch-update.json"
    ) {
      Fetch("Photo", in: "viewContext", first: true, as: "shown")
      Get("shown.isSeen").note("The screen shows the first photo as unseen.")
      Perform("background") {
        BatchUpdate("Photo", in: "background", set: ["isSeen": true], mergeInto: []).note(
          "Four rows change in the store; no context is told.")
        Async("main") {
          Expect(["value": "shown.isSeen", "equals": true]).label("screen-shows-seen")
        }
      }
    }
  }

  static let refreshAllOffQueue = Twin("refresh-all-off-queue") {
    try Scenario(
      "refreshAllObjects from the wrong queue",
      about:
        "After a batch update the screen's objects are stale, and a common answer is to call viewContext.refreshAllObjects(). Called straight after the request, in the background block, it touches viewContext from the background queue: ConcurrencyDebug traps at the call. Without the flag the refresh works most of the time, racing the main thread over the context.",
      model: [
        "Photo": [
          "attributes": ["url": "string", "isSeen": ["type": "boolean", "default": false]]
        ]
      ],
      store: ["Photo": [["id": "photo-1", "url": "1.jpg"], ["id": "photo-2", "url": "2.jpg"]]],
      contexts: ["background": ["queue": "private"]],
      expect: [Expected(.wrongQueueContext, at: "refresh-from-background")],
      file: "scenarios/refresh-all-off-queue.json"
    ) {
      Fetch("Photo", in: "viewContext", first: true, as: "shown")
      Get("shown.isSeen").note("The screen shows the first photo as unseen.")
      Perform("background") {
        BatchUpdate("Photo", in: "background", set: ["isSeen": true], mergeInto: [])
        RefreshAllObjects("viewContext").label("refresh-from-background").note(
          "viewContext belongs to the main queue; this block runs on background's.")
        Async("main") {
          Expect(["value": "shown.isSeen", "equals": true]).label("screen-shows-seen")
        }
      }
    }
  }

  static let faultOnDeletedObject = Twin("fault-on-deleted-object") {
    try Scenario(
      "A fault on a deleted object: object(with:)",
      about:
        "The screen keeps a note's object ID, not the note. A background cleanup deletes the note and saves. Later the screen turns the ID back into an object with object(with:), which never checks the store: it hands back a fault, and the fault fails only when the title is read. Since iOS 9 the context quietly marks the object deleted and the app reads nil.",
      model: ["Note": ["attributes": ["title": "string"]]],
      store: ["Note": [["id": "note-1", "title": "Buy milk"]]],
      contexts: ["cleanup": ["queue": "private"]],
      expect: [Expected(.faultOnDeletedObject, at: "read-title")],
      file: "scenarios/fault-on-deleted-object.json"
    ) {
      Fetch("Note", in: "viewContext", first: true, as: "note")
      GetObjectID("note", as: "noteID")
      Refresh("note", merge: false).note("The screen lets go of the object and keeps only its ID.")
      Perform("cleanup") {
        ExistingObject("$noteID", in: "cleanup", as: "doomed")
        Delete("doomed")
        Save("cleanup")
        Async("main") {
          ObjectWithID("$noteID", in: "viewContext", as: "shown").note(
            "No error here: object(with:) assumes the row exists.")
          Get("shown.title", as: "title").label("read-title").note(
            "The fault fires now, on a row that is gone.")
        }
      }
    }
  }

  static let faultOnDeletedObjectFixed = Twin("fault-on-deleted-object-fixed") {
    try Scenario(
      "A fault on a deleted object: existingObject(with:)",
      about:
        "The same screen, looking the ID up with existingObject(with:). It checks the store at once and throws a catchable error (133000) when the row is gone, so the app learns the note was deleted where it asked, instead of reading nil somewhere later. Its catch block tells the user; a handled error is the design working, not a violation.",
      model: ["Note": ["attributes": ["title": "string"]]],
      store: ["Note": [["id": "note-1", "title": "Buy milk"]]],
      contexts: ["cleanup": ["queue": "private"]],
      expect: [Expected(handledError: 133_000, at: "look-up")],
      file: "scenarios/fault-on-deleted-object-fixed.json"
    ) {
      Fetch("Note", in: "viewContext", first: true, as: "note")
      GetObjectID("note", as: "noteID")
      Refresh("note", merge: false)
      Perform("cleanup") {
        ExistingObject("$noteID", in: "cleanup", as: "doomed")
        Delete("doomed")
        Save("cleanup")
        Async("main") {
          ExistingObject("$noteID", in: "viewContext", as: "shown").label("look-up")
            .note("The lookup itself throws, inside a do/catch.")
            .catch { Print("this note was deleted: $error") }
        }
      }
    }
  }
}
