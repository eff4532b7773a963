import ContextSim

// Observers of a context's notifications, and the merges they make.

extension Twin {
  static let mergeOnPostingThreadFixed = Twin("merge-on-posting-thread-fixed") {
    try Scenario(
      "Merging a did-save on the thread that posted it: fixed",
      about:
        "The observer is added with queue: .main, so its body runs on the main queue while the background save waits for it, and viewContext merges on its own queue. That is safe here because the main thread never waits for the background context; where it might, use queue: nil and viewContext.perform instead (did-save-observer-on-main-fixed.json). After the merge the screen's note shows the new title, and the one-shot observer removes itself.",
      model: ["Note": ["attributes": ["title": "string"]]],
      store: ["Note": [["id": "note-1", "title": "Old"]]],
      contexts: ["background": ["queue": "private"]], expect: [],
      file: "scenarios/merge-on-posting-thread-fixed.json"
    ) {
      Fetch("Note", in: "viewContext", first: true, as: "shown")
      Get("shown.title")
      Observe(
        .didSave, object: "background", queue: "main", as: "notification", token: "observer"
      ) {
        MergeChanges("$notification", into: "viewContext")
        Expect(["value": "shown.title", "equals": "New"])
        RemoveObserver("$observer")
          .note("The screen needed one update: the observer removes itself.")
      }
      Perform("background") {
        Fetch("Note", in: "background", first: true, as: "note")
        SetValue("note.title", to: "New")
        Save("background")
      }
    }
  }
}

extension Twin {
  static let fetchedResultsStaleFixed = Twin("fetched-results-stale-fixed") {
    try Scenario(
      "A fetched results controller that never hears of a background save: fixed",
      about:
        "viewContext merges saves to the store automatically. The merge is a block on the main queue (semantics-2 §2.9); it faults the new note in and posts viewContext's objects-did-change, the controller takes the note in, and its delegate reloads the table with two rows, inline, before the merge block ends (§4.3).",
      model: ["Note": ["attributes": ["title": "string"]]],
      store: ["Note": [["id": "note-1", "title": "First"]]],
      contexts: [
        "viewContext": ["queue": "main", "automaticallyMergesChangesFromParent": true],
        "background": ["queue": "private"],
      ], expect: [], file: "scenarios/fetched-results-stale-fixed.json"
    ) {
      FetchedResultsController(
        "notes", entity: "Note", in: "viewContext", sortBy: [["key": "title"]]
      ) {
        Get("notes.numberOfObjects", as: "rows")
        Print("the table reloads: $rows rows")
      }
      PerformFetch("notes")
      PerformAndWait("background") {
        Insert("Note", into: "background", values: ["title": "Second"])
        Save("background")
      }
      Async("main") {
        Get("notes.numberOfObjects", as: "shown")
        Expect(["value": "shown", "equals": 2]).label("table-shows-new-note")
      }
    }
  }
}
