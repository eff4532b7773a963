import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// Runs a scenario on the default schedule, keeping what it leaves behind.
private func endState(_ scenario: Scenario) throws -> EndState {
  var options = SimulationOptions(scenario)
  options.capturesEndState = true
  var scheduler = RunToCompletionScheduler()
  return try #require(simulate(scenario, options: options, scheduler: &scheduler).endState)
}

private func titles(_ rows: [EndState.Row]?) -> [Value] {
  (rows ?? []).map { $0.values["title"] ?? .null }
}

@Suite("What a run leaves behind")
struct EndStateTests {
  @Test("Without capturesEndState a trace keeps no end state, so exploration stays lean")
  func offByDefault() throws {
    let s = try notes("[]")
    #expect(run(s).endState == nil)
    #expect(SimulationOptions(s).capturesEndState == false)
  }

  @Test("The store's rows, in the order written, with the values a save wrote")
  func storeRows() throws {
    let s = try notes(
      #"""
      [{"performAndWait": "background", "do": [
        {"insert": "Note", "into": "background", "values": {"title": "New"}},
        {"fetch": "Note", "in": "background", "first": true, "as": "n"},
        {"set": "n.title", "to": "Renamed"},
        {"save": "background"}]}]
      """#)
    let state = try endState(s)
    #expect(
      titles(state.store["Note"]) == [.string("Renamed"), .string("Call Bob"), .string("New")])
    #expect(state.store["Note"]?.first?.id.description == "note-1")
  }

  @Test("viewContext sees the old value of an object it holds and never merged")
  func staleScreen() throws {
    let s = try notes(
      #"""
      [{"fetch": "Note", "in": "viewContext", "first": true, "as": "shown"},
       {"get": "shown.title"},
       {"performAndWait": "background", "do": [
         {"fetch": "Note", "in": "background", "first": true, "as": "n"},
         {"set": "n.title", "to": "Renamed"},
         {"save": "background"}]}]
      """#)
    let state = try endState(s)
    #expect(titles(state.store["Note"]) == [.string("Renamed"), .string("Call Bob")])
    #expect(titles(state.viewContext["Note"]) == [.string("Buy milk"), .string("Call Bob")])
  }

  @Test("A fault viewContext holds, and a row it never fetched, show the store's values")
  func faultsReadTheStore() throws {
    let s = try notes(
      #"""
      [{"fetch": "Note", "in": "viewContext", "first": true, "as": "shown"},
       {"performAndWait": "background", "do": [
         {"fetch": "Note", "in": "background", "as": "all"},
         {"forEach": "$all", "as": "n", "do": [{"set": "n.title", "to": "Renamed"}]},
         {"save": "background"}]}]
      """#)
    #expect(
      titles(try endState(s).viewContext["Note"]) == [.string("Renamed"), .string("Renamed")])
  }

  @Test("viewContext's unsaved inserts are in what it sees and not in the store; its deletes not")
  func pendingChanges() throws {
    let s = try notes(
      #"""
      [{"insert": "Note", "into": "viewContext", "values": {"title": "Draft"}},
       {"fetch": "Note", "in": "viewContext", "first": true, "as": "gone"},
       {"delete": "gone"}]
      """#)
    let state = try endState(s)
    #expect(titles(state.store["Note"]) == [.string("Buy milk"), .string("Call Bob")])
    #expect(titles(state.viewContext["Note"]) == [.string("Call Bob"), .string("Draft")])
    #expect(state.viewContext["Note"]?.last?.id.isTemporary == true)
  }

  @Test("A to-many relationship lists its destinations as object IDs, stale in viewContext")
  func relationships() throws {
    let s = try scenario(
      #"""
      {"title": "album",
       "model": {
         "Album": {"attributes": {"title": "string"},
                   "relationships": {"photos": {"to": "Photo", "many": true, "inverse": "album"}}},
         "Photo": {"attributes": {"url": "string"},
                   "relationships": {"album": {"to": "Album", "inverse": "photos"}}}},
       "store": {"Album": [{"id": "album-1", "title": "Holiday"}]},
       "contexts": {"importer": {"queue": "private"}},
       "main": [
         {"fetch": "Album", "in": "viewContext", "first": true, "as": "album"},
         {"get": "album.photos"},
         {"objectID": "album", "as": "albumID"},
         {"performAndWait": "importer", "do": [
           {"existingObject": "$albumID", "in": "importer", "as": "a"},
           {"insert": "Photo", "into": "importer", "values": {"url": "x.jpg", "album": "$a"}},
           {"save": "importer"}]}]}
      """#)
    let state = try endState(s)
    let album = try #require(state.store["Album"]?.first)
    let photo = try #require(state.store["Photo"]?.first)
    #expect(album.values["photos"] == .list([.objectID(photo.id)]))
    #expect(photo.values["album"] == .objectID(album.id))
    #expect(state.viewContext["Album"]?.first?.values["photos"] == .list([]))
    #expect(state.viewContext["Photo"]?.count == 1)
  }

  @Test("Exploring with end states keeps one outcome per end state, each with its schedule")
  func outcomesByEndState() throws {
    // Two blocks race to write the title: without end states one clean outcome, with them
    // two, and each example's end state is its own.
    let s = try notes(
      #"""
      [{"perform": "background", "do": [
         {"fetch": "Note", "in": "background", "first": true, "as": "n"},
         {"set": "n.title", "to": "A"}, {"save": "background"}]},
       {"fetch": "Note", "in": "viewContext", "first": true, "as": "m"},
       {"set": "m.title", "to": "B"},
       {"save": "viewContext", "try": "?"}]
      """#, contexts: #"{"background": {"queue": "private", "mergePolicy": "overwrite"}}"#)
    let plain = explore(s)
    var options = SimulationOptions(s)
    options.capturesEndState = true
    let kept = explore(s, options: options)
    #expect(plain.isComplete && kept.isComplete)
    #expect(kept.schedulesRun == plain.schedulesRun)
    #expect(kept.outcomes.count > plain.outcomes.count)
    let finals = Set(kept.outcomes.compactMap { $0.example.endState?.store["Note"]?.first })
    #expect(finals.count > 1)
    for outcome in kept.outcomes {
      var replay = ReplayScheduler(outcome.shortest)
      let again = simulate(s, options: options, scheduler: &replay)
      #expect(again.endState == outcome.example.endState)
    }
  }
}
