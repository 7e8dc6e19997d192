// Why: during a deal a player looks back one trick at a time, as over a real table's turned
// tricks: back and forward through every completed trick, with who won it and, for a seated
// player, the hand he held when it was led. Everything shown comes from what the page was
// already told for this viewer (the deal so far, its own hand, the cards it saw played), so
// the step-through can show no card the viewer has not seen.

import { h } from './dom.js';
import { t } from './i18n.js';
import { chip } from './cards.js';

/** The viewer's own hand when trick `k` was led: the hand now with the cards it has played
 *  since (in trick `k` and after, and in the trick on the table). Null for a spectator. */
export function handAt(state, k) {
  const d = state.snap && state.snap.deal;
  const r = state.review;
  if (!d || !d.hand || state.seat === null || !r) return null;
  const mine = (cards) => cards.filter((c) => c.seat === state.seat).map((c) => c.card);
  const since = r.tricks.slice(k).flatMap((tr) => mine(tr.cards)).concat(mine(r.trick));
  return [...d.hand, ...since];
}

/** Back / forward through the completed tricks of the deal so far. */
export function stepPanel(state) {
  const r = state.review;
  if (!r || r.tricks.length === 0) return null;
  const n = r.tricks.length;
  const k = Math.min(Math.max(state.stepAt ?? n - 1, 0), n - 1);
  const go = (to) => { state.stepAt = to; state.redraw(); };
  const name = (s) => (state.table.seats[s] && state.table.seats[s].name) || t('seat.n', { n: s + 1 });
  const tr = r.tricks[k];
  const held = handAt(state, k);
  return h('section', { class: 'step-through', id: 'step-through', 'data-trick': k },
    h('p', { class: 'step-nav' },
      h('button', { type: 'button', id: 'step-back', disabled: k === 0, 'aria-label': t('step.back'), onclick: () => go(k - 1) }, '◀'),
      ' ', h('span', { id: 'step-where' }, t('step.trick', { k: k + 1, n })), ' ',
      h('button', { type: 'button', id: 'step-forward', disabled: k === n - 1, 'aria-label': t('step.forward'), onclick: () => go(k + 1) }, '▶')),
    h('p', { id: 'step-cards' }, tr.cards.map((c) => h('span', { class: 'review-card' }, chip(c.card), ' ', h('small', {}, name(c.seat)))),
      ' → ', h('b', {}, name(tr.winner))),
    held ? h('p', { id: 'step-hand' }, t('step.hand'), ' ', held.map(chip)) : null);
}
