// Why: claims (R6.7) at the table, in one place. A player of the deal may claim at a trick
// boundary when the server's turn says so (`turn.claim`: the tricks left, the entries, a
// four-player dealer's zero); this module offers the common claims one tap away and a split
// editor, shows a pending claim to everybody (the claimer's cards are face up in his seat
// box, from `open_hands`), gives the player who answers next accept / reject, and writes the
// sentence of the score log for a deal that ended by a claim. It knows no rule: whether a
// claim may be made, and who answers, come from the server.

import { h } from './dom.js';
import { t } from './i18n.js';

const seatName = (state, s) => (state.table.seats[s] && state.table.seats[s].name) || t('seat.n', { n: s + 1 });

/** A claim's entries in words: "Anna 6 · Boris 1 · Vera 1". */
function splitText(claim, name) {
  return claim.map((n, s) => `${name(s)} ${n}`).join(' · ');
}

/**
 * A draft claim giving the claimer `mine` of the tricks left and the rest to the other
 * side: a defender's rest to the declarer, a declarer's rest spread over the other seats
 * (the dealer of four excepted), the odd trick to the first.
 */
function draftFor(state, room, mine) {
  const d = state.snap.deal;
  const me = state.seat;
  const entries = new Array(room.seats).fill(0);
  entries[me] = mine;
  const seats = [...entries.keys()].filter((s) => s !== me && s !== room.dealer);
  const others = d.declarer !== null && d.declarer !== undefined && d.declarer !== me ? [d.declarer] : seats;
  const rest = room.tricks_left - mine;
  others.forEach((s, i) => {
    entries[s] = Math.floor(rest / others.length) + (i < rest % others.length ? 1 : 0);
  });
  return { left: room.tricks_left, entries };
}

function claimButton(state, entries, label, id) {
  return h('button', {
    type: 'button', class: 'call wide', id, disabled: state.busy || state.syncing,
    onclick: () => { state.claimOpen = false; state.claimDraft = null; state.act({ claim: entries }); },
  }, label);
}

/** The split editor: one stepper per seat that may take tricks, and the send button. */
function editor(state, room, draft) {
  const name = (s) => seatName(state, s);
  const sum = draft.entries.reduce((a, b) => a + b, 0);
  const step = (s, by) => () => {
    const n = draft.entries[s] + by;
    if (n < 0 || n > room.tricks_left) return;
    draft.entries[s] = n;
    state.redraw();
  };
  const rows = draft.entries.map((n, s) => (s === room.dealer ? null : h('div', { class: 'claim-row', 'data-seat': s },
    h('span', { class: 'claim-name' }, s === state.seat ? t('claim.you') : name(s)),
    h('button', { type: 'button', class: 'secondary step', id: `claim-dec-${s}`, 'aria-label': t('claim.less', { name: name(s) }), onclick: step(s, -1) }, '−'),
    h('output', { class: 'claim-n', id: `claim-n-${s}` }, String(n)),
    h('button', { type: 'button', class: 'secondary step', id: `claim-inc-${s}`, 'aria-label': t('claim.more', { name: name(s) }), onclick: step(s, 1) }, '+'))));
  return h('div', { class: 'claim-editor', id: 'claim-editor' },
    h('div', { class: 'row' }, rows),
    h('div', { class: 'row' },
      h('span', { class: `claim-sum ${sum === room.tricks_left ? 'ok' : 'off'}` }, t('claim.sum', { sum, left: room.tricks_left })),
      h('button', {
        type: 'button', class: 'primary', id: 'claim-send', disabled: sum !== room.tricks_left || state.busy || state.syncing,
        onclick: () => { state.claimOpen = false; state.claimDraft = null; state.act({ claim: [...draft.entries] }); },
      }, t('claim.send'))));
}

/** The claim offer for a player who may claim now. */
function offer(state, room) {
  if (!state.claimOpen) {
    return h('div', { class: 'claim-offer' }, h('button', {
      type: 'button', class: 'secondary', id: 'claim-open',
      onclick: () => { state.claimOpen = true; state.redraw(); },
    }, t('claim.open')));
  }
  if (!state.claimDraft || state.claimDraft.left !== room.tricks_left) state.claimDraft = null;
  const draft = state.claimDraft;
  const pick = (n) => () => { state.claimDraft = draftFor(state, room, n); state.redraw(); };
  const counts = [];
  for (let n = 1; n < room.tricks_left; n++) {
    counts.push(h('button', { type: 'button', class: `call count ${draft && draft.entries[state.seat] === n ? 'here' : ''}`, id: `claim-count-${n}`, onclick: pick(n) }, String(n)));
  }
  return h('div', { class: 'claim-box', id: 'claim-box' },
    h('p', {}, t('claim.help', { left: room.tricks_left })),
    h('div', { class: 'row' },
      claimButton(state, draftFor(state, room, room.tricks_left).entries, t('claim.all'), 'claim-all'),
      h('button', { type: 'button', class: 'call wide', id: 'claim-none', onclick: pick(0) }, t('claim.none'))),
    counts.length ? h('div', { class: 'row claim-counts' }, h('span', {}, t('claim.some')), counts) : null,
    draft ? editor(state, room, draft) : null,
    h('button', {
      type: 'button', class: 'secondary claim-cancel', id: 'claim-cancel', 'aria-label': t('claim.cancel'), title: t('claim.cancel'),
      onclick: () => { state.claimOpen = false; state.claimDraft = null; state.redraw(); },
    }, '×'));
}

/** A claim waiting for answers, as everybody sees it; the answer buttons for who answers. */
function pending(state, claim) {
  const name = (s) => seatName(state, s);
  const legal = (state.snap.turn && state.snap.turn.legal) || [];
  const answers = new Set(legal.filter((a) => a && typeof a === 'object' && 'answer' in a).map((a) => a.answer));
  const mine = state.seat === claim.to_answer && answers.size > 0;
  return h('div', { class: 'claim-pending', id: 'claim-pending', 'data-claimer': claim.seat },
    h('p', { class: 'claim-title' }, t('claim.pending', { who: name(claim.seat) })),
    h('p', { class: 'claim-split', id: 'claim-split' }, splitText(claim.claim, name)),
    h('p', { class: 'claim-shown' }, t('claim.shown', { who: name(claim.seat) })),
    claim.accepted.length ? h('p', {}, t('claim.accepted_by', { names: claim.accepted.map(name).join(', ') })) : null,
    mine
      ? h('div', { class: 'row' },
        h('button', { type: 'button', class: 'primary', id: 'claim-accept', disabled: !answers.has('accept') || state.busy || state.syncing, onclick: () => state.act({ answer: 'accept' }) }, t('claim.accept')),
        h('button', { type: 'button', class: 'secondary', id: 'claim-reject', disabled: !answers.has('reject') || state.busy || state.syncing, onclick: () => state.act({ answer: 'reject' }) }, t('claim.reject')))
      : h('p', { class: 'claim-waiting' }, t('claim.waiting', { name: name(claim.to_answer) })));
}

/** Whether a claim is waiting for answers in the deal shown. */
export function claimPending(state) {
  const d = state.snap && state.snap.deal;
  return Boolean(d && d.stage === 'play' && d.claim && d.claim.to_answer !== null && d.claim.to_answer !== undefined);
}

/** The claim panel of the table: the pending claim, or the offer to claim, or nothing. */
export function claimPanel(state) {
  const d = state.snap && state.snap.deal;
  if (!d || d.stage !== 'play') return null;
  if (claimPending(state)) return pending(state, d.claim);
  const room = state.snap.turn && state.snap.turn.claim;
  if (!room || state.seat === null) {
    state.claimOpen = false;
    return null;
  }
  return offer(state, room);
}

/**
 * The analysis page's paragraph for a deal that ended by a claim all accepted
 * (`pref-analysis/1`'s `claim`): the claim against open-hand play from its trick on; null
 * for any other deal. `who` names a seat.
 */
export function claimAnalysis(d, who) {
  const c = d && d.claim;
  if (!c) return null;
  const split = splitText(c.claim, who);
  const verdict = c.fewer
    ? t(`claim.an.fewer_${c.fewer.side}`, { who: who(c.declarer), n: c.fewer.tricks })
    : t('claim.an.exact');
  return h('p', { id: 'an-claim' },
    t(c.trick === 0 ? 'claim.an.claim_start' : 'claim.an.claim', { who: who(c.seat), trick: c.trick, split }), ' ',
    t('claim.an.values', { who: who(c.declarer), claimed: c.claimed, open: c.open_hand }), ' ', verdict);
}

/** The score log's words for a deal that ended by a claim all accepted, or null. */
export function claimOutcome(outcome, name) {
  const c = outcome && outcome.claim;
  if (!c) return null;
  return t('claim.log', { who: name(c.seat), split: splitText(c.claim, name) });
}
