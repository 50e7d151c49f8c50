/* pokerlab offline chart page: reads a published chart file (pokerlab-chart/1) and draws its
   nodes with PL (grid.js), the same drawing code as the explorer. Used by the per-spot pages
   of a release (results/viewer/...), which load their chart file instead of embedding it.
   Class-level data as the chart stores them: strategies are its 1/90 levels renormalised to
   sum to 1 per class; a cell's weight is the actor's arrive-with share (renormalised; 0 where
   the chart has no EV, i.e. the class never arrives); EVs are in bb from the start of the hand. */
'use strict';
const PLChart = (() => {
  const KIND = {F: 'fold', C: 'call', R: 'raise', S: 'raise', A: 'allin'};  // S: a second raise size

  function decode(enc, codes, lo = 0, hi = 1) {
    return Array.from(codes, ch => ch === enc.missing ? NaN : lo + (hi - lo) * enc.alphabet.indexOf(ch) / enc.steps);
  }

  /* The grid cells and actions of one node, in the shape of a NodeDocument's grid169. */
  function nodeCells(chart, node) {
    const enc = chart.encoding, codes = node.actions;
    const freq = codes.map(a => decode(enc, node.strategy[a]));
    const ev = codes.map(a => decode(enc, node.ev_bb[a].codes, node.ev_bb[a].lo, node.ev_bb[a].hi));
    let arrive = decode(enc, node.arrive_with.codes, node.arrive_with.lo, node.arrive_with.hi)
      .map((w, k) => ev.some(e => isNaN(e[k])) ? 0 : w);
    const total = arrive.reduce((s, w) => s + w, 0) || 1;
    arrive = arrive.map(w => w / total);
    const cells = chart.classes.map((name, k) => {
      const sum = freq.reduce((s, f) => s + f[k], 0) || 1;
      const held = arrive[k] > 0;
      return {class: name, row: Math.floor(k / 13), col: k % 13, weight: arrive[k],
              strategy: freq.map(f => held ? f[k] / sum : 0), ev: ev.map(e => held ? e[k] : 0)};
    });
    const actions = codes.map(a => a === 'S' ? {id: 'raise_2', kind: 'raise', code: a, label: 'raise (second size)'}
      : {id: KIND[a], kind: KIND[a], code: a});
    return {actions, cells};
  }

  /* A chart file's document: published charts are gzipped (.json.gz). A server that labels the
     file Content-Encoding: gzip has the browser inflate it already; otherwise the bytes still
     start with gzip's magic number and are inflated here. Plain JSON reads as it is. */
  async function readChart(response) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return JSON.parse(new TextDecoder().decode(bytes));
    const inflated = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    return JSON.parse(await new Response(inflated).text());
  }

  function mount(href) {
    const $ = id => document.getElementById(id);
    const fail = text => { $('status').textContent = text; };
    fetch(href).then(r => { if (!r.ok) throw new Error(`${href}: HTTP ${r.status}`); return readChart(r); }).then(chart => {
      const byId = new Map(chart.nodes.map(n => [n.id, n]));
      let cursor = 0;
      function show(id) {
        const node = byId.get(id);
        const {actions, cells} = nodeCells(chart, node);
        const colours = PL.actionColours(actions);
        const shares = actions.map(a => node.shares[a.code]);
        const striped = node.capped ? actions.findIndex(a => a.kind === 'fold') : null;
        $('node').innerHTML = `node <b>${id || '(first decision)'}</b> · <b>${node.actor}</b> to act · ` +
          `reach ${PL.pct(node.reach, 3)} of deals` + (node.capped ?
          ' · <span class="capped" id="capped-mark">capped: this fold is forced by the three-entrant cap, not chosen</span>' : '');
        const crumbs = $('crumbs');
        crumbs.textContent = '';
        for (let i = 0; i <= id.length; i++) {
          const prefix = id.slice(0, i);
          if (!byId.has(prefix)) continue;
          const b = document.createElement('button');
          b.textContent = prefix === '' ? 'root' : `${byId.get(prefix.slice(0, -1)) ? byId.get(prefix.slice(0, -1)).actor : ''} ${KIND[prefix.slice(-1)]}`;
          b.dataset.path = prefix || 'root';
          b.onclick = () => show(prefix);
          crumbs.appendChild(b);
        }
        const bar = $('actions');
        bar.textContent = '';
        actions.forEach((a, i) => {
          const b = document.createElement('button');
          b.style.background = colours[i];
          b.dataset.action = a.id;
          b.textContent = `${i + 1}. ${PL.actionLabel(a)} · ${PL.pct(shares[i])}`;
          if (byId.has(id + a.code)) b.onclick = () => show(id + a.code);
          else { b.disabled = true; b.title = 'ends the betting: no later decision'; }
          bar.appendChild(b);
        });
        PL.legend($('legend'), actions, colours, shares, striped);
        const pick = (k, sticky) => {
          if (sticky) cursor = k;
          const c = cells[k];
          $('info').textContent = c.weight <= 0 ? `${c.class}: not held at this node` :
            [`${c.class}: ${PL.pct(c.weight, 2)} of the actor's deals here`,
             ...actions.map((a, i) => `${PL.actionLabel(a)}: ${PL.pct(c.strategy[i])}, EV ${c.ev[i].toFixed(3)}bb from the start of the hand`)].join('\n');
        };
        PL.drawGrid($('grid'), cells, {colours, striped, onPick: pick, selected: cursor});
        $('info').textContent = 'hover or tap a cell for its frequencies and EVs';
        document.onkeydown = ev => {
          if (/^[1-9]$/.test(ev.key) && actions[+ev.key - 1] && byId.has(id + actions[+ev.key - 1].code)) show(id + actions[+ev.key - 1].code);
          else if (ev.key === 'Backspace' && id) {
            let up = id.slice(0, -1);
            while (up && !byId.has(up)) up = up.slice(0, -1);
            show(up);
          }
        };
      }
      show('');
      document.body.dataset.ready = 'true';
    }).catch(e => fail(`${e.message}. A browser reads the chart file only over HTTP: run "pokerlab serve RESULTS_DIR" ` +
      '(the explorer shows every chart) or "python3 -m http.server -d RESULTS_DIR" and open viewer/... from there.'));
  }

  return {nodeCells, mount};
})();
