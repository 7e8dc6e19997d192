// Why: the worked deal as an interactive diagram. The steps come from the server, which
// replays the game record through the rules core (GET /api/guide → `deal.steps`); this module
// only draws each step with the table's own card components and words around it, and moves
// between steps with previous / next / play.

import { h } from './dom.js';
import { t } from './i18n.js';
import { face, back, sortHand, bidLabel } from './cards.js';
import { bidText, cardsText, dash, entryList } from './guide-fmt.js';

const view = { step: 0, timer: null, redraw: null };

function caption(deal, s) {
  const who = (seat) => deal.players[seat];
  const w = s.what;
  switch (s.kind) {
    case 'deal': return t('g.d.step.deal', { dealer: who(w.dealer), first: who(deal.first_hand), hand: s.hands[0].length, talon: s.talon.length });
    case 'call': {
      let text;
      if (w.call === 'pass') text = t('g.d.step.pass', { who: who(w.seat) });
      else if (w.here) text = t('g.d.step.here', { who: who(w.seat), bid: bidText(w.call) });
      else text = t('g.d.step.bid', { who: who(w.seat), bid: bidText(w.call) });
      if (w.won) text += ` ${t('g.d.step.won', { who: who(s.declarer), talon: cardsText(s.talon), n: s.hands[s.declarer].length })}`;
      return text;
    }
    case 'discard': return t('g.d.step.discard', { who: who(w.seat), cards: cardsText(w.cards) });
    case 'declare': return t('g.d.step.declare', { who: who(w.seat), contract: bidText(w.contract) });
    case 'whist': return t(`g.d.step.whist.${w.call}`, { who: who(w.seat) });
    case 'defence': return t(`g.d.step.defence.${w.defence}`, { who: who(w.seat) });
    case 'trick': return t('g.d.step.trick', {
      no: w.no, leader: who(w.leader), cards: cardsText(w.cards.map((c) => c.card)), winner: who(w.winner),
    });
    default: return '';
  }
}

function seatBox(deal, s, seat) {
  const roles = [];
  if (seat === deal.dealer) roles.push(t('g.d.dealer'));
  if (seat === deal.first_hand) roles.push(t('g.d.first'));
  if (s.declarer === seat) roles.push(t('g.d.declarer'));
  const call = s.whists[seat];
  return h('div', { class: `g-seat g-seat-${seat}`, dataset: { seat } },
    h('div', { class: 'g-seat-head' },
      h('b', {}, deal.players[seat]), roles.length ? h('span', { class: 'g-roles' }, roles.join(' · ')) : null,
      call ? h('span', { class: 'g-whist' }, t(`g.w.${call}`)) : null,
      h('span', { class: 'seat-tricks', dataset: { seat } }, t('g.d.tricks', { n: s.tricks[seat] }))),
    h('div', { class: 'hand g-hand', style: `--n: ${Math.max(s.hands[seat].length, 2)}` },
      sortHand(s.hands[seat]).map((c) => face(c, { cls: 'small' }))));
}

function centre(deal, s) {
  const calls = h('ol', { class: 'g-calls', id: 'deal-calls' }, s.calls.map((c) =>
    h('li', { class: c.here ? 'here' : '' }, h('b', {}, deal.players[c.seat]), ' ', bidLabel(c.call),
      c.here ? h('span', { class: 'g-here' }, ` ${t('call.here')}`) : null)));
  const discarded = s.discard.length > 0;
  const talon = h('div', { class: 'g-talon' },
    h('span', { class: 'g-label' }, t(discarded ? 'g.d.discard' : 'g.d.talon')),
    discarded ? s.discard.map((c) => face(c, { cls: 'small' }))
      : s.talon_up ? s.talon.map((c) => face(c, { cls: 'small' })) : s.talon.map(() => back('small')));
  const contract = s.contract ? h('div', { class: 'g-contract' }, t('g.d.contract'), ' ', bidLabel(s.contract)) : null;
  const trick = s.trick ? h('div', { class: 'g-trick', id: 'deal-trick' },
    h('span', { class: 'g-label' }, t('g.d.trick_no', { no: s.trick.no })),
    s.trick.cards.map((c) => h('figure', { class: c.seat === s.trick.winner ? 'won' : '' },
      face(c.card, { cls: 'small' }), h('figcaption', {}, deal.players[c.seat])))) : null;
  return h('div', { class: 'g-centre' }, calls, talon, contract, trick);
}

function result(deal) {
  const o = deal.outcome;
  return h('div', { class: 'g-result', id: 'deal-result' },
    h('p', {}, t('g.d.result', {
      who: deal.players[o.declarer], contract: bidText(o.contract), tricks: dash(o.tricks),
      taken: o.tricks[o.declarer], level: o.contract.replace(/\D+$/, ''),
    })),
    entryList(deal.sheet, null, deal.players));
}

function stop() {
  clearInterval(view.timer);
  view.timer = null;
}

function go(deal, i) {
  view.step = Math.max(0, Math.min(deal.steps.length - 1, i));
  if (view.step === deal.steps.length - 1) stop();
  view.redraw();
}

/** The diagram; `redraw` is called to draw it again after a step changes. */
export function dealDiagram(deal, redraw) {
  view.redraw = redraw;
  const last = deal.steps.length - 1;
  const s = deal.steps[view.step];
  const playing = view.timer !== null;
  const controls = h('div', { class: 'g-controls' },
    h('button', { type: 'button', id: 'deal-prev', disabled: view.step === 0, onclick: () => { stop(); go(deal, view.step - 1); } }, `◀ ${t('g.d.prev')}`),
    h('button', { type: 'button', id: 'deal-play', onclick: () => {
      if (playing) { stop(); redraw(); return; }
      if (view.step === last) view.step = 0;
      view.timer = setInterval(() => go(deal, view.step + 1), 1200);
      redraw();
    } }, playing ? `❚❚ ${t('g.d.pause')}` : `▶ ${t('g.d.play')}`),
    h('button', { type: 'button', id: 'deal-next', disabled: view.step === last, onclick: () => { stop(); go(deal, view.step + 1); } }, `${t('g.d.next')} ▶`),
    h('span', { class: 'g-count', id: 'deal-count' }, t('g.d.count', { n: view.step + 1, total: last + 1 })));
  const seats = deal.players.map((_, seat) => seatBox(deal, s, seat));
  return h('div', { class: 'g-deal', id: 'deal-diagram', dataset: { step: view.step, kind: s.kind, trick: s.trick ? s.trick.no : 0 } },
    controls,
    h('p', { class: 'g-caption', id: 'deal-caption', 'aria-live': 'polite' }, caption(deal, s)),
    h('div', { class: 'diagram-scroll', id: 'diagram-scroll' },
      h('div', { class: 'g-board' }, seats[1], centre(deal, s), seats[2], seats[0])),
    view.step === last ? result(deal) : null);
}

/** The hands as dealt and every trick, for print (the diagram shows one step at a time). */
export function dealtHands(deal) {
  const tricks = deal.steps.filter((s) => s.kind === 'trick').map((s) => s.trick);
  return h('div', { class: 'g-dealt print-only' }, deal.dealt.map((hand, seat) =>
    h('p', {}, h('b', {}, `${deal.players[seat]}: `), cardsText(sortHand(hand)))),
  h('p', {}, h('b', {}, `${t('g.d.talon')}: `), cardsText(deal.steps[0].talon)),
  h('table', { class: 'g-table' },
    h('thead', {}, h('tr', {}, [t('g.t.trick'), t('g.t.leader'), t('g.t.cards'), t('g.t.winner')].map((x) => h('th', {}, x)))),
    h('tbody', {}, tricks.map((tr) => h('tr', {}, [String(tr.no), deal.players[tr.leader], cardsText(tr.cards.map((c) => c.card)), deal.players[tr.winner]].map((x) => h('td', {}, x)))))));
}
