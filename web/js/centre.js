// Why: the middle of the table: what is being played (contract, whists, defence), the talon,
// the trick in progress placed toward each player, the last trick on demand, and when the
// deal ends a summary with every hand if the profile reveals them.

import { h } from './dom.js';
import { t } from './i18n.js';
import { face, back, bidLabel, sortHand } from './cards.js';
import { trickArea, trickTools, trickHeld, finishedLastTrick } from './trick.js';
import { auctionLog } from './auctionlog.js';

const nameOf = (state, s) => (state.table.seats[s] && state.table.seats[s].name) || t('seat.n', { n: s + 1 });

/** One line saying what the deal is. */
/** The badges of a dark deal (×2, R8.11) and of a deal without talon (R4.6). */
function houseBadges(d) {
  const dark = d.dark && d.dark.deal;
  if (!dark && !d.no_talon) return null;
  return h('span', { class: 'house-badges' },
    dark ? h('span', { class: 'badge dark-deal', id: 'dark-badge', title: t('dark.badge_help') }, t('dark.badge')) : null,
    d.no_talon ? h('span', { class: 'badge no-talon', id: 'no-talon-badge' }, t('no_talon.badge')) : null);
}

function headline(state) {
  const line = headlineText(state);
  const badges = houseBadges(state.snap.deal);
  return badges ? h('div', { class: 'headline-row' }, line, badges) : line;
}

function headlineText(state) {
  const d = state.snap.deal;
  if (d.kind === 'raspasy') return h('p', { class: 'headline' }, t('deal.raspasy'));
  if (d.kind === 'misere') return h('p', { class: 'headline' }, t('deal.misere', { name: nameOf(state, d.declarer) }));
  if (d.declarer !== null && d.declarer !== undefined) {
    const code = d.contract || (d.highest && d.highest.bid);
    return h('p', { class: 'headline' }, t('deal.declarer', { name: nameOf(state, d.declarer) }), ' ',
      code ? bidLabel(code) : null,
      d.defence ? h('span', { class: 'defence' }, ' · ', t(`defence.${d.defence}`)) : null);
  }
  if (d.highest) return h('p', { class: 'headline' }, t('deal.highest', { name: nameOf(state, d.highest.seat) }), ' ', bidLabel(d.highest.bid));
  return h('p', { class: 'headline' }, t('deal.auction'));
}

function talon(state) {
  const d = state.snap.deal;
  const showBacks = d.stage === 'auction';
  if (!showBacks && !d.talon.some(Boolean)) return null;
  if (d.stage === 'play' && d.kind !== 'raspasy') return null;
  return h('div', { class: 'talon', 'aria-label': t('deal.talon') },
    h('span', { class: 'label' }, t('deal.talon')),
    d.talon.map((c) => (c ? face(c, { cls: 'small' }) : back('small'))),
    talonBonus(d));
}

/** R11.6: what the four-handed dealer writes for the talon, as the server computed it. */
function talonBonus(d) {
  const b = d.talon_bonus;
  if (!b) return null;
  const text = b.whists === undefined || b.whists === null
    ? t('deal.talon_bonus_units', { units: b.units })
    : t('deal.talon_bonus', { units: b.units, amount: b.whists });
  return h('span', { class: 'talon-bonus', id: 'talon-bonus' }, text);
}

/** The finished deal's outcome as the server's score log says it was (`null` until its
 * `deal_finished` arrives). */
function outcomeOf(state) {
  const entry = (state.scoreLog || []).find((x) => x.deal_no === state.snap.deal_no);
  return entry ? entry.outcome : null;
}

/** The result line of a finished deal: the server's outcome (made, undertricks), not worked
 * out here. */
function result(state) {
  const o = outcomeOf(state);
  if (!o) return null;
  if (o.kind === 'raspasy') return t('result.raspasy');
  const name = nameOf(state, o.declarer);
  if (o.kind === 'surrender') {
    // R4.5: no card was played; the down count is the table's agreement.
    const n = state.table.profile && state.table.profile.surrender;
    return n ? t('result.surrendered_down', { name, n }) : t('result.surrendered', { name });
  }
  const took = o.tricks ? o.tricks[o.declarer] : 0;
  if (o.kind === 'misere') return o.made ? t('result.misere_made', { name }) : t('result.misere_failed', { name, n: took });
  if (!o.tricks) return t('result.conceded', { name });
  return o.made ? t('result.made', { name, n: took }) : t('result.failed', { name, n: took, u: o.undertricks });
}

function summary(state) {
  const d = state.snap.deal;
  const n = state.table.players;
  const rows = [];
  for (let s = 0; s < n; s++) {
    const hand = d.revealed ? d.revealed.hands[s] : null;
    rows.push(h('div', { class: 'sum-row' },
      h('span', { class: 'name' }, nameOf(state, s)),
      h('span', { class: 'tricks' }, t('seat.tricks_n', { n: d.tricks_taken[s] })),
      hand && hand.length ? h('div', { class: 'mini-hand' }, sortHand(hand).map((c) => face(c, { cls: 'tiny' }))) : null));
  }
  return h('section', { class: 'summary', id: 'summary' },
    h('h2', {}, t('deal.over')),
    h('p', { class: 'result' }, result(state)),
    rows,
    d.revealed ? h('div', { class: 'sum-row' }, h('span', { class: 'name' }, t('deal.talon')),
      h('div', { class: 'mini-hand' }, d.revealed.talon.map((c) => face(c, { cls: 'tiny' }))),
      d.revealed.discard.length ? h('span', { class: 'name' }, t('deal.discard')) : null,
      h('div', { class: 'mini-hand' }, d.revealed.discard.map((c) => face(c, { cls: 'tiny' })))) : null,
    finishedLastTrick(state),
    auctionLog(state));
}

export function centre(state) {
  const d = state.snap.deal;
  if (!d) return h('div', { class: 'centre' }, h('p', { class: 'headline' }, t('table.waiting_deal')));
  // The deal's last trick stays on the table a moment before the summary replaces it.
  if (d.stage === 'finished') return h('div', { class: 'centre' }, trickHeld(state) ? trickArea(state) : summary(state));
  const playing = d.stage === 'play';
  return h('div', { class: 'centre' }, headline(state), auctionLog(state), talon(state),
    playing ? trickArea(state) : null, playing ? trickTools(state) : null);
}
