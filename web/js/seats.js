// Why: the seats around the table. Each seat shows its player, presence, dealer and role,
// last call, tricks taken and cards: the viewer's own hand face up and sorted by suit, other
// hands as backs with a count, or face up when the view says they are open.

import { h } from './dom.js';
import { t } from './i18n.js';
import { face, back, sortHand } from './cards.js';
import { botBadge } from './hostseats.js';
import { lastCall } from './auctionlog.js';
import { seatName } from './account.js';
import { ratingMark } from './ratings.js';

/** Screen positions for seat offsets from the viewer (clockwise: left, then across, then right). */
export function positions(n) {
  return n === 4 ? ['me', 'left', 'top', 'right'] : ['me', 'left', 'right'];
}

/** The seat at the bottom of the screen: the viewer's, or seat 0 for a spectator. */
export function baseSeat(state) {
  return state.seat ?? 0;
}

function whistText(call) {
  return call ? t(`whist.${call}`) : null;
}

function badges(state, s) {
  const d = state.snap.deal;
  const out = [];
  if (!d) return out;
  if (d.dealer === s) out.push(h('span', { class: 'badge dealer', title: t('seat.dealer') }, t('seat.dealer_short')));
  if (d.declarer === s) out.push(h('span', { class: 'badge declarer' }, t('seat.declarer')));
  const w = whistText(d.whist[s]);
  if (w) out.push(h('span', { class: `badge whist-${d.whist[s]}` }, w));
  if (d.stage === 'auction' && d.calls[s]) out.push(h('span', { class: 'badge call' }, lastCall(state, s)));
  return out;
}

/** The cards a seat shows, as the view allows. `playable` holds the codes the viewer may click. */
function cards(state, s, playable, selectable) {
  const d = state.snap.deal;
  if (!d) return null;
  const mine = state.seat === s && d.hand;
  const open = d.open_hands[s];
  const shown = mine ? d.hand : open;
  if (shown && shown.length === 0) return null;
  if (shown) {
    const sorted = sortHand(shown);
    return h('div', { class: `hand ${mine ? 'own' : 'open'}`, style: `--n:${sorted.length}`, dataset: { seat: s } },
      sorted.map((c) => {
        const legal = playable.has(c) || selectable.has(c);
        const el = face(c, { button: legal, cls: `${legal ? 'legal' : ''} ${state.selected.has(c) ? 'selected' : ''}` });
        if (legal) el.addEventListener('click', () => state.onCard(c));
        return el;
      }));
  }
  const n = d.hand_sizes[s];
  if (n === 0) return null;
  return h('div', { class: 'hand backs', style: `--n:${n}` },
    Array.from({ length: n }, () => back('small')),
    h('span', { class: 'count' }, String(n)));
}

/** One seat's box. */
export function seatBox(state, s, pos, playable, selectable) {
  const d = state.snap.deal;
  const info = state.table.seats[s] || {};
  const toAct = d && d.to_act === s && d.stage !== 'finished';
  const turnSeat = d && d.turn === s && d.stage === 'play';
  return h('section', {
    class: `seat pos-${pos} ${toAct ? 'to-act' : ''} ${turnSeat ? 'turn' : ''}`,
    dataset: { seat: s },
    'aria-label': info.name || t('seat.free'),
  },
  h('header', { class: 'seat-head' },
    h('span', { class: `presence ${info.connected ? 'on' : 'off'}`, title: t(info.connected ? 'seat.online' : 'seat.offline') }),
    info.name && !info.bot ? seatName(state.id, state.table.seats, s, info.name) : h('span', { class: 'name' }, info.name || t('seat.free')),
    botBadge(info),
    info.name ? ratingMark(state, s) : null,
    state.seat === s ? h('span', { class: 'you' }, t('seat.you')) : null,
    badges(state, s),
    d && d.stage !== 'auction' ? h('span', { class: 'tricks', title: t('seat.tricks') }, t('seat.tricks_n', { n: d.tricks_taken[s] })) : null),
  cards(state, s, playable, selectable));
}
