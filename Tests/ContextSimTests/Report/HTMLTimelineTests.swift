import Foundation
import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// A note fetched on its context's queue, then touched from main: two traps, then a clean
/// lookup by object ID.
private let wrongThread = """
  {
    "title": "wrong thread",
    "model": {"Note": {"attributes": {"title": "string"}}},
    "store": {"Note": [{"id": "note-1", "title": "Buy milk"}]},
    "contexts": {"background": {"queue": "private"}},
    "main": [
      {"performAndWait": "background", "do": [
        {"fetch": "Note", "in": "background", "first": true, "as": "note"},
        {"set": "note.title", "to": "Buy oat milk"}]},
      {"count": "Note", "in": "background", "as": "count", "label": "count-from-main",
       "note": "Rule 2 broken: main uses background."},
      {"get": "note.title", "as": "title", "label": "object-on-main"},
      {"perform": "background", "do": [
        {"objectID": "note", "as": "noteID"},
        {"async": "main", "do": [{"existingObject": "$noteID", "in": "viewContext", "as": "mine"}]}]}
    ]
  }
  """

/// A scenario from the repository's `scenarios/` folder.
private func shipped(_ name: String) throws -> Scenario {
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  let path = root.appendingPathComponent("scenarios/\(name).json").path
  let data = try #require(FileManager.default.contents(atPath: path))
  return try ScenarioDecoder.decode(Array(data), file: "scenarios/\(name).json")
}

/// The run embedded in a page, read back with ctxsim's own JSON reader.
private func embedded(_ html: String) throws -> JSONValue {
  let open = #"<script type="application/json" id="run-data">"#
  let start = try #require(html.range(of: open)).upperBound
  let end = try #require(html.range(of: "</script>", range: start..<html.endIndex)).lowerBound
  return try JSONReader.read(Array(html[start..<end].utf8))
}

/// Every position's state, rebuilt from the page's deltas as its script does: a missing
/// section, or a 0 entry in `t` or `c`, is as at the position before.
private func positions(_ run: JSONValue) throws -> [[String: String]] {
  var out: [[String: String]] = []
  var sections: [String: [JSONValue]] = [:]
  for delta in try #require(run["states"]?.elements) {
    for key in ["t", "c", "s", "v"] {
      guard let entries = delta[key]?.elements else { continue }
      let before = sections[key] ?? []
      sections[key] = entries.enumerated().map { i, entry in
        entry.kind == .integer(0) && ["t", "c"].contains(key) ? before[i] : entry
      }
    }
    var texts: [String: String] = [:]
    for (key, entries) in sections {
      texts[key] = HTMLTimeline.scriptJSON(JSONValue(.array(entries), at: JSONValue.nowhere))
    }
    out.append(texts)
  }
  return out
}

@Suite("The HTML timeline")
struct HTMLTimelineTests {
  private func page(_ s: Scenario) -> (html: String, trace: Trace) {
    let trace = run(s)
    return (HTMLTimeline(scenario: s, advice: .plain).render(trace), trace)
  }

  @Test("The page is self-contained: no scripts, styles, fonts or images from elsewhere")
  func selfContained() throws {
    let (html, _) = page(try scenario(wrongThread))
    #expect(html.hasPrefix("<!DOCTYPE html>"))
    for forbidden in ["src=", "href=\"http", "@import", "<link", "@font-face"] {
      #expect(!html.contains(forbidden), "found \(forbidden)")
    }
    // The arrowheads are the page's own markers: `url(#head-over)`, nothing fetched.
    #expect(html.components(separatedBy: "url(").dropFirst().allSatisfy { $0.hasPrefix("#") })
    #expect(html.components(separatedBy: "<script").count == 3, "the data and the script")
  }

  @Test("The same run gives the same bytes")
  func deterministic() throws {
    let s = try shipped("photo-downloader")
    #expect(page(s).html == page(s).html)
  }

  @Test("Every step's line of Swift, every violation with its crash line, and the schedule")
  func containsEverything() throws {
    let s = try scenario(wrongThread)
    let (html, trace) = page(s)
    let data = try embedded(html)
    let steps = try #require(data["steps"]?.elements)
    #expect(steps.count == trace.schedule.threads.count)
    for event in trace.events {
      let swift = trace.swiftLine(atStep: event.site.step, of: s.allSteps[event.site.stepIndex])
      #expect(steps[event.site.step - 1]["s"]?.string == swift)
    }
    let violations = try #require(data["violations"]?.elements)
    #expect(violations.count == trace.violations.count && !trace.violations.isEmpty)
    for (v, shown) in zip(trace.violations, violations) {
      #expect(shown["headline"]?.string == v.headline)
      #expect(shown["crash"]?.string == Messages.crashLine(v))
      // The list under the page says it too, without the script.
      #expect(html.contains(HTMLTimeline.escape(v.headline)))
    }
    #expect(html.contains("schedule \(trace.schedule)"))
    #expect(html.contains("__Multithreading_Violation_AllThatIsLeftToUsIsHonor__"))
    #expect(html.contains(##"<a href="#step=4" data-step="4">step 4</a>"##))
  }

  @Test("The code pane is the whole program; each step names the listing lines it highlights")
  func listing() throws {
    let s = try scenario(wrongThread)
    let (html, trace) = page(s)
    let listing = ProgramListing(s)
    for (i, line) in listing.lines.enumerated() {
      #expect(
        html.contains(
          #"<span class="no">\#(i + 1)</span><span class="src" style="--d:\#(line.depth)">"#
            + HTMLTimeline.escape(line.text) + "</span>"))
    }
    let steps = try #require(embedded(html)["steps"]?.elements)
    // The first trap counts notes from main: the listing's `let count = try background.count(…)`.
    let trap = try #require(trace.violations.first).site
    let lines = try #require(steps[trap.step - 1]["l"]?.elements)
    #expect(lines.count == 1)
    guard case .integer(let line)? = lines.first?.kind else { throw UnexpectedViolation() }
    #expect(listing.lines[line].text.hasPrefix("let count = try background.count(for:"))
    #expect(listing.lines[line].step == trap.stepIndex)
  }

  @Test("Each position's state is the world the simulation shows after that many steps")
  func states() throws {
    let s = try shipped("photo-downloader-fixed")
    let (html, trace) = page(s)
    let rebuilt = try positions(try embedded(html))
    #expect(rebuilt.count == trace.schedule.threads.count + 1)
    let listing = ProgramListing(s)
    for n in [0, 1, 17, 24, 26, trace.schedule.threads.count] {
      let world = simulate(
        s, options: SimulationOptions(s), following: trace.schedule, steps: n
      ).world
      let whole = TimelineRun.state(world, s, linesOf: listing).json(since: nil)
      for key in ["t", "c", "s", "v"] {
        #expect(rebuilt[n][key] == whole[key].map(HTMLTimeline.scriptJSON), "\(key) at \(n)")
      }
    }
    // After the save at step 24 the store holds the photo; viewContext sees it after 26.
    #expect(rebuilt[23]["s"]?.contains("Photo/p1") == false)
    #expect(
      rebuilt[24]["s"]?.contains(#"["Photo/p1",[["remoteURL","\"https://example.com/1.jpg\""]"#)
        == true)
    let timeline = TimelineRun(s, trace, listing: listing, stateLimit: HTMLTimeline.stateLimit)
    func photos(at position: Int) -> String? {
      timeline.states[position].contexts.first { $0.name == "viewContext" }?
        .objects.first { $0.id == "album-1" }?.fields.first { $0.key == "photos" }?.value
    }
    #expect(photos(at: 25) == "[]")
    #expect(photos(at: 26) == "[Photo/p1]")
  }

  @Test("An object's field says what the store holds when the two differ")
  func unsavedFields() throws {
    let s = try scenario(wrongThread)
    let trace = run(s)
    let world = simulate(s, options: SimulationOptions(s), following: trace.schedule, steps: 3)
      .world
    let state = TimelineRun.state(world, s, linesOf: ProgramListing(s))
    let background = try #require(state.contexts.first { $0.name == "background" })
    let note = try #require(background.objects.first { $0.id == "note-1" })
    #expect(note.hasChanges)
    #expect(note.fields == [.init(key: "title", value: #""Buy oat milk""#, stored: #""Buy milk""#)])
    #expect(state.store.map(\.id) == ["note-1"])
  }

  @Test("A thread blocked in performAndWait or sync is marked at the line it waits in")
  func waitingLines() throws {
    let s = try shipped("deadlock")
    let trace = run(s)
    let listing = ProgramListing(s)
    let timeline = TimelineRun(s, trace, listing: listing, stateLimit: HTMLTimeline.stateLimit)
    let end = try #require(timeline.states.last)
    let lines = end.threads.map { thread in thread.line.map { listing.lines[$0].text } }
    #expect(lines == ["background.performAndWait {", "DispatchQueue.main.sync {"])
    #expect(end.threads.map(\.status) == ["waits for background", "waits for main"])
  }

  @Test("The automatic merge has an arrow from the save that caused it, told apart from the rest")
  func mergeArrow() throws {
    let s = try shipped("photo-downloader-fixed")
    let (html, trace) = page(s)
    let data = try embedded(html)
    let arrows = try #require(data["arrows"]?.elements).map(HTMLTimeline.scriptJSON)
    #expect(arrows.contains("[24,26,1]"))
    #expect(arrows.contains("[25,27,0]"))
    #expect(
      arrows.filter { $0.hasSuffix(",1]") } == ["[24,26,1]", "[38,40,1]", "[52,54,1]", "[71,72,1]"])
    let merge = try #require(data["steps"]?.elements?[25])
    #expect(merge["m"].map(HTMLTimeline.scriptJSON) == "24")
    #expect(merge["s"]?.string == "viewContext.mergeChanges(fromContextDidSave: notification)")
    #expect(
      merge["why"]?.string?.hasPrefix("Core Data merges the save of step 24 into viewContext")
        == true)
    // Its highlighted lines are the save's: the cause, in the code pane.
    let save = try #require(data["steps"]?.elements?[23])
    #expect(merge["l"].map(HTMLTimeline.scriptJSON) == save["l"].map(HTMLTimeline.scriptJSON))
    #expect(trace.mergedSave(atStep: 26) == 24)
  }

  @Test("Scenario text cannot close the script or add markup; it reads back exactly")
  func escaping() throws {
    let hostile = #"</script><script>alert("x")</script><!-- & ' \u{2028}"#
    let s = try scenario(
      #"""
      {
        "title": \#(HTMLTimeline.scriptJSON(.string(hostile))),
        "model": {"Note": {"attributes": {"title": "string"}}},
        "store": {"Note": [{"id": "note-1", "title": "x"}]},
        "contexts": {"background": {"queue": "private"}},
        "main": [
          {"fetch": "Note", "in": "viewContext", "first": true, "as": "note"},
          {"set": "note.title", "to": \#(HTMLTimeline.scriptJSON(.string(hostile))),
           "label": "<b>bold</b>"},
          {"count": "Note", "in": "background", "label": "a\"b"}
        ]
      }
      """#)
    let (html, _) = page(s)
    #expect(html.components(separatedBy: "<script").count == 3)
    #expect(html.components(separatedBy: "</script>").count == 3)
    #expect(!html.contains("<!--"))
    #expect(!html.contains("<b>bold"))
    #expect(html.contains("<h1>&lt;/script&gt;&lt;script&gt;alert(&quot;x&quot;)"))
    let data = try embedded(html)
    let steps = try #require(data["steps"]?.elements)
    #expect(steps[1]["s"]?.string == "note.title = " + Value.string(hostile).swiftDescription)
    #expect(steps[1]["at"]?.string == #"main[1] "<b>bold</b>""#)
    #expect(data["violations"]?.elements?.first?["at"]?.string == #"main[2] "a"b""#)
    let rebuilt = try positions(data)
    #expect(rebuilt[2]["c"]?.contains(#"\u003c/script\u003e"#) == true)
  }

  @Test("A long run stays a small file: states are written as what changed")
  func size() throws {
    let turns = (1...30).map(String.init).joined(separator: ", ")
    let s = try notes(
      #"""
      [{"fetch": "Note", "in": "viewContext", "first": true, "as": "note"},
       {"forEach": [\#(turns)], "as": "i", "do": [
         {"perform": "background", "do": [
           {"fetch": "Note", "in": "background", "first": true, "as": "b"},
           {"set": "b.title", "to": "$i"}, {"save": "background"}]},
         {"get": "note.title"}, {"set": "note.pinned", "to": true}]}]
      """#)
    let (html, trace) = page(s)
    #expect(trace.schedule.threads.count >= 100)
    #expect(html.utf8.count < 150_000, "\(html.utf8.count) bytes")
    for name in ["photo-downloader", "photo-downloader-fixed"] {
      let (photos, _) = page(try shipped(name))
      #expect(photos.utf8.count < 200_000, "\(name): \(photos.utf8.count) bytes")
    }
  }

  @Test("Past the state limit the page still has every step, and states up to the limit")
  func stateLimit() throws {
    let s = try shipped("photo-downloader")
    let trace = run(s)
    let limited = TimelineRun(s, trace, listing: ProgramListing(s), stateLimit: 10)
    #expect(limited.steps.count == trace.schedule.threads.count)
    #expect(limited.states.count == 11)
  }
}
