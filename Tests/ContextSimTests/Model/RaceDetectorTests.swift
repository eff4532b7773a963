import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

@Suite("The race detector: happens-before by vector clocks, and races on shared vars")
struct RaceDetectorTests {
  /// A detector watching `count`, with the main thread and one more (thread 1).
  private func twoThreads() -> RaceDetector {
    var detector = RaceDetector(variables: ["count"])
    _ = detector.addThread()
    return detector
  }

  @Test("A thread starts at its own time 1, having seen nothing of the others")
  func newThread() {
    var detector = RaceDetector(variables: [])
    #expect(detector.addThread() == 1)
    #expect(detector.clocks[1][1] == 1)
    #expect(detector.clocks[1][0] == 0)
    #expect(detector.clocks[0][0] == 1)
  }

  @Test("Two writes on different threads with nothing between them race")
  func unorderedWritesRace() {
    var detector = twoThreads()
    #expect(detector.access(0, by: 0, isWrite: true, step: 1, stepIndex: 0).isEmpty)
    let races = detector.access(0, by: 1, isWrite: true, step: 2, stepIndex: 1)
    #expect(races.count == 1)
    #expect(races.first?.previous.thread == 0)
    #expect(races.first?.access.thread == 1)
  }

  @Test("A write released to a thread that acquires it happens before that thread's write")
  func releaseAcquireOrders() {
    var detector = twoThreads()
    _ = detector.access(0, by: 0, isWrite: true, step: 1, stepIndex: 0)
    let handedOn = detector.release(by: 0)
    #expect(detector.clocks[0][0] == 2, "the releasing thread moves its own time on")
    detector.acquire(handedOn, by: 1)
    #expect(detector.access(0, by: 1, isWrite: true, step: 2, stepIndex: 1).isEmpty)
  }

  @Test("What a thread does after its release is not ordered before the acquire")
  func afterReleaseRaces() {
    var detector = twoThreads()
    let handedOn = detector.release(by: 0)
    _ = detector.access(0, by: 0, isWrite: true, step: 1, stepIndex: 0)
    detector.acquire(handedOn, by: 1)
    #expect(detector.access(0, by: 1, isWrite: false, step: 2, stepIndex: 1).count == 1)
  }

  @Test("Reads never race with reads; a write races with every unordered read since the last write")
  func readsAndWrites() {
    var detector = RaceDetector(variables: ["count"])
    _ = detector.addThread()
    _ = detector.addThread()
    _ = detector.access(0, by: 0, isWrite: false, step: 1, stepIndex: 0)
    #expect(detector.access(0, by: 1, isWrite: false, step: 2, stepIndex: 1).isEmpty)
    let races = detector.access(0, by: 2, isWrite: true, step: 3, stepIndex: 2)
    #expect(races.map(\.previous.thread) == [0, 1])
  }

  @Test("A pair of steps is reported once per run")
  func reportedOnce() {
    var detector = twoThreads()
    _ = detector.access(0, by: 0, isWrite: true, step: 1, stepIndex: 0)
    #expect(detector.access(0, by: 1, isWrite: true, step: 2, stepIndex: 1).count == 1)
    _ = detector.access(0, by: 0, isWrite: true, step: 3, stepIndex: 0)
    #expect(detector.access(0, by: 1, isWrite: true, step: 4, stepIndex: 1).isEmpty)
  }

  @Test("The coordinator's lock orders one thread's store access after another's")
  func storeLock() {
    var detector = twoThreads()
    _ = detector.access(0, by: 0, isWrite: true, step: 1, stepIndex: 0)
    detector.lockStore(by: 0)
    detector.lockStore(by: 1)
    #expect(detector.access(0, by: 1, isWrite: true, step: 2, stepIndex: 1).isEmpty)
  }

  @Test("Only declared vars are watched")
  func variables() {
    let detector = RaceDetector(variables: ["a", "b"])
    #expect(detector.variable(named: "b") == 1)
    #expect(detector.variable(named: "c") == nil)
  }
}
