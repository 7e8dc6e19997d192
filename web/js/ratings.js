// Why: ratings as every page shows them (`docs/protocol.md` "Ratings"): a rating next to a
// name at a rated table ("1563? ±301", the "?" while provisional), the change a rated game
// made in the end-of-game table ("+63"), and on a player's page his rating per family with
// its history drawn as inline SVG from the server's numbers. The table's ratings are asked
// for once per set of seated names and phase, so a finished game shows its changes.

import { h, svg } from './dom.js';
import { t } from './i18n.js';
import { call } from './api.js';

/** A rating as text: the rounded mean, "?" while provisional, and the deviation. */
export function ratingText(r) {
  return `${r.rating}${r.provisional ? '?' : ''} ±${r.deviation}`;
}

/** A rating's element, with what it means in its title. */
export function ratingEl(r, attrs = {}) {
  const title = t('rt.deviation', { rating: r.rating, deviation: r.deviation, games: r.games })
    + (r.provisional ? ` · ${t('rt.provisional')}` : '');
  return h('span', { class: `rating ${r.provisional ? 'provisional' : ''}`, title, ...attrs }, ratingText(r));
}

/** A change as text: "+12", "−5", "0". */
export function changeText(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0';
}

// A rated table's ratings, by table id: { key (names and phase), seats (seat → SeatRating) }.
const tables = new Map();

/** The ratings of the table `state` shows, fetched again when its players or phase change;
 * `null` until they arrive (the marks fill in then). */
function seatRatings(state) {
  const tb = state.table;
  if (!tb || !tb.rated) return null;
  const key = `${tb.phase}\u0000${tb.seats.map((x) => (x && x.name) || '').join('\u0000')}`;
  let known = tables.get(state.id);
  if (!known || known.key !== key) {
    known = { key, seats: null };
    tables.set(state.id, known);
    call('GET', `/api/tables/${state.id}/ratings`).then((res) => {
      if (tables.get(state.id) !== known) return;
      known.seats = Object.fromEntries(res.seats.map((s) => [s.seat, s]));
      for (const el of document.querySelectorAll('[data-rating-seat]')) {
        const r = known.seats[el.dataset.ratingSeat];
        if (!r) continue;
        el.replaceWith(el.classList.contains('rating-change') ? changeEl(r, el.dataset.ratingSeat) : markEl(r, el.dataset.ratingSeat));
      }
    }).catch(() => {});
  }
  return known.seats;
}

function markEl(r, s) {
  return ratingEl(r.rating, { dataset: { ratingSeat: s } });
}

function changeEl(r, s) {
  const n = r.change;
  const cls = n === undefined || n === null ? '' : n > 0 ? 'plus' : n < 0 ? 'minus' : '';
  return h('b', { class: `rating-change ${cls}`, dataset: { ratingSeat: s }, title: ratingText(r.rating) },
    n === undefined || n === null ? '' : changeText(n));
}

/** The mark of a rated table, with its family (nothing at another table). */
export function ratedMark(state) {
  const rated = state.table && state.table.rated;
  return rated ? h('p', { class: 'rated-mark', id: 'rated-mark' }, t('rt.rated', { family: t(`rt.family.${rated}`) })) : null;
}

/** Seat `s`'s rating next to his name at a rated table (nothing at another table). */
export function ratingMark(state, s) {
  if (!state.table || !state.table.rated) return null;
  const seats = seatRatings(state);
  const r = seats && seats[s];
  return r ? markEl(r, s) : h('span', { class: 'rating', dataset: { ratingSeat: s } });
}

/** The end-of-game table's cell with seat `s`'s rating change; `null` at a table not rated. */
export function ratingChangeCell(state, s) {
  if (!state.table || !state.table.rated) return null;
  const seats = seatRatings(state);
  const r = seats && seats[s];
  return h('td', {}, r ? changeEl(r, s) : h('b', { class: 'rating-change', dataset: { ratingSeat: s } }));
}

/** The end-of-game table's column head for the rating changes, at a rated table. */
export function ratingChangeHead(state) {
  return state.table && state.table.rated ? h('th', { scope: 'col' }, t('rt.change')) : null;
}

/** A family's rating history as a line: the rating before the first rated game, then
 * after each. */
export function ratingChart(f) {
  const w = 600, hgt = 200, pad = 34;
  if (!f.history.length) return h('p', { class: 'hint' }, t('rt.no_ratings'));
  const first = f.history[0];
  const ys = [first.rating - first.change, ...f.history.map((p) => p.rating)];
  const lo = Math.min(...ys), hi = Math.max(...ys);
  const span = hi - lo || 1;
  const x = (i) => pad + ((w - 2 * pad) * i) / f.history.length;
  const y = (v) => hgt - pad - ((hgt - 2 * pad) * (v - lo)) / span;
  const line = ys.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const last = ys[ys.length - 1];
  return svg('svg', { class: 'chart rating-chart', id: `rating-chart-${f.family}`, viewBox: `0 0 ${w} ${hgt}`, role: 'img', 'aria-label': t('rt.chart') },
    svg('line', { class: 'axis', x1: pad, x2: w - pad, y1: hgt - pad, y2: hgt - pad }),
    svg('text', { x: 2, y: y(hi) + 4 }, String(hi)),
    hi !== lo ? svg('text', { x: 2, y: y(lo) + 4 }, String(lo)) : null,
    svg('text', { x: w - pad, y: hgt - 8, 'text-anchor': 'end' }, t('rt.games_n', { n: f.history.length })),
    svg('polyline', { class: 'line', points: line }),
    f.history.map((p, i) => svg('circle', { class: 'point', cx: x(i + 1), cy: y(p.rating), r: 3 },
      svg('title', {}, `${p.rating} (${changeText(p.change)}) · ${new Date(p.at * 1000).toLocaleDateString()}`))),
    svg('text', { x: x(f.history.length), y: y(last) - 8, 'text-anchor': 'end', class: 'last' }, String(last)));
}

/** A player's ratings per family with their charts, for his page (`null` without any). */
export async function ratingsSection(name) {
  const res = await call('GET', `/api/players/${encodeURIComponent(name)}/ratings`);
  const kind = res.bot ? 'bots' : 'people';
  return h('section', { id: 'ratings' },
    h('h2', {}, t('rt.title'), ' ', h('a', { class: 'small', href: `/ratings?kind=${kind}`, id: 'leaderboards-link' }, t('rt.leaderboards'))),
    res.families.length
      ? res.families.map((f) => h('div', { class: 'family', dataset: { family: f.family } },
        h('h3', {}, t(`rt.family.${f.family}`), ' ', ratingEl(f.rating, { id: `rating-${f.family}` })),
        ratingChart(f)))
      : h('p', { class: 'hint' }, t('rt.no_ratings')));
}
