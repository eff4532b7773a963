import ContextSim

// Twins of the files about queues and tasks: sync, async, performAndWait, await perform.

extension Twin {
  static let checkedTooEarly = Twin("checked-too-early") {
    try Scenario(
      "A race that shows one run in many: checking a queue too early",
      about:
        "The downloader stores the thumbnail, then tells stateQueue it is done. The screen, on another thread, waits on stateQueue with sync and then reads the thumbnail, trusting the queue to order the two. It does only when the downloader's block reached stateQueue first, which is what usually happens, so the app works on every test run. When the screen's sync gets there before it, nothing orders the write and the read: a data race, in a few interleavings among many. ThreadSanitizer sees it only on the runs that happen to interleave that way; ctxsim finds it and replays it.",
      queues: ["stateQueue": "serial"],
      vars: ["thumbnail": nil],
      expect: [Expected(.dataRace, at: "read-thumbnail", in: .some)],
      file: "scenarios/checked-too-early.json"
    ) {
      Async("global") {
        Write("thumbnail", value: "cat.png").label("store-thumbnail")
        Async("stateQueue") {
          Print("thumbnail ready")
        }
      }.label("download")
      Async("global") {
        Print("screen appears")
        Print("layout")
        Print("animations")
        Sync("stateQueue") {}.note("Orders only what stateQueue has already run.")
        Read("thumbnail", as: "shown").label("read-thumbnail")
      }.label("screen")
    }
  }

  static let tapAfterLoad = Twin("tap-after-load") {
    try Scenario(
      "A list stored off the main thread, read when the user taps",
      about:
        "The screen loads its notes on a background context and, still on the global queue's thread, stores how many there are in a property of the screen. Long after, the user taps, and the tap's handler reads that property on the main thread. The tap comes once the load has finished, in every run, but nothing orders the two: the background thread wrote the property, the main thread read it, and no queue or lock passed between them. ThreadSanitizer reports it on a run where both happen; ctxsim reports it in every run. whenIdle is the tap: a later event the main run loop delivers once the app is idle.",
      model: ["Note": ["attributes": ["title": "string"]]],
      store: [
        "Note": [["id": "note-1", "title": "Groceries"], ["id": "note-2", "title": "Bank"]]
      ],
      contexts: ["background": ["queue": "private"]],
      vars: ["noteCount": nil],
      expect: [Expected(.dataRace, at: "read-count", in: .every)],
      file: "scenarios/tap-after-load.json"
    ) {
      Async("global") {
        PerformAndWait("background") {
          Count("Note", in: "background", as: "n")
        }
        Write("noteCount", value: "$n").label("store-count")
      }.label("load")
      WhenIdle("main") {
        Read("noteCount", as: "shown").label("read-count")
      }.label("tap")
    }
  }

  static let deadlock = Twin("deadlock") {
    try Scenario(
      "performAndWait and main.sync waiting for each other",
      about:
        "The main thread waits in performAndWait for the background context's queue. The background block already running there waits in DispatchQueue.main.sync for the main thread. Neither can move: the app hangs, and the watchdog kills it.",
      model: ["Note": ["attributes": ["title": "string"]]],
      store: ["Note": [["id": "note-1", "title": "Report"]]],
      contexts: ["background": ["queue": "private"]],
      expect: [Expected(.deadlock)],
      file: "scenarios/deadlock.json"
    ) {
      Perform("background") {
        Count("Note", in: "background", as: "n")
        Sync("main") {
          Print("updating the badge with $n")
        }.label("wait-for-main")
      }
      Print("launch continues")
      PerformAndWait("background") {
        Count("Note", in: "background")
      }.label("wait-for-background")
    }
  }

  static let asyncPerform = Twin("async-perform") {
    try Scenario(
      "async perform: .immediate, .enqueued, and an object that escapes",
      about:
        "A main-actor task awaits the background context's perform to fetch the latest note, and the block hands the note object itself back out. The await is correct; using that object on the main actor afterwards is not: it still belongs to the background context. The task also awaits viewContext's perform twice: .immediate runs inline, because the task is already on the main queue, and .enqueued waits its turn behind the main-queue work already queued.",
      model: ["Note": ["attributes": ["title": "string"]]],
      store: ["Note": [["id": "note-1", "title": "Groceries"]]],
      contexts: ["background": ["queue": "private"]],
      expect: [Expected(.wrongQueueObject, at: "escaped-object")],
      file: "scenarios/async-perform.json"
    ) {
      StartTask(.main) {
        Async("main") {
          Print("a main-queue block queued before the await").label("queued-block")
        }
        Perform("viewContext", await: true, schedule: .immediate) {
          Count("Note", in: "viewContext", as: "count")
        }.label("immediate").note(
          "Already on viewContext's queue: the block runs right here, before the queued block.")
        Perform("viewContext", await: true, schedule: .enqueued) {
          Print("the enqueued block runs after the queued one")
        }.label("enqueued").note(
          "Enqueued: the task lets go of the main thread, the queued block runs, then this one.")
        Perform("background", await: true) {
          Fetch("Note", in: "background", first: true, as: "note")
        }.label("background-perform").note(
          "The block returns the note object itself: return try context.fetch(request).first")
        Get("note.title", as: "title").label("escaped-object").note(
          "Back on the main actor, the object still belongs to background: a trap.")
      }
    }
  }
}
