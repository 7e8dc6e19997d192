// Why: a trick must be seen whole before it goes. The events of the card that completes a
// trick (`played`, then `trick_taken` with the winner the server decided) arrive together, so
// the kept picture goes from two cards to an empty table at once; this module keeps the
// completed trick on the table for a moment (a setting, longer on the deal's last trick),
// marks its winner, then gathers it toward the winner. It also draws the trick in progress
// (each card by its player, the lead card on top so its index stays readable, new cards
// sliding in from their player's side) and the last trick on demand, during the deal and
// after it. The picture itself (`state.snap.deal`) is never changed here: only what is drawn.

import { h } from './dom.js';
import { t } from './i18n.js';
import { face } from './cards.js';
import { positions, baseSeat } from './seats.js';

const KEY = 'pref:trickPause';
/** The pauses offered, in milliseconds (0: gather at once). */
const PAUSES = [0, 500, 1000, 2000, 4000];
const GATHER_MS = 350;

/** How long a completed trick stays on the table: the player's setting, 1 s by default. */
export function trickPause() {
  const raw = localStorage.getItem(KEY);
  const v = Number(raw);
  return raw !== null && Number.isFinite(v) && v >= 0 ? v : 1000;
}

/** The deal's last trick stays longer: the result follows it. */
const lastPause = (p) => (p === 0 ? 0 : Math.max(2000, p * 2.5));

const reducedMotion = () => window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

const nameOf = (state, s) => (state.table.seats[s] && state.table.seats[s].name) || t('seat.n', { n: s + 1 });

function posOf(state, s) {
  const n = state.table.players;
  return positions(n)[(s - baseSeat(state) + n) % n];
}

function stop(state) {
  if (state.held) clearTimeout(state.held.timer);
  state.held = null;
}

/** Gathers the held trick toward its winner, then draws the table as the picture has it. */
function gather(state) {
  const held = state.held;
  if (!held || held.gathering) return;
  clearTimeout(held.timer);
  if (reducedMotion()) {
    state.held = null;
    state.redraw();
    return;
  }
  held.gathering = true;
  state.redraw();
  held.timer = setTimeout(() => {
    if (state.held === held) state.held = null;
    state.redraw();
  }, GATHER_MS);
}

function hold(state, trick, ms) {
  stop(state);
  if (!trick || ms <= 0) return;
  const held = { trick, gathering: false };
  held.timer = setTimeout(() => gather(state), ms);
  state.held = held;
}

/** Forgets what is drawn (a snapshot replaced the picture). */
export function trickReset(state) {
  stop(state);
  state.drawn = new Set();
}

/** Called after an event was applied to the picture: holds a completed trick on the table. */
export function trickNews(state, msg) {
  const item = msg.event;
  if (!item || item.kind !== 'deal') return;
  const e = item.event;
  const d = state.snap.deal;
  switch (e.type) {
    case 'dealt': trickReset(state); break;
    case 'trick_taken': hold(state, d.last_trick, trickPause()); break;
    case 'deal_over':
      if (state.held && !state.held.gathering) hold(state, state.held.trick, lastPause(trickPause()));
      break;
    case 'played':
      // The viewer's own card goes down at once: the held trick is gathered for it.
      if (state.held && state.seat !== null && d.controllers[e.seat] === state.seat) {
        stop(state);
      }
      break;
    default: break;
  }
}

/** Whether a completed trick is on the table now (the deal's end waits for it). */
export const trickHeld = (state) => !!state.held;

function playedCard(state, sc, i, winner) {
  const pos = posOf(state, sc.seat);
  if (!state.drawn) state.drawn = new Set();
  const fresh = !state.drawn.has(sc.card);
  state.drawn.add(sc.card);
  const won = winner === sc.seat;
  return h('div', {
    class: `played pos-${pos}${i === 0 ? ' led' : ''}${won ? ' winner' : ''}${fresh ? ' arrive' : ''}`,
    dataset: { seat: sc.seat, lead: i === 0 ? 'true' : undefined },
  }, face(sc.card), won ? h('span', { class: 'took', 'aria-hidden': 'true' }, '★') : null);
}

/** The trick on the table: the held one, the last one when asked for, or the one in play. */
export function trickArea(state) {
  const d = state.snap.deal;
  let cards = d.trick;
  let winner = null;
  let mode = 'live';
  if (state.showLast && d.last_trick) {
    ({ cards, winner } = d.last_trick);
    mode = 'last';
  } else if (state.held) {
    ({ cards, winner } = state.held.trick);
    mode = state.held.gathering ? 'gather' : 'held';
  }
  const to = winner === null ? '' : ` to-${posOf(state, winner)}`;
  return h('div', { class: 'trick-wrap' },
    h('div', {
      class: `trick ${mode}${to}`, id: 'trick',
      dataset: { mode, cards: cards.length, winner: winner === null ? undefined : winner },
    }, cards.map((sc, i) => playedCard(state, sc, i, winner))),
    winner === null ? null : h('p', { class: 'trick-caption', id: 'trick-winner', 'aria-live': 'polite' },
      t(mode === 'last' ? 'trick.last_taken_by' : 'trick.taken_by', { name: nameOf(state, winner) })));
}

function pauseLabel(ms) {
  return ms === 0 ? t('trick.pause_none') : t('trick.seconds', { n: ms / 1000 });
}

/** The last trick toggle and the pause setting, under the trick. */
export function trickTools(state) {
  const d = state.snap.deal;
  const current = trickPause();
  const options = PAUSES.includes(current) ? PAUSES : [...PAUSES, current].sort((a, b) => a - b);
  return h('div', { class: 'trick-tools' },
    lastTrickButton(state, d, 'deal.hide_last'),
    h('label', { class: 'trick-pause' }, t('trick.pause'), ' ',
      h('select', {
        id: 'trick-pause',
        onchange: (ev) => { localStorage.setItem(KEY, ev.target.value); },
      }, options.map((ms) => {
        const o = h('option', { value: String(ms) }, pauseLabel(ms));
        o.selected = ms === current;
        return o;
      }))));
}

function lastTrickButton(state, d, hide) {
  if (!d.last_trick) return null;
  return h('button', {
    type: 'button', class: 'secondary small', id: 'last-trick', 'aria-pressed': String(!!state.showLast),
    onclick: () => { state.showLast = !state.showLast; state.redraw(); },
  }, t(state.showLast ? hide : 'deal.last_trick'));
}

/** After the deal: the last trick, behind a button, inside the deal's summary. */
export function finishedLastTrick(state) {
  const d = state.snap.deal;
  if (!d.last_trick) return null;
  return h('div', { class: 'summary-trick' }, lastTrickButton(state, d, 'trick.hide_last'), state.showLast ? trickArea(state) : null);
}
