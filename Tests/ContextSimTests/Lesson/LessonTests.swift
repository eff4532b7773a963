import Foundation
import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// The wrong-thread demo, as a lesson would use it: four labelled steps, two traps.
private let wrongThread = """
  {
    "title": "wrong thread",
    "model": {"Note": {"attributes": {"title": "string"}}},
    "store": {"Note": [{"id": "note-1", "title": "Buy milk"}]},
    "contexts": {"background": {"queue": "private"}},
    "main": [
      {"performAndWait": "background", "do": [
        {"fetch": "Note", "in": "background", "first": true, "as": "note", "label": "fetch"}]},
      {"count": "Note", "in": "background", "as": "count", "label": "count-on-main"},
      {"get": "note.title", "as": "title", "label": "read-on-main"}
    ]
  }
  """

/// Two threads that crash only in some interleavings (no ConcurrencyDebug).
private let race = """
  {
    "title": "race",
    "concurrencyDebug": false,
    "model": {"Note": {"attributes": {"title": "string", "isSeen": {"type": "boolean", "default": false}}}},
    "store": {"Note": [{"id": "note-1", "title": "Groceries"}]},
    "main": [
      {"async": "global", "label": "mark-seen", "do": [
        {"fetch": "Note", "in": "viewContext", "as": "notes"},
        {"forEach": "$notes", "as": "note", "do": [{"set": "note.isSeen", "to": true}]},
        {"save": "viewContext", "try": "!"}]},
      {"fetch": "Note", "in": "viewContext", "as": "shown", "label": "load-list"},
      {"print": "the list appears"}
    ]
  }
  """

private func lesson(_ text: String) throws(LessonErrorList) -> Lesson {
  try LessonParser.parse(text, file: "Lessons/99-test.md")
}

private func lessonText(
  header: String = "", steps: String = "### count-on-main\nCounting here traps.\n"
) -> String {
  """
  ---
  scenario: scenarios/test.json
  goal: See the trap.
  \(header)---
  # A test lesson

  An introduction
  over two lines.

  - a list item
  - another

  ## Steps

  \(steps)
  ## Question

  Why?

  ## Answer

  Because.
  """
}

@Suite("Lesson files")
struct LessonParserTests {
  @Test("A lesson's header, title, narration, question and answer are read")
  func parsesEverything() throws {
    let parsed = try lesson(
      lessonText(header: "crash: wrongQueueContext at count-on-main\nschedule: 0x3\n"))
    #expect(parsed.title == "A test lesson")
    #expect(parsed.scenario == "scenarios/test.json")
    #expect(parsed.goal == "See the trap.")
    #expect(parsed.crash == Lesson.CrashGoal(kind: .wrongQueueContext, label: "count-on-main"))
    #expect(parsed.schedule == Schedule(parsing: "0x3"))
    #expect(parsed.narration.map(\.label) == ["count-on-main"])
    #expect(parsed.narration.first?.line == 17)
    #expect(parsed.question == "Why?")
    #expect(parsed.answer == "Because.")
  }

  @Test("Paragraphs are reflowed; list items keep their own lines")
  func reflowsParagraphs() throws {
    let parsed = try lesson(lessonText())
    #expect(parsed.introduction == "An introduction over two lines.\n\n- a list item\n- another")
  }

  @Test("Every problem in a lesson file is reported with its line and a fix")
  func reportsEveryProblem() {
    let text = """
      ---
      scenari: scenarios/test.json
      crash: wrongQueueContxt
      ---
      # Broken
      ## Stepz
      ## Steps
      ### a
      one
      ### a
      two
      """
    #expect(throws: LessonErrorList.self) { try lesson(text) }
    do {
      _ = try lesson(text)
    } catch {
      let messages = error.errors.map(\.description)
      #expect(
        messages.contains {
          $0.hasPrefix("Lessons/99-test.md:2: error: unknown header key \"scenari\"")
            && $0.contains("did you mean \"scenario\"?")
        })
      #expect(
        messages.contains {
          $0.hasPrefix("Lessons/99-test.md:3: error: \"wrongQueueContxt\" is not a violation kind")
            && $0.contains("wrongQueueContext")
        })
      #expect(
        messages.contains { $0.hasPrefix("Lessons/99-test.md:6: error: unknown section \"Stepz\"") }
      )
      #expect(
        messages.contains {
          $0.hasPrefix(
            "Lessons/99-test.md:10: error: \"a\" is narrated twice; first at line 8")
        })
      #expect(messages.contains { $0.contains("the header has no goal:") })
      #expect(messages.contains { $0.contains("the lesson has no question") })
    }
  }

  @Test("A file without a header says how to start one")
  func needsHeader() {
    do {
      _ = try lesson("# Title\n")
      Issue.record("a lesson without a header parsed")
    } catch {
      #expect(
        error.errors.first?.description
          == "Lessons/99-test.md:1: error: the lesson has no header\n  fix: start the file with ---, the scenario: and goal: lines, and ---"
      )
    }
  }
}

@Suite("Lesson checks")
struct LessonCheckTests {
  @Test("A narrated label the scenario lacks is a problem, with the nearest label")
  func unknownLabel() throws {
    let parsed = try lesson(lessonText(steps: "### count-on-mian\nTypo.\n"))
    let problems = LessonCheck.problems(parsed, scenario: try scenario(wrongThread))
    #expect(
      problems.map(\.description) == [
        "Lessons/99-test.md:15: error: no step of scenarios/test.json has the label \"count-on-mian\"\n  fix: did you mean \"count-on-main\"?"
      ])
  }

  @Test("A schedule that does not fit the scenario is a problem")
  func scheduleMismatch() throws {
    let parsed = try lesson(lessonText(header: "schedule: 0,1\n"))
    let problems = LessonCheck.problems(parsed, scenario: try scenario(wrongThread))
    #expect(problems.count == 1)
    #expect(problems.first?.message.contains("thread 1 cannot run at step 2") == true)
  }

  @Test("A crash no interleaving reaches is a problem; one some interleaving reaches is not")
  func crashReachability() throws {
    let unreachable = try lesson(lessonText(header: "crash: faultOnDeletedObject\n"))
    #expect(LessonCheck.problems(unreachable, scenario: try scenario(wrongThread)).count == 1)
    let racy = try lesson(
      lessonText(header: "crash: corruption\n", steps: "### load-list if clean\nThe list loads.\n"))
    #expect(LessonCheck.problems(racy, scenario: try scenario(race)).isEmpty)
  }
}

@Suite("Narration and play goals that follow the run")
struct LessonOutcomeTests {
  @Test("A conditional heading is read with its condition; an unknown one is located")
  func conditionalHeadings() throws {
    let parsed = try lesson(
      lessonText(
        header: "play: survive\n",
        steps: "### load-list if corruption\nCrashed.\n### load-list if clean\nFine.\n"
          + "### load-list\nAnything.\n"))
    #expect(parsed.play == .survive)
    #expect(parsed.narration.map(\.condition) == [.violation(.corruption), .clean, nil])
    #expect(throws: LessonErrorList.self) {
      try lesson(lessonText(steps: "### load-list if corupton\nx\n"))
    }
    do {
      _ = try lesson(lessonText(steps: "### load-list if corupton\nx\n"))
    } catch {
      #expect(error.description.contains("\"corupton\" is not a condition"))
      #expect(error.description.contains("did you mean \"corruption\"?"))
    }
  }

  @Test("play: reach and crash: mean the same; both at once is an error")
  func playHeader() throws {
    let reach = try lesson(lessonText(header: "play: reach corruption at load-list\n"))
    let crash = try lesson(lessonText(header: "crash: corruption at load-list\n"))
    #expect(reach.play == crash.play)
    #expect(reach.crash == Lesson.CrashGoal(kind: .corruption, label: "load-list"))
    #expect(throws: LessonErrorList.self) {
      try lesson(lessonText(header: "play: reach corruption\ncrash: corruption\n"))
    }
    #expect(throws: LessonErrorList.self) { try lesson(lessonText(header: "play: win\n")) }
  }

  @Test("The narration shown is the one whose condition holds for what the step did")
  func narrationFollowsOutcome() throws {
    let parsed = try lesson(
      lessonText(
        steps: "### count-on-main if wrongQueueContext\nIt traps.\n"
          + "### count-on-main if clean\nNothing happens.\n"))
    let step = try scenario(wrongThread).allSteps.first { $0.label == "count-on-main" }!
    var withFlag = ReplayScheduler(Schedule())
    let trapped = simulate(
      try scenario(wrongThread), options: SimulationOptions(concurrencyDebug: true),
      scheduler: &withFlag)
    let trap = Array(trapped.violations.filter { $0.kind == .wrongQueueContext })
    #expect(parsed.narration(for: step, violations: trap) == "It traps.")
    #expect(parsed.narration(for: step, violations: [Violation]()) == "Nothing happens.")
    let onlyTrap = try lesson(
      lessonText(steps: "### count-on-main if wrongQueueContext\nIt traps.\n"))
    #expect(onlyTrap.narration(for: step, violations: [Violation]()) == nil)
  }

  @Test("Plain narration for a step that breaks a rule only in some runs is a problem")
  func narrationMustSayWhich() throws {
    let plain = try lesson(lessonText(steps: "### load-list\nThe app dies here.\n"))
    let found = LessonCheck.problems(plain, scenario: try scenario(race))
    #expect(found.count == 1)
    #expect(found.first?.line == 15)
    #expect(found.first?.message.contains("\"load-list\" breaks a rule in some runs") == true)
    #expect(found.first?.fix.contains("### load-list if corruption") == true)
    let said = try lesson(
      lessonText(
        steps: "### load-list if corruption\nThe app dies here.\n### load-list\nIt loads.\n"))
    #expect(LessonCheck.problems(said, scenario: try scenario(race)).isEmpty)
  }

  @Test("A goal every schedule meets, or one key meets, is a problem: the win needs a choice")
  func winNeedsAChoice() throws {
    let always = try lesson(lessonText(header: "play: reach wrongQueueContext at count-on-main\n"))
    let problems = LessonCheck.problems(always, scenario: try scenario(wrongThread))
    #expect(problems.map(\.message).contains { $0.contains("the learner has no choice to make") })
    let survive = try lesson(
      lessonText(header: "play: survive\n", steps: "### load-list\nThe list loads.\n"))
    let found = LessonCheck.problems(survive, scenario: try scenario(race))
    // Pressing 0 (main) at every choice lets main finish first: the app survives.
    #expect(found.map(\.message).contains { $0.contains("pressing 0 at every choice") })
  }
}

@Suite("Stepping through a lesson")
struct LessonSessionTests {
  private func session(
    _ json: String, header: String = "", steps: String = "### count-on-main\nCounting here traps.\n"
  ) throws -> LessonSession {
    LessonSession(
      lesson: try lesson(lessonText(header: header, steps: steps)), scenario: try scenario(json))
  }

  @Test("Next, back and restart move one step at a time through the same run")
  func nextBackRestart() throws {
    var s = try session(wrongThread)
    #expect(s.position == 0)
    #expect(s.total == 4)
    s.next()
    s.next()
    s.next()
    #expect(s.position == 3)
    #expect(s.lastStep?.label == "count-on-main")
    #expect(s.violationsNow.map(\.kind) == [.wrongQueueContext])
    let eventsAtThree = s.trace.events.count
    s.next()
    s.back()
    #expect(s.position == 3)
    #expect(s.trace.events.count == eventsAtThree)
    #expect(s.violationsNow.map(\.kind) == [.wrongQueueContext])
    s.restart()
    #expect(s.position == 0)
    #expect(s.trace.violations.isEmpty)
    s.back()
    #expect(s.position == 0)
  }

  @Test("Jumping to the next violation lands on each trap in turn, then the end")
  func nextViolation() throws {
    var s = try session(wrongThread)
    s.nextViolation()
    #expect(s.position == 3)
    s.nextViolation()
    #expect(s.position == 4)
    #expect(s.violationsNow.map(\.kind) == [.wrongQueueObject])
    s.nextViolation()
    #expect(s.position == 4)
    #expect(s.isAtEnd)
  }

  @Test("The world shows which context holds which object")
  func worldShowsContexts() throws {
    var s = try session(wrongThread)
    s.next()
    s.next()
    let background = try #require(s.world.contexts.first { $0.name == "background" })
    #expect(background.queue == "background")
    #expect(
      background.objects.map(\.id.description).contains {
        $0.contains("note-1") || $0.contains("p1")
      })
  }

  @Test("As the scheduler, the learner wins by choosing the interleaving that crashes")
  func playWins() throws {
    var s = try session(
      race, header: "crash: corruption\n", steps: "### load-list\nThe list loads.\n")
    s.togglePlaying()
    #expect(s.isPlaying)
    #expect(s.needsChoice)
    // Let the background block start and fetch, then switch to main while it is mid-save.
    let plan = Schedule(parsing: "0x2,1x5,0")!.threads
    while s.needsChoice && s.position < plan.count {
      s.choose(plan[s.position])
    }
    #expect(s.hasWon)
    #expect(!s.needsChoice)
    s.back()
    #expect(!s.hasWon)
    #expect(s.needsChoice)
  }

  @Test("As the scheduler, always choosing main runs the app clean to its end")
  func playWithoutCrash() throws {
    var s = try session(
      race, header: "crash: corruption\n", steps: "### load-list\nThe list loads.\n")
    s.togglePlaying()
    var guardSteps = 0
    while s.needsChoice && guardSteps < 100 {
      s.choose(s.world.runnable.min()!)
      guardSteps += 1
    }
    #expect(!s.hasWon)
    #expect(s.isAtEnd)
    #expect(s.trace.violations.isEmpty)
  }

  @Test("As the scheduler, steps with no choice stop where there is something to read")
  func playStopsAtNarration() throws {
    var s = try session(wrongThread, steps: "### fetch\nFetched on its queue.\n")
    s.togglePlaying()
    #expect(s.position == 2)
    #expect(s.narrationNow == "Fetched on its queue.")
    s.next()
    // The count traps: that stops the run of forced steps too.
    #expect(s.position == 3)
    #expect(s.violationsNow.map(\.kind) == [.wrongQueueContext])
    s.next()
    #expect(s.position == 4)
  }

  @Test("Surviving is lost at the first violation and won at a clean end")
  func playSurvive() throws {
    var s = try session(
      race, header: "play: survive\n", steps: "### load-list\nThe list loads.\n")
    s.togglePlaying()
    var guardSteps = 0
    while !s.isDecided && guardSteps < 100 {
      if s.needsChoice { s.choose(s.world.runnable.min()!) } else { s.next() }
      guardSteps += 1
    }
    #expect(s.hasWon)
    s.restart()
    let plan = Schedule(parsing: "0x2,1x5,0")!.threads
    while !s.isDecided && s.position < plan.count {
      if s.needsChoice { s.choose(plan[s.position]) } else { s.next() }
    }
    #expect(s.hasLost)
    #expect(!s.needsChoice)
  }

  @Test("A thread that cannot run is not chosen")
  func cannotChooseBlockedThread() throws {
    var s = try session(
      race, header: "crash: corruption\n", steps: "### load-list\nThe list loads.\n")
    s.togglePlaying()
    let before = s.position
    s.choose(7)
    #expect(s.position == before)
  }
}

@Suite("The full-screen lesson view")
struct LessonScreenTests {
  /// Every screen a class sees: each step in each pane, help, the question and the answer,
  /// and play mode to its win and after it.
  private func screens(
    width: Int, height: Int, style: LessonScreen.Style, introduction: String = ""
  ) throws -> [[String]] {
    let text = lessonText().replacingOccurrences(
      of: "An introduction\nover two lines.", with: "An introduction.\n\n" + introduction)
    var s = LessonSession(lesson: try lesson(text), scenario: try scenario(wrongThread))
    var out: [[String]] = []
    let screen = LessonScreen(width: width, height: height, style: style)
    for _ in 0...s.total + 2 {
      for pane in LessonScreen.Pane.allCases {
        var view = LessonScreen.View()
        view.pane = pane
        out.append(screen.render(s, view: view))
      }
      s.next()
    }
    var help = LessonScreen.View()
    help.help = true
    out.append(screen.render(s, view: help))
    var racing = LessonSession(
      lesson: try lesson(
        lessonText(header: "play: reach corruption\n", steps: "### load-list\nThe list loads.\n")),
      scenario: try scenario(race))
    racing.togglePlaying()
    out.append(screen.render(racing))
    for t in Schedule(parsing: "0x2,1x5,0")!.threads.dropFirst(racing.position) {
      if racing.needsChoice { racing.choose(t) } else { racing.next() }
      out.append(screen.render(racing))
    }
    racing.next()
    out.append(screen.render(racing))
    return out
  }

  /// Lines as the terminal shows them: without colour codes.
  private func visible(_ line: String) -> String {
    line.replacing(/\u{1B}\[[0-9;]*m/, with: "")
  }

  @Test(
    "Every screen fills the terminal exactly and no line is wider",
    arguments: [(80, 24), (100, 30), (160, 48)])
  func fits(size: (Int, Int)) throws {
    for lines in try screens(
      width: size.0, height: size.1, style: .init(unicode: true, colour: false))
    {
      #expect(lines.count == size.1)
      for line in lines { #expect(line.count <= size.0, "too wide: \(line)") }
    }
  }

  @Test(
    "In colour too, no line is wider than the terminal and the title is always the first line",
    arguments: [(80, 24), (160, 48)])
  func titleStays(size: (Int, Int)) throws {
    for lines in try screens(
      width: size.0, height: size.1, style: .init(unicode: true, colour: true),
      introduction: String(repeating: "A long introduction that goes on. ", count: 60))
    {
      #expect(visible(lines[0]).hasPrefix("Lesson: A test lesson"))
      for line in lines { #expect(visible(line).count <= size.0, "too wide: \(line)") }
    }
  }

  @Test("A long introduction says there is more and scrolls; nothing is cut silently")
  func introductionScrolls() throws {
    let text = lessonText().replacingOccurrences(
      of: "An introduction\nover two lines.",
      with: String(repeating: "Words to read. ", count: 150) + "The last sentence.")
    let s = LessonSession(lesson: try lesson(text), scenario: try scenario(wrongThread))
    let screen = LessonScreen(width: 80, height: 24, style: .init(unicode: true, colour: false))
    let first = screen.render(s).joined(separator: "\n")
    #expect(first.contains("more lines: j scrolls down"))
    #expect(!first.contains("last sentence."))
    var view = LessonScreen.View()
    view.scroll = screen.maximumScroll(s, view: view)
    let last = screen.render(s, view: view).joined(separator: "\n")
    #expect(last.contains("last sentence."))
    #expect(last.contains("k scrolls up"))
  }

  @Test("After the last step, n shows the run's summary and the question, then the answer")
  func ending() throws {
    var s = LessonSession(lesson: try lesson(lessonText()), scenario: try scenario(wrongThread))
    let screen = LessonScreen(width: 80, height: 24, style: .init(unicode: true, colour: false))
    for _ in 0..<s.total { s.next() }
    #expect(s.ending == nil)
    s.next()
    let question = screen.render(s).joined(separator: "\n")
    #expect(question.contains("The run is over. It broke the rules 2 times"))
    #expect(question.contains("Question: Why?"))
    #expect(!question.contains("Because."))
    s.next()
    #expect(screen.render(s).joined(separator: "\n").contains("Answer: Because."))
    s.back()
    #expect(s.ending == .question)
    s.back()
    #expect(s.ending == nil)
    #expect(s.position == s.total)
  }

  @Test("The code pane shows the whole program with each thread's line marked")
  func codePane() throws {
    var s = LessonSession(lesson: try lesson(lessonText()), scenario: try scenario(wrongThread))
    var view = LessonScreen.View()
    view.pane = .code
    let screen = LessonScreen(width: 80, height: 24, style: .init(unicode: true, colour: false))
    s.next()
    s.next()
    let lines = screen.render(s, view: view)
    // Step 2 was the fetch inside performAndWait; main runs the count next.
    #expect(lines.contains { $0.contains("•   let note = try background.fetch(") })
    #expect(lines.contains { $0.contains("0▶ }") || $0.contains("0▶ let count") })
    #expect(lines.contains { $0.contains("background.performAndWait {") })
  }

  @Test("The values pane shows each context's objects and the store's rows")
  func valuesPane() throws {
    var s = LessonSession(lesson: try lesson(lessonText()), scenario: try scenario(wrongThread))
    var view = LessonScreen.View()
    view.pane = .values
    let screen = LessonScreen(width: 80, height: 24, style: .init(unicode: true, colour: false))
    s.next()
    s.next()
    let text = screen.render(s, view: view).joined(separator: "\n")
    #expect(text.contains(" Store"))
    #expect(text.contains("title=\"Buy milk\""))
  }

  @Test("Without colour there are no escape codes; without unicode, only ASCII")
  func plainCharacters() throws {
    for lines in try screens(width: 80, height: 24, style: .init(unicode: false, colour: false)) {
      for line in lines {
        #expect(!line.contains("\u{1B}"))
        let ascii = line.unicodeScalars.allSatisfy { $0.isASCII }
        #expect(ascii, "not ASCII: \(line)")
      }
    }
  }

  @Test("The trap is on screen at the step that causes it, with the queue that owns the context")
  func showsTrap() throws {
    let all = try screens(width: 80, height: 24, style: .init(unicode: true, colour: false))
    // Lines wrap at 80 columns; read the screen as one run of words.
    // Three panes a step: the world pane of step 3 is the tenth screen.
    let atTrap = all[9].joined(separator: " ").split(separator: " ").joined(separator: " ")
    #expect(atTrap.contains("let count = try background.count(for: Note.fetchRequest())"))
    #expect(atTrap.contains("context background (queue background) touched from main"))
    #expect(atTrap.contains("Counting here traps."))
    #expect(!all[6].joined(separator: "\n").contains("touched from main"))
  }
}

@Suite("Happens-before arrows")
struct OrderingTests {
  @Test(
    "A block starts after the step that enqueued it; a waiter after the step that freed the queue")
  func enqueueAndWait() throws {
    let s = try notes(
      """
      [
        {"perform": "background", "do": [
          {"count": "Note", "in": "background"}, {"count": "Note", "in": "background"}]},
        {"performAndWait": "background", "do": [{"count": "Note", "in": "background"}]}
      ]
      """)
    let trace = run(s)
    #expect(trace.schedule.description == "0x2,1x2,0")
    #expect(
      trace.orderings == [Trace.Ordering(from: 1, to: 3), Trace.Ordering(from: 4, to: 5)])
  }
}

@Suite("Wrapping lesson text")
struct WrappingTests {
  @Test("Words wrap at the width; list items hang under their first word; no trailing spaces")
  func wraps() {
    let text = "one two three four\n\n- five six seven eight\n12. nine ten eleven"
    #expect(
      text.wrapped(width: 14, indent: "| ") == [
        "| one two", "| three four", "|", "| - five six", "|   seven", "|   eight",
        "| 12. nine ten",
        "|     eleven",
      ])
  }
}
