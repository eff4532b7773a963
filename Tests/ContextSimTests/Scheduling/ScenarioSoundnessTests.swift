import Foundation
import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// The scenario files of `scenarios/`, by path from the repository's root, in order.
private let scenarioFiles: [String] = {
  let files = (try? FileManager.default.contentsOfDirectory(atPath: repositoryRoot + "/scenarios"))
  return (files ?? []).filter { $0.hasSuffix(".json") }.sorted().map { "scenarios/" + $0 }
}()

/// DPOR, except that every execution starts from the beginning: what resuming from copies
/// of the run must not change.
private struct FromTheStart: Scheduler {
  var search = DPORScheduler()
  mutating func startExecution() -> Bool { search.startExecution() }
  mutating func nextThread(runnable: [Int], previous: Int?, step: Int) -> Int? {
    search.nextThread(runnable: runnable, previous: previous, step: step)
  }
  mutating func stepTaken(by thread: Int, footprint: Footprint) {
    search.stepTaken(by: thread, footprint: footprint)
  }
  var isExhaustive: Bool { search.isExhaustive }
}

@Suite("Reduction is sound on every scenario of scenarios/")
struct ScenarioSoundnessTests {
  @Test("There are scenarios to hold to it")
  func scenariosFound() {
    #expect(scenarioFiles.count >= 60)
  }

  @Test("Resuming from copies of the run explores exactly what starting over does")
  func resumingChangesNothing() throws {
    for file in scenarioFiles {
      let s = try scenarioAt(file)
      let options = SimulationOptions(s)
      let resumed = explore(
        s, scheduler: DPORScheduler(), options: options, maxSchedules: 300, shrinking: false)
      let replayed = explore(
        s, scheduler: FromTheStart(), options: options, maxSchedules: 300, shrinking: false)
      #expect(resumed.schedulesRun == replayed.schedulesRun, "\(file)")
      #expect(resumed.prunedRuns == replayed.prunedRuns, "\(file)")
      #expect(
        resumed.outcomes.map { [$0.signature.description, "\($0.schedules)", "\($0.shortest)"] }
          == replayed.outcomes.map {
            [$0.signature.description, "\($0.schedules)", "\($0.shortest)"]
          }, "\(file)")
    }
  }

  @Test("The stateful search proves the fixed photo downloader as DPOR does, in fewer states")
  func statefulEqualsDPOROnTheDownloader() throws {
    let s = try scenarioAt("scenarios/photo-downloader-fixed.json")
    let options = SimulationOptions(s)
    let dpor = explore(
      s, strategy: .dpor(preemptionBound: nil), options: options, maxSchedules: 10_000,
      shrinking: false)
    let stateful = explore(
      s, strategy: .stateful(maxStates: 100_000), options: options, shrinking: false)
    #expect(dpor.isComplete && stateful.isComplete)
    #expect(outcomeSet(stateful) == outcomeSet(dpor))
    #expect(stateful.verdict == .passed)
    #expect((stateful.statesVisited ?? .max) < dpor.schedulesRun)
  }

  @Test("DPOR and the stateful search find exactly the outcomes exhaustive search finds")
  func reducedEqualsExhaustive() throws {
    var compared = 0
    for file in scenarioFiles {
      let s = try scenarioAt(file)
      let options = SimulationOptions(s)
      let full = explore(
        s, strategy: .exhaustive, options: options, maxSchedules: 5_000, shrinking: false)
      guard full.isComplete else { continue }
      let reduced = explore(
        s, strategy: .dpor(preemptionBound: nil), options: options, maxSchedules: 5_000,
        shrinking: false)
      #expect(reduced.isComplete, "\(file)")
      #expect(
        Set(reduced.outcomes.map(\.signature)) == Set(full.outcomes.map(\.signature)), "\(file)")
      let stateful = explore(
        s, strategy: .stateful(maxStates: 100_000), options: options, shrinking: false)
      #expect(stateful.isComplete, "\(file)")
      #expect(outcomeSet(stateful) == outcomeSet(full), "\(file)")
      compared += 1
    }
    // All but the three photo downloaders, whose interleavings are far too many to list.
    #expect(compared >= scenarioFiles.count - 3)
  }
}
