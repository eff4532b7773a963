import ContextSimCore
import ContextSimReports

/// The level list `ctxsim game` prints: each level with a done mark, its title and goal,
/// and the next level to play pointed out, so a learner sees at once where they are.
///
///     Levels (1 of 6 done):
///       [x]  1  The object in the cache   reach wrongQueueObject at show-title
///       [ ]  2  Make the race happen      reach dataRace at read-thumbnail   <- next
public struct LevelList {
  /// One row: a level that loads, or the file of one that does not.
  public struct Entry: Sendable {
    /// The level's number.
    public var number: Int
    /// Its title, or its file when it does not load.
    public var title: String
    /// Its goal in a few words, or why it cannot be played.
    public var goal: String
    /// Whether it has been won.
    public var done: Bool
    /// Whether it can be played: false for a level that does not load.
    public var playable: Bool

    /// A row of the list.
    public init(number: Int, title: String, goal: String, done: Bool, playable: Bool = true) {
      self.number = number
      self.title = title
      self.goal = goal
      self.done = done
      self.playable = playable
    }
  }

  /// The rows, in level order.
  public var entries: [Entry]
  /// Bold for the next level; plain text otherwise.
  public var colour: Bool

  /// A list of the rows, with colour or without.
  public init(entries: [Entry], colour: Bool) {
    self.entries = entries
    self.colour = colour
  }

  /// The first playable level not yet won.
  public var next: Entry? { entries.first { $0.playable && !$0.done } }

  /// The list as lines, each ending in a newline.
  public func render() -> String {
    let done = entries.filter(\.done).count
    var out = "Levels (\(done) of \(entries.count) done):\n"
    let titleWidth = min(40, entries.map(\.title.count).max() ?? 0)
    let numberWidth = String(entries.map(\.number).max() ?? 0).count
    for entry in entries {
      let mark = entry.done ? "[x]" : "[ ]"
      let number =
        String(repeating: " ", count: numberWidth - String(entry.number).count)
        + String(entry.number)
      let title = entry.title.padding(to: titleWidth)
      var row = "  \(mark)  \(number)  \(title)  \(entry.goal)"
      if entry.number == next?.number {
        row += "   <- next"
        if colour { row = "\u{1B}[1m\(row)\u{1B}[0m" }
      }
      out += row + "\n"
    }
    return out
  }
}

extension String {
  /// Padded with spaces to `width` characters; longer text is kept whole.
  func padding(to width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
