import ContextSimCore

/// Renders a run as one self-contained HTML page that plays it step by step: the program
/// with each thread's line marked, the world after each step, a window of swimlanes around
/// the current step, and an overview of the whole run.
///
/// It is the permalink a teacher mails to a class, so everything is inline (styles, script,
/// the run as JSON) and nothing comes from the network. The page is a pure function of the
/// scenario and the trace: the same run gives the same bytes. Scenario text is untrusted:
/// the page's own HTML escapes it, the JSON escapes `<`, `>` and `&`, and the script only
/// ever sets text, never markup.
public struct HTMLTimeline {
  let scenario: Scenario
  let title: String
  /// How the page says to replay the run.
  let advice: Advice

  /// Fill colours of the contexts, in order; strong enough to tell apart on a projector,
  /// light enough for black text (contrast above 7:1).
  static let palette = [
    "#8ec5ff", "#8fdc8f", "#ffc266", "#c7a6ff", "#ff9fc8", "#6fd3cc", "#e8d85c", "#bdbdbd",
  ]

  /// Positions that carry the world's state: past this many steps the page still steps
  /// through the run, without the state panes, so that a runaway run stays a small file.
  static let stateLimit = 5_000

  /// A timeline of runs of `scenario`, headed `title` (the scenario's by default).
  public init(scenario: Scenario, title: String? = nil, advice: Advice = .plain) {
    self.scenario = scenario
    self.title = title ?? scenario.title
    self.advice = advice
  }

  /// The whole page for one run, from `<!DOCTYPE html>` to `</html>`.
  public func render(_ trace: Trace) -> String {
    let listing = ProgramListing(scenario)
    let run = TimelineRun(scenario, trace, listing: listing, stateLimit: Self.stateLimit)
    let steps = trace.schedule.threads.count
    let crash =
      trace.firstCrash.flatMap { v in
        v.termination.map {
          "The real app stops at step \(v.site.step): exit \($0.exitStatus) (\($0.signal))."
        }
      } ?? (trace.violations.isEmpty ? "No violations." : "No violation here crashes the app.")
    let legend = run.contexts.enumerated().map { i, name in
      #"<span class="swatch c\#(i % Self.palette.count)"></span>\#(Self.escape(name))"#
    }.joined(separator: " ")
    let count = "\(trace.violations.count) violation\(trace.violations.count == 1 ? "" : "s")"
    return """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>\(Self.escape(title)) · ctxsim timeline</title>
      <style>
      \(Self.styles)
      </style>
      </head>
      <body>
      <header>
      <h1>\(Self.escape(title))</h1>
      <p class="meta">\(Self.escape(scenario.file)) · \(steps) steps · \(count) · \(Self.escape(crash))</p>
      <p class="meta">Replay: <code>\(Self.escape(advice.replay(scenario.file, trace.schedule)))</code></p>
      <p class="meta">Contexts: \(legend)</p>
      <p class="meta"><span class="key-hb"></span> happens-before: from the step that enqueued a block, or gave a queue back, to the step that then ran · <span class="key-merge"></span> from a save to the merge Core Data made of it</p>
      </header>
      <nav class="controls" aria-label="stepping">
      <button id="first" title="Home">|◀ First</button>
      <button id="back" title="b or ←">◀ Back</button>
      <span id="position" aria-live="polite">Step 0 of \(steps)</span>
      <button id="next" title="n, space or →">Next ▶</button>
      <button id="last" title="End">Last ▶|</button>
      <button id="violation" title="v; shift-v goes back">Next violation</button>
      <button id="zoom-out" title="-: more steps in the window">− Steps</button>
      <button id="zoom-in" title="+: fewer, wider steps">+ Steps</button>
      <span class="keys">keys: n next · b back · v next violation · Home or r first · End last · - + zoom</span>
      <span id="note" aria-live="polite"></span>
      </nav>
      <noscript><p class="meta">This page steps through the run with its script, which is off: the program and the violations are below.</p></noscript>
      <section aria-label="overview of the whole run"><div id="overview"></div></section>
      <section aria-label="the steps around the current one"><div id="window"></div></section>
      <div class="panes">
      <section id="code-pane" aria-label="the program">
      <h2>The program</h2>
      <p class="legend-line"><span class="key-ran">highlighted</span> the step just taken · <span class="key-next">▶ thread</span> the line it runs next</p>
      <p id="merge-note" hidden></p>
      <div id="code">
      \(codeLines(listing))
      </div>
      </section>
      <section id="state-pane" aria-label="the world after this step">
      <h2 id="now-title">Before the first step</h2>
      <div id="now"></div>
      <h3>Threads</h3><div id="threads"></div>
      <h3>Contexts</h3><div id="contexts"></div>
      <h3>Store</h3><div id="store"></div>
      <h3>Shared vars</h3><div id="vars"></div>
      </section>
      </div>
      <section aria-label="violations">
      <h2>Violations</h2>
      \(violationList(run))
      </section>
      <script type="application/json" id="run-data">\(Self.scriptJSON(run.json))</script>
      <script>
      \(Self.script)
      </script>
      </body>
      </html>

      """
  }

  /// The listing, a line per `div`: the script marks them; without it they still read as
  /// the program.
  private func codeLines(_ listing: ProgramListing) -> String {
    listing.lines.enumerated().map { i, line in
      #"<div class="ln" id="L\#(i)"><span class="gut"></span><span class="no">\#(i + 1)</span><span class="src" style="--d:\#(line.depth)">\#(Self.escape(line.text))</span></div>"#
    }.joined(separator: "\n")
  }

  /// Every violation, with its headline, where it happened and the line the real app dies
  /// with; each links to its step.
  private func violationList(_ run: TimelineRun) -> String {
    guard !run.violations.isEmpty else { return #"<p class="meta">None in this run.</p>"# }
    let items = run.violations.map { v in
      var item =
        ##"<li><a href="#step=\##(v.step)" data-step="\##(v.step)">step \##(v.step)</a> · "##
        + #"<b class="vt">\#(Self.escape(v.tag + " " + v.kind))</b> at "#
        + Self.escape(v.place) + ": " + Self.escape(v.headline)
      if let line = v.crash {
        item += #"<div class="crash"><code>\#(Self.escape(line))</code></div>"#
      }
      for detail in v.details {
        item += #"<div class="crash">\#(Self.escape(detail))</div>"#
      }
      return item + "</li>"
    }
    return #"<ol class="violations">"# + items.joined(separator: "\n") + "</ol>"
  }

  /// Escaped for the page, line breaks included, so text is safe in elements and attributes.
  static func escape(_ text: String) -> String { Markup.escape(text, newlines: true) }
}
