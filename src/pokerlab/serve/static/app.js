/* pokerlab chart explorer: preflop charts, percentile chart, compare mode and postflop packs,
   all from the read-only API (/api/v1). Drawing is PL (grid.js). No build step, no network
   beyond the server it came from. */
'use strict';
(() => {
  const $ = id => document.getElementById(id);
  const API = '/api/v1';
  const S = {mode: 'explorer', sets: null, set: null, trail: [], doc: null, other: null, cursor: 0,
             pack: null, spot: null, nodes: null, deals: {}, order: null};

  async function api(url) {
    const r = await fetch(url);
    const body = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(body.error ? body.error.message : `${url}: HTTP ${r.status}`);
    return body;
  }
  const status = text => { $('status').textContent = text || ''; };
  const option = (sel, value, text) => { const o = document.createElement('option'); o.value = value; o.textContent = text; sel.appendChild(o); };

  // --- set pickers -------------------------------------------------------------------------------
  function fillPreflopPickers(prefer) {
    const sets = S.sets.chart_sets;
    const formats = [...new Set(sets.map(s => s.format))];
    const fmtSel = $('format');
    fmtSel.textContent = '';
    formats.forEach(f => option(fmtSel, f, f));
    if (prefer && formats.includes(prefer.format)) fmtSel.value = prefer.format;
    fillSeats(prefer);
  }
  function fillSeats(prefer) {
    const sets = S.sets.chart_sets.filter(s => s.format === $('format').value);
    const seats = [...new Set(sets.map(s => s.seats))];
    const sel = $('seats');
    sel.textContent = '';
    seats.forEach(n => option(sel, n, `${n}-max`));
    if (prefer && seats.includes(prefer.seats)) sel.value = prefer.seats;
    fillDepths(prefer);
  }
  function fillDepths(prefer) {
    const sets = S.sets.chart_sets.filter(s => s.format === $('format').value && s.seats === +$('seats').value);
    const sel = $('depth');
    sel.textContent = '';
    sets.forEach(s => option(sel, s.id, `${s.depth_bb}bb`));
    if (prefer && sets.some(s => s.id === prefer.id)) sel.value = prefer.id;
    fillCompare();
  }
  function fillCompare() {
    const sel = $('compare-set');
    const current = sel.value;
    sel.textContent = '';
    const here = S.sets.chart_sets.find(s => s.id === $('depth').value);
    // the same table size and depth first (another format), then the same table size: same node ids
    const rank = s => !here ? 0 : (s.seats === here.seats ? 0 : 2) + (s.depth_bb === here.depth_bb ? 0 : 1);
    S.sets.chart_sets.filter(s => !here || s.id !== here.id).sort((a, b) => rank(a) - rank(b))
      .forEach(s => option(sel, s.id, s.id));
    if ([...sel.options].some(o => o.value === current)) sel.value = current;
  }
  function fillPacks() {
    const sel = $('pack');
    sel.textContent = '';
    S.sets.packs.forEach(p => option(sel, p.id, `${p.id} (${p.stamp})`));
    fillSpots();
  }
  function fillSpots() {
    const sel = $('spot');
    sel.textContent = '';
    const pack = S.sets.packs.find(p => p.id === $('pack').value);
    if (pack) pack.spots.forEach(s => option(sel, s.family_id, `${s.board} (${s.street}, ${s.family_id})`));
  }

  // --- navigation -------------------------------------------------------------------------------
  function docUrl(path) {
    if (S.mode === 'postflop') return `${API}/packs/${encodeURIComponent(S.pack)}/spots/${encodeURIComponent(S.spot)}/nodes/${encodeURIComponent(path)}`;
    return `${API}/charts/${S.set}/nodes/${encodeURIComponent(path)}`;
  }
  function nextPath(doc, a) {
    if (doc.street === 'preflop') return a.next;
    const p = `${doc.node_path}.${a.id}`;
    return (S.nodes && S.nodes.includes(p)) || S.deals[p] ? p : null;  // a decision, or a deal (card picker)
  }
  const isCard = step => /^[AKQJT2-9][shdc]$/.test(step);
  /* A pack that builds later streets on request lists them street by street: fetch the one a card begins. */
  async function loadStreet(path) {
    if (!S.lazy || S.nodes.includes(path)) return;
    const st = await api(`${API}/packs/${encodeURIComponent(S.pack)}/spots/${encodeURIComponent(S.spot)}/nodes?after=${encodeURIComponent(path)}`);
    S.nodes.push(...st.nodes);
    Object.assign(S.deals, st.deals);
  }
  async function openChart() {
    S.set = $('depth').value;
    S.trail = [{path: 'root', label: 'root'}];
    await show();
  }
  async function openSpot() {
    S.pack = $('pack').value;
    S.spot = $('spot').value;
    if (!S.pack || !S.spot) { status('no postflop pack in this results directory'); return; }
    const listed = await api(`${API}/packs/${encodeURIComponent(S.pack)}/spots/${encodeURIComponent(S.spot)}/nodes`);
    S.nodes = listed.nodes;
    S.deals = listed.deals || {};
    S.lazy = !!listed.lazy;
    S.trail = [{path: 'root', label: 'root'}];
    await show();
  }
  async function go(k) {
    const doc = S.doc;
    if (!doc || k < 0 || k >= doc.actions.length) return;
    const a = doc.actions[k], next = nextPath(doc, a);
    if (!next) { status(`${PL.actionLabel(a)} ends the betting here: no later decision`); return; }
    const label = `${doc.actor.toUpperCase()} ${PL.actionLabel(a)}`;
    if (S.deals[next]) { cardPicker(next, label); return; }
    S.trail.push({path: next, label});
    await show();
  }
  /* A chance node: the street ends and a card comes; pick it (buttons, keyboard-focusable). */
  function cardPicker(path, label) {
    const el = $('deal');
    el.textContent = '';
    el.hidden = false;
    const head = document.createElement('div');
    head.textContent = `${label}: the next card comes. Pick it:`;
    el.appendChild(head);
    const suitName = {s: 'spades', h: 'hearts', d: 'diamonds', c: 'clubs'};
    S.deals[path].forEach(card => {
      const b = document.createElement('button');
      b.className = `card suit-${card[1]}`;
      b.dataset.card = card;
      b.textContent = card;
      b.setAttribute('aria-label', `${card[0]} of ${suitName[card[1]]}`);
      b.onclick = async () => {
        el.hidden = true;
        try { await loadStreet(`${path}.${card}`); } catch (e) { status(e.message); return; }
        S.trail.push({path: `${path}.${card}`, label: `${label} · ${card}`});
        await show();
      };
      el.appendChild(b);
    });
    const first = el.querySelector('button');
    if (first) first.focus();
  }
  async function back(i) {
    if (i < 0 || i >= S.trail.length - 1) return;
    S.trail = S.trail.slice(0, i + 1);
    await show();
  }

  /* Follow a node path from the root (a deep link), building the breadcrumbs on the way. */
  async function walkTo(path) {
    const trail = [{path: 'root', label: 'root'}];
    const steps = S.mode === 'postflop' ? path.split('.').slice(1) : (path === 'root' ? [] : path.split(''));
    let at = 'root', chance = null;
    for (const step of steps) {
      if (chance) {  // the step after a deal is the dealt card
        if (!isCard(step) || !S.deals[chance].includes(step)) throw new Error(`${path}: ${step} cannot come after ${chance}`);
        trail[trail.length - 1] = {path: `${chance}.${step}`, label: `${trail[trail.length - 1].label} · ${step}`};
        at = `${chance}.${step}`;
        await loadStreet(at);
        chance = null;
        continue;
      }
      const doc = await api(docUrl(at));
      const a = doc.actions.find(x => (doc.street === 'preflop' ? x.code : x.id) === step);
      const next = a && nextPath(doc, a);
      if (!next) throw new Error(`${path}: no decision after ${step} at ${at}`);
      trail.push({path: next, label: `${doc.actor.toUpperCase()} ${PL.actionLabel(a)}`});
      if (S.mode === 'postflop' && S.deals[next]) chance = next; else at = next;
    }
    if (chance) throw new Error(`${path}: a card must follow ${chance}`);
    S.trail = trail;
    await show();
  }

  function writeHash() {
    const at = S.trail.length ? S.trail[S.trail.length - 1].path : 'root';
    const p = new URLSearchParams({mode: S.mode});
    if (S.mode === 'percentile') p.set('share', $('percentile').value);
    else if (S.mode === 'postflop') { p.set('pack', S.pack); p.set('spot', S.spot); p.set('node', at); }
    else { p.set('set', S.set); p.set('node', at); if (S.mode === 'compare') p.set('with', $('compare-set').value); }
    history.replaceState(null, '', '#' + p.toString());
  }

  async function show() {
    status('');
    $('deal').hidden = true;
    const path = S.trail[S.trail.length - 1].path;
    const ticket = S.ticket = (S.ticket || 0) + 1;  // a later click wins over a slower earlier answer
    let doc, other = null;
    try {
      doc = await api(docUrl(path));
      if (S.mode === 'compare') {
        try { other = await api(`${API}/charts/${$('compare-set').value}/nodes/${encodeURIComponent(path)}`); }
        catch (e) { if (ticket === S.ticket) status(`compare: ${e.message}`); }
      }
    } catch (e) { if (ticket === S.ticket) status(e.message); return; }
    if (ticket !== S.ticket) return;
    S.doc = doc;
    S.other = other;
    render();
  }

  // --- rendering --------------------------------------------------------------------------------
  function crumbs() {
    const el = $('crumbs');
    el.textContent = '';
    S.trail.forEach((t, i) => {
      const b = document.createElement('button');
      b.textContent = t.label;
      b.dataset.path = t.path;
      b.onclick = () => back(i);
      el.appendChild(b);
    });
  }
  function nodeLine(doc) {
    const ex = doc.exploitability;
    const el = $('node');
    el.textContent = '';
    const parts = [];
    if (doc.street === 'preflop') {
      const seats = Object.entries(ex.per_seat_bb).map(([s, v]) => `${s} ${v.toFixed(4)}`).join(', ');
      parts.push(`<b>${doc.family_id}</b> · node ${doc.node_id || '(first decision)'} · <b>${doc.actor}</b> to act`,
        `pot ${PL.fmt(doc.pot_bb)}bb · behind ${PL.fmt(doc.effective_stack_bb)}bb · node reach ${PL.pct(doc.reach, 3)} of deals`,
        `exploitability ${ex.exploitability_bb.toFixed(5)} bb/hand (bar ${ex.bar_bb.toFixed(4)}; per seat: ${seats}) · model share ${PL.pct(doc.model_share)}`);
    } else {
      parts.push(`<b>${doc.family_id}</b> · ${doc.street} <b>${doc.board}</b> · ${doc.node_path} · <b>${doc.actor.toUpperCase()}</b> to act`,
        `pot ${PL.fmt(doc.pot_bb)}bb · behind ${PL.fmt(doc.effective_stack_bb)}bb · node EV OOP ${ex.oop_ev_bb.toFixed(3)}bb, IP ${ex.ip_ev_bb.toFixed(3)}bb`,
        `exploitability ${ex.exploitability_bb.toFixed(4)}bb = ${ex.exploitability_pct_pot.toFixed(3)}% of the pot · pack ${doc.meta.stamp}`);
    }
    el.innerHTML = parts.join('<br>');
    if (doc.capped) {
      const c = document.createElement('span');
      c.className = 'capped';
      c.id = 'capped-mark';
      c.textContent = 'capped: this fold is forced by the three-entrant cap, not chosen';
      el.append(document.createElement('br'), c);
    }
  }
  function actionButtons(doc, colours, shares) {
    const el = $('actions');
    el.textContent = '';
    doc.actions.forEach((a, i) => {
      const b = document.createElement('button');
      b.style.background = colours[i];
      b.dataset.action = a.id;
      b.textContent = `${i + 1}. ${PL.actionLabel(a)} · ${PL.pct(shares[i])}`;
      const next = nextPath(doc, a);
      if (next) b.onclick = () => go(i); else { b.disabled = true; b.title = 'no later decision served: the betting or the hand ends'; }
      if (next && S.deals[next]) b.title = 'the street ends: pick the next card';
      el.appendChild(b);
    });
  }

  function cellInfo(doc, k) {
    const cell = doc.grid169[k];
    const total = doc.grid169.reduce((s, c) => s + c.weight, 0) || 1;
    if (cell.weight <= 0) return `${cell.class}: not held at this node`;
    const lines = [`${cell.class}: ${PL.pct(cell.weight / total, 2)} of the actor's deals here`];
    doc.actions.forEach((a, i) => lines.push(`${PL.actionLabel(a)}: ${PL.pct(cell.strategy[i])}, EV ${cell.ev[i].toFixed(3)}bb`));
    return lines.join('\n');
  }
  function comboClass(cid) {
    const r = 'AKQJT98765432';
    const a = cid[0], b = cid[2];
    if (a === b) return a + b;
    const [hi, lo] = r.indexOf(a) < r.indexOf(b) ? [a, b] : [b, a];
    return hi + lo + (cid[1] === cid[3] ? 's' : 'o');
  }
  function comboTable(doc, k) {
    const el = $('combos');
    el.textContent = '';
    if (doc.street === 'preflop') return;
    const cls = doc.grid169[k].class, reach = doc.ranges[doc.actor];
    const combos = Object.keys(doc.strategy).filter(c => comboClass(c) === cls);
    if (!combos.length) { el.textContent = `no ${cls} combo in the ${doc.actor.toUpperCase()} range here`; return; }
    const t = document.createElement('table');
    t.id = 'combo-table';
    const head = ['combo', 'reach', ...doc.actions.map(a => a.id), 'EV'];
    t.innerHTML = '<tr>' + head.map(h => `<th>${h}</th>`).join('') + '</tr>' + combos.map(c =>
      `<tr><td>${c}</td><td>${reach[c].toFixed(3)}</td>` + doc.strategy[c].map(f => `<td>${PL.pct(f)}</td>`).join('') +
      `<td>${doc.evs_current[c].toFixed(2)}</td></tr>`).join('');
    el.appendChild(t);
  }

  function pick(k, sticky) {
    if (sticky) { S.cursor = k; }
    const doc = S.doc;
    if (S.mode === 'percentile') { if (S.order) $('info').textContent = percentileInfo(k); return; }
    if (!doc) return;
    let text = cellInfo(doc, k);
    if (S.mode === 'compare' && S.other) text += '\n\ncompared with ' + $('compare-set').value + ':\n' + cellInfo(S.other, k);
    $('info').textContent = text;
    if (sticky) { comboTable(doc, k); markCursor(); }
  }
  function markCursor() {
    document.querySelectorAll('#grid .cell.cursor').forEach(c => c.classList.remove('cursor'));
    const c = document.querySelector(`#grid .cell[data-index="${S.cursor}"]`);
    if (c) c.classList.add('cursor');
  }

  function render() {
    writeHash();
    crumbs();
    $('combos').textContent = '';
    if (S.mode === 'percentile') return renderPercentile();
    const doc = S.doc;
    nodeLine(doc);
    const colours = PL.actionColours(doc.actions);
    const shares = PL.actionShares(doc.grid169, doc.actions.length);
    const striped = doc.capped ? doc.actions.findIndex(a => a.kind === 'fold') : null;
    actionButtons(doc, colours, shares);
    if (S.mode === 'compare') return renderCompare(doc, colours);
    PL.legend($('legend'), doc.actions, colours, shares, striped);
    PL.drawGrid($('grid'), doc.grid169, {colours, striped, onPick: pick, selected: S.cursor});
    $('info').textContent = 'hover or tap a cell for its frequencies and EVs';
  }

  // --- compare ----------------------------------------------------------------------------------
  function renderCompare(doc, colours) {
    const sel = $('compare-action');
    const keep = sel.value;
    sel.textContent = '';
    option(sel, 'enter', 'enter the pot (not fold)');
    doc.actions.forEach(a => option(sel, a.kind === 'raise' ? 'raise' : a.id, PL.actionLabel(a)));
    if ([...sel.options].some(o => o.value === keep)) sel.value = keep;
    const other = S.other;
    const freq = (d, cell) => {
      const key = sel.value;
      if (key === 'enter') return d.actions.reduce((s, a, i) => s + (a.kind === 'fold' ? 0 : cell.strategy[i]), 0);
      const i = d.actions.findIndex(a => (a.kind === 'raise' ? 'raise' : a.id) === key);
      return i < 0 ? 0 : cell.strategy[i];
    };
    const diff = doc.grid169.map((c, k) => other ? freq(doc, c) - freq(other, other.grid169[k]) : 0);
    $('legend').innerHTML = `<span style="background:#E69F00">more often in ${S.set}</span>` +
      `<span style="background:#56B4E9">more often in ${$('compare-set').value}</span>`;
    PL.drawGrid($('grid'), doc.grid169, {colours, striped: null, onPick: pick, selected: S.cursor,
      fill: (c, k) => {
        const d = diff[k], a = Math.min(1, Math.abs(d) * 2.5).toFixed(3);
        const tint = d >= 0 ? `rgba(230,159,0,${a})` : `rgba(86,180,233,${a})`;
        return `linear-gradient(${tint}, ${tint}), #fff`;
      },
      label: (c, k) => (diff[k] >= 0 ? '+' : '') + (100 * diff[k]).toFixed(0)});
    $('info').textContent = other ? 'cells: difference in percentage points (this chart set minus the other)' : '';
  }

  // --- percentile -------------------------------------------------------------------------------
  function percentileCells() {
    const share = +$('percentile').value / 100;
    const names = [];
    for (let r = 0; r < 13; r++) for (let c = 0; c < 13; c++) {
      const R = 'AKQJT98765432';
      names.push(r === c ? R[r] + R[c] : r < c ? R[r] + R[c] + 's' : R[c] + R[r] + 'o');
    }
    const combos = n => n.length === 2 ? 6 : n[2] === 's' ? 4 : 12;
    const inSet = new Set();
    let dealt = 0;
    for (const n of S.order.order) {
      if (dealt + combos(n) / 1326 > share + 1e-12) break;
      dealt += combos(n) / 1326;
      inSet.add(n);
    }
    const cells = names.map((n, k) => ({class: n, row: Math.floor(k / 13), col: k % 13, weight: combos(n) / 1326,
      strategy: [inSet.has(n) ? 1 : 0, inSet.has(n) ? 0 : 1], ev: [0, 0]}));
    return {cells, inSet, dealt, share};
  }
  function percentileInfo(k) {
    const {cells} = percentileCells();
    const c = cells[k], rank = S.order.order.indexOf(c.class);
    return `${c.class}: strength rank ${rank + 1} of 169 (equity ${PL.pct(S.order.equity_vs_random[rank])} against a random hand); ` +
      `${(c.weight * 1326).toFixed(0)} combos = ${PL.pct(c.weight, 2)} of deals`;
  }
  function renderPercentile() {
    if (!S.order) return;  // still loading; setMode renders once it has the order
    const {cells, inSet, dealt, share} = percentileCells();
    $('percentile-value').textContent = PL.pct(share);
    $('node').innerHTML = `<span id="percentile-summary">top <b>${PL.pct(share)}</b> of deals asked: ` +
      `${inSet.size} classes = <b>${PL.pct(dealt, 2)}</b> of deals, ${inSet.size}/169 = <b>${PL.pct(inSet.size / 169)}</b> of cells</span>` +
      '<br>classes filled strongest first (all-in equity against a random hand)';
    $('actions').textContent = '';
    $('crumbs').textContent = '';
    $('legend').innerHTML = '<span style="background:#E69F00">in the range</span><span style="background:#fff">outside</span>';
    PL.drawGrid($('grid'), cells, {colours: ['#E69F00', '#ffffff'], striped: null, onPick: pick, selected: S.cursor,
      label: c => inSet.has(c.class) ? String(S.order.order.indexOf(c.class) + 1) : ''});
    $('info').textContent = 'hover a cell for its strength rank';
  }

  // --- modes ------------------------------------------------------------------------------------
  async function setMode(mode) {
    S.mode = mode;
    document.querySelectorAll('#modes button').forEach(b => b.setAttribute('aria-selected', String(b.dataset.mode === mode)));
    $('preflop-pick').hidden = !(mode === 'explorer' || mode === 'compare');
    $('compare-pick').hidden = mode !== 'compare';
    $('postflop-pick').hidden = mode !== 'postflop';
    $('percentile-pick').hidden = mode !== 'percentile';
    $('actions').textContent = '';
    $('node').textContent = '';
    if (mode === 'percentile') {
      if (!S.order) S.order = await api('/app/strength-order.json');
      render();
    } else if (mode === 'postflop') {
      await openSpot();
    } else if (!S.set || S.set !== $('depth').value || !S.trail.length || (S.doc && S.doc.street !== 'preflop')) {
      await openChart();
    } else {
      await show();
    }
  }

  document.addEventListener('keydown', ev => {
    const tag = (ev.target.tagName || '').toLowerCase();
    if (tag === 'input' || tag === 'select') return;
    if (/^[1-9]$/.test(ev.key) && S.mode !== 'percentile') { go(+ev.key - 1); ev.preventDefault(); }
    else if (ev.key === 'Backspace' && S.mode !== 'percentile') { back(S.trail.length - 2); ev.preventDefault(); }
  });
  PL.keyboard($('grid'), () => S.cursor, k => { S.cursor = k; markCursor(); pick(k, false); }, k => pick(k, true));

  async function init() {
    try { S.sets = await api(`${API}/sets`); } catch (e) { status(e.message); return; }
    const link = new URLSearchParams(location.hash.slice(1));
    const prefer = S.sets.chart_sets.find(s => s.id === link.get('set')) ||
      S.sets.chart_sets.find(s => s.id === 'cash/6max/100bb') || S.sets.chart_sets[0];
    if (prefer) fillPreflopPickers(prefer);
    if (link.get('with')) $('compare-set').value = link.get('with');
    if (link.get('share')) $('percentile').value = link.get('share');
    fillPacks();
    if (S.sets.packs.some(p => p.id === link.get('pack'))) { $('pack').value = link.get('pack'); fillSpots(); }
    if (link.get('spot')) $('spot').value = link.get('spot');
    document.querySelectorAll('#modes button').forEach(b => { b.onclick = () => setMode(b.dataset.mode); });
    $('format').onchange = () => { fillSeats(); openChart(); };
    $('seats').onchange = () => { fillDepths(); openChart(); };
    $('depth').onchange = () => { fillCompare(); openChart(); };
    $('compare-set').onchange = () => show();
    $('compare-action').onchange = () => render();
    $('pack').onchange = () => { fillSpots(); openSpot(); };
    $('spot').onchange = () => openSpot();
    $('percentile').oninput = () => render();
    const modes = ['explorer', 'percentile', 'compare', 'postflop'];
    await setMode(modes.includes(link.get('mode')) ? link.get('mode') :
      prefer ? 'explorer' : (S.sets.packs.length ? 'postflop' : 'percentile'));
    if (link.get('node') && link.get('node') !== 'root' && S.mode !== 'percentile') {
      try { await walkTo(link.get('node')); } catch (e) { status(e.message); }
    }
    document.body.dataset.ready = 'true';
  }
  // a link typed or followed on this page: start again from it (replaceState above fires no event)
  window.addEventListener('hashchange', () => location.reload());
  init();
})();
