import ContextSim

// Twins of the files about saving, and what other contexts see afterwards.

extension Twin {
  static let discardedSaveError = Twin("discarded-save-error") {
    try Scenario(
      "A save error thrown away with try?",
      about:
        "Every note needs a title, and this one has none. The save fails validation (1570), but try? swallows the error: the app carries on as if the note were stored, and the user's data is silently lost.",
      model: [
        "Note": ["attributes": ["title": ["type": "string", "optional": false], "body": "string"]]
      ],
      contexts: ["sync": ["queue": "private"]],
      expect: [Expected(.discardedError, at: "save")],
      file: "scenarios/discarded-save-error.json"
    ) {
      Insert("Note", into: "viewContext", values: ["body": "call the bank"]).note(
        "No title: the model requires one.")
      Save("viewContext", try: .optional).label("save").note(
        "try? turns the validation error into nil, and nobody looks.")
      PerformAndWait("sync") {
        Count("Note", in: "sync", as: "stored").note("Nothing reached the store.")
      }
    }
  }

  static let temporaryID = Twin("temporary-id") {
    try Scenario(
      "A temporary object ID handed across",
      about:
        "A background import inserts a note and hands its object ID to the main queue before saving. An unsaved object has a temporary ID that only its own context knows, so viewContext cannot open it: existingObject(with:) throws 133000, and the try! turns that into a crash.",
      model: ["Note": ["attributes": ["title": "string"]]],
      contexts: ["importer": ["queue": "private"]],
      expect: [Expected(.uncaughtError, at: "open-on-main")],
      file: "scenarios/temporary-id.json"
    ) {
      Perform("importer") {
        Insert("Note", into: "importer", as: "note", values: ["title": "Imported"])
        GetObjectID("note", as: "noteID").note("Still temporary: nothing was saved yet.")
        Async("main") {
          ExistingObject("$noteID", in: "viewContext", as: "shown", try: .force).label(
            "open-on-main")
        }
        Save("importer")
      }
    }
  }

  static let staleScreen = Twin("stale-screen") {
    try Scenario(
      "The screen shows nothing new until relaunch",
      about:
        "The list screen holds its notes in viewContext. A background import renames one and saves to the store. Nothing tells viewContext: automaticallyMergesChangesFromParent is off, as it is by default, so the object the screen holds keeps its old title until the app relaunches.",
      model: ["Note": ["attributes": ["title": "string"]]],
      store: ["Note": [["id": "note-1", "title": "Draft"]]],
      contexts: ["importer": ["queue": "private"]],
      expect: [Expected(.expectationFailed, at: "screen-updated")],
      file: "scenarios/stale-screen.json"
    ) {
      Fetch("Note", in: "viewContext", first: true, as: "shown")
      Get("shown.title").note("The screen shows Draft.")
      Perform("importer") {
        Fetch("Note", in: "importer", first: true, as: "imported")
        SetValue("imported.title", to: "Final")
        Save("importer")
        Async("main") {
          Expect(["value": "shown.title", "equals": "Final"]).label("screen-updated").note(
            "Still Draft: the screen is stale.")
        }
      }
    }
  }
}
