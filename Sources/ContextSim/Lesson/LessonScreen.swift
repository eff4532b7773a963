/// Draws a lesson session as a full screen of text: narration, the step just taken as its
/// line of Swift, a lane per thread, a pane per context, and the violation if one happened.
///
/// A pure function of the session and the screen's size: the front end only prints the
/// lines. It fits 80×24 and uses more room when it has it (threads and contexts side by
/// side from 120 columns).
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
    "n next  b back  r restart  v next violation  s you schedule  h help  q quit"

  /// The screen as exactly `height` lines: the session at its current step, or the key help
  /// when `showingHelp`.
  public func render(_ session: LessonSession, showingHelp: Bool = false) -> [String] {
    var top: [String] = []
    let right =
      session.isPlaying
      ? "you are the scheduler \(dot) step \(session.position)"
      : "step \(session.position) of \(session.total)"
    top.append(fit(bold("Lesson: \(session.lesson.title)"), right: right))
    top.append(rule())
    if showingHelp { return frame(top + help(), bottom: [rule(), dim(Self.keys)]) }
    var narration: String
    if let into = session.trace.automaticMerge(atStep: session.position) {
      narration =
        "Core Data merges the save into \(into), in a block of its own on \(into)'s queue, "
        + "because \(into) merges changes automatically."
    } else if session.lastStep != nil {
      narration = session.narrationNow ?? ""
    } else {
      narration =
        session.lesson.introduction.isEmpty
        ? "Goal: \(session.lesson.goal)" : session.lesson.introduction
    }
    if narration.isEmpty { narration = "Goal: \(session.lesson.goal)" }
    // The narration comes first: the panes below give up their lines before it does.
    let lines = wrap(narration, indent: " ")
    let room = height >= 30 ? 10 : 7
    top +=
      lines.count <= room
      ? lines : lines.prefix(room - 1) + [clip(lines[room - 1] + " " + ellipsis + ellipsis, width)]
    top.append(rule())
    top += now(session)
    var panes = lanes(session) + [""] + contextPanes(session)
    if width >= 120 {
      panes = sideBySide(lanes(session), contextPanes(session))
    }
    var bottom = [rule()]
    if session.isPlaying {
      bottom.append(playLine(session))
    }
    bottom.append(dim(Self.keys))
    return frame(top + [""] + panes, bottom: bottom)
  }

  /// The step just taken: where, its line of Swift, what it did or the violation it caused.
  private func now(_ session: LessonSession) -> [String] {
    guard let step = session.lastStep else {
      return [" " + dim("Before the first step. Press n to take it.")]
    }
    let thread =
      session.trace.events(atStep: session.position).last?.site.thread
      ?? session.violationsNow.first?.site.thread ?? ""
    var out = [
      fit(
        " Step \(session.position) \(dot) \(thread) \(dot) \(step.path)\(step.label.map { " \"\($0)\"" } ?? "")"
      )
    ]
    out.append(fit("   " + bold(session.trace.swiftLine(atStep: session.position, of: step))))
    let violations = session.violationsNow
    if violations.isEmpty {
      let effects = session.trace.events(atStep: session.position)
        .compactMap { Messages.describe($0.effect, allSteps: true) }
      out += effects.prefix(2).map { fit("   " + arrow + " " + $0) }
    } else {
      for v in violations.prefix(2) {
        out += wrap("\(Messages.tag(v)) \(v.kind.rawValue): \(Messages.headline(v))", indent: "   ")
          .prefix(2).map(red)
        if let crash = Messages.crashLine(v) {
          out += wrap(crash, indent: "     ").prefix(2).map(red)
        }
      }
    }
    return out
  }

  /// One lane per thread: where it is, what it holds.
  private func lanes(_ session: LessonSession) -> [String] {
    var out = [bold(" Threads")]
    let lastThread = session.position > 0 ? session.trace.schedule.threads.last : nil
    for thread in session.world.threads {
      let marker = thread.number == lastThread ? (style.unicode ? "▶" : ">") : " "
      let choosable =
        session.isPlaying && session.world.runnable.count > 1
        && session.world.runnable.contains(thread.number)
      let number = choosable ? "[\(thread.number)]" : " \(thread.number) "
      let status: String
      switch thread.status {
      case .ready(let next):
        let step = session.scenario.allSteps[next]
        status = "next: \(step.swift)"
      case .readyToStart: status = "has a block to start"
      case .waiting(let queue): status = "waits for \(queue)"
      case .idle: status = "idle"
      }
      let holds = thread.holds.isEmpty ? "" : "on \(thread.holds.joined(separator: ", ")) \(dot) "
      out.append(fit("\(marker)\(number)\(pad(thread.name, 11)) \(holds)\(status)"))
    }
    return out
  }

  /// One pane per context: its queue, its objects, its unsaved changes.
  private func contextPanes(_ session: LessonSession) -> [String] {
    var out = [bold(" Contexts")]
    for context in session.world.contexts {
      let parent = context.parent.map { ", child of \($0)" } ?? ""
      let objects = context.objects.filter { !$0.isDeleted }.map { object in
        "\(object.id)" + (object.hasChanges ? "*" : "") + (object.isFault ? "(fault)" : "")
      }
      let list =
        objects.isEmpty
        ? "no objects"
        : objects.prefix(6).joined(separator: ", ") + (objects.count > 6 ? ", " + ellipsis : "")
      out.append(
        fit(
          "  \(pad(context.name, 12)) queue \(context.queue)\(parent) \(dot) \(context.unsavedChanges) unsaved \(dot) \(list)"
        ))
    }
    return out
  }

  private func playLine(_ session: LessonSession) -> String {
    if session.hasWon {
      return green(
        " You reached the crash: \(session.lesson.crash?.description ?? "")! Press b to go back, r to play again."
      )
    }
    if session.isAtEnd {
      return " The app ran to its end without the crash. Press r to try another interleaving."
    }
    let names = session.world.runnable.map { t in "\(t) \(session.world.threads[t].name)" }
    let goal = session.lesson.play.map { " " + $0.instruction } ?? ""
    return fit(" Who runs next? Press a number: \(names.joined(separator: ", ")).\(goal)")
  }

  private func help() -> [String] {
    [
      " n, space, right arrow    take the next step",
      " b, left arrow            go back one step (runs again from the start)",
      " r                        restart the lesson",
      " v                        jump to the next violation",
      " s                        you are the scheduler: choose the thread at every",
      "                          point where more than one could run",
      " 0-9                      in that mode, the thread that runs next",
      " h, ?                     show or hide this help",
      " q, Ctrl-C                quit",
    ]
  }

  // MARK: Layout

  /// Exactly `height` lines: the top, then as much of the middle as fits, the bottom last.
  private func frame(_ lines: [String], bottom: [String]) -> [String] {
    let room = height - bottom.count
    var body = Array(lines.prefix(room))
    while body.count < room { body.append("") }
    return body + bottom
  }

  private func sideBySide(_ left: [String], _ right: [String]) -> [String] {
    let half = width / 2
    return (0..<max(left.count, right.count)).map { i in
      let l = i < left.count ? left[i] : ""
      let r = i < right.count ? right[i] : ""
      return clip(l, half - 1)
        + String(repeating: " ", count: max(1, half - visible(clip(l, half - 1))))
        + clip(r, width - half)
    }
  }

  private var arrow: String { style.unicode ? "→" : "->" }
  private var dot: String { style.unicode ? "·" : "-" }
  private var ellipsis: String { style.unicode ? "…" : "~" }

  private func rule() -> String { String(repeating: style.unicode ? "─" : "-", count: width) }

  private func fit(_ left: String, right: String = "") -> String {
    guard !right.isEmpty else { return clip(left, width) }
    let l = clip(left, width - right.count - 1)
    return l + String(repeating: " ", count: max(1, width - visible(l) - right.count)) + right
  }

  private func pad(_ text: String, _ n: Int) -> String {
    text.count >= n ? text : text + String(repeating: " ", count: n - text.count)
  }

  /// Cuts text to `n` visible characters, leaving colour codes whole.
  private func clip(_ text: String, _ n: Int) -> String {
    guard visible(text) > n else { return text }
    var out = ""
    var count = 0
    var inEscape = false
    for c in text {
      if c == "\u{1B}" { inEscape = true }
      if inEscape {
        out.append(c)
        if c == "m" { inEscape = false }
        continue
      }
      if count >= n - 1 { break }
      out.append(c)
      count += 1
    }
    return out + ellipsis + (style.colour ? "\u{1B}[0m" : "")
  }

  /// The length of text as the terminal shows it: without colour codes.
  private func visible(_ text: String) -> Int {
    var count = 0
    var inEscape = false
    for c in text {
      if c == "\u{1B}" {
        inEscape = true
        continue
      }
      if inEscape {
        if c == "m" { inEscape = false }
        continue
      }
      count += 1
    }
    return count
  }

  private func wrap(_ text: String, indent: String) -> [String] {
    text.wrapped(width: width, indent: indent).map { clip($0, width) }
  }

  private func bold(_ text: String) -> String { style.colour ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
  private func dim(_ text: String) -> String { style.colour ? "\u{1B}[2m\(text)\u{1B}[0m" : text }
  private func red(_ text: String) -> String { style.colour ? "\u{1B}[31m\(text)\u{1B}[0m" : text }
  private func green(_ text: String) -> String {
    style.colour ? "\u{1B}[32m\(text)\u{1B}[0m" : text
  }
}
