/// The order in which threads took steps in one run, and its compact text form.
///
/// The text lists thread numbers (0 is main; others are numbered as they start), with a
/// run of steps by one thread written `NxCOUNT`, separated by commas: `0x4,1x2,0`.
/// Replaying a schedule with a ``ReplayScheduler`` reproduces the run exactly.
public struct Schedule: Sendable, Equatable, CustomStringConvertible {
  /// The thread that took each step, in order; step `n` is `threads[n - 1]`.
  public var threads: [Int] = []

  /// A schedule of these threads, one per step.
  public init(_ threads: [Int] = []) {
    self.threads = threads
  }

  /// The compact text form: `[0, 0, 0, 0, 1, 1, 0]` is `0x4,1x2,0`.
  public var description: String {
    var parts: [String] = []
    var i = 0
    while i < threads.count {
      var j = i
      while j < threads.count && threads[j] == threads[i] { j += 1 }
      parts.append(j - i == 1 ? "\(threads[i])" : "\(threads[i])x\(j - i)")
      i = j
    }
    return parts.joined(separator: ",")
  }

  /// The longest schedule text that is read: ten million steps.
  public static let maximumLength = 10_000_000

  /// Parses the text form; nil if it is not one, or is longer than ``maximumLength`` steps.
  /// The empty text is the empty schedule.
  public init?(parsing text: String) {
    if text.isEmpty { return }
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      let pieces = part.split(separator: "x", omittingEmptySubsequences: false)
      guard (1...2).contains(pieces.count), let thread = Int(pieces[0]), thread >= 0 else {
        return nil
      }
      var count = 1
      if pieces.count == 2 {
        guard let n = Int(pieces[1]), n > 0 else { return nil }
        count = n
      }
      // A schedule longer than any run could take is not one; refuse it before allocating.
      guard count <= Self.maximumLength - threads.count else { return nil }
      threads.append(contentsOf: repeatElement(thread, count: count))
    }
  }
}
