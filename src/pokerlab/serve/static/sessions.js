/* pokerlab sessions dashboard: stat tiles, bankroll curve, sessions table, per-session cards,
   per-stake breakdown, the pool card, the "log a session" form and export drops. Data from
   GET /api/v1/sessions (or window.SESSIONS_DATA in the static export, which is read-only). */
'use strict';
(() => {
  const $ = id => document.getElementById(id);
  const API = '/api/v1/sessions';
  const STATIC = document.body.dataset.static === 'true';
  let D = null;
  let fresh = null;

  const el = (tag, attrs, ...kids) => {
    const e = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => { if (v !== undefined && v !== null) e.setAttribute(k, v); });
    kids.flat().forEach(k => e.append(k instanceof Node ? k : document.createTextNode(k == null ? '' : String(k))));
    return e;
  };
  const status = text => { $('status').textContent = text || ''; };
  const money = x => x == null ? '–' : `${x < 0 ? '−' : ''}${D.settings.currency}${Math.abs(x).toFixed(2)}`;
  const signed = (x, digits) => x == null ? '–' : `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(digits)}`;
  const cls = x => x == null ? '' : x < 0 ? 'neg' : x > 0 ? 'pos' : '';

  function tiles() {
    const t = D.tiles;
    const items = [['sessions', t.sessions], ['hands', t.hands], ['table', money(t.table_net)], ['rakeback', money(t.rakeback)],
      ['total', money(t.total)], ['bankroll', money(t.bankroll)],
      ['bb/100 (hand join)', t.bb_per_100 == null ? '–' : signed(t.bb_per_100, 2)], ['hours', t.hours.toFixed(1)],
      ['per hour', t.per_hour == null ? '–' : money(t.per_hour)]];
    $('tiles').replaceChildren(...items.map(([k, v]) => el('div', {class: 'tile', 'data-tile': k}, el('b', {}, v), el('span', {}, k))));
  }

  function curve() {
    const pts = D.curve;
    const box = $('curve');
    if (!pts.length) { box.replaceChildren(el('p', {class: 'help'}, 'No session logged yet.')); return; }
    const W = 760, H = 230, L = 62, R = 44, T = 14, B = 34;
    const ys = pts.map(p => p.bankroll);
    let lo = Math.min(...ys), hi = Math.max(...ys);
    if (hi - lo < 1e-9) { lo -= 1; hi += 1; }
    const pad = (hi - lo) * 0.08; lo -= pad; hi += pad;
    const x = i => L + (pts.length === 1 ? (W - L - R) / 2 : i * (W - L - R) / (pts.length - 1));
    const y = v => T + (hi - v) * (H - T - B) / (hi - lo);
    // markup parsed by the HTML parser, which puts <svg> in the SVG namespace by itself
    const esc = t => String(t).replace(/[&<>"]/g, c => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'}[c]));
    const s = (tag, attrs, text) => `<${tag} ${Object.entries(attrs).map(([k, v]) => `${k}="${esc(v)}"`).join(' ')}>${text == null ? '' : text}</${tag}>`;
    const parts = [];
    for (let k = 0; k <= 4; k++) {
      const v = lo + (hi - lo) * k / 4;
      parts.push(s('line', {x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: '#e4e7ea'}));
      parts.push(s('text', {x: L - 6, y: y(v) + 4, 'text-anchor': 'end'}, esc(money(v))));
    }
    parts.push(s('polyline', {class: 'line', points: pts.map((p, i) => `${x(i)},${y(p.bankroll)}`).join(' ')}));
    pts.forEach((p, i) => {
      const title = `${p.id == null ? 'start' : 'session ' + p.id}: ${money(p.bankroll)} (${p.end.replace('T', ' ')})`;
      parts.push(s('circle', {class: 'pt', cx: x(i), cy: y(p.bankroll), r: 4.5, 'data-id': p.id == null ? 'start' : p.id,
                              'data-bankroll': p.bankroll}, s('title', {}, esc(title))));
      if (pts.length <= 14 || i % Math.ceil(pts.length / 14) === 0) {
        parts.push(s('text', {x: x(i), y: H - B + 16, 'text-anchor': 'middle'}, esc(p.id == null ? 'start' : `#${p.id} ${p.end.slice(5, 10)}`)));
      }
    });
    box.innerHTML = s('svg', {viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img', 'aria-label': 'bankroll after each session'}, parts.join(''));
  }

  function table() {
    const body = $('sessions-table').querySelector('tbody');
    body.replaceChildren(...D.sessions.map(r => el('tr', {'data-id': r.id, class: String(r.id) === String(fresh) ? 'fresh' : null},
      el('td', {}, r.id), el('td', {}, r.start.replace('T', ' ').slice(0, 16)), el('td', {}, r.end.replace('T', ' ').slice(0, 16)),
      el('td', {}, r.hands), el('td', {}, r.stakes.replaceAll(';', ', ')),
      el('td', {class: cls(r.table_net), title: `from the ${r.table_net_source}`}, money(r.table_net) + (r.table_net_source === 'balance' ? ' ᵇ' : '')),
      el('td', {}, r.rakeback_known ? money(r.rakeback) : '–'), el('td', {class: cls(r.total)}, money(r.total)),
      el('td', {}, money(r.rake_paid)), el('td', {}, r.rho == null ? '–' : `${(100 * r.rho).toFixed(1)}%`),
      el('td', {}, r.unexplained == null ? '–' : money(r.unexplained)), el('td', {class: 'notes'}, r.notes))));
  }

  function cards() {
    const out = D.sessions.slice().reverse().map(r => {
      const c = r.cards, kids = [el('h3', {}, `Session ${r.id} · ${r.start.slice(0, 10)} · ${r.joined_hands} hands joined`)];
      if (c.grade) {
        const g = c.grade;
        if (!r.joined_hands) kids.push(el('p', {}, 'No hand of the exports falls in this session\'s time span.'));
        else if (!g.spots) kids.push(el('p', {}, 'No heads-up push/fold spot among this session\'s hands.'));
        else {
          kids.push(el('p', {'data-card': 'grade'}, el('b', {}, 'Grade: '),
            `${g.spots} push/fold spots, ${(100 * g.match_rate).toFixed(0)}% matching the solver, EV lost ${g.ev_lost_bb.toFixed(2)}bb (${money(g.ev_lost)})`));
          if (g.worst.length) kids.push(el('ul', {}, g.worst.map(w => el('li', {},
            `hand ${w.hand_id}: ${w.class} ${w.seat} at ${w.depth_bb}bb, ${w.action} (solver ${w.seat === 'SB' ? 'shoves' : 'calls'} ${(100 * w.solver_freq).toFixed(0)}%), −${w.ev_loss_bb.toFixed(2)}bb`))));
          const l = c.luck;
          kids.push(el('p', {'data-card': 'luck'}, el('b', {}, 'Luck: '),
            `model EV of the decisions taken ${signed(l.model_ev_bb, 2)}bb, realised ${signed(l.realised_bb, 2)}bb → ` +
            `${l.luck_bb >= 0 ? 'ran above' : 'ran below'} by ${Math.abs(l.luck_bb).toFixed(2)}bb (${money(l.luck)}). ` +
            `Other hands (no model EV): ${l.other_hands}, ${money(l.other_net)} realised.`));
        }
      }
      if (c.reason) kids.push(el('p', {class: 'reason', 'data-card': 'reason'}, c.reason));
      return el('div', {class: 'card', 'data-session': r.id}, kids);
    });
    $('cards').replaceChildren(...(out.length ? out : [el('p', {class: 'help'}, 'Cards appear once a session is logged.')]));
  }

  function stakes() {
    $('stakes-table').querySelector('tbody').replaceChildren(...D.stakes.map(s => el('tr', {'data-stakes': s.stakes},
      el('td', {}, s.stakes), el('td', {}, s.hands), el('td', {class: cls(s.net)}, money(s.net)), el('td', {class: cls(s.bb_per_100)}, signed(s.bb_per_100, 2)))));
  }

  function population() {
    const p = D.population, box = $('population');
    if (!p.rows.length) { box.replaceChildren(el('p', {class: 'reason'}, p.reason || 'No graded decision of other players yet.')); return; }
    box.replaceChildren(el('table', {}, el('thead', {}, el('tr', {}, ['seat', 'action', 'decisions', 'pool', 'model', '± se', 'z'].map(h => el('th', {}, h)))),
      el('tbody', {}, p.rows.map(r => el('tr', {class: r.flag ? 'fresh' : null}, el('td', {}, r.seat), el('td', {}, r.action), el('td', {}, r.decisions),
        el('td', {}, `${(100 * r.pool).toFixed(1)}%`), el('td', {}, `${(100 * r.model).toFixed(1)}%`), el('td', {}, `${(100 * r.se).toFixed(1)}`),
        el('td', {}, r.z == null ? '–' : r.z.toFixed(2) + (r.flag ? ' !' : '')))))),
      el('p', {class: 'help'}, 'Other players\' heads-up push/fold decisions whose cards the exports show, against the solver\'s frequency for the classes they held; |z| ≥ 2 marked.'));
  }

  function proposals() {
    const sel = $('proposal');
    const open = D.proposals.filter(p => !p.logged);
    sel.replaceChildren(el('option', {value: ''}, open.length ? '— pick one to prefill —' : '(no unlogged session in the exports)'),
      ...open.map((p, i) => el('option', {value: String(i)}, `${p.start.replace('T', ' ').slice(0, 16)} → ${p.end.slice(11, 16)} · ${p.hands} hands · ${money(p.hh_net)}`)));
    sel.onchange = () => {
      const p = open[+sel.value];
      if (!p) return;
      const f = $('log-form');
      ['start', 'end', 'hands', 'stakes', 'hh_net', 'exports'].forEach(k => { f.elements[k].value = p[k]; });
    };
  }

  function exportsList() {
    $('exports').replaceChildren(...D.exports.map(e => el('li', {'data-export': e.name},
      `${e.name} (${e.format}): ${e.imported} of ${e.read} hands imported` + (e.skipped ? `, ${e.skipped} skipped` : '') +
      (e.no_time ? `, ${e.no_time} without a time` : '') + (e.graded ? ', graded' : ', not graded'))));
  }

  function render() {
    $('problems').textContent = D.problems.length ? `${D.ledger} has rows that cannot be read (nothing is written until they are fixed):\n` + D.problems.join('\n') : '';
    tiles(); curve(); table(); cards(); stakes(); population();
    if (!STATIC) { proposals(); exportsList(); }
    document.body.dataset.ready = 'true';
  }

  async function load() {
    if (STATIC) { D = window.SESSIONS_DATA; render(); return; }
    const r = await fetch(API, {cache: 'no-store'});
    const body = await r.json();
    if (!r.ok) throw new Error(body.error ? body.error.message : `HTTP ${r.status}`);
    D = body; render();
  }

  async function post(url, init) {
    const r = await fetch(url, {method: 'POST', ...init});
    const body = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(body.error ? body.error.message : `HTTP ${r.status}`);
    return body;
  }

  async function logSession(ev) {
    ev.preventDefault();
    const f = $('log-form');
    const values = {};
    [...f.elements].forEach(e => { if (e.name && e.value.trim() !== '') values[e.name] = e.value.trim(); });
    document.body.dataset.ready = 'false';
    try {
      const out = await post(API, {headers: {'Content-Type': 'application/json'}, body: JSON.stringify(values)});
      fresh = out.logged.id;
      f.reset();
      await load();
      status(`Logged session ${out.logged.id}.`);
    } catch (e) { status(e.message); document.body.dataset.ready = 'true'; }
  }

  async function sendExport(file) {
    if (!file) return;
    status(`Reading ${file.name}…`);
    document.body.dataset.ready = 'false';
    // a large export takes seconds to import and grade: show the server's stage until the answer comes
    const poll = setInterval(async () => {
      try {
        const p = await (await fetch(`${API}/exports/progress`, {cache: 'no-store'})).json();
        if (p.stage !== 'idle') status(`${p.stage === 'grading' ? 'Grading' : 'Importing'} ${p.name}… ${p.seconds} s`);
      } catch (e) { /* the answer to the upload says what happened */ }
    }, 500);
    try {
      const out = await post(`${API}/exports?name=${encodeURIComponent(file.name)}`,
        {headers: {'X-Pokerlab-Upload': '1', 'Content-Type': 'application/octet-stream'}, body: await file.arrayBuffer()});
      clearInterval(poll);
      await load();
      status(`Added ${out.saved}: ${out.imported} of ${out.read} hands imported${out.graded ? ', graded' : ''}.`);
    } catch (e) { clearInterval(poll); status(e.message); document.body.dataset.ready = 'true'; }
  }

  if (!STATIC) {
    $('log-form').addEventListener('submit', logSession);
    const drop = $('drop');
    drop.addEventListener('dragover', e => { e.preventDefault(); drop.classList.add('over'); });
    drop.addEventListener('dragleave', () => drop.classList.remove('over'));
    drop.addEventListener('drop', e => { e.preventDefault(); drop.classList.remove('over'); sendExport(e.dataTransfer.files[0]); });
    $('export-file').addEventListener('change', e => sendExport(e.target.files[0]));
  }
  load().catch(e => { status(e.message); });
})();
