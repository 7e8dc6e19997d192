// Why: the score sheet drawn as players know it on paper, the pulka: one sector per player
// with the pool nearest the centre, the mountain around it and the whists on each opponent
// along the edge, the pool target in the central circle. Values come from the server's sheet;
// as on paper, each cell keeps the running totals it has shown ("2.4.6"). At the end of the
// game the settlement table follows (with an agreed stop's R10.3 charges as their own column),
// then the deal-by-deal score log.

import { h, svg } from './dom.js';
import { t } from './i18n.js';
import { positions } from './seats.js';
import { scoreLog, ruleLink, stopLines } from './scorelog.js';
import { analysisLink } from './analysis-link.js';

const W = 600;
const H = 440;
const C = { x: W / 2, y: H / 2 };
const INK = 'ink';

/** Each screen position's outer edge, walked clockwise on screen, as corner points. */
function paths(n) {
  const BL = { x: 0, y: H }; const BR = { x: W, y: H }; const TL = { x: 0, y: 0 }; const TR = { x: W, y: 0 };
  const TM = { x: W / 2, y: 0 };
  if (n === 4) return { me: [BR, BL], left: [BL, TL], top: [TL, TR], right: [TR, BR] };
  return { me: [BR, BL], left: [BL, TL, TM], right: [TM, TR, BR] };
}

/** The point a fraction `f` along a polyline. */
function along(pts, f) {
  const seg = [];
  let total = 0;
  for (let i = 1; i < pts.length; i++) {
    const l = Math.hypot(pts[i].x - pts[i - 1].x, pts[i].y - pts[i - 1].y);
    seg.push(l); total += l;
  }
  let d = f * total;
  for (let i = 0; i < seg.length; i++) {
    if (d <= seg[i] || i === seg.length - 1) {
      const r = seg[i] ? d / seg[i] : 0;
      return { x: pts[i].x + (pts[i + 1].x - pts[i].x) * r, y: pts[i].y + (pts[i + 1].y - pts[i].y) * r };
    }
    d -= seg[i];
  }
  return pts[0];
}

const scale = (p, k) => ({ x: C.x + (p.x - C.x) * k, y: C.y + (p.y - C.y) * k });

/** A cell's running totals as paper shows them. */
function cell(history, key, value) {
  const list = history.get(key) || [];
  if (list.length === 0 || list[list.length - 1] !== value) list.push(value);
  history.set(key, list);
  if (list.length === 1 && value === 0) return '';
  const shown = list.filter((v, i) => v !== 0 || i === list.length - 1);
  const tail = shown.slice(-4).join('.');
  return shown.length > 4 ? `…${tail}` : tail;
}

function text(p, value, cls, rotate = 0) {
  const x = p.x.toFixed(1); const y = p.y.toFixed(1);
  return svg('text', {
    x, y, class: cls, 'text-anchor': 'middle', 'dominant-baseline': 'middle',
    transform: rotate ? `rotate(${rotate} ${x} ${y})` : undefined,
  }, value);
}

/** The sheet from the table summary, zeros before the game starts. */
export function sheetData(state) {
  const n = state.table.players;
  const s = state.table.sheet;
  const zeros = () => Array(n).fill(0);
  return {
    pool: (s && s.pool) || zeros(),
    mountain: (s && s.mountain) || zeros(),
    whists: (s && s.whists) || Array.from({ length: n }, zeros),
    settlement: state.table.settlement ? state.table.settlement.balance : null,
  };
}

/** The pulka as an SVG. */
export function pulka(state) {
  const n = state.table.players;
  const data = sheetData(state);
  const base = state.seat ?? 0;
  const pos = positions(n);
  const ps = paths(n);
  const target = state.table.profile.pool_target;
  const names = (s) => (state.table.seats[s] && state.table.seats[s].name) || t('seat.n', { n: s + 1 });
  const out = svg('svg', { viewBox: `-40 -40 ${W + 80} ${H + 80}`, class: 'pulka', role: 'img', 'aria-label': t('sheet.title') });
  out.append(svg('rect', { x: 0, y: 0, width: W, height: H, class: `${INK} frame` }));
  for (const k of [0.7, 0.42]) {
    const a = scale({ x: 0, y: 0 }, k); const b = scale({ x: W, y: H }, k);
    out.append(svg('rect', { x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y, class: INK }));
  }
  const rays = n === 4 ? [{ x: 0, y: 0 }, { x: W, y: 0 }, { x: W, y: H }, { x: 0, y: H }] : [{ x: W / 2, y: 0 }, { x: W, y: H }, { x: 0, y: H }];
  const R = 38;
  for (const r of rays) {
    const len = Math.hypot(r.x - C.x, r.y - C.y);
    const from = { x: C.x + (r.x - C.x) * (R / len), y: C.y + (r.y - C.y) * (R / len) };
    out.append(svg('line', { x1: from.x, y1: from.y, x2: r.x, y2: r.y, class: INK }));
  }
  out.append(svg('circle', { cx: C.x, cy: C.y, r: R, class: `${INK} hub` }));
  out.append(text(C, String(target), 'target'));
  for (let i = 0; i < n; i++) {
    const s = (base + i) % n;
    const path = ps[pos[i]];
    const g = svg('g', { class: `sector ${state.seat === s ? 'mine' : ''}`, 'data-seat': s });
    // The middle of the sector's long side: on a three-player sheet the side sectors bend
    // round a corner, and their pool and mountain sit beside the long edge.
    const midAt = n === 3 && pos[i] === 'left' ? 0.3 : n === 3 && pos[i] === 'right' ? 0.7 : 0.5;
    const mid = along(path, midAt);
    const closed = data.pool[s] >= target;
    g.append(text(scale(mid, 0.3), cell(state.sheetHistory, `p${s}`, data.pool[s]), `num pool ${closed ? 'closed' : ''}`));
    g.append(text(scale(mid, 0.56), cell(state.sheetHistory, `m${s}`, data.mountain[s]), 'num mountain'));
    const opp = n === 4 ? [(s + n - 1) % n, (s + 2) % n, (s + 1) % n] : [(s + n - 1) % n, (s + 1) % n];
    opp.forEach((o, j) => {
      const f0 = j / opp.length; const f1 = (j + 1) / opp.length;
      if (j > 0) {
        const p = along(path, f0);
        const a = scale(p, 0.7);
        g.append(svg('line', { x1: a.x, y1: a.y, x2: p.x, y2: p.y, class: `${INK} thin` }));
      }
      const at = scale(along(path, (f0 + f1) / 2), 0.85);
      const v = data.whists[s][o];
      g.append(text({ x: at.x, y: at.y - 8 }, v ? cell(state.sheetHistory, `w${s}-${o}`, v) : '', 'num whists'));
      g.append(text({ x: at.x, y: at.y + 16 }, t('sheet.on', { name: names(o) }), 'hint'));
    });
    const label = scale(mid, 1.0);
    const dx = label.x - C.x; const dy = label.y - C.y; const l = Math.hypot(dx, dy) || 1;
    const side = pos[i] === 'left' ? -90 : pos[i] === 'right' ? 90 : 0;
    const edge = side ? { x: side < 0 ? -20 : W + 20, y: H / 2 } : { x: label.x + (dx / l) * 22, y: label.y + (dy / l) * 22 };
    g.append(text(edge, names(s), 'who', side));
    out.append(g);
  }
  return out;
}

/** An exact result sent as "n" or "n/d", as a number for display. */
function ratio(text) {
  const [n, d] = String(text).split('/').map(Number);
  return d ? n / d : n;
}

/** The R10.3 charge of seat `s` at an agreed stop, with its formula, from the server's lines. */
function stopCell(state, lines, s) {
  const l = lines.find((x) => (x.converted ? x.converted.seat : x.seat) === s);
  if (!l) return h('td', { class: 'stop' }, '0');
  const m = l.converted ? l.converted.mountain : l.amount;
  const formula = t('sheet.stop_formula', {
    target: state.table.profile.pool_target, pool: state.table.sheet.pool[s], missing: l.missing,
    ppw: state.table.profile.pool_point_whists, m,
  });
  const whists = l.converted ? t('sheet.stop_whists', { n: l.amount }) : null;
  return h('td', { class: 'stop' }, h('b', {}, `+${m}`), h('div', { class: 'formula' }, formula), whists && h('div', { class: 'formula' }, whists));
}

function settlementTable(state) {
  const data = sheetData(state);
  if (!data.settlement) return null;
  const n = state.table.players;
  const stop = (state.table.settlement && state.table.settlement.stop) || [];
  const rows = [];
  for (let s = 0; s < n; s++) {
    const wrote = data.whists[s].reduce((a, b) => a + b, 0);
    const on = data.whists.reduce((a, row) => a + row[s], 0);
    const r = ratio(data.settlement[s]);
    rows.push(h('tr', {},
      h('th', { scope: 'row' }, (state.table.seats[s] && state.table.seats[s].name) || ''),
      h('td', {}, data.pool[s]), h('td', {}, data.mountain[s]), stop.length ? stopCell(state, stop, s) : null,
      h('td', {}, wrote), h('td', {}, on),
      h('td', { class: r >= 0 ? 'plus' : 'minus' }, (r > 0 ? '+' : '') + (Math.round(r * 100) / 100))));
  }
  const cols = ['pool', 'mountain', stop.length ? 'stop' : null, 'wrote', 'received', 'result'].filter(Boolean);
  return h('div', { class: 'settlement-holder' },
    h('table', { class: 'settlement', id: 'settlement' },
      h('caption', {}, t('sheet.settlement')),
      h('thead', {}, h('tr', {}, h('th', {}, ''), cols.map((k) => h('th', { scope: 'col' }, k === 'stop' ? [t('sheet.stop'), ' ', ruleLink('R10.3')] : t(`sheet.${k}`))))),
      h('tbody', {}, rows)),
    stop.length ? h('p', { class: 'legend' }, t('sheet.stop_note')) : null,
    stop.length ? stopLines(state, stop) : null);
}

/** The game record, where the server hands it out: at the end, or after each deal when
 * the hands are shown after the deal anyway. */
function recordLink(state) {
  const tb = state.table;
  const ready = tb.phase === 'over' || (tb.deals_finished > 0 && tb.profile.reveal_after_deal);
  if (!ready) return null;
  return h('p', {}, h('a', {
    class: 'button secondary', id: 'record', href: `/api/tables/${state.id}/record`, download: `preferans-${state.id.slice(0, 8)}.json`,
  }, t('sheet.record')));
}

/** The sheet panel: pulka, legend, settlement when the game is over, the score log, the
 * record. */
export function sheetPanel(state) {
  return h('section', { class: 'sheet', id: 'sheet' },
    h('h2', {}, t('sheet.title')),
    pulka(state),
    h('p', { class: 'legend' }, t('sheet.legend')),
    settlementTable(state),
    scoreLog(state),
    recordLink(state),
    analysisLink(state));
}
