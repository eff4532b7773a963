import ContextSim

// Verbs no file in scenarios/ uses yet: rollback, obtainPermanentIDs, and insert with an
// object that already exists. Their twin is JSON written here.

extension Twin {
  static let draftUndoneKeptAndMoved = Twin(
    json: #"""
      {
        "title": "A draft undone, a draft kept with permanent IDs, an album put in a second context",
        "model": {"Album": {"attributes": {"title": "string"}}},
        "store": {"Album": [{"id": "album-1", "title": "Holiday"}]},
        "contexts": {
          "draft": {"queue": "main", "parent": "viewContext"},
          "one": {"queue": "private"}
        },
        "main": [
          {"insert": "Album", "into": "draft", "as": "scratch", "values": {"title": "Scratch"}},
          {"rollback": "draft", "label": "undo-scratch", "note": "The inserted album is gone."},
          {"insert": "Album", "into": "draft", "as": "kept", "values": {"title": "Kept"}},
          {"obtainPermanentIDs": "draft", "try": "!"},
          {"save": "draft"},
          {"save": "viewContext"},
          {"expect": {"count": "Album", "in": "viewContext", "equals": 2}},
          {"fetch": "Album", "in": "viewContext", "where": {"title": "Holiday"}, "first": true, "as": "album"},
          {"performAndWait": "one", "do": [{"insert": "$album", "into": "one", "label": "second-context"}]}
        ],
        "expect": {"violations": [{"kind": "objectInAnotherContext", "at": "second-context"}]}
      }
      """#
  ) {
    try Scenario(
      "A draft undone, a draft kept with permanent IDs, an album put in a second context",
      model: ["Album": ["attributes": ["title": "string"]]],
      store: ["Album": [["id": "album-1", "title": "Holiday"]]],
      contexts: [
        "draft": ["queue": "main", "parent": "viewContext"], "one": ["queue": "private"],
      ],
      expect: [Expected(.objectInAnotherContext, at: "second-context")],
      file: "test.json"
    ) {
      Insert("Album", into: "draft", as: "scratch", values: ["title": "Scratch"])
      Rollback("draft").label("undo-scratch").note("The inserted album is gone.")
      Insert("Album", into: "draft", as: "kept", values: ["title": "Kept"])
      ObtainPermanentIDs("draft", try: .force)
      Save("draft")
      Save("viewContext")
      Expect(["count": "Album", "in": "viewContext", "equals": 2])
      Fetch("Album", in: "viewContext", where: ["title": "Holiday"], first: true, as: "album")
      PerformAndWait("one") { InsertObject("$album", into: "one").label("second-context") }
    }
  }
}
