import ContextSimCore
import ContextSimReports

/// Draws a level of `ctxsim game` as a full screen of text: the briefing, the learner's run
/// as ``LessonScreen`` draws it with the level's goal, tries and latest hint beneath, the
/// candidate fixes, a counterexample being replayed, or the win with its debrief.
///
/// A pure function of the session and the screen's size, as ``LessonScreen`` is. Every
/// screen starts with the level's title line and ends with the keys, whatever the size
/// (from 40×12), so the learner always sees where they are and what they can press.
public struct GameScreen {
  let width: Int
  let height: Int
  let style: LessonScreen.Style
  private let text: ScreenText

  /// A screen of `width` columns and `height` rows, at least 40 by 12.
  public init(width: Int, height: Int, style: LessonScreen.Style) {
    self.width = max(40, width)
    self.height = max(12, height)
    self.style = style
    text = ScreenText(width: self.width, style: style)
  }

  /// The screen as exactly `height` lines.
  ///
  /// - Parameters:
  ///   - levels: how many levels the game has, for the title line.
  ///   - next: the level after this one, which the win screen offers; nil after the last.
  ///   - view: the key help instead of the level, or the pane and scrolling of the run,
  ///     as ``LessonScreen`` takes them.
  public func render(
    _ game: GameSession, levels: Int, next: Level? = nil, view: LessonScreen.View = .init()
  ) -> [String] {
    let top = [title(game, levels: levels), text.rule]
    if view.help {
      return text.frame(
        top: top, body: help.map { text.fit($0) }, bottom: [text.rule, keyLine(game)],
        height: height)
    }
    switch game.state {
    case .briefing:
      return briefing(game, top: top)
    case .playing, .counterexample:
      return withRun(game, top: top, view: view)
    case .choosingFix, .undecided:
      return candidates(game, top: top)
    case .won(let win):
      return won(game, win, top: top, next: next)
    }
  }

  // MARK: The parts

  /// `Level 3 of 6: Title`, and on the right the failed tries and where the learner is,
  /// shortened on a narrow screen so that the title keeps most of its room.
  private func title(_ game: GameSession, levels: Int) -> String {
    let left = text.bold("Level \(game.level.number) of \(levels): \(game.level.lesson.title)")
    let step = "step \(game.run?.position ?? 0)"
    var parts: [String]
    switch game.state {
    case .won: parts = [text.green("\(text.tick) won")]
    case .playing: parts = ["you are the scheduler", step]
    case .counterexample: parts = ["counterexample", step]
    default: parts = []
    }
    if game.failedTries > 0 {
      parts.insert("\(game.failedTries) failed \(game.failedTries == 1 ? "try" : "tries")", at: 0)
    }
    // Drop the least useful parts first until the title keeps at least half the width.
    while !parts.isEmpty && parts.map(text.visible).reduce(3 * (parts.count - 1), +) > width / 2 {
      parts.remove(at: parts.count > 1 ? parts.count - 2 : 0)
    }
    return text.fit(left, right: parts.joined(separator: " \(text.dot) "))
  }

  private func briefing(_ game: GameSession, top: [String]) -> [String] {
    let bottom = hintLines(game) + [text.rule, keyLine(game)]
    let goal = text.wrap("Goal: \(game.level.instruction)").map(text.bold)
    let room = height - top.count - bottom.count - goal.count - 1
    let intro = text.wrap(game.level.lesson.introduction, limit: max(1, room))
    return text.frame(top: top, body: intro + [""] + goal, bottom: bottom, height: height)
  }

  /// ``LessonScreen``'s drawing of the run, under the level's own title line and over the
  /// level's own footer, which take the place of its title, play line and keys.
  private func withRun(_ game: GameSession, top: [String], view: LessonScreen.View) -> [String] {
    guard let run = game.run else {
      return text.frame(top: top, body: [], bottom: [], height: height)
    }
    let bottom = footer(game, run)
    var view = view
    view.help = false
    view.playLine = false
    // LessonScreen's title is its first line and its keys its last: the rest is the run.
    var lines = LessonScreen(width: width, height: max(12, height - bottom.count + 1), style: style)
      .render(run, view: view)
    lines.removeLast()
    let body = Array(lines.dropFirst(top.count))
    return text.frame(top: top, body: body, bottom: bottom, height: height)
  }

  private func footer(_ game: GameSession, _ run: LessonSession) -> [String] {
    var lines: [String] = []
    if case .counterexample(let fix) = game.state {
      let found = game.counterexampleTrace.flatMap(\.violations.first).map {
        " \($0.kind.rawValue) at step \($0.site.step)"
      }
      lines.append(
        text.fit(
          text.red(" \(text.cross) Fix \(fix + 1) breaks in this interleaving:\(found ?? "")."),
          right: "schedule \(run.schedule)"))
      lines.append(text.fit(" Press n to step through it, then another fix's number."))
    } else if run.hasLost {
      lines += text.wrap(lossReason(game, run), limit: 2).map(text.red)
      lines.append(text.fit(" Press r to try again, or b to go back to your last choice."))
    } else if run.needsChoice {
      let names = run.world.runnable.map { "\($0) \(run.world.threads[$0].name)" }
      lines.append(text.fit(" Who runs next? Press \(names.joined(separator: ", ")).", right: ""))
      lines.append(text.fit(" Goal: \(game.level.instruction)"))
    } else {
      lines.append(text.fit(" Press n to go on."))
      lines.append(text.fit(" Goal: \(game.level.instruction)"))
    }
    return lines + hintLines(game) + [keyLine(game)]
  }

  private func lossReason(_ game: GameSession, _ run: LessonSession) -> String {
    let lost = "\(text.cross) Lost:"
    if case .play(.survive) = game.level.goal, let v = run.trace.violations.first {
      return "\(lost) \(v.kind.rawValue) at step \(v.site.step): \(v.headline)"
    }
    guard case .play(.reach(let goal)) = game.level.goal else { return lost }
    return "\(lost) the app ran to its end and never reached \(goal)."
  }

  private func candidates(_ game: GameSession, top: [String]) -> [String] {
    var list = text.wrap("Which fix holds in every interleaving? Press its number.").map(text.bold)
    for (index, fix) in game.candidates.enumerated() {
      var line = "\(index + 1). \(fix.description)"
      if let trace = game.verdicts[index]?.counterexample?.trace {
        let kinds = Set(trace.violations.map(\.kind.rawValue)).sorted().joined(separator: ", ")
        line += " [\(text.cross) breaks: \(kinds)]"
      } else if case .incomplete? = game.verdicts[index]?.verdict {
        line += " [not decided]"
      }
      list += text.wrap(line, indent: "  ")
    }
    if case .undecided(let fix) = game.state, let ran = game.verdicts[fix]?.schedulesRun {
      list +=
        [""]
        + text.wrap(
          "Fix \(fix + 1): the search stopped after \(ran) schedules, before it covered every "
            + "interleaving. None of those broke a rule, but that proves nothing, so the level "
            + "is not won. Pick another fix, or raise the budget.", limit: 4
        ).map(text.yellow)
    }
    let bottom = hintLines(game) + [text.rule, keyLine(game)]
    let room = height - top.count - bottom.count - list.count - 1
    let intro = text.wrap(game.level.lesson.introduction, limit: max(0, room))
    let body = (intro.isEmpty ? [] : intro + [""]) + list
    return text.frame(top: top, body: body, bottom: bottom, height: height)
  }

  private func won(_ game: GameSession, _ win: GameSession.Win, top: [String], next: Level?)
    -> [String]
  {
    var lines: [String] = []
    switch win {
    case .reached(let v, let schedule):
      lines += text.wrap(
        "\(text.tick) Level complete: \(v.kind.rawValue) at step \(v.site.step), on your schedule.",
        limit: 2
      ).map(text.green)
      lines += text.wrap("\(Messages.tag(v)) \(v.headline)", indent: "   ", limit: 2)
      lines += text.wrap("Your schedule: \(schedule)", indent: "   ", limit: 1)
    case .survived(let schedule):
      lines += text.wrap(
        "\(text.tick) Level complete: the app got to its end with no violation.", limit: 2
      ).map(text.green)
      lines += text.wrap("Your schedule: \(schedule)", indent: "   ", limit: 1)
    case .proven(let fix, let interleavings):
      lines += text.wrap(
        "\(text.tick) Level complete: fix \(fix + 1) holds. It is clean in every one of "
          + "\(interleavings) interleavings: the search covered them all.", limit: 3
      ).map(text.green)
      lines += text.wrap(game.candidates[fix].description, indent: "   ", limit: 2)
    }
    let offer =
      next.map { "Enter: level \($0.number), \($0.lesson.title)" }
      ?? "That was the last level: well done."
    let bottom = [text.rule, text.fit(" " + text.bold(offer)), keyLine(game)]
    let room = height - top.count - bottom.count - lines.count - 1
    let debrief = text.wrap(game.level.lesson.answer, limit: max(0, room))
    return text.frame(top: top, body: lines + [""] + debrief, bottom: bottom, height: height)
  }

  /// The latest hint revealed, with how many there are, on at most two lines.
  private func hintLines(_ game: GameSession) -> [String] {
    guard let hint = game.hints.last else { return [] }
    let count = "Hint \(game.hints.count) of \(game.level.lesson.hints.count): "
    return text.wrap(count + hint, limit: 2).map(text.yellow)
  }

  /// The keys line, cut to the width; not dimmed, so that a projector shows it.
  private func keyLine(_ game: GameSession) -> String { text.fit(keys(game)) }

  /// The keys that do something in the session's state.
  func keys(_ game: GameSession) -> String {
    let fixes = "1-\(game.candidates.count) pick a fix"
    switch game.state {
    case .briefing: return "Enter start  h help  q quit"
    case .playing: return "0-9 run a thread  n next  b back  r retry  c pane  h help  q quit"
    case .choosingFix, .undecided: return "\(fixes)  h help  q quit"
    case .counterexample: return "n/b step  v violation  c pane  \(fixes)  h help  q quit"
    case .won(.proven): return "Enter next level  b the fixes  q quit"
    case .won: return "Enter next level  b back  r play again  q quit"
    }
  }

  private var help: [String] {
    [
      " Enter, space, n    start the level; take a step with no choice; after a win,",
      "                    the next level",
      " 0-9                the thread that runs next (its number on the thread's lane)",
      " 1-9                in a level of fixes, the fix to explore in all interleavings",
      " b, left arrow      back to your last choice",
      " r                  try again from the start",
      " v                  in a counterexample, jump to the next violation",
      " c                  next pane: threads and contexts, code, values",
      " j, k, page down/up scroll the narration",
      " h, ?               show or hide this help",
      " q, Ctrl-C          quit; progress is kept",
    ]
  }
}
