/// Renders a run as one self-contained HTML page: a swimlane per thread, a box per step
/// labelled with its line of Swift and coloured by the context it touched, arrows for the
/// synchronisation that ordered steps, violations marked and explained on hover or click.
///
/// Everything is inline (CSS, SVG and a few lines of script), so the file opens anywhere,
/// with no network.
public struct HTMLTimeline {
  let scenario: Scenario
  let title: String

  static let stepWidth = 150
  static let laneHeight = 76
  static let laneLabel = 110
  static let margin = 10
  static let palette = [
    "#cfe8ff", "#d8f5d0", "#ffe7c2", "#eadcff", "#ffd6e7", "#d6f0ef", "#f4efc4", "#e3e3e3",
  ]

  /// How the page says to replay the run.
  let advice: Advice

  /// A timeline of runs of `scenario`, headed `title` (the scenario's by default).
  public init(scenario: Scenario, title: String? = nil, advice: Advice = .plain) {
    self.scenario = scenario
    self.title = title ?? scenario.title
    self.advice = advice
  }

  /// One box: a step, what it did, and the violations it caused.
  struct Box {
    var step: Int
    var lane: Int
    var site: Site?
    /// The line of Swift the step stands for.
    var swift: String
    var context: String?
    var lines: [String]
    var violations: [Violation]
  }

  /// The whole page for one run, from `<!DOCTYPE html>` to `</html>`.
  public func render(_ trace: Trace) -> String {
    let boxes = self.boxes(trace)
    var contexts: [String] = []
    for box in boxes { if let c = box.context, !contexts.contains(c) { contexts.append(c) } }
    let width = Self.margin + max(1, trace.schedule.threads.count) * Self.stepWidth + 20
    let height = max(1, trace.threads.count) * Self.laneHeight + 30
    // The lane names sit in their own column, so they stay in view while the steps scroll.
    var names =
      ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(Self.laneLabel)" height="\##(height)">"##
    var svg =
      ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(width)" height="\##(height)" role="img" aria-label="timeline">"##
    svg +=
      ##"<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#555"/></marker></defs>"##
    for (lane, name) in trace.threads.enumerated() {
      let band =
        ##"<rect x="0" y="\##(y(lane))" width="\##(width)" height="\##(Self.laneHeight)" fill="\##(lane % 2 == 0 ? "#fafafa" : "#f2f2f2")"/>"##
      svg += band
      names += band
      names +=
        ##"<text x="8" y="\##(y(lane) + Self.laneHeight / 2 + 5)" class="lane">\##(Self.escape(name))</text>"##
    }
    names += "</svg>"
    for step in stride(from: 1, through: trace.schedule.threads.count, by: 1) {
      svg +=
        ##"<text x="\##(x(step) + Self.stepWidth / 2 - 4)" y="14" class="tick">\##(step)</text>"##
    }
    for ordering in trace.orderings {
      guard let from = boxes.first(where: { $0.step == ordering.from }),
        let to = boxes.first(where: { $0.step == ordering.to })
      else { continue }
      let x1 = x(from.step) + Self.stepWidth - 8
      let y1 = y(from.lane) + Self.laneHeight / 2
      let x2 = x(to.step) + 4
      let y2 = y(to.lane) + Self.laneHeight / 2
      svg +=
        ##"<path class="hb" d="M \##(x1) \##(y1) C \##(x1 + 30) \##(y1), \##(x2 - 30) \##(y2), \##(x2) \##(y2)" marker-end="url(#arrow)"><title>step \##(from.step) happens before step \##(to.step)</title></path>"##
    }
    for box in boxes {
      svg += self.box(box, colour: box.context.flatMap { contexts.firstIndex(of: $0) })
    }
    svg += "</svg>"
    return page(trace: trace, names: names, svg: svg, contexts: contexts)
  }

  /// A step's box: its line of Swift, then what it did, or up to two of its violations.
  private func box(_ box: Box, colour index: Int?) -> String {
    let colour = index.map { Self.palette[$0 % Self.palette.count] } ?? "#ffffff"
    let violation = !box.violations.isEmpty
    let details = Self.escape(detailText(box))
    let left = x(box.step) + 10
    let top = y(box.lane)
    var lines: [String]
    if violation {
      lines = box.violations.prefix(2).map { Messages.tag($0) + " " + $0.kind.rawValue }
      if box.violations.count > 2 { lines[1] = "+\(box.violations.count - 1) more" }
    } else {
      lines = Array(box.lines.prefix(1))
    }
    let label = box.swift
    var out =
      ##"<g class="step\##(violation ? " violation" : "")" data-step="\##(box.step)" data-details="\##(details)" tabindex="0">"##
    out +=
      ##"<rect x="\##(x(box.step) + 4)" y="\##(top + 6)" width="\##(Self.stepWidth - 8)" height="\##(Self.laneHeight - 12)" rx="6" fill="\##(colour)"/>"##
    out +=
      ##"<text x="\##(left)" y="\##(top + 24)" class="code">\##(Self.escape(clip(label, 19)))</text>"##
    for (i, line) in lines.enumerated() {
      out +=
        ##"<text x="\##(left)" y="\##(top + 41 + 15 * i)" class="what">\##(Self.escape(clip(line, 21)))</text>"##
    }
    return out + "<title>\(details)</title></g>"
  }

  private func boxes(_ trace: Trace) -> [Box] {
    (0..<trace.schedule.threads.count).map { i in
      let step = i + 1
      let events = trace.events(atStep: step)
      let violations = Array(trace.violations(atStep: step))
      let context =
        events.lazy.compactMap(\.effect.context).first
        ?? violations.lazy.compactMap { v -> String? in
          if case .wrongQueue(let w) = v.detail { w.subject.context } else { nil }
        }.first
      let site = events.first?.site ?? violations.first?.site
      return Box(
        step: step, lane: trace.schedule.threads[i], site: site,
        swift: site.map { trace.swiftLine(atStep: step, of: scenario.allSteps[$0.stepIndex]) }
          ?? "starts a block",
        context: context, lines: events.compactMap { Messages.describe($0.effect, allSteps: true) },
        violations: violations)
    }
  }

  private func detailText(_ box: Box) -> String {
    var lines = ["Step \(box.step)"]
    if let site = box.site {
      let step = scenario.allSteps[site.stepIndex]
      lines.append("thread \(site.thread), queue \(site.queue)")
      lines.append(site.path + (step.label.map { " \"\($0)\"" } ?? ""))
      lines.append(box.swift)
    }
    lines += box.lines
    for v in box.violations {
      lines.append("\(Messages.tag(v)) \(v.kind.rawValue): \(Messages.headline(v))")
      if let crash = Messages.crashLine(v) { lines.append(crash) }
    }
    return lines.joined(separator: "\n")
  }

  private func page(trace: Trace, names: String, svg: String, contexts: [String]) -> String {
    let crash =
      trace.firstCrash.flatMap { v in
        v.termination.map {
          "The real app stops at step \(v.site.step): exit \($0.exitStatus) (\($0.signal))."
        }
      } ?? (trace.violations.isEmpty ? "No violations." : "No violation here crashes the app.")
    let legend = contexts.enumerated().map { i, name in
      ##"<span class="swatch" style="background:\##(Self.palette[i % Self.palette.count])"></span>\##(Self.escape(name))"##
    }.joined(separator: " ")
    let violations = trace.violations.map { v in
      "<li><a href=\"#\" data-step=\"\(v.site.step)\">step \(v.site.step)</a> · \(Self.escape(v.kind.rawValue)) at \(Self.escape(v.site.path)): \(Self.escape(Messages.headline(v)))</li>"
    }.joined()
    return """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <title>\(Self.escape(title)) · ctxsim timeline</title>
      <style>
      body { font: 14px -apple-system, system-ui, sans-serif; margin: 20px; color: #222; }
      h1 { font-size: 20px; margin: 0 0 4px; }
      .meta { color: #555; margin: 2px 0; }
      code, .code { font-family: ui-monospace, Menlo, monospace; }
      .timeline { display: flex; border: 1px solid #ddd; margin: 12px 0; }
      .names { flex: none; border-right: 1px solid #ddd; }
      .scroll { overflow-x: auto; }
      .lane { font: 13px ui-monospace, Menlo, monospace; fill: #333; }
      .tick { font: 10px sans-serif; fill: #888; }
      .code { font-size: 11px; fill: #111; }
      .what { font-size: 10px; fill: #444; }
      .step rect { stroke: #999; stroke-width: 1; cursor: pointer; }
      .step.violation rect { stroke: #d00; stroke-width: 3; }
      .step.violation .what { fill: #b00; font-weight: bold; }
      .step.selected rect { stroke: #06c; stroke-width: 3; }
      .hb { fill: none; stroke: #555; stroke-width: 1.2; stroke-dasharray: 4 3; }
      .swatch { display: inline-block; width: 12px; height: 12px; border: 1px solid #999; margin: 0 4px 0 10px; vertical-align: middle; }
      #details { white-space: pre-wrap; font: 13px ui-monospace, Menlo, monospace; background: #f6f6f6; border: 1px solid #ddd; padding: 10px; min-height: 3em; }
      .violations li { margin: 2px 0; }
      </style>
      </head>
      <body>
      <h1>\(Self.escape(title))</h1>
      <p class="meta">\(Self.escape(scenario.file)) · \(trace.schedule.threads.count) steps · \(trace.violations.count) violation\(trace.violations.count == 1 ? "" : "s") · \(Self.escape(crash))</p>
      <p class="meta">Replay: <code>\(Self.escape(advice.replay(scenario.file, trace.schedule)))</code></p>
      <p class="meta">Contexts: \(legend) · dashed arrows: happens-before, from the step that enqueued work or gave a queue back to the step that then ran</p>
      <div class="timeline"><div class="names">\(names)</div><div class="scroll">\(svg)</div></div>
      <div id="details">Click a step, or hover over it, for what it did.</div>
      <ol class="violations">\(violations)</ol>
      <script>
      const details = document.getElementById('details');
      const steps = Array.from(document.querySelectorAll('.step'));
      function show(g) {
        steps.forEach(s => s.classList.remove('selected'));
        g.classList.add('selected');
        details.textContent = g.dataset.details;
      }
      steps.forEach(g => { g.addEventListener('click', () => show(g)); g.addEventListener('focus', () => show(g)); });
      document.querySelectorAll('.violations a').forEach(a => a.addEventListener('click', e => {
        e.preventDefault();
        const g = document.querySelector('.step[data-step="' + a.dataset.step + '"]');
        if (g) { show(g); g.scrollIntoView({ inline: 'center', block: 'nearest' }); }
      }));
      // Open on the first violation, so the page shows the trouble without scrolling.
      const first = document.querySelector('.step.violation');
      if (first) { show(first); first.scrollIntoView({ inline: 'center', block: 'nearest' }); }
      </script>
      </body>
      </html>

      """
  }

  private func x(_ step: Int) -> Int { Self.margin + (step - 1) * Self.stepWidth }
  private func y(_ lane: Int) -> Int { 20 + lane * Self.laneHeight }

  private func clip(_ text: String, _ length: Int) -> String {
    text.count <= length ? text : String(text.prefix(length - 1)) + "…"
  }

  /// Escaped for the page, line breaks included: details live in attributes.
  static func escape(_ text: String) -> String { Markup.escape(text, newlines: true) }
}
