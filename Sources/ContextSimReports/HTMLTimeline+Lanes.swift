import ContextSimCore

extension HTMLTimeline {
  /// The part of the page's script that draws the run as lanes: the window of steps around
  /// the current one (zoomed with `-` and `+`), the arrows between its boxes, and the
  /// overview of the whole run. ``script`` includes it; it uses that script's `steps`,
  /// `lanes`, `pos`, `go` and helpers.
  ///
  /// Arrows are routed in the gaps between boxes so that none hides a step: the merge a
  /// save caused (lesson 4's point) stays in view, with its own arrow drawn on top.
  static let lanesScript = #"""
      // The window: a column per step around the current one, a row per thread.
      // Zoom: - shows more steps in the window (narrower boxes), + fewer (wider ones).
      let zoom = 0;
      const widest = width => Math.max(2, Math.floor((width - 160) / 120));
      function columnsFor(width) {
        return Math.max(2, Math.min(n, widest(width), Math.floor((width - 180) / 175) - zoom));
      }
      function zoomBy(step) {
        const width = $('window').clientWidth, before = columnsFor(width);
        zoom += step;
        zoom = Math.max(Math.floor((width - 180) / 175) - widest(width), Math.min(zoom, Math.floor((width - 180) / 175) - 2));
        go(pos, columnsFor(width) === before ? 'The window cannot show ' + (step > 0 ? 'fewer' : 'more') + ' steps.' : '');
      }
      function range(width) {
        if (n === 0) return [1, 0];
        const columns = columnsFor(width);
        let start = pos === 0 ? 1 : pos - Math.floor((columns - 1) / 2);
        start = Math.max(1, Math.min(start, n - columns + 1));
        return [start, Math.min(n, start + columns - 1)];
      }
      function box(number) {
        const step = steps[number - 1];
        let kind = 'box' + colour(step.c);
        if (step.v) kind += ' violation';
        if (step.m) kind += ' merge';
        if (step.k) kind += ' skipped';
        if (number === pos) kind += ' current';
        const b = el('div', kind);
        b.dataset.step = number;
        b.title = describe(number);
        b.append(el('code', 'sw', step.s));
        if (step.m) b.append(el('div', 'cause-line', 'merges the save of step ' + step.m));
        if (step.v) {
          for (const i of step.v.slice(0, 2)) {
            const v = run.violations[i];
            // A kind breaks between its words, not inside them: wrong·Queue·Context.
            b.append(el('div', 'vtag', v.tag + ' ' + v.kind.replace(/([a-z])([A-Z])/g, '$1\u200b$2')));
          }
          if (step.v.length > 2) b.append(el('div', 'vtag', '+' + (step.v.length - 2) + ' more'));
        } else if (step.d.length) {
          b.append(el('div', 'what', step.d[0]));
        }
        b.addEventListener('click', () => go(number));
        return b;
      }
      function drawWindow(start, end) {
        const grid = $('window');
        grid.replaceChildren();
        if (n === 0) { grid.append(el('p', 'none', 'The run took no steps.')); return; }
        grid.style.gridTemplateColumns = 'var(--names) repeat(' + (end - start + 1) + ', minmax(0, 1fr))';
        const busy = new Set();
        for (let s = start; s <= end; s++) busy.add(steps[s - 1].t);
        const place = (e, row, column) => { e.style.gridRow = row; e.style.gridColumn = column; grid.append(e); return e; };
        place(el('div', 'corner', 'step'), 1, 1);
        const ticks = [];
        for (let s = start; s <= end; s++) ticks.push(place(el('div', 'tick' + (s === pos ? ' current' : ''), String(s)), 1, s - start + 2));
        const names = lanes.map((name, lane) => {
          if (lane % 2 === 0) place(el('div', 'band'), lane + 2, '1 / -1');
          const cell = place(el('div', 'lane' + (busy.has(lane) ? '' : ' quiet'), name), lane + 2, 1);
          if (!busy.has(lane)) cell.title = name + ' takes no step from ' + start + ' to ' + end;
          return cell;
        });
        const boxes = {};
        for (let s = start; s <= end; s++) boxes[s] = place(box(s), steps[s - 1].t + 2, s - start + 2);
        const cause = pos > 0 ? steps[pos - 1].m : undefined;
        if (cause && boxes[cause]) boxes[cause].classList.add('cause');
        drawArrows(grid, start, end, ticks, names);
      }
      // Arrows run in the gaps: out of a box's right edge, along the gutter beside the
      // target's lane, into the target's left edge. They never cross a box, so the merge a
      // save caused is never hidden; merge arrows are drawn above everything else.
      function drawArrows(grid, start, end, ticks, names) {
        const style = getComputedStyle(grid);
        const gap = parseFloat(style.columnGap) || 28, rowGap = parseFloat(style.rowGap) || 18;
        const size = { width: grid.scrollWidth, height: grid.scrollHeight };
        const layers = ['under', 'over'].map(layer => {
          const s = svg('svg', { class: 'arrows ' + layer, width: size.width, height: size.height });
          const marker = svg('marker', { id: 'head-' + layer, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 5, markerHeight: 5, orient: 'auto-start-reverse' });
          marker.append(svg('path', { d: 'M0,0 L10,5 L0,10 z', fill: layer === 'over' ? '#6a1fc2' : '#333' }));
          const defs = svg('defs', {});
          defs.append(marker);
          s.append(defs);
          grid.append(s);
          return s;
        });
        const left = s => ticks[s - start].offsetLeft;
        const right = s => left(s) + ticks[s - start].offsetWidth;
        const top = lane => names[lane].offsetTop;
        const bottom = lane => top(lane) + names[lane].offsetHeight;
        const middle = lane => (top(lane) + bottom(lane)) / 2;
        for (const [from, to, merge] of run.arrows) {
          const inFrom = from >= start && from <= end, inTo = to >= start && to <= end;
          if ((!inFrom && !inTo) || from < 1 || to > n) continue;
          const a = steps[from - 1].t, b = steps[to - 1].t;
          const x0 = inFrom ? right(from) : left(start) - gap + 2, y0 = middle(a);
          const x3 = inTo ? left(to) : right(end) + gap - 2, y3 = middle(b);
          let d;
          if (a === b && to === from + 1 && inFrom && inTo) {
            d = 'M' + x0 + ',' + y0 + 'H' + x3;
          } else {
            const x1 = x0 + gap / 3, x2 = x3 - gap / 3;
            let y = a < b ? top(b) - rowGap / 2 : a > b ? bottom(b) + rowGap / 2 : top(b) - rowGap / 2;
            if (merge) y += a < b ? -2 : 2;
            d = 'M' + x0 + ',' + y0 + 'H' + x1 + 'V' + y + 'H' + x2 + 'V' + y3 + 'H' + x3;
          }
          const layer = merge ? 1 : 0;
          const path = svg('path', { d: d, class: merge ? 'merge' : 'hb', 'marker-end': 'url(#head-' + (merge ? 'over' : 'under') + ')' });
          path.dataset.from = from;
          path.dataset.to = to;
          layers[layer].append(path);
        }
      }

      // The overview: every step of the run in its lane, drawn once; the window and the
      // current step are marked on it as the position moves.
      const overview = { window: null, current: null };
      function drawOverview() {
        const host = $('overview');
        if (n === 0) return;
        const names = el('div', 'names');
        for (const name of lanes) { const d = el('div', '', name); d.title = name; names.append(d); }
        const column = el('div', '');
        const cells = svg('svg', { viewBox: '0 0 ' + n + ' ' + lanes.length, preserveAspectRatio: 'none', height: lanes.length * 18, role: 'img', 'aria-label': 'every step of the run; click to go there' });
        steps.forEach((step, i) => {
          let kind = 'cell' + colour(step.c);
          if (step.v) kind += ' violation';
          else if (step.m) kind += ' merge';
          const r = svg('rect', { x: i, y: step.t, width: 1, height: 1, class: kind });
          r.append(svg('title', {}));
          r.firstChild.textContent = 'step ' + (i + 1) + ': ' + step.s;
          cells.append(r);
        });
        // Thousands of steps leave under a pixel a step: no gaps between cells then.
        if (host.clientWidth < n * 6) cells.classList.add('dense');
        overview.window = svg('rect', { id: 'ov-window', y: 0, height: lanes.length });
        overview.current = svg('rect', { id: 'ov-current', y: 0, height: lanes.length, width: 1 });
        cells.append(overview.window, overview.current);
        cells.addEventListener('click', e => {
          const box = cells.getBoundingClientRect();
          go(Math.floor((e.clientX - box.left) / box.width * n) + 1);
        });
        const ticks = el('div', 'ov-ticks');
        const every = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000].find(k => n / k <= 12) || Math.ceil(n / 12);
        for (let s = 1; s <= n; s += (s === 1 && every > 1 ? every - 1 : every)) {
          const t = el('span', '', String(s));
          const at = (s - 0.5) / n;
          t.style.left = (at * 100) + '%';
          if (at > 0.9) t.style.transform = 'translateX(-100%)';
          ticks.append(t);
        }
        column.append(cells, ticks);
        host.append(names, column);
      }
      function markOverview(start, end) {
        if (!overview.window) return;
        overview.window.setAttribute('x', start - 1);
        overview.window.setAttribute('width', Math.max(0, end - start + 1));
        overview.current.setAttribute('x', Math.max(0, pos - 1));
        overview.current.style.display = pos === 0 ? 'none' : '';
      }

    """#
}
