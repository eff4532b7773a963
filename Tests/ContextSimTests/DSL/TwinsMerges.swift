import ContextSim

// Twins of the files about merges: policies, and a relationship across contexts.

extension Twin {
  static let mergePolicies = Twin("merge-policies") {
    try Scenario(
      "The five merge policies, side by side",
      about:
        "Five edit screens, one per merge policy, each with its own copy of the same kind of note. A background sync changes the title and the body of all five notes and saves first. Then each screen, still holding the version it read, changes the title and the folder and saves. The title was changed on both sides, so the policies pick different winners for it; the body and the folder were each changed on one side only, and the policies differ in which of those changes they keep. The error policy, Core Data's default, fails the save with 133020; the other four resolve the conflict and save, each in its own way.",
      model: [
        "Note": [
          "attributes": [
            "policy": "string", "title": "string", "body": "string", "folder": "string",
          ]
        ]
      ],
      store: [
        "Note": [
          [
            "id": "note-error", "policy": "error", "title": "Groceries", "body": "milk",
            "folder": "Inbox",
          ],
          [
            "id": "note-store-trump", "policy": "storeTrump", "title": "Groceries", "body": "milk",
            "folder": "Inbox",
          ],
          [
            "id": "note-object-trump", "policy": "objectTrump", "title": "Groceries",
            "body": "milk", "folder": "Inbox",
          ],
          [
            "id": "note-overwrite", "policy": "overwrite", "title": "Groceries", "body": "milk",
            "folder": "Inbox",
          ],
          [
            "id": "note-rollback", "policy": "rollback", "title": "Groceries", "body": "milk",
            "folder": "Inbox",
          ],
        ]
      ],
      contexts: [
        "errorScreen": ["queue": "main"],
        "storeTrumpScreen": ["queue": "main", "mergePolicy": "mergeByPropertyStoreTrump"],
        "objectTrumpScreen": ["queue": "main", "mergePolicy": "mergeByPropertyObjectTrump"],
        "overwriteScreen": ["queue": "main", "mergePolicy": "overwrite"],
        "rollbackScreen": ["queue": "main", "mergePolicy": "rollback"],
        "sync": ["queue": "private"], "checker": ["queue": "private"],
      ],
      expect: [Expected(.mergeConflict, at: "save-error")],
      file: "scenarios/merge-policies.json"
    ) {
      Fetch("Note", in: "errorScreen", where: ["policy": "error"], first: true, as: "errorNote")
      Get("errorNote.title").label("screens-read").note(
        "Reading the note fires its fault: the screen now holds version 1 of the row.")
      Fetch(
        "Note", in: "storeTrumpScreen", where: ["policy": "storeTrump"], first: true,
        as: "storeTrumpNote")
      Get("storeTrumpNote.title")
      Fetch(
        "Note", in: "objectTrumpScreen", where: ["policy": "objectTrump"], first: true,
        as: "objectTrumpNote")
      Get("objectTrumpNote.title")
      Fetch(
        "Note", in: "overwriteScreen", where: ["policy": "overwrite"], first: true,
        as: "overwriteNote")
      Get("overwriteNote.title")
      Fetch(
        "Note", in: "rollbackScreen", where: ["policy": "rollback"], first: true, as: "rollbackNote"
      )
      Get("rollbackNote.title")
      PerformAndWait("sync") {
        Fetch("Note", in: "sync", as: "synced")
        ForEach("$synced", as: "note") {
          SetValue("note.title", to: "Food")
          SetValue("note.body", to: "milk, eggs")
        }
        Save("sync").label("sync-saves").note("Every row moves on to version 2.")
      }
      SetValue("errorNote.title", to: "Shopping").label("screens-edit").note(
        "Each screen changes the title and the folder of the version 1 it holds.")
      SetValue("errorNote.folder", to: "Errands")
      Save("errorScreen").label("save-error")
      SetValue("storeTrumpNote.title", to: "Shopping")
      SetValue("storeTrumpNote.folder", to: "Errands")
      Save("storeTrumpScreen").label("save-store-trump")
      SetValue("objectTrumpNote.title", to: "Shopping")
      SetValue("objectTrumpNote.folder", to: "Errands")
      Save("objectTrumpScreen").label("save-object-trump")
      SetValue("overwriteNote.title", to: "Shopping")
      SetValue("overwriteNote.folder", to: "Errands")
      Save("overwriteScreen").label("save-overwrite")
      SetValue("rollbackNote.title", to: "Shopping")
      SetValue("rollbackNote.folder", to: "Errands")
      Save("rollbackScreen").label("save-rollback")
      PerformAndWait("checker") {
        Expect([
          "count": "Note", "in": "checker",
          "where": ["policy": "error", "title": "Food", "body": "milk, eggs", "folder": "Inbox"],
          "equals": 1,
        ]).label("row-error").note(
          "The sync's row, untouched: none of the screen's edits was written.")
        Expect([
          "count": "Note", "in": "checker",
          "where": [
            "policy": "storeTrump", "title": "Food", "body": "milk, eggs", "folder": "Errands",
          ], "equals": 1,
        ]).label("row-store-trump").note("The store's title, the sync's body, the screen's folder.")
        Expect([
          "count": "Note", "in": "checker",
          "where": [
            "policy": "objectTrump", "title": "Shopping", "body": "milk, eggs", "folder": "Errands",
          ], "equals": 1,
        ]).label("row-object-trump").note(
          "The screen's title, the sync's body, the screen's folder.")
        Expect([
          "count": "Note", "in": "checker",
          "where": [
            "policy": "overwrite", "title": "Shopping", "body": "milk", "folder": "Errands",
          ], "equals": 1,
        ]).label("row-overwrite").note(
          "The screen's whole object, its stale body included: the sync's body is lost.")
        Expect([
          "count": "Note", "in": "checker",
          "where": [
            "policy": "rollback", "title": "Food", "body": "milk, eggs", "folder": "Inbox",
          ], "equals": 1,
        ]).label("row-rollback").note(
          "The store's whole row: the screen's folder is dropped along with its title.")
      }
    }
  }

  static let crossContextRelationship = Twin("cross-context-relationship") {
    try Scenario(
      "Relating objects from two contexts",
      about:
        "The album screen fetched its album in viewContext. A background import makes a photo in a private context and points it at the screen's album object. Core Data refuses the assignment itself, because a relationship can only join objects of one context: the app dies with an uncaught NSInvalidArgumentException.",
      model: [
        "Album": [
          "attributes": ["title": "string"],
          "relationships": ["photos": ["to": "Photo", "many": true, "inverse": "album"]],
        ],
        "Photo": [
          "attributes": ["url": "string"],
          "relationships": ["album": ["to": "Album", "inverse": "photos"]],
        ],
      ],
      store: ["Album": [["id": "album-1", "title": "Holiday"]]],
      contexts: ["background": ["queue": "private"]],
      expect: [Expected(.crossContextRelationship, at: "relate")],
      file: "scenarios/cross-context-relationship.json"
    ) {
      Fetch("Album", in: "viewContext", first: true, as: "album").note(
        "The screen's album lives in viewContext.")
      Perform("background") {
        Insert("Photo", into: "background", as: "photo", values: ["url": "beach.jpg"])
        SetValue("photo.album", to: "$album").label("relate").note(
          "photo lives in background, album in viewContext: Core Data throws here, at the assignment."
        )
        Save("background")
      }
    }
  }
}
