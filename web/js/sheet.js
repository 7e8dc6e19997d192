// Why: the score sheet drawn as players know it on paper, the pulka: one sector per player
// with the mountain nearest the centre, the pool around it and the whists on each opponent
// along the edge, the pool target in the central circle. Values come from the server's
// sheets: as on paper, each cell shows the running totals it took deal by deal ("2.4.6"),
// read from the score log, so every viewer sees the same after a reload. At the end of the
// game the settlement table follows (with an agreed stop's R10.3 charges as their own column),
// then the deal-by-deal score log.

import { h, svg } from './dom.js';
import { t } from './i18n.js';
import { positions } from './seats.js';
import { scoreLog, ruleLink, stopLines } from './scorelog.js';
import { analysisLink } from './analysis-link.js';
import { ratingChangeCell, ratingChangeHead } from './ratings.js';

const W = 600;
const H = 440;
const C = { x: W / 2, y: H / 2 };
const INK = 'ink';
/** The hub's radius, and each band's outer edge and text line as a fraction of the way out
 * from the centre to the frame. */
const HUB = 38;
const BAND = { mountain: 0.42, pool: 0.7, mountainAt: 0.3, poolAt: 0.56, whistsAt: 0.85 };

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

/** How many of a cell's last values are written out; earlier ones are "…". */
const SHOWN = 4;
/** The smallest font a number is shrunk to before its earliest values give way to "…". */
const MIN_FONT = 18;

/** A text's width in ems, estimated: digits and letters about half an em, dots a third. */
function ems(value) {
  let w = 0;
  for (const ch of value) w += /[.,:·]/.test(ch) ? 0.32 : /[0-9]/.test(ch) ? 0.56 : 0.62;
  return w;
}

/** A cell's running totals as paper shows them, from the sheet after each deal: every
 * value it took, first to last, the zeros it started with left blank ("2.4.6"). `partial`:
 * the deals before the first sheet are not at hand yet. */
export function runningEntries(values) {
  const list = [];
  for (const v of values) if (list[list.length - 1] !== v) list.push(v);
  const shown = list.filter((v, i) => v !== 0 || i === list.length - 1);
  return shown.length === 1 && shown[0] === 0 ? [] : shown;
}

/** The entries as one line that fits `avail` units at `base` size or smaller: the font
 * shrinks, and below MIN_FONT the earliest entries give way to "…". */
function fitted(entries, partial, avail, base) {
  if (!entries.length) return { value: '', size: base };
  let keep = Math.min(entries.length, SHOWN);
  for (;;) {
    const cut = partial || keep < entries.length;
    const value = (cut ? '…' : '') + entries.slice(-keep).join('.');
    const size = Math.min(base, avail / Math.max(ems(value), 0.5));
    if (size >= MIN_FONT || keep <= 1) return { value, size: Math.max(Math.floor(size), Math.min(MIN_FONT, base)) };
    keep -= 1;
  }
}

/** A text at `p`, turned by `rotate` degrees, its font size `size`. */
function text(p, value, cls, rotate = 0, size = undefined) {
  const x = p.x.toFixed(1); const y = p.y.toFixed(1);
  return svg('text', {
    x, y, class: cls, 'text-anchor': 'middle', 'dominant-baseline': 'middle', 'font-size': size,
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

/** The sheets after each deal the page holds, first to last, ending with the sheet now, and
 * whether earlier deals are missing. At a table they are the server's score log
 * (`state.scoreLog`, whole once its pages came): the same for every viewer, after a reload
 * too; the scorekeeper's page hands its deals' sheets in `state.trail`. */
function sheetTrail(state) {
  if (state.trail) return { sheets: state.trail, partial: false };
  const log = state.scoreLog || [];
  const sheets = log.map((e) => e.sheet);
  if (state.table.sheet) sheets.push(state.table.sheet);
  return { sheets, partial: log.length > 0 && log[0].deal_no > 0 };
}

/** The direction of a polyline at fraction `f`: 'h' along a horizontal edge, else the turn
 * (−90 on the left edge, 90 on the right) that lays a text along it. */
function turnAt(pts, f) {
  const a = along(pts, Math.max(0, f - 0.001)); const b = along(pts, Math.min(1, f + 0.001));
  if (Math.abs(b.x - a.x) >= Math.abs(b.y - a.y)) return 0;
  return a.x < W / 2 ? -90 : 90;
}

/** The length of a polyline. */
function length(pts) {
  let total = 0;
  for (let i = 1; i < pts.length; i++) total += Math.hypot(pts[i].x - pts[i - 1].x, pts[i].y - pts[i - 1].y);
  return total;
}

/** The pulka as an SVG. Bands from the centre out, as on the paper sheet: the mountain
 * nearest the centre, then the pool, then the whists on each opponent along the edge. */
export function pulka(state) {
  const n = state.table.players;
  const data = sheetData(state);
  const trail = sheetTrail(state);
  const base = state.seat ?? 0;
  const pos = positions(n);
  const ps = paths(n);
  const target = state.table.profile.pool_target;
  const names = (s) => (state.table.seats[s] && state.table.seats[s].name) || t('seat.n', { n: s + 1 });
  const out = svg('svg', { viewBox: `-40 -40 ${W + 80} ${H + 80}`, class: 'pulka', role: 'img', 'aria-label': t('sheet.title') });
  out.append(svg('rect', { x: 0, y: 0, width: W, height: H, class: `${INK} frame` }));
  for (const k of [BAND.pool, BAND.mountain]) {
    const a = scale({ x: 0, y: 0 }, k); const b = scale({ x: W, y: H }, k);
    out.append(svg('rect', { x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y, class: `${INK} band` }));
  }
  const rays = n === 4 ? [{ x: 0, y: 0 }, { x: W, y: 0 }, { x: W, y: H }, { x: 0, y: H }] : [{ x: W / 2, y: 0 }, { x: W, y: H }, { x: 0, y: H }];
  for (const r of rays) {
    const len = Math.hypot(r.x - C.x, r.y - C.y);
    const from = { x: C.x + (r.x - C.x) * (HUB / len), y: C.y + (r.y - C.y) * (HUB / len) };
    out.append(svg('line', { x1: from.x, y1: from.y, x2: r.x, y2: r.y, class: `${INK} ray` }));
  }
  out.append(svg('circle', { cx: C.x, cy: C.y, r: HUB, class: `${INK} hub` }));
  out.append(text(C, String(target), 'target'));
  const values = (pick) => trail.sheets.map(pick);
  for (let i = 0; i < n; i++) {
    const s = (base + i) % n;
    const path = ps[pos[i]];
    const total = length(path);
    const g = svg('g', { class: `sector ${state.seat === s ? 'mine' : ''}`, 'data-seat': s });
    // The middle of the sector's long side: on a three-player sheet the side sectors bend
    // round a corner, and their pool and mountain sit beside the long edge.
    const midAt = n === 3 && pos[i] === 'left' ? 0.3 : n === 3 && pos[i] === 'right' ? 0.7 : 0.5;
    const mid = along(path, midAt);
    const turn = turnAt(path, midAt);
    // The long edge the inner bands follow: the whole side, or on a bent side its long part.
    const side = n === 3 && turn ? H : total;
    const closed = data.pool[s] >= target;
    const band = (k, cls, pick) => {
      const f = fitted(runningEntries(values(pick)), trail.partial, side * k * 0.78, 30);
      return text(scale(mid, k), f.value, `num ${cls}`, turn, f.size);
    };
    g.append(band(BAND.mountainAt, 'mountain', (sh) => sh.mountain[s]));
    g.append(band(BAND.poolAt, `pool ${closed ? 'closed' : ''}`, (sh) => sh.pool[s]));
    const opp = n === 4 ? [(s + n - 1) % n, (s + 2) % n, (s + 1) % n] : [(s + n - 1) % n, (s + 1) % n];
    opp.forEach((o, j) => {
      const f0 = j / opp.length; const f1 = (j + 1) / opp.length;
      if (j > 0) {
        const p = along(path, f0);
        const a = scale(p, BAND.pool);
        g.append(svg('line', { x1: a.x, y1: a.y, x2: p.x, y2: p.y, class: `${INK} thin split` }));
      }
      const fm = (f0 + f1) / 2;
      const at = scale(along(path, fm), BAND.whistsAt);
      const rot = turnAt(path, fm);
      // The number toward the edge, the opponent's name toward the centre, across the band.
      const toward = rot === 0 ? { x: 0, y: at.y > C.y ? -1 : 1 } : { x: rot < 0 ? 1 : -1, y: 0 };
      const away = { x: -toward.x, y: -toward.y };
      const avail = (f1 - f0) * total * BAND.whistsAt * 0.72;
      const f = fitted(runningEntries(values((sh) => sh.whists[s][o])), trail.partial, avail, 30);
      g.append(text({ x: at.x + away.x * 10, y: at.y + away.y * 10 }, f.value, 'num whists', rot, f.size));
      const hint = t('sheet.on', { name: names(o) });
      g.append(text({ x: at.x + toward.x * 16, y: at.y + toward.y * 16 }, hint, 'hint', rot, Math.min(17, Math.floor(avail / ems(hint)))));
    });
    const label = scale(mid, 1.0);
    const dx = label.x - C.x; const dy = label.y - C.y; const l = Math.hypot(dx, dy) || 1;
    const edge = turn ? { x: turn < 0 ? -20 : W + 20, y: H / 2 } : { x: label.x + (dx / l) * 22, y: label.y + (dy / l) * 22 };
    g.append(text(edge, names(s), 'who', turn));
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
      h('td', { class: r >= 0 ? 'plus' : 'minus' }, (r > 0 ? '+' : '') + (Math.round(r * 100) / 100)),
      ratingChangeCell(state, s)));
  }
  const cols = ['pool', 'mountain', stop.length ? 'stop' : null, 'wrote', 'received', 'result'].filter(Boolean);
  return h('div', { class: 'settlement-holder' },
    h('table', { class: 'settlement', id: 'settlement' },
      h('caption', {}, t('sheet.settlement')),
      h('thead', {}, h('tr', {}, h('th', {}, ''), cols.map((k) => h('th', { scope: 'col' }, k === 'stop' ? [t('sheet.stop'), ' ', ruleLink('R10.3')] : t(`sheet.${k}`))), ratingChangeHead(state))),
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
