import ContextSimCore

extension HTMLTimeline {
  /// The page's style sheet, sized for a projector: no text under 14 px, colours strong
  /// enough to tell apart from the back of a room, and nothing wider than the window.
  ///
  /// Violations are red wherever they are drawn; the current step is a black outline of
  /// its own, so a violation that is also the current step is both.
  static var styles: String {
    let colours = palette.enumerated().map { i, colour in ".c\(i) { --fill: \(colour); }" }
    return colours.joined(separator: "\n") + "\n" + css
  }

  private static let css = """
    :root { --names: 9.5rem; --red: #d40000; --ink: #111; --muted: #3d3d3d; --merge: #6a1fc2; }
    * { box-sizing: border-box; }
    body { font: 16px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 20px 24px; color: var(--ink); background: #fff; overflow-wrap: anywhere; }
    h1 { font-size: 26px; margin: 14px 0 4px; }
    h2 { font-size: 20px; margin: 0 0 8px; }
    h3 { font-size: 17px; margin: 16px 0 6px; }
    .meta { margin: 2px 0; color: var(--muted); }
    code, .sw, #code, .lane { font-family: ui-monospace, "SF Mono", Menlo, Consolas, monospace; }
    .swatch { display: inline-block; width: 16px; height: 16px; border: 1px solid #333; margin: 0 4px 0 10px; vertical-align: -2px; background: var(--fill); }
    .key-hb, .key-merge { display: inline-block; width: 34px; vertical-align: middle; border-top: 2px dashed #333; }
    .key-merge { border-top: 4px solid var(--merge); margin-left: 6px; }
    .controls { position: sticky; top: 0; z-index: 5; display: flex; flex-wrap: wrap; align-items: center; gap: 8px; margin: 10px 0; padding: 8px 0; background: #fff; border-bottom: 2px solid #ccc; }
    button { font: inherit; font-size: 16px; padding: 6px 12px; border: 2px solid #333; border-radius: 6px; background: #f2f2f2; color: var(--ink); cursor: pointer; }
    button:disabled { color: #6b6b6b; border-color: #999; cursor: default; }
    #position { font-size: 20px; font-weight: 700; min-width: 12ch; text-align: center; }
    .keys { color: var(--muted); font-size: 15px; }
    #note { color: var(--red); font-weight: 700; }
    #overview { display: grid; grid-template-columns: var(--names) minmax(0, 1fr); column-gap: 12px; margin: 6px 0 10px; }
    #overview .names div { height: 18px; line-height: 18px; font-size: 14px; white-space: nowrap; overflow: hidden; }
    #overview svg { display: block; width: 100%; cursor: pointer; background: #e9e9e9; }
    #overview rect.cell { fill: var(--fill, #9a9a9a); stroke: #fff; stroke-width: 1; vector-effect: non-scaling-stroke; }
    #overview svg.dense rect.cell { stroke: none; shape-rendering: crispEdges; }
    #overview rect.cell.violation { fill: var(--red); }
    #overview rect.cell.merge { fill: var(--merge); }
    #ov-window { fill: none; stroke: #0047a8; stroke-width: 3; vector-effect: non-scaling-stroke; }
    #ov-current { fill: none; stroke: #000; stroke-width: 4; vector-effect: non-scaling-stroke; }
    .ov-ticks { position: relative; height: 20px; font-size: 14px; color: var(--muted); }
    .ov-ticks span { position: absolute; transform: translateX(-50%); white-space: nowrap; }
    #window { position: relative; isolation: isolate; display: grid; column-gap: 28px; row-gap: 18px; padding: 6px 28px 8px 0; border: 1px solid #999; border-radius: 6px; }
    #window .corner, #window .tick { font-size: 14px; text-align: center; color: var(--muted); align-self: end; }
    #window .tick.current { background: #111; color: #fff; border-radius: 4px; font-weight: 700; }
    #window .band { z-index: 0; background: #f1f1f1; margin: -9px 0; }
    #window .lane { z-index: 1; display: flex; align-items: center; padding: 8px 8px; font-size: 15px; font-weight: 700; }
    #window .lane.quiet { padding: 0 8px; font-weight: 400; color: #555; }
    .box { z-index: 1; min-height: 64px; padding: 6px 8px; border: 2px solid #222; border-radius: 6px; background: var(--fill, #fff); font-size: 14px; line-height: 1.3; cursor: pointer; overflow: hidden; }
    .box .sw { display: -webkit-box; -webkit-line-clamp: 3; -webkit-box-orient: vertical; overflow: hidden; font-size: 14px; font-weight: 600; }
    .box .what { display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; overflow: hidden; margin-top: 2px; }
    .box .vtag { color: #a80000; font-weight: 800; margin-top: 2px; }
    .box .cause-line { color: var(--merge); font-weight: 800; margin-top: 2px; }
    .box.violation { border: 4px solid var(--red); background: #ffe1e1; box-shadow: inset 10px 0 0 var(--fill, #ffe1e1); padding-left: 16px; }
    .box.merge { border: 4px dashed var(--merge); }
    .box.skipped { background: #ececec; border-style: dashed; }
    .box.current { outline: 4px solid #000; outline-offset: 3px; }
    .box.cause { outline: 4px dashed var(--merge); outline-offset: 3px; }
    svg.arrows { position: absolute; left: 0; top: 0; pointer-events: none; overflow: visible; }
    svg.under { z-index: 0; }
    svg.over { z-index: 2; }
    path.hb { fill: none; stroke: #333; stroke-width: 2; stroke-dasharray: 6 4; }
    path.merge { fill: none; stroke: var(--merge); stroke-width: 4; }
    .panes { display: grid; grid-template-columns: minmax(0, 1.1fr) minmax(0, 1fr); gap: 20px; margin-top: 18px; align-items: start; }
    @media (max-width: 900px) { .panes { grid-template-columns: minmax(0, 1fr); } }
    .legend-line { margin: 0 0 6px; color: var(--muted); }
    .key-ran { background: #ffd94d; padding: 0 4px; }
    .key-next { color: #0a6b2e; font-weight: 700; }
    #merge-note { margin: 0 0 6px; padding: 6px 10px; border: 2px dashed var(--merge); border-radius: 6px; }
    #code { position: relative; max-height: 75vh; overflow: auto; border: 1px solid #999; border-radius: 6px; font-size: 15px; line-height: 1.45; background: #fcfcfc; }
    .ln { display: grid; grid-template-columns: 10ch 3.5ch minmax(0, 1fr); column-gap: 6px; padding: 1px 6px; }
    .ln .gut { color: #0a6b2e; font-weight: 700; font-size: 14px; text-align: right; }
    .ln .gut span { display: block; }
    .ln .gut span.mover { color: #000; }
    .ln .no { color: #555; text-align: right; font-size: 14px; }
    .ln .src { white-space: pre-wrap; padding-left: calc(var(--d) * 2ch + 2ch); text-indent: -2ch; }
    .ln.ran { background: #ffd94d; }
    .ln.cause { background: #e6d6ff; box-shadow: inset 4px 0 0 var(--merge); }
    .ln.next .src { font-weight: 700; }
    #now-title { margin-bottom: 4px; }
    #now .where { color: var(--muted); }
    #now .swift { display: block; margin: 4px 0; padding: 4px 8px; background: #f3f3f3; border-left: 4px solid #333; white-space: pre-wrap; }
    #now .did::before { content: "→ "; }
    #now .problem { margin: 6px 0; padding: 6px 10px; border: 3px solid var(--red); border-radius: 6px; color: #8f0000; font-weight: 700; }
    #now .problem code, #now .problem div { display: block; font-weight: 400; color: var(--ink); }
    #now .why { margin: 6px 0; padding: 6px 10px; border: 3px dashed var(--merge); border-radius: 6px; }
    #now .why button { margin-left: 6px; font-size: 15px; padding: 2px 8px; }
    .thread { display: grid; grid-template-columns: 1.5ch 9rem minmax(0, 1fr); column-gap: 8px; padding: 2px 0; }
    .thread .name { font-family: ui-monospace, Menlo, Consolas, monospace; font-weight: 700; }
    .thread.mover { background: #fff3b0; }
    .ctx { margin: 6px 0; padding: 6px 10px; border: 2px solid #333; border-left: 14px solid var(--fill, #999); border-radius: 6px; }
    .ctx .head { font-weight: 700; }
    .ctx .head span { font-weight: 400; color: var(--muted); }
    .obj, .row { margin: 4px 0 0; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 15px; }
    .obj .id, .row .id { font-weight: 700; }
    .obj.deleted { text-decoration: line-through; }
    .badge { display: inline-block; margin-left: 6px; padding: 0 6px; border: 1px solid #333; border-radius: 4px; font-family: system-ui, sans-serif; font-size: 14px; }
    .badge.unsaved { background: #ffe27a; border-color: #6b5200; }
    .badge.fault { background: #e4e4e4; }
    .field { display: inline-block; margin-right: 12px; }
    .field .stored { color: #8a3300; }
    .fresh { background: #b9f0b9; box-shadow: 0 0 0 2px #1b7a1b; border-radius: 3px; }
    .none { color: var(--muted); }
    .violations li { margin: 4px 0; }
    .violations .vt { color: #a80000; }
    .crash { margin-left: 1em; color: var(--muted); }
    """
}
