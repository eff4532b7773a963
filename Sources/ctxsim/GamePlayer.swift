import ContextSim
import Foundation

/// The full-screen game: reads keys, moves the level's session, saves progress, draws.
///
/// The rules of a level live in ``GameSession`` and the drawing in ``GameScreen``, both in
/// the library and tested there; this loop joins them to a real terminal and to the
/// progress file. Progress is saved when a try fails (so hints stay revealed) and when a
/// level is won; after a win, Enter goes on to the next level in the same screen.
struct GamePlayer {
  /// Every level file, in order: where the next level is found.
  var files: [String]
  var console: Console
  var colour: ColourChoice
  var progressFile: GameProgressFile
  var load: (String) -> Result<LoadedLevel, LoadFailure>

  func run(_ level: LoadedLevel, briefing: LevelBriefing) -> Int32 {
    guard Terminal.enter() else {
      console.writeError("ctxsim: standard input is not a terminal, so here is the briefing.\n")
      console.write(briefing.render())
      return ExitStatus.success
    }
    let problem = play(level)
    Terminal.leave()
    if let problem { console.writeError("ctxsim: warning: \(problem)\n") }
    return ExitStatus.success
  }

  /// Plays levels until the user quits; the last problem saving progress, if any.
  private func play(_ first: LoadedLevel) -> String? {
    var progress = progressFile.load(console: console)
    var current = first
    var game = session(current, progress)
    var next = nextLevel(after: current)
    var view = LessonScreen.View()
    var message: String?
    var saveProblem: String?
    var size = Terminal.size()
    draw(game, next: next, size: size, view: view, message: message)
    while true {
      guard let keys = Terminal.readKeys(milliseconds: 250) else { return saveProblem }
      for key in keys {
        message = nil
        let before = (game.failedTries, game.hasBeenWon)
        let position = (game.run?.position, game.level.id)
        switch key {
        case .interrupt, .character("q"), .character("Q"):
          return saveProblem
        case .character("h"), .character("?"):
          view.help.toggle()
        case .character("c"):
          view.pane = view.pane.next
        case .character("j"), .pageDown:
          let screen = LessonScreen(width: size.width, height: size.height, style: style)
          let lines = game.run.map { screen.maximumScroll($0, view: view) } ?? 0
          view.scroll = min(
            lines, view.scroll + (key == .pageDown ? max(1, size.height / 2) : 1))
        case .character("k"), .pageUp:
          view.scroll = max(0, view.scroll - (key == .pageUp ? max(1, size.height / 2) : 1))
        case .character("\n"), .character(" "), .character("n"), .right, .down:
          view.help = false
          if game.hasWon, key != .character("n") {
            if let following = next {
              current = following
              game = session(current, progress)
              next = nextLevel(after: current)
            } else {
              message = "That was the last level. Press q to quit."
            }
          } else {
            game.next()
          }
        case .character("b"), .left, .up:
          game.back()
        case .character("r"):
          game.restart()
        case .character("v"):
          game.nextViolation()
        case .character(let c) where c.isASCII && c.wholeNumberValue != nil:
          game.choose(c.wholeNumberValue ?? 0)
        default:
          message = "Unknown key; press h for help."
        }
        // A new step, or a new level, starts at the top of its text.
        if position != (game.run?.position, game.level.id) { view.scroll = 0 }
        if (game.failedTries, game.hasBeenWon) != before {
          progress.record(game.level.id, won: game.hasBeenWon, failedTries: game.failedTries)
          if let problem = progressFile.save(progress) {
            saveProblem = problem
            message = "Progress not saved: \(problem)"
          } else if game.hasWon {
            message = "Saved: level \(game.level.number) is done."
          }
        }
      }
      let now = Terminal.size()
      if !keys.isEmpty || now != size {
        size = now
        draw(game, next: next, size: size, view: view, message: message)
      }
    }
  }

  private func session(_ level: LoadedLevel, _ progress: GameProgress) -> GameSession {
    GameSession(
      level: level.level, scenario: level.scenario, fixes: level.fixes,
      failedTries: progress.failedTries(level.level.id))
  }

  /// The level after `level` in order, if it loads.
  private func nextLevel(after level: LoadedLevel) -> LoadedLevel? {
    guard let index = files.firstIndex(of: level.level.lesson.file), index + 1 < files.count,
      case .success(let next) = load(files[index + 1])
    else { return nil }
    return next
  }

  private func draw(
    _ game: GameSession, next: LoadedLevel?, size: (width: Int, height: Int),
    view: LessonScreen.View, message: String?
  ) {
    let screen = GameScreen(width: size.width, height: size.height, style: style)
    var lines = screen.render(game, levels: files.count, next: next?.level, view: view)
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
}
