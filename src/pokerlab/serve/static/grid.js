/* pokerlab grid drawing: the one code path that draws a node's 13x13 grid, its legend and its
   actions' colours, used by the explorer (app.js) in every mode and by the release's offline
   chart pages (chart.js).
   A cell is a grid169 entry of a NodeDocument: {class, row, col, weight, strategy[], ev[]},
   strategy and ev aligned with the document's actions. Nothing here recomputes grid169. */
'use strict';
const PL = (() => {
  // Okabe-Ito colours (readable with the common colour-vision deficiencies); text stays black.
  const FOLD = '#56B4E9', PASSIVE = '#009E73', ALLIN = '#D55E00';
  const SIZED = ['#F0E442', '#E69F00', '#CC79A7', '#B59F00', '#A65D8B'];

  function actionColours(actions) {
    const sized = actions.map((a, i) => [a, i]).filter(([a]) => a.kind === 'bet' || a.kind === 'raise')
      .sort((x, y) => (x[0].amount_bb || 0) - (y[0].amount_bb || 0));
    const colour = {};
    sized.forEach(([, i], k) => { colour[i] = SIZED[k % SIZED.length]; });
    return actions.map((a, i) => a.kind === 'fold' ? FOLD : a.kind === 'allin' ? ALLIN :
      (a.kind === 'check' || a.kind === 'call') ? PASSIVE : colour[i]);
  }

  function actionLabel(a) {
    if (a.label) return a.label;  // an action that names itself (the chart page's second raise size)
    if (a.kind === 'fold' || a.kind === 'check') return a.kind;
    if (a.amount_bb === undefined) return {call: 'call / check', raise: 'raise', allin: 'all-in'}[a.kind] || a.kind;
    if (a.kind === 'call') return `call ${fmt(a.amount_bb)}bb`;
    if (a.kind === 'allin') return `all-in ${fmt(a.amount_bb)}bb`;
    const to = a.raise_to_bb !== undefined ? ` (to ${fmt(a.raise_to_bb)}bb)` : '';
    return `${a.kind} ${fmt(a.amount_bb)}bb${to}`;
  }

  const fmt = x => (Math.round(x * 100) / 100).toString();
  const pct = (x, d = 1) => (100 * x).toFixed(d) + '%';

  /* Band stops of one cell: each action as wide as its frequency, in action order. */
  function bands(strategy, colours, stripedIndex) {
    let at = 0;
    const stops = [];
    strategy.forEach((f, i) => {
      if (f <= 0) return;
      const from = at; at += 100 * f;
      stops.push(`${colours[i]} ${from.toFixed(3)}% ${at.toFixed(3)}%`);
    });
    if (!stops.length) return '';
    let bg = `linear-gradient(to right, ${stops.join(', ')})`;
    if (stripedIndex !== null && strategy[stripedIndex] > 0) {
      bg = 'repeating-linear-gradient(45deg, rgba(0,0,0,.38) 0 2px, transparent 2px 6px), ' + bg;
    }
    return bg;
  }

  /* Draw 169 cells into el. opts: colours[], striped (index of an action drawn striped, or null),
     label(cell, k) -> text under the class name, fill(cell, k) -> CSS background or null to use bands,
     onPick(k), selected (index). Returns nothing; every cell carries data-class, data-weight and
     data-strategy (JSON, aligned with the actions) so tests and tools can read what is drawn. */
  function drawGrid(el, cells, opts) {
    el.textContent = '';
    const total = cells.reduce((s, c) => s + c.weight, 0);
    cells.forEach((cell, k) => {
      const div = document.createElement('div');
      div.className = 'cell' + (cell.weight > 0 ? '' : ' empty');
      div.setAttribute('role', 'gridcell');
      div.dataset.class = cell.class;
      div.dataset.index = k;
      div.dataset.weight = cell.weight;
      div.dataset.strategy = JSON.stringify(cell.strategy);
      const custom = opts.fill ? opts.fill(cell, k) : null;
      const bg = custom !== null && custom !== undefined ? custom :
        (cell.weight > 0 ? bands(cell.strategy, opts.colours, opts.striped) : '');
      if (bg) div.style.background = bg;
      const b = document.createElement('b');
      b.textContent = cell.class;
      const s = document.createElement('span');
      s.textContent = opts.label ? opts.label(cell, k, total) : (cell.weight > 0 && total > 0 ? pct(cell.weight / total, 2) : '');
      div.append(b, s);
      div.addEventListener('mouseenter', () => opts.onPick && opts.onPick(k, false));
      div.addEventListener('click', () => opts.onPick && opts.onPick(k, true));
      if (opts.selected === k) div.classList.add('cursor');
      el.appendChild(div);
    });
  }

  function legend(el, actions, colours, shares, striped) {
    el.textContent = '';
    actions.forEach((a, i) => {
      const s = document.createElement('span');
      s.style.background = colours[i];
      if (striped === i) s.classList.add('swatch-stripes');
      s.textContent = `${actionLabel(a)}${shares ? ' ' + pct(shares[i]) : ''}`;
      el.appendChild(s);
    });
  }

  /* Share of the actor's deals at the node taking each action: the cells' weights times their
     frequencies (a summary of grid169, not a recomputation of it). */
  function actionShares(cells, n) {
    const out = new Array(n).fill(0);
    const total = cells.reduce((s, c) => s + c.weight, 0) || 1;
    cells.forEach(c => c.strategy.forEach((f, i) => { out[i] += c.weight * f / total; }));
    return out;
  }

  /* Arrow keys move a cursor over the 13x13 grid; Enter picks the cell. */
  function keyboard(el, getCursor, setCursor, pick) {
    el.addEventListener('keydown', ev => {
      let k = getCursor();
      const r = Math.floor(k / 13), c = k % 13;
      const moves = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};
      if (moves[ev.key]) {
        const [dr, dc] = moves[ev.key];
        k = Math.min(12, Math.max(0, r + dr)) * 13 + Math.min(12, Math.max(0, c + dc));
        setCursor(k);
        ev.preventDefault();
      } else if (ev.key === 'Enter' || ev.key === ' ') {
        pick(k);
        ev.preventDefault();
      }
    });
  }

  return {actionColours, actionLabel, drawGrid, legend, actionShares, keyboard, fmt, pct};
})();
