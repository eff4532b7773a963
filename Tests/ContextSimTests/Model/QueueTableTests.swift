import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

@Suite("The queue table: serial queues' FIFO lines, owners and clocks")
struct QueueTableTests {
  private func block(enqueuedAt step: Int) -> Block {
    var block = Block(steps: [], scope: Scope(index: 0), origin: nil)
    block.enqueuedAt = step
    return block
  }

  /// A table with one serial queue, `work`, whose line holds a block and then thread 1.
  private func blockThenWaiter() -> QueueTable {
    var queues = QueueTable()
    let q = queues.add(named: "work", isSerial: true)
    queues.enqueue(block(enqueuedAt: 4), on: q)
    queues.wait(1, on: q)
    return queues
  }

  private func clock(_ times: [Int: Int]) -> VectorClock {
    var clock = VectorClock()
    for (thread, time) in times { clock[thread] = time }
    return clock
  }

  @Test("At launch the main thread owns and serves the main queue; the global queue is concurrent")
  func launch() {
    let queues = QueueTable()
    #expect(queues.count == 2)
    #expect(queues[QueueTable.main].name == "main")
    #expect(queues[QueueTable.main].owner == 0)
    #expect(queues[QueueTable.main].server == 0)
    #expect(queues[QueueTable.global].isSerial == false)
    #expect(queues.index(named: "global") == QueueTable.global)
  }

  @Test("A release hands the queue to the first waiter, in FIFO order")
  func releaseHandsOffInOrder() {
    var queues = QueueTable()
    let q = queues.add(named: "work", isSerial: true)
    queues.wait(1, on: q)
    queues.wait(2, on: q)
    #expect(queues.isTurn(of: 1, on: q))
    #expect(!queues.isTurn(of: 2, on: q))
    _ = queues.handOff(q, to: 1)
    #expect(queues[q].owner == 1)
    #expect(!queues.isTurn(of: 2, on: q), "the queue is not free while thread 1 holds it")
    queues.release(q, by: 1, clock: clock([1: 3]), at: 7)
    #expect(queues[q].isFree)
    #expect(queues.isTurn(of: 2, on: q))
    _ = queues.handOff(q, to: 2)
    #expect(queues[q].owner == 2)
    #expect(queues[q].pending.isEmpty)
  }

  @Test("A waiter behind a block waits for the block to start and end")
  func waiterBehindBlock() throws {
    var queues = blockThenWaiter()
    let q = try #require(queues.index(named: "work"))
    #expect(queues.hasBlockReady(q))
    #expect(!queues.isTurn(of: 1, on: q))
    let started = queues.startBlock(q, on: 2)
    #expect(started.block.enqueuedAt == 4)
    #expect(queues[q].owner == 2)
    #expect(!queues.hasBlockReady(q))
    #expect(!queues.isTurn(of: 1, on: q))
    queues.release(q, by: 2, clock: clock([2: 5]), at: 9)
    #expect(queues.isTurn(of: 1, on: q))
  }

  @Test("The next owner acquires the clock the last owner released, and the step it released at")
  func releaseLeavesClock() throws {
    var queues = blockThenWaiter()
    let q = try #require(queues.index(named: "work"))
    let first = queues.startBlock(q, on: 2)
    #expect(first.clock == VectorClock(), "nothing was released before")
    queues.release(q, by: 2, clock: clock([0: 2, 2: 4]), at: 6)
    #expect(queues[q].releasedAt == 6)
    #expect(queues.handOff(q, to: 1) == clock([0: 2, 2: 4]))
  }

  @Test("A concurrent queue numbers the blocks it starts, from 1")
  func concurrentNumbering() {
    var queues = QueueTable()
    #expect(queues.startConcurrentBlock(on: QueueTable.global) == 1)
    #expect(queues.startConcurrentBlock(on: QueueTable.global) == 2)
    #expect(queues[QueueTable.global].started == 2)
  }

  @Test("A serial queue is served by the one thread recorded for it")
  func server() {
    var queues = QueueTable()
    let q = queues.add(named: "background", isSerial: true)
    #expect(queues[q].server == nil)
    queues.serve(q, by: 4)
    #expect(queues[q].server == 4)
  }
}
