// Why: during play a player looks back over the deal as at a real table, where the tricks
// lie turned in front of their winners: every completed trick of the deal so far, and the
// talon once it was shown, always one tap away. The snapshot brings what was played before
// the page opened (`so_far`, the server's, projected for this viewer like everything else);
// the deal's events extend it. Only cards every player has seen are drawn here.

import { h } from './dom.js';
import { t } from './i18n.js';
import { chip } from './cards.js';

/** Takes the snapshot's deal so far in place of the page's. */
export function reviewFromSnapshot(state, snap) {
  const s = snap.so_far || {};
  state.review = { tricks: [...(s.tricks || [])], talon: [...(s.talon || [])], trick: [...((snap.deal && snap.deal.trick) || [])] };
}

/** Follows one event message: the deal's talon, cards and tricks. */
export function reviewNews(state, msg) {
  const item = msg.event;
  if (!item || item.kind !== 'deal' || !state.review) return;
  const e = item.event;
  const r = state.review;
  switch (e.type) {
    case 'dealt': state.review = { tricks: [], talon: [], trick: [] }; break;
    case 'talon_turned': r.talon = [...e.cards]; break;
    case 'talon_card_turned':
      r.talon.push(e.card);
      if (state.snap.deal && state.snap.deal.players === 4) r.trick.push({ seat: state.snap.deal.dealer, card: e.card });
      break;
    case 'played': r.trick.push({ seat: e.seat, card: e.card }); break;
    case 'trick_taken': r.tricks.push({ cards: r.trick, winner: e.seat }); r.trick = []; break;
    default: break;
  }
}

/** The deal so far: talon and tricks, folded; nothing before the talon or first trick. */
export function reviewPanel(state) {
  const r = state.review;
  const d = state.snap && state.snap.deal;
  if (!r || !d || (r.tricks.length === 0 && r.talon.length === 0)) return null;
  const name = (s) => (state.table.seats[s] && state.table.seats[s].name) || t('seat.n', { n: s + 1 });
  if (state.reviewOpen === undefined) state.reviewOpen = false;
  return h('details', {
    class: 'deal-review', id: 'deal-review', open: state.reviewOpen,
    ontoggle: (e) => { state.reviewOpen = e.target.open; },
  },
  h('summary', {}, t('review.title', { n: r.tricks.length })),
  r.talon.length ? h('p', { class: 'review-talon', id: 'review-talon' }, t('review.talon'), ' ', r.talon.map(chip)) : null,
  r.tricks.length ? h('ol', { class: 'review-tricks', id: 'review-tricks' }, r.tricks.map((tr) => h('li', { 'data-winner': tr.winner },
    tr.cards.map((c) => h('span', { class: 'review-card' }, chip(c.card), ' ', h('small', {}, name(c.seat)))),
    ' → ', h('b', {}, name(tr.winner))))) : null);
}
