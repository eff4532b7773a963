import ContextSim

// Persistent history: the remote-change observer, the fetch after a token, the merges.

extension Twin {
  static let persistentHistoryFixed = Twin("persistent-history-fixed") {
    try Scenario(
      "Persistent history merged with each hop on its own queue",
      about:
        "The standard history loop, as Apple's \"Consuming relevant store changes\" sample and fatbobman's post (https://fatbobman.com/en/posts/persistenthistorytracking/) write it, with history tracking and remote-change notifications on (CoreStore #295). An importer context saves a note and batch-updates the notes. Each store write posts NSPersistentStoreRemoteChange on a private thread; the observer hops to a background context with perform, fetches the history after the last token it read there, and merges each transaction not written by the app itself into viewContext with viewContext.perform. The token is only read and written on the background context's queue, and each merge runs on the main queue: clean in every interleaving.",
      persistentHistory: ["tracking": true, "remoteChangeNotifications": true],
      model: [
        "Note": [
          "attributes": ["title": "string", "pinned": ["type": "boolean", "default": false]]
        ]
      ],
      store: ["Note": [["id": "note-1", "title": "Buy milk"]]],
      contexts: [
        "viewContext": ["name": "viewContext", "transactionAuthor": "app"],
        "importer": ["queue": "private", "name": "importer", "transactionAuthor": "importer"],
        "historyContext": ["queue": "private", "name": "history"],
      ],
      vars: ["lastToken": nil], expect: [], file: "scenarios/persistent-history-fixed.json"
    ) {
      Fetch("Note", in: "viewContext", first: true, as: "shown")
      Get("shown.title").note("The screen shows note-1, its data loaded.")
      Observe(.remoteChange, as: "notification") {
        Perform("historyContext") {
          Read("lastToken", as: "token")
          FetchHistory("historyContext", after: "$token", as: "transactions")
            .label("fetch-history")
          ForEach("$transactions", as: "tx") {
            Get("tx.author", as: "author")
            Perform("viewContext") {
              MergeChanges("$tx", into: "viewContext").label("merge")
            }
            .when("author", notEquals: "app")
            Get("tx.token", as: "seen")
            Write("lastToken", value: "$seen")
          }
        }
        .label("history-block")
      }
      .note("A block observer with queue: nil, run on the coordinator's private thread.")
      Perform("importer") {
        Insert("Note", into: "importer", values: ["title": "Call mum"])
        Save("importer").label("import")
        BatchUpdate(
          "Note", in: "importer", where: ["title": "Buy milk"], set: ["pinned": true]
        )
        .label("pin")
      }
    }
  }
}
