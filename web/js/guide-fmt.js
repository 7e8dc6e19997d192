// Why: the guide's words around the numbers the server computed (GET /api/guide): a deal's
// outcome in one line, the entries a sheet gained, bids and cards as text, exact fractions.
// Every number shown comes from the data; this module only puts words around it.

import { h } from './dom.js';
import { t } from './i18n.js';
import { rankLabel, suitOf } from './cards.js';

export const SEATS = ['A', 'B', 'C', 'D'];
const SYMBOL = { S: '♠', C: '♣', D: '♦', H: '♥' };

/** A bid or contract code ("7H", "6NT", "misere", "pass") as text. */
export function bidText(code) {
  if (code === 'pass') return t('call.pass');
  if (code === 'misere') return t('call.misere');
  const m = /^(\d+)(NT|[SCDH])$/.exec(code);
  if (!m) return code;
  return `${m[1]}${m[2] === 'NT' ? ` ${t('call.nt')}` : SYMBOL[m[2]]}`;
}

/** Cards as text: "A♥ 9♣". */
export const cardsText = (cards) => cards.map((c) => `${rankLabel(c)}${SYMBOL[suitOf(c)]}`).join(' ');

/** Trick counts "7–3–0". */
export const dash = (list) => list.join('–');

/** An exact fraction from the server ("-154/3") as players write it: −51 1/3. */
export function ratio(text) {
  const [n, d] = String(text).split('/').map(Number);
  const sign = n < 0 ? '−' : '';
  const a = Math.abs(n);
  if (!d || d === 1) return `${sign}${a}`;
  const whole = Math.floor(a / d);
  return `${sign}${whole ? `${whole} ` : ''}${a % d}/${d}`;
}

/** A signed whole number for a change: +4, −2, and 0 without a sign. */
export const signed = (n) => (n === 0 ? '0' : n < 0 ? `−${-n}` : `+${n}`);

/** One line for an outcome (the shape of `outcome_json` in guide.rs). */
export function describe(o, names = SEATS) {
  const tricks = o.tricks ? t('g.o.tricks', { tricks: dash(o.tricks) }) : t('g.o.unplayed');
  if (o.kind === 'raspasy') return `${t('g.o.raspasy')} · ${tricks}`;
  if (o.kind === 'misere') return `${names[o.declarer]}: ${t('call.misere')} · ${tricks}`;
  const calls = (o.whist || []).map((w, s) => (w ? `${names[s]} ${t(`g.w.${w}`)}` : null)).filter(Boolean).join(', ');
  const defence = o.defence ? ` (${t(`g.w.${o.defence}`)})` : '';
  return `${names[o.declarer]}: ${bidText(o.contract)} · ${calls}${defence} · ${tricks}`;
}

/** What `after` holds beyond `before` (both `{pool, mountain, whists}`), as a list of lines. */
export function entries(after, before = null, names = SEATS) {
  const n = after.pool.length;
  const was = before || { pool: Array(n).fill(0), mountain: Array(n).fill(0), whists: after.whists.map((r) => r.map(() => 0)) };
  const out = [];
  for (let s = 0; s < n; s++) {
    const m = after.mountain[s] - was.mountain[s];
    if (m) out.push(t('g.e.mountain', { who: names[s], n: signed(m) }));
  }
  for (let a = 0; a < n; a++) {
    for (let b = 0; b < n; b++) {
      const w = after.whists[a][b] - was.whists[a][b];
      if (w) out.push(t('g.e.whists', { from: names[a], n: w, to: names[b] }));
    }
  }
  for (let s = 0; s < n; s++) {
    const p = after.pool[s] - was.pool[s];
    if (p) out.push(t('g.e.pool', { who: names[s], n: signed(p) }));
  }
  if (!out.length) out.push(t('g.e.nothing'));
  return out;
}

/** The entries as a compact list element. */
export const entryList = (after, before, names) =>
  h('ul', { class: 'entries' }, entries(after, before, names).map((line) => h('li', {}, line)));
