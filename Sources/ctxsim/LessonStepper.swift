import ContextSim
import Foundation

/// The full-screen lesson stepper: reads keys, moves the session, draws the screen.
///
/// All the teaching logic lives in ``LessonSession`` and all the drawing in
/// ``LessonScreen``, both in the library and tested there; this is only the loop that
/// joins them to a real terminal.
struct LessonStepper {
  var lesson: Lesson
  var scenario: Scenario
  var console: Console
  var play: Bool
  var colour: ColourChoice
  /// Where `e` writes the timeline.
  var exportPath: String

  func run() -> Int32 {
    guard Terminal.enter() else {
      console.writeError("ctxsim: standard input is not a terminal, so here is the transcript.\n")
      console.write(LessonTranscript(lesson: lesson, scenario: scenario).render())
      return ExitStatus.success
    }
    let exported = stepThrough()
    Terminal.leave()
    // The status line went with the screen; say again where the timeline is.
    if exported { console.writeError("wrote \(exportPath)\n") }
    return ExitStatus.success
  }

  /// Reads keys and redraws until the user quits; true when `e` wrote the timeline.
  private func stepThrough() -> Bool {
    var exported = false
    var session = LessonSession(lesson: lesson, scenario: scenario)
    if play { session.togglePlaying() }
    var view = LessonScreen.View()
    var message: String?
    var size = Terminal.size()
    draw(session, size: size, view: view, message: message)
    while true {
      guard let keys = Terminal.readKeys(milliseconds: 250) else { return exported }
      for key in keys {
        message = nil
        let before = (session.position, session.ending, session.isPlaying)
        switch key {
        case .interrupt, .character("q"), .character("Q"):
          return exported
        case .character("h"), .character("?"):
          view.help.toggle()
        case .character("c"):
          view.pane = view.pane.next
        case .character("j"), .pageDown:
          let screen = LessonScreen(width: size.width, height: size.height, style: style)
          view.scroll = min(
            screen.maximumScroll(session, view: view),
            view.scroll + (key == .pageDown ? max(1, size.height / 2) : 1))
        case .character("k"), .pageUp:
          view.scroll = max(0, view.scroll - (key == .pageUp ? max(1, size.height / 2) : 1))
        case .character("n"), .character(" "), .character("\n"), .right, .down:
          view.help = false
          session.next()
        case .character("b"), .left, .up:
          session.back()
        case .character("r"):
          session.restart()
        case .character("v"):
          session.nextViolation()
        case .character("s"):
          session.togglePlaying()
          message =
            session.isPlaying
            ? "You are the scheduler: press a thread's number to run it."
            : "Following the lesson's schedule again."
        case .character("e"):
          let written = export(session)
          message = written.message
          exported = exported || written.succeeded
        case .character(let c) where c.isASCII && c.wholeNumberValue != nil:
          session.choose(c.wholeNumberValue ?? 0)
        default:
          message = "Unknown key; press h for help."
        }
        // A new step, or the question or answer, starts at the top of its text.
        if before != (session.position, session.ending, session.isPlaying) { view.scroll = 0 }
      }
      // Redraw after keys, or when the terminal was resized.
      let now = Terminal.size()
      if !keys.isEmpty || now != size {
        size = now
        draw(session, size: size, view: view, message: message)
      }
    }
  }

  private func draw(
    _ session: LessonSession, size: (width: Int, height: Int), view: LessonScreen.View,
    message: String?
  ) {
    let screen = LessonScreen(width: size.width, height: size.height, style: style)
    var lines = screen.render(session, view: view)
    if let message, !lines.isEmpty {
      // In place of the key bar, cut to the width so the terminal never wraps it.
      lines[lines.count - 1] = " " + String(message.prefix(max(0, size.width - 2)))
    }
    Terminal.draw("\u{1B}[H" + lines.joined(separator: "\u{1B}[K\n") + "\u{1B}[K\u{1B}[J")
  }

  /// Box drawing where the terminal can show it; plain characters on a dumb terminal or
  /// one whose locale is not UTF-8.
  private var style: LessonScreen.Style {
    let environment = console.environment
    let locale = environment["LC_ALL"] ?? environment["LC_CTYPE"] ?? environment["LANG"] ?? ""
    let utf8 = locale.uppercased().replacingOccurrences(of: "-", with: "").contains("UTF8")
    return LessonScreen.Style(
      unicode: utf8 && environment["TERM"] != "dumb", colour: console.useColour(colour))
  }

  /// Writes the timeline of the steps taken so far, and says where.
  private func export(_ session: LessonSession) -> (message: String, succeeded: Bool) {
    let page = HTMLTimeline(scenario: scenario, title: lesson.title, advice: .ctxsim())
      .render(session.trace)
    var quiet = console
    var complaint: String?
    quiet.writeError = { complaint = $0 }
    let status = writeTimeline(page, to: exportPath, console: quiet)
    guard status == ExitStatus.success else {
      let reason = (complaint ?? "Cannot write \(exportPath).").split(separator: "\n").first
      return (reason.map(String.init) ?? "", false)
    }
    return ("Wrote the timeline so far to \(exportPath).", true)
  }
}
