import ContextSimCore

extension HTMLTimeline {
  /// The page's script: steps through the run embedded as `#run-data`, drawing the window
  /// of swimlanes, the overview, the program's marked lines and the state panes for the
  /// current position (0 is before the first step).
  ///
  /// Keys: `n`, space or → next; `b` or ← back; `v` next violation, shift-`v` the one
  /// before; Home or `r` (as the stepper restarts) first; End last; `-` and `+` show more
  /// or fewer steps in the window. The position is kept in the address (`#step=12`), so a
  /// link can open the page at a step. Text from the scenario is only ever set with
  /// `textContent`, never parsed as markup.
  static let script = #"""
    (() => {
      'use strict';
      const run = JSON.parse(document.getElementById('run-data').textContent);
      const steps = run.steps, lanes = run.lanes, n = steps.length;
      const palette = \#(palette.count);
      // Each position's state from the deltas: a missing section, or a 0 entry, is as before.
      const states = [];
      for (const delta of run.states) {
        const prev = states[states.length - 1];
        const state = {};
        for (const key of ['t', 'c']) {
          const entries = delta[key];
          state[key] = entries === undefined ? prev[key]
            : entries.map((e, i) => (e === 0 ? prev[key][i] : e));
        }
        for (const key of ['s', 'v']) state[key] = delta[key] === undefined ? prev[key] : delta[key];
        states.push(state);
      }
      const violationSteps = [...new Set(run.violations.map(v => v.step))]
        .filter(s => s >= 1 && s <= n).sort((a, b) => a - b);

      const $ = id => document.getElementById(id);
      function el(tag, className, text) {
        const e = document.createElement(tag);
        if (className) e.className = className;
        if (text !== undefined) e.textContent = text;
        return e;
      }
      function svg(tag, attributes) {
        const e = document.createElementNS('http://www.w3.org/2000/svg', tag);
        for (const key in attributes) e.setAttribute(key, attributes[key]);
        return e;
      }
      const colour = c => (c === undefined ? '' : ' c' + (c % palette));

      let pos = 0;
      function fromHash() {
        const m = /^#step=(\d+)$/.exec(location.hash);
        return m ? Math.min(n, Number(m[1])) : null;
      }
      function go(p, note) {
        pos = Math.max(0, Math.min(n, p));
        $('note').textContent = note || '';
        draw();
      }
      const next = () => go(pos + 1);
      const back = () => go(pos - 1);
      const first = () => go(0);
      const last = () => go(n);
      function nextViolation() {
        const s = violationSteps.find(s => s > pos);
        if (s === undefined) go(pos, violationSteps.length ? 'No violation after this step.' : 'No violations in this run.');
        else go(s);
      }
      function previousViolation() {
        const s = [...violationSteps].reverse().find(s => s < pos);
        if (s === undefined) go(pos, 'No violation before this step.');
        else go(s);
      }

      // A step as one text: what a box's tooltip says in full.
      function describe(number) {
        const step = steps[number - 1];
        const lines = ['Step ' + number + ' · ' + lanes[step.t] + (step.q ? ' on ' + step.q : ''), step.s];
        if (step.why) lines.push(step.why);
        for (const d of step.d) lines.push('→ ' + d);
        for (const i of step.v || []) {
          const v = run.violations[i];
          lines.push(v.tag + ' ' + v.kind + ': ' + v.headline);
          if (v.crash) lines.push(v.crash);
        }
        return lines.join('\n');
      }

    \#(lanesScript)
      // The program: the step just taken highlighted, each thread's next line marked.
      const code = $('code');
      const codeLines = Array.from(code.querySelectorAll('.ln'));
      function drawCode() {
        for (const line of codeLines) {
          line.classList.remove('ran', 'cause', 'next');
          line.firstChild.replaceChildren();
        }
        const step = pos > 0 ? steps[pos - 1] : null;
        const note = $('merge-note');
        note.hidden = !(step && step.m);
        if (step && step.m) note.textContent = step.s + ' is Core Data\'s own call, not a line of the app: it takes in the save marked below (step ' + step.m + ').';
        let target = null;
        for (const i of step ? step.l : []) {
          if (!codeLines[i]) continue;
          codeLines[i].classList.add(step.m ? 'cause' : 'ran');
          target = target || codeLines[i];
        }
        const state = states[pos];
        if (state) {
          state.t.forEach((thread, t) => {
            const line = thread[0] === null ? null : codeLines[thread[0]];
            if (!line) return;
            line.classList.add('next');
            line.firstChild.append(el('span', step && step.t === t ? 'mover' : '', '▶ ' + lanes[t]));
            if (!target && step && step.t === t) target = line;
          });
        }
        if (target && (target.offsetTop < code.scrollTop || target.offsetTop + target.offsetHeight > code.scrollTop + code.clientHeight)) {
          code.scrollTop = Math.max(0, target.offsetTop - code.clientHeight / 3);
        }
      }

      // The step just taken, in full.
      function drawNow() {
        const now = $('now');
        now.replaceChildren();
        if (pos === 0) {
          $('now-title').textContent = 'Before the first step';
          now.append(el('p', '', n ? 'Press n (or →) to take step 1.' : 'The run took no steps.'));
          return;
        }
        const step = steps[pos - 1];
        $('now-title').textContent = 'Step ' + pos + ' · ' + lanes[step.t] + (step.q ? ' on queue ' + step.q : '');
        if (step.at) now.append(el('div', 'where', step.at));
        now.append(el('code', 'swift', step.s));
        if (step.why) {
          const why = el('div', 'why', step.why);
          if (step.m) {
            const button = el('button', '', 'Go to step ' + step.m);
            button.addEventListener('click', () => go(step.m));
            why.append(button);
          }
          now.append(why);
        }
        for (const d of step.d) now.append(el('div', 'did', d));
        for (const i of step.v || []) {
          const v = run.violations[i];
          const problem = el('div', 'problem', v.tag + ' ' + v.kind + ': ' + v.headline);
          if (v.crash) problem.append(el('code', '', v.crash));
          for (const d of v.details || []) problem.append(el('div', '', d));
          problem.append(el('div', '', 'at ' + v.at));
          now.append(problem);
        }
        if (step.note) now.append(el('p', 'where', step.note));
      }

      // The world after the step: what changed in it is marked fresh.
      function fields(list, before) {
        const out = el('span', '');
        for (const [key, value, stored] of list) {
          const f = el('span', 'field', key + ' = ' + value);
          if (stored !== undefined) f.append(el('span', 'stored', ' (store: ' + stored + ')'));
          if (before && before.get(key) !== value) f.classList.add('fresh');
          out.append(f, document.createTextNode(' '));
        }
        return out;
      }
      const byKey = list => new Map(list.map(([key, value]) => [key, value]));
      function drawState() {
        const state = states[pos], previous = pos > 0 ? states[pos - 1] : null;
        for (const id of ['threads', 'contexts', 'store', 'vars']) $(id).replaceChildren();
        if (!state) {
          $('threads').append(el('p', 'none', 'The page keeps the state of the first ' + (states.length - 1) + ' steps only.'));
          return;
        }
        const mover = pos > 0 ? steps[pos - 1].t : -1;
        state.t.forEach(([line, status, holds], t) => {
          const row = el('div', 'thread' + (t === mover ? ' mover' : ''));
          row.append(el('span', '', t === mover ? '▶' : ''), el('span', 'name', lanes[t]),
            el('span', '', (holds.length ? 'on ' + holds.join(', ') + ' · ' : '') + status));
          $('threads').append(row);
        });
        state.c.forEach((context, c) => {
          const was = previous && previous.c[c];
          const card = el('div', 'ctx' + colour(run.contexts.indexOf(context.n)));
          const head = el('div', 'head', context.n);
          head.append(el('span', '', ' · queue ' + context.q + ' · ' + (context.p ? 'child of ' + context.p : 'parent: the store')));
          if (context.u) head.append(el('span', 'badge unsaved', context.u + ' unsaved'));
          card.append(head);
          if (!context.o.length) card.append(el('div', 'none', 'no objects'));
          for (const [id, flags, list] of context.o) {
            const before = was ? was.o.find(o => o[0] === id) : null;
            const object = el('div', 'obj' + (flags.includes('d') ? ' deleted' : ''));
            const name = el('span', 'id' + (previous && !before ? ' fresh' : ''), id);
            object.append(name);
            if (flags.includes('c')) object.append(el('span', 'badge unsaved', 'unsaved changes'));
            if (flags.includes('f')) object.append(el('span', 'badge fault', 'fault'));
            if (flags.includes('d')) object.append(el('span', 'badge', 'deleted'));
            object.append(document.createTextNode(' '), fields(list, previous && before ? byKey(before[2]) : null));
            card.append(object);
          }
          $('contexts').append(card);
        });
        if (!state.s.length) $('store').append(el('div', 'none', 'no rows'));
        for (const [id, list] of state.s) {
          const before = previous ? previous.s.find(r => r[0] === id) : null;
          const row = el('div', 'row');
          row.append(el('span', 'id' + (previous && !before ? ' fresh' : ''), id), document.createTextNode(' '),
            fields(list, previous && before ? byKey(before[1]) : null));
          $('store').append(row);
        }
        if (!state.v.length) $('vars').append(el('div', 'none', 'none'));
        const varsBefore = previous ? byKey(previous.v) : null;
        for (const [name, value] of state.v) {
          const row = el('div', 'row', 'self.' + name + ' = ' + value);
          if (varsBefore && varsBefore.get(name) !== value) row.classList.add('fresh');
          $('vars').append(row);
        }
      }

      function draw() {
        const [start, end] = range($('window').clientWidth);
        $('position').textContent = pos === 0 ? 'Before step 1 of ' + n : 'Step ' + pos + ' of ' + n;
        $('first').disabled = $('back').disabled = pos === 0;
        $('next').disabled = $('last').disabled = pos === n;
        $('violation').disabled = !violationSteps.some(s => s > pos);
        drawWindow(start, end);
        markOverview(start, end);
        drawCode();
        drawNow();
        drawState();
        if (location.hash !== '#step=' + pos) {
          try { history.replaceState(null, '', '#step=' + pos); } catch (e) { /* a sandboxed page */ }
        }
      }

      const keys = { n: next, ' ': next, ArrowRight: next, b: back, ArrowLeft: back, v: nextViolation, V: previousViolation, Home: first, r: first, End: last,
        '+': () => zoomBy(1), '=': () => zoomBy(1), '-': () => zoomBy(-1) };
      document.addEventListener('keydown', e => {
        if (e.ctrlKey || e.metaKey || e.altKey) return;
        const target = e.target;
        if (target && target.tagName === 'BUTTON' && (e.key === ' ' || e.key === 'Enter')) return;
        const action = keys[e.key];
        if (!action) return;
        e.preventDefault();
        action();
      });
      $('first').addEventListener('click', first);
      $('back').addEventListener('click', back);
      $('next').addEventListener('click', next);
      $('last').addEventListener('click', last);
      $('violation').addEventListener('click', nextViolation);
      $('zoom-out').addEventListener('click', () => zoomBy(-1));
      $('zoom-in').addEventListener('click', () => zoomBy(1));
      window.addEventListener('hashchange', () => { const p = fromHash(); if (p !== null && p !== pos) go(p); });
      window.addEventListener('resize', draw);
      drawOverview();
      // Open where the address says, else on the first violation, the page's reason to exist.
      const start = fromHash();
      go(start !== null ? start : violationSteps.length ? violationSteps[0] : 0);
    })();
    """#
}
