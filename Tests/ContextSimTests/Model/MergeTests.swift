import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

@Suite("Merging changes between contexts")
struct MergeTests {
  /// The screen holds album-1 in viewContext; a background context renames it and saves;
  /// then the main queue looks again.
  private func screen(viewContext: String, background: String = #"{"queue": "private"}"#) throws
    -> Scenario
  {
    try albums(
      #"""
      [{"fetch": "Album", "in": "viewContext", "first": true, "as": "album"}, {"get": "album.title"},
       {"perform": "worker", "do": [
         {"fetch": "Album", "in": "worker", "first": true, "as": "a"},
         {"set": "a.title", "to": "Renamed"},
         {"insert": "Photo", "into": "worker", "values": {"url": "b.jpg", "album": "$a"}},
         {"save": "worker"},
         {"async": "main", "do": [
           {"expect": {"value": "album.title", "equals": "Renamed"}, "label": "screen-title"},
           {"expect": {"count": "album.photos", "equals": 2}, "label": "screen-photos"}]}]}]
      """#,
      contexts: #"{"viewContext": \#(viewContext), "worker": \#(background)}"#)
  }

  @Test("Without automatic merging, the screen keeps showing what it fetched")
  func staleScreen() throws {
    let trace = run(try screen(viewContext: "{}"))
    #expect(trace.kinds == [.expectationFailed, .expectationFailed])
    #expect(
      trace.violations.map(\.headline) == [
        #"expected album.title == "Renamed", saw "Trip""#, "expected album.photos to hold 2, saw 1",
      ])
  }

  @Test(
    "With viewContext merging, a merge runs on the main queue after the save, and the screen updates"
  )
  func mergedScreen() throws {
    let trace = run(try screen(viewContext: #"{"automaticallyMergesChangesFromParent": true}"#))
    #expect(trace.violations.isEmpty)
    let merge = try #require(trace.events.first { $0.effect.name == "merged" })
    #expect(merge.site.thread == "main")
    #expect(merge.site.queue == "main")
    #expect(
      Messages.describe(merge.effect, allSteps: false)
        == "merged worker's save into viewContext: refreshed album-1; faulted in Photo/p2")
  }

  @Test("An automatic merge knows the save that caused it: the save's step enqueued it")
  func mergeKnowsItsSave() throws {
    let trace = run(try screen(viewContext: #"{"automaticallyMergesChangesFromParent": true}"#))
    let save = try #require(trace.events.first { $0.effect.name == "saved" }).site.step
    let merge = try #require(trace.events.first { $0.effect.name == "merged" }).site.step
    #expect(save < merge - 1, "another step runs between them")
    #expect(trace.mergedSave(atStep: merge) == save)
    #expect(trace.orderings.contains(Trace.Ordering(from: save, to: merge)))
    let merges = (1...trace.schedule.threads.count).filter { trace.mergedSave(atStep: $0) != nil }
    #expect(merges == [merge])
  }

  @Test("A context from newBackgroundContext does not merge other contexts' saves")
  func newBackgroundContextDoesNotMerge() throws {
    let trace = run(
      try albums(
        #"""
        [{"newBackgroundContext": "bg"},
         {"performAndWait": "bg", "do": [{"fetch": "Album", "in": "bg", "first": true, "as": "a"}, {"get": "a.title"}]},
         {"fetch": "Album", "in": "viewContext", "first": true, "as": "v"},
         {"set": "v.title", "to": "Renamed"}, {"save": "viewContext"},
         {"performAndWait": "bg", "do": [{"get": "a.title"}]}]
        """#))
    #expect(trace.violations.isEmpty)
    #expect(trace.lines.last == #"read album-1.title: "Trip""#)
    #expect(!trace.lines.contains { $0.hasPrefix("merged") })
  }

  @Test("A child with the flag merges its parent's saves")
  func childMergesParent() throws {
    let trace = run(
      try albums(
        #"""
        [{"newContext": "editor", "queue": "private", "parent": "viewContext", "automaticallyMergesChangesFromParent": true},
         {"performAndWait": "editor", "do": [{"fetch": "Album", "in": "editor", "first": true, "as": "e"}, {"get": "e.title"}]},
         {"fetch": "Album", "in": "viewContext", "first": true, "as": "v"},
         {"set": "v.title", "to": "Renamed"}, {"save": "viewContext"},
         {"performAndWait": "editor", "do": [{"get": "e.title"}]}]
        """#))
    #expect(trace.violations.isEmpty)
    #expect(trace.lines.contains("merged viewContext's save into editor: refreshed album-1"))
    #expect(trace.lines.last == #"read album-1.title: "Renamed""#)
  }

  @Test("A batch update changes the store only; contexts see it only where it is merged")
  func batchUpdate() throws {
    let steps = { (mergeInto: String) in
      #"""
      [{"fetch": "Album", "in": "viewContext", "first": true, "as": "v"}, {"get": "v.title"},
       {"performAndWait": "one", "do": [
         {"batchUpdate": "Album", "in": "one", "set": {"title": "Batch"}, "mergeInto": \#(mergeInto)}]},
       {"get": "v.title"}]
      """#
    }
    let unmerged = run(try albums(steps("[]")))
    #expect(
      unmerged.lines.suffix(2) == [
        "batch-updated 1 Album row in the store", #"read album-1.title: "Trip""#,
      ])
    let merged = run(try albums(steps(#"["viewContext"]"#)))
    #expect(
      merged.lines.suffix(3) == [
        "batch-updated 1 Album row in the store",
        "merged the batch update's save into viewContext: refreshed album-1",
        #"read album-1.title: "Batch""#,
      ])
  }

  @Test("Each step that makes a context of the same name makes a new one, with its own queue")
  func contextsMadeInALoop() throws {
    let trace = run(
      try albums(
        #"""
        [{"forEach": [1, 2], "as": "i", "do": [
          {"async": "global", "do": [
            {"newContext": "context", "queue": "private"},
            {"perform": "context", "do": [{"count": "Album", "in": "context"}]}]}]}]
        """#))
    #expect(trace.violations.isEmpty)
    #expect(
      trace.events.filter { $0.effect.name == "counted" }.map(\.site.queue) == [
        "context", "context#2",
      ])
  }
}
