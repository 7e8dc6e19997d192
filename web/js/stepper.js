// Why: a player or a spectator looks back one step at a time, as over a real table: every
// call of the auction in order, the talon when it was turned, the discard where this viewer
// saw it, then every completed trick, with who won it. During the deal everything shown
// comes from what the page was already told for this viewer (the auction log, the deal so
// far, its own hand, the talon and discard the server projected for it), so the step-through
// shows no card the viewer has not seen, and a step whose cards the page was not told is
// left out, never fetched. Once the deal is over and the server shows its cards to everybody
// (`reveal_after_deal`, or the game over), every hand at every trick comes from the server
// (GET /api/tables/ID/deals/N/hands, which answers 409 before that): the page only steps
// through the positions it is given and works out none.

import { h } from './dom.js';
import { t } from './i18n.js';
import { chip } from './cards.js';
import { callLabel } from './auctionlog.js';

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

/** The talon as this viewer was shown it whole (not on raspasy, where its cards open tricks). */
function talonSeen(d) {
  if (d.kind === 'raspasy') return [];
  const cards = (d.revealed && d.revealed.talon) || d.talon || [];
  return cards.every(Boolean) ? cards : [];
}

/** The discard if the server told it to this viewer (its declarer, or the record after the deal). */
function discardSeen(d) {
  const cards = (d.revealed && d.revealed.discard) || d.discard || [];
  return cards.every(Boolean) ? cards : [];
}

/** The deal's hands position by position once the server shows them to everybody: asked for
 *  once per finished deal (the answer redraws the page); null until it has come. */
export function dealHands(state) {
  const d = state.snap && state.snap.deal;
  const no = state.snap && state.snap.deal_no;
  const over = state.table && state.table.phase === 'over';
  if (!d || d.stage !== 'finished' || !(d.revealed || over) || no === undefined || no === null) return null;
  const held = state.stepHands;
  if (held && held.deal === no) return held.data;
  state.stepHands = { deal: no, data: null };
  fetch(`/api/tables/${state.id}/deals/${no}/hands`)
    .then((res) => (res.ok ? res.json() : null))
    .then((data) => {
      if (data && state.stepHands && state.stepHands.deal === no) {
        state.stepHands.data = data;
        state.redraw();
      }
    })
    .catch(() => {});
  return null;
}

/** Every step in order: each call, the talon, the discard, each completed trick, and after
 *  the deal the cards left unplayed (a claim, a surrender). */
export function positions(state) {
  const d = state.snap && state.snap.deal;
  const r = state.review;
  if (!d) return [];
  const all = dealHands(state);
  const calls = (state.auction || []).map((c, i) => ({ kind: 'call', i }));
  const talon = talonSeen(d);
  const discard = all ? all.discard : discardSeen(d);
  const left = all && all.left.some((cards) => cards.length) ? [{ kind: 'left', hands: all.left }] : [];
  return [
    ...calls,
    ...(talon.length ? [{ kind: 'talon', cards: talon }] : []),
    ...(discard.length ? [{ kind: 'discard', cards: discard }] : []),
    ...(r ? r.tricks.map((_, k) => ({ kind: 'trick', k, hands: all ? all.tricks[k] : null })) : []),
    ...left,
  ];
}

/** Every seat's cards at one position, as the server gave them (a four-player dealer's empty
 *  hand left out). */
function handsPart(hands, name) {
  return h('div', { class: 'step-hands', id: 'step-hands' }, hands.map((cards, seat) => (cards.length
    ? h('p', { class: 'step-seat', dataset: { seat } }, h('small', {}, name(seat)), ' ', cards.map(chip))
    : null)));
}

/** The calls made up to step `p.i`, the last one marked. */
function callsPart(state, p, name) {
  const log = state.auction.slice(0, p.i + 1);
  return h('ol', { class: 'step-calls', id: 'step-calls' }, log.map((c, j) => h('li', {
    class: j === p.i ? 'step-now' : null, dataset: { seat: c.seat, call: c.call, ...(c.here ? { here: 'true' } : {}) },
  }, h('small', {}, name(c.seat)), ' ', callLabel(c))));
}

/** One step's body and its place in words. */
function stepBody(state, p, name) {
  const r = state.review;
  switch (p.kind) {
    case 'call': return { where: t('step.call', { k: p.i + 1, n: state.auction.length }), body: callsPart(state, p, name) };
    case 'talon': return { where: t('deal.talon'), body: h('p', { id: 'step-talon' }, p.cards.map(chip)) };
    case 'discard': return { where: t('deal.discard'), body: h('p', { id: 'step-discard' }, p.cards.map(chip)) };
    case 'trick': {
      const tr = r.tricks[p.k];
      const held = p.hands ? null : handAt(state, p.k);
      return {
        where: t('step.trick', { k: p.k + 1, n: r.tricks.length }),
        body: [h('p', { id: 'step-cards' }, tr.cards.map((c) => h('span', { class: 'review-card' }, chip(c.card), ' ', h('small', {}, name(c.seat)))),
          ' → ', h('b', {}, name(tr.winner))),
        held ? h('p', { id: 'step-hand' }, t('step.hand'), ' ', held.map(chip)) : null,
        p.hands ? [h('p', {}, t('step.hands')), handsPart(p.hands, name)] : null],
      };
    }
    case 'left': return { where: t('step.left'), body: handsPart(p.hands, name) };
    default: throw new Error(`a step ${p.kind}`);
  }
}

/** Back / forward through the auction, talon, discard and completed tricks of the deal so far. */
export function stepPanel(state) {
  const all = positions(state);
  if (all.length === 0) return null;
  const n = all.length;
  const at = Math.min(Math.max(state.stepAt ?? n - 1, 0), n - 1);
  const go = (to) => { state.stepAt = to; state.redraw(); };
  const name = (s) => (state.table.seats[s] && state.table.seats[s].name) || t('seat.n', { n: s + 1 });
  const p = all[at];
  const { where, body } = stepBody(state, p, name);
  const given = dealHands(state) ? 'true' : undefined;
  return h('section', { class: 'step-through', id: 'step-through', 'data-step': p.kind, 'data-at': at, 'data-trick': p.kind === 'trick' ? p.k : undefined, 'data-hands': given },
    h('p', { class: 'step-nav' },
      h('button', { type: 'button', id: 'step-back', disabled: at === 0, 'aria-label': t('step.back'), onclick: () => go(at - 1) }, '◀'),
      ' ', h('span', { id: 'step-where' }, where), ' ',
      h('button', { type: 'button', id: 'step-forward', disabled: at === n - 1, 'aria-label': t('step.forward'), onclick: () => go(at + 1) }, '▶')),
    body);
}
