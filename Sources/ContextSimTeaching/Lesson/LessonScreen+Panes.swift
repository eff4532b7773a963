import ContextSimCore
import ContextSimReports

/// The panes under the step: what the world looks like after it.
extension LessonScreen {
  /// The chosen pane in `room` lines; from 120 columns, the code on the left and the chosen
  /// other pane (threads and contexts when the code is chosen) on the right.
  func pane(_ session: LessonSession, _ pane: Pane, room: Int) -> [String] {
    guard room > 1 else { return [] }
    let tabs = self.tabs(pane)
    if width >= 120 {
      let half = width / 2
      let left = code(session, room: room - 1, width: half - 1)
      let other = pane == .code ? Pane.world : pane
      let right = content(session, other, room: room - 1, width: width - half)
      return [tabs] + sideBySide(left, right, half: half)
    }
    return [tabs] + content(session, pane, room: room - 1, width: width)
  }

  /// ` [Threads & contexts]  Code  Values   c: next pane`
  private func tabs(_ selected: Pane) -> String {
    let names: [(Pane, String)] = [
      (.world, "Threads & contexts"), (.code, "Code"), (.values, "Values"),
    ]
    let shown = names.map { pane, name in
      pane == selected ? bold("[\(name)]") : " \(name) "
    }
    return fit(" " + shown.joined(separator: " ") + "   c: next pane")
  }

  private func content(_ session: LessonSession, _ pane: Pane, room: Int, width: Int) -> [String] {
    switch pane {
    case .world:
      return block(
        lanes(session, width: width) + [""] + contexts(session, width: width), room: room,
        what: "lines")
    case .code: return code(session, room: room, width: width)
    case .values: return block(values(session, width: width), room: room, what: "lines")
    }
  }

  /// One lane per thread: where it is, what it holds.
  private func lanes(_ session: LessonSession, width: Int) -> [String] {
    var out = [bold(" Threads")]
    let lastThread = session.position > 0 ? session.trace.schedule.threads.last : nil
    for thread in session.world.threads {
      let marker = thread.number == lastThread ? (style.unicode ? "▶" : ">") : " "
      let choosable = session.needsChoice && session.world.runnable.contains(thread.number)
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
      out.append(clip("\(marker)\(number)\(pad(thread.name, 11)) \(holds)\(status)", width))
    }
    return out
  }

  /// One line per context: its queue, its objects, its unsaved changes.
  private func contexts(_ session: LessonSession, width: Int) -> [String] {
    var out = [bold(" Contexts")]
    for context in session.world.contexts {
      let parent = context.parent.map { ", child of \($0)" } ?? ""
      let objects = context.objects.filter { !$0.isDeleted }.map { object in
        "\(object.id)" + (object.hasChanges ? "*" : "") + (object.isFault ? "(fault)" : "")
      }
      let list = objects.isEmpty ? "no objects" : objects.joined(separator: ", ")
      out.append(
        clip(
          "  \(pad(context.name, 12)) queue \(context.queue)\(parent) \(dot) \(context.unsavedChanges) unsaved \(dot) \(list)",
          width))
    }
    return out
  }

  /// The program, scrolled to the step just taken: each thread's number beside the line it
  /// runs next, the step just taken in bold with a dot.
  func code(_ session: LessonSession, room: Int, width: Int) -> [String] {
    let listing = session.listing
    guard room > 0, !listing.lines.isEmpty else { return [] }
    var threadsAt: [Int: [Int]] = [:]
    for thread in session.world.threads {
      if let step = thread.at, let line = listing.line(ofStep: step) {
        threadsAt[line, default: []].append(thread.number)
      }
    }
    var taken: Set<Int> = []
    if let step = session.lastStep, let first = listing.line(ofStep: step.index) {
      var i = first
      while i < listing.lines.count && listing.lines[i].step == step.index {
        taken.insert(i)
        i += 1
      }
    }
    let focus = taken.min() ?? threadsAt.keys.min() ?? 0
    let all = listing.lines.indices
    guard all.count > room else {
      return all.map { codeLine($0, listing, threadsAt, taken, width) }
    }
    let visible = max(1, room - 2)
    let start = max(0, min(focus - visible / 3, all.count - visible))
    let end = min(all.count, start + visible)
    let above = start > 0 ? " \(ellipsis) \(start) line\(start == 1 ? "" : "s") above" : ""
    let below =
      end < all.count
      ? " \(ellipsis) \(all.count - end) line\(all.count - end == 1 ? "" : "s") below" : ""
    return [above] + (start..<end).map { codeLine($0, listing, threadsAt, taken, width) } + [below]
  }

  private func codeLine(
    _ i: Int, _ listing: ProgramListing, _ threadsAt: [Int: [Int]], _ taken: Set<Int>,
    _ width: Int
  ) -> String {
    let line = listing.lines[i]
    // Up to two threads by number; more are the first and a +, so the code stays aligned.
    let at = threadsAt[i] ?? []
    let numbers =
      at.count > 2 ? "\(at[0])+" : at.map(String.init).joined(separator: ",")
    let mark =
      !numbers.isEmpty
      ? numbers + (style.unicode ? "▶" : ">")
      : taken.contains(i) ? (style.unicode ? "•" : "*") : ""
    let gutter = String(repeating: " ", count: max(0, 5 - mark.count)) + mark + " "
    let text = gutter + String(repeating: "  ", count: line.depth) + line.text
    return taken.contains(i) ? bold(clip(text, width)) : clip(text, width)
  }

  /// Each context's objects with their values, then the store's rows.
  private func values(_ session: LessonSession, width: Int) -> [String] {
    var out: [String] = []
    func fields(_ values: [WorldSnapshot.Field]) -> String {
      values.map { "\($0.key)=\($0.value)" }.joined(separator: "  ")
    }
    for context in session.world.contexts {
      out.append(bold(" \(context.name)") + " (queue \(context.queue))")
      let objects = context.objects.filter { !$0.isDeleted }
      if objects.isEmpty { out.append("   no objects") }
      for object in objects {
        let id = pad("\(object.id)" + (object.hasChanges ? "*" : ""), 11)
        out.append(
          clip("   \(id) " + (object.isFault ? "fault: not loaded" : fields(object.values)), width))
      }
    }
    out.append(bold(" Store"))
    if session.world.store.isEmpty { out.append("   no rows") }
    for row in session.world.store {
      out.append(clip("   \(pad("\(row.id)", 11)) " + fields(row.values), width))
    }
    return out
  }

  private func sideBySide(_ left: [String], _ right: [String], half: Int) -> [String] {
    (0..<max(left.count, right.count)).map { i in
      let l = i < left.count ? clip(left[i], half - 1) : ""
      let r = i < right.count ? right[i] : ""
      return l + String(repeating: " ", count: max(1, half - visible(l))) + clip(r, width - half)
    }
  }
}
