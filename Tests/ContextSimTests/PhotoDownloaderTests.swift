import Foundation
import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// The reviewed photo downloader and its fix: the outcomes the seed reproduced on a Mac.
@Suite("The photo downloader")
struct PhotoDownloaderTests {
  private func load(_ name: String) throws -> Scenario {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent()
      .deletingLastPathComponent()
    let data = try Data(contentsOf: root.appendingPathComponent("scenarios/\(name).json"))
    return try ScenarioDecoder.decode(Array(data), file: "scenarios/\(name).json")
  }

  @Test("Buggy, with the flag: the first wrong-queue touch traps at once, exit 133")
  func buggyTrapsAtOnce() throws {
    let s = try load("photo-downloader")
    let trace = run(s, stopAtFirst: true)
    #expect(trace.kinds == [.wrongQueueContext])
    let trap = try #require(trace.violations.first)
    #expect(trap.labels.first == "insert-photo")
    #expect(trap.site.thread == "global#2")
    #expect(trap.termination?.exitStatus == 133)
  }

  @Test(
    "Buggy, without the flag: every download throws the cross-context relationship exception, in every schedule"
  )
  func buggyWithoutFlag() throws {
    let s = try load("photo-downloader")
    let e = explore(
      s, strategy: .pct(seed: 1, depth: 3), options: SimulationOptions(concurrencyDebug: false),
      maxSchedules: 200, shrinking: false)
    #expect(e.schedulesRun == 200)
    for outcome in e.outcomes {
      let crossContext = outcome.example.violations.filter { $0.kind == .crossContextRelationship }
      #expect(crossContext.count == 4, "one exception per download")
      #expect(crossContext.allSatisfy { $0.labels.first == "relate-album" })
      #expect(outcome.example.firstCrash?.termination == .uncaughtException)
      guard case .uncaughtException(_, let exception)? = crossContext.first?.detail else {
        continue
      }
      #expect(
        exception.reason.hasPrefix(
          "Illegal attempt to establish a relationship 'album' between objects in different contexts"
        ))
    }
  }

  @Test(
    "markAllSeen on its own works in the default schedule, all four seen, yet corrupts in some schedules"
  )
  func markAllSeen() throws {
    let s = try load("photo-downloader-mark-all-seen")
    let trace = run(s, concurrencyDebug: false)
    #expect(trace.violations.isEmpty)
    #expect(
      trace.events.contains {
        $0.effect == .expectationHeld("4 Photo where isSeen == true in viewContext")
      })
    let e = explore(
      s, strategy: .dpor(preemptionBound: nil), options: SimulationOptions(concurrencyDebug: false),
      maxSchedules: 1000)
    #expect(e.isComplete)
    #expect(e.outcomes.contains { $0.isClean })
    #expect(e.outcomes.contains { $0.signature.map(\.kind) == [.corruption] })
    let corrupted = try #require(e.outcomes.first { !$0.isClean })
    #expect(corrupted.example.firstCrash?.termination?.exitStatus == 139)
  }

  @Test("With the relationship fixed, each remaining problem shows as its own violation")
  func eachProblemAlone() throws {
    let s = try load("photo-downloader-relationship-fixed")
    let trace = run(s)
    func has(_ kind: ViolationKind, _ label: String) -> Bool {
      trace.violations.contains { $0.kind == kind && $0.labels.contains(label) }
    }
    #expect(has(.wrongQueueContext, "insert-photo"), "private context used without perform")
    #expect(has(.wrongQueueContext, "fetch-all-photos"), "viewContext used off main")
    #expect(has(.wrongQueueObject, "use-photo-on-main"), "a background photo used on main")
    #expect(has(.dataRace, "set-onSaved"), "the race on onSaved")
    #expect(has(.discardedError, "save-photo"), "the save error thrown away")
    #expect(has(.expectationFailed, "screen-shows-photos"), "the stale album on screen")
    #expect(has(.expectationFailed, "one-row-per-url"), "two rows for one URL")
    #expect(!trace.kinds.contains(.crossContextRelationship))
  }

  @Test(
    "Fixed: no violation in any class of interleavings, the screen sees every photo, one row per URL, the failure reported"
  )
  func fixedIsClean() throws {
    let s = try load("photo-downloader-fixed")
    let trace = run(s)
    #expect(trace.violations.isEmpty)
    let held = trace.events.compactMap {
      if case .expectationHeld(let what) = $0.effect { what } else { nil }
    }
    #expect(held.contains("album.photos to hold 2"))
    #expect(
      held.contains(#"1 Photo where remoteURL == "https://example.com/1.jpg" in viewContext"#))
    #expect(held.contains(#"failed == "https://example.com/broken.jpg""#))
    #expect(held.contains("2 Photo where isSeen == true in viewContext"))
    let e = explore(
      s, strategy: .dpor(preemptionBound: nil), options: SimulationOptions(concurrencyDebug: true),
      maxSchedules: 20_000, shrinking: false)
    #expect(e.isComplete)
    #expect(e.schedulesRun == 6720)
    #expect(e.outcomes.count == 1 && e.outcomes[0].isClean)
  }

  @Test("markAllSeen's try! fetch crashes the app when the store fails")
  func storeError() throws {
    let trace = run(try load("photo-downloader-store-error"))
    #expect(trace.kinds == [.uncaughtError])
    #expect(trace.violations.first?.labels.first == "fetch-all-photos")
    #expect(trace.firstCrash?.termination?.exitStatus == 133)
  }
}
