import ContextSimCore
import ContextSimReports

/// Draws a lesson session as a full screen of text: the title, the narration, the step just
/// taken with what it did, and a pane of the world: threads and contexts, the program with
/// each thread's line marked, or the values every context and the store hold.
///
/// A pure function of the session, the view and the screen's size: the front end only
/// prints the lines. Every screen is exactly `height` lines of at most `width` columns, the
/// title always on the first, and any text cut to fit says so: a line ends in `…`, a block
/// ends in a line saying how much more there is.
public struct LessonScreen {
  /// What the terminal can show.
  public struct Style: Sendable {
    /// Box-drawing characters and arrows; plain ASCII otherwise.
    public var unicode: Bool
    /// ANSI colour and bold; plain text otherwise.
    public var colour: Bool

    /// A style for a terminal with or without Unicode and colour.
    public init(unicode: Bool, colour: Bool) {
      self.unicode = unicode
      self.colour = colour
    }
  }

  /// What the front end chose to show, beside the session itself.
  public struct View: Sendable, Equatable {
    /// The key help instead of the lesson.
    public var help = false
    /// The pane under the step (beside the code from 120 columns).
    public var pane = Pane.world
    /// How many lines of the narration are scrolled past.
    public var scroll = 0
    /// Whether the line under the step says who may run next, and whether the play goal is
    /// met; `ctxsim game` draws its own, with the level's goal and hints.
    public var playLine = true

    /// The lesson, the world pane, not scrolled.
    public init() {}
  }

  /// The panes `c` cycles through.
  public enum Pane: Sendable, CaseIterable {
    /// Threads, what each holds and waits for, and each context's objects.
    case world
    /// The program, with each thread's line marked.
    case code
    /// Each context's objects with their values, and the store's rows.
    case values

    /// The next pane, for the `c` key.
    public var next: Pane {
      let all = Self.allCases
      return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
  }

  let width: Int
  let height: Int
  let style: Style

  /// A screen of `width` columns and `height` rows, at least 40 by 12.
  public init(width: Int, height: Int, style: Style) {
    self.width = max(40, width)
    self.height = max(12, height)
    self.style = style
  }

  /// The key bindings, as the bottom line lists them.
  public static let keys =
    "n/b step  v violation  c pane  j/k scroll  s play  e export  h help  q quit"

  /// The screen as exactly `height` lines: the session at its current step, or the help.
  public func render(_ session: LessonSession, view: View = View()) -> [String] {
    let right =
      session.isPlaying
      ? "you are the scheduler \(dot) step \(session.position)"
      : "step \(session.position) of \(session.total)"
    let top = [fit(bold("Lesson: \(session.lesson.title)"), right: right), rule()]
    var bottom = [rule()]
    if session.isPlaying && !view.help && view.playLine {
      let colour = session.hasWon ? green : session.hasLost ? red : { $0 }
      bottom += wrap(playLine(session), indent: " ").map(colour)
    }
    bottom.append(fit(Self.keys))
    let room = height - top.count - bottom.count
    let middle: [String]
    if view.help {
      middle = block(help(), room: room, what: "keys")
    } else if session.ending != nil {
      middle = scrolled(scrollingText(session), room: room, scroll: view.scroll)
    } else if session.lastStep == nil {
      let before = [" Before the first step. Press n to take it."]
      middle =
        scrolled(scrollingText(session), room: room - before.count - 1, scroll: view.scroll)
        + [""] + before
    } else {
      middle = stepScreen(session, view: view, room: room)
    }
    return frame(top + middle, bottom: bottom)
  }

  /// How far `j` can scroll the text at the top (the introduction, the narration and the
  /// step, the question or answer): its last line at the top, no further.
  public func maximumScroll(_ session: LessonSession, view: View) -> Int {
    max(0, scrollingText(session).count - 1)
  }

  /// The lines `j` and `k` scroll: the introduction before the first step, the question
  /// and answer after the last, else the narration and the step just taken.
  private func scrollingText(_ session: LessonSession) -> [String] {
    if let ending = session.ending { return wrap(endingText(session, ending), indent: " ") }
    guard session.lastStep != nil else {
      let intro =
        session.lesson.introduction.isEmpty
        ? "Goal: \(session.lesson.goal)" : session.lesson.introduction
      return wrap(intro, indent: " ")
    }
    let narration = narrationText(session)
    return (narration.isEmpty ? [] : wrap(narration, indent: " ") + [rule()]) + now(session)
  }

  /// The narration and the step just taken, then a pane: the pane keeps a third of the room
  /// (half for the code or values the learner asked for), the text gets the rest (scrolling
  /// when it needs more), and the pane fills what is left.
  private func stepScreen(_ session: LessonSession, view: View, room: Int) -> [String] {
    let text = scrollingText(session)
    let paneFloor = max(6, view.pane == .world ? room / 3 : room / 2)
    var out = scrolled(
      text, room: min(text.count, max(3, room - paneFloor - 1)), scroll: view.scroll)
    out.append("")
    out += pane(session, view.pane, room: room - out.count)
    return out
  }

  /// What the lesson says about the step just taken, as it happened in this run.
  private func narrationText(_ session: LessonSession) -> String {
    if let into = session.trace.automaticMerge(atStep: session.position) {
      // Apple documents no timing for the merge; the block is inferred (model §14.2).
      return "Core Data merges the save into \(into), because \(into) merges changes "
        + "automatically: in a block of its own on \(into)'s queue. Apple documents no timing; "
        + "the block is inferred from the framework's code (model §14.2)."
    }
    return session.narrationNow ?? ""
  }

  /// The run's summary and the question; with the answer once revealed.
  private func endingText(_ session: LessonSession, _ ending: LessonSession.Ending) -> String {
    let violations = session.trace.violations
    var text = "The run is over. "
    text +=
      violations.isEmpty
      ? "It broke no rule."
      : "It broke the rules \(violations.count) time\(violations.count == 1 ? "" : "s"): "
        + Set(violations.map(\.kind.rawValue)).sorted().joined(separator: ", ") + "."
    if let crash = session.trace.firstCrash, let termination = crash.termination {
      text +=
        " The real app stops at step \(crash.site.step) (exit \(termination.exitStatus), "
        + "\(termination.signal))."
    }
    text += "\n\nGoal: \(session.lesson.goal)\n\nQuestion: \(session.lesson.question)\n\n"
    text +=
      ending == .answer
      ? "Answer: \(session.lesson.answer)" : "Press n to reveal the answer, b to go back."
    return text
  }

  /// The step just taken: where, its line of Swift, what it did or the violation it caused.
  private func now(_ session: LessonSession) -> [String] {
    guard let step = session.lastStep else { return [] }
    let thread =
      session.trace.events(atStep: session.position).last?.site.thread
      ?? session.violationsNow.first?.site.thread ?? ""
    var out = [
      fit(
        " Step \(session.position) \(dot) \(thread) \(dot) \(step.path)\(step.label.map { " \"\($0)\"" } ?? "")"
      )
    ]
    out += wrap(session.trace.swiftLine(atStep: session.position, of: step), indent: "   ")
      .map(bold)
    let violations = session.violationsNow
    if violations.isEmpty {
      let effects = session.trace.events(atStep: session.position)
        .compactMap { Messages.describe($0.effect, allSteps: true) }
      for effect in effects { out += wrap(arrow + " " + effect, indent: "   ") }
    } else {
      for v in violations {
        out += wrap("\(Messages.tag(v)) \(v.kind.rawValue): \(v.headline)", indent: "   ")
          .map(red)
        if let crash = Messages.crashLine(v) { out += wrap(crash, indent: "     ").map(red) }
      }
    }
    return out
  }

  private func playLine(_ session: LessonSession) -> String {
    let goal = session.lesson.play
    if session.hasWon {
      let what: String
      if case .reach(let crash)? = goal {
        what = "You reached \(crash)!"
      } else {
        what = "You got through with no violation!"
      }
      return what + " Press n for the question, b to go back, r to play again."
    }
    if session.hasLost {
      if goal == .survive {
        return "A rule broke here: this interleaving does not get through. "
          + "Press b to choose again, r to start over."
      }
      return "The app ran to its end without \(goal?.description ?? "the goal"). "
        + "Press b to choose again, r to try another interleaving."
    }
    if session.isAtEnd {
      return "The app ran to its end. Press n for the question, r to play again."
    }
    guard session.needsChoice else { return "Nothing to choose here: press n to go on." }
    let names = session.world.runnable.map { t in "\(t) \(session.world.threads[t].name)" }
    return "Who runs next? Press a number: \(names.joined(separator: ", "))."
      + (goal.map { " " + $0.instruction } ?? "")
  }

  private func help() -> [String] {
    [
      " n, space, right arrow    take the next step; after the last, the question,",
      "                          then the answer",
      " b, left arrow            go back one step (runs again from the start)",
      " r                        restart the lesson",
      " v                        jump to the next violation",
      " c                        next pane: threads and contexts, code, values",
      " j, k, page down/up       scroll the narration",
      " s                        you are the scheduler: choose the thread at every",
      "                          point where more than one could run",
      " 0-9                      in that mode, the thread that runs next",
      " e                        export the timeline so far as HTML (into \\$TMPDIR)",
      " h, ?                     show or hide this help",
      " q, Ctrl-C                quit",
    ]
  }

  // MARK: Layout

  /// Exactly `height` lines of at most `width` columns: the top, as much of the middle as
  /// fits, the bottom last.
  private func frame(_ lines: [String], bottom: [String]) -> [String] {
    let room = height - bottom.count
    var body = Array(lines.prefix(room))
    while body.count < room { body.append("") }
    return (body + bottom).map { clip($0, width) }
  }

  /// At most `room` lines of `lines`; when cut, the last says how many more there are.
  func block(_ lines: [String], room: Int, what: String) -> [String] {
    guard room > 0 else { return [] }
    guard lines.count > room else { return lines }
    let more = lines.count - room + 1
    return Array(lines.prefix(room - 1)) + [" \(ellipsis) \(more) more \(what)"]
  }

  /// Lines from line `scroll`, at most `room` of them; when more is above or below, a line
  /// says so and which keys scroll.
  private func scrolled(_ lines: [String], room: Int, scroll: Int) -> [String] {
    guard room > 0 else { return [] }
    guard lines.count > room else { return lines }
    let visible = room - 1
    let start = max(0, min(scroll, lines.count - visible))
    let end = start + visible
    let marker =
      end < lines.count
      ? "\(ellipsis) \(lines.count - end) more line\(lines.count - end == 1 ? "" : "s"): j scrolls down"
      : "\(ellipsis) end; k scrolls up"
    return Array(lines[start..<end]) + [" " + marker]
  }

  var arrow: String { style.unicode ? "→" : "->" }
  var dot: String { style.unicode ? "·" : "-" }
  var ellipsis: String { style.unicode ? "…" : "~" }

  func rule() -> String { String(repeating: style.unicode ? "─" : "-", count: width) }

  func fit(_ left: String, right: String = "") -> String {
    guard !right.isEmpty else { return clip(left, width) }
    let l = clip(left, width - right.count - 1)
    return l + String(repeating: " ", count: max(1, width - visible(l) - right.count)) + right
  }

  func pad(_ text: String, _ n: Int) -> String {
    text.count >= n ? text : text + String(repeating: " ", count: n - text.count)
  }

  /// Cuts text to `n` visible characters, leaving colour codes whole.
  func clip(_ text: String, _ n: Int) -> String {
    text.clipped(to: n, ellipsis: ellipsis, colour: style.colour)
  }

  /// The length of text as the terminal shows it: without colour codes.
  func visible(_ text: String) -> Int { text.visibleWidth }

  func wrap(_ text: String, indent: String, width: Int? = nil) -> [String] {
    let width = width ?? self.width
    return text.wrapped(width: width, indent: indent).map { clip($0, width) }
  }

  func bold(_ text: String) -> String { style.colour ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
  func green(_ text: String) -> String {
    style.colour ? "\u{1B}[32m\(text)\u{1B}[0m" : text
  }
  func red(_ text: String) -> String { style.colour ? "\u{1B}[31m\(text)\u{1B}[0m" : text }
}
