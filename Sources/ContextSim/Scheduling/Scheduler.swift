/// Picks which thread takes the next step of a run.
///
/// The simulation calls ``nextThread(runnable:previous:step:)`` once per step, with the
/// threads that can move (ascending by number), the thread that took the step before, and
/// the step's number counted from 1. It must return one of `runnable`; a replay that
/// cannot returns the thread it was told to use, and the simulation stops with a mismatch.
/// A scheduler is used for one run and is deterministic for its inputs.
public protocol Scheduler {
  mutating func nextThread(runnable: [Int], previous: Int?, step: Int) -> Int
}
