// Why: a screen reader hears the table as a player sees it. Every call, whist decision,
// contract, card and trick is said in the page's language in an ARIA live region that stays
// on the page across redraws (the table's own tree is rebuilt on every change): "Boris:
// 7 hearts", "Vera takes the trick". Only what the viewer was shown is said; the words come
// from the deal's events the page follows, not from any rule.

import { h } from './dom.js';
import { t } from './i18n.js';
import { cardName } from './cards.js';
import { contractText } from './scorelog.js';

/** The lines kept in the region: a reader hears each once, as it is added. */
const KEEP = 6;

/** The live region, made once and kept outside the redrawn tree. */
function region() {
  let el = document.getElementById('announcer');
  if (!el) {
    el = h('div', { id: 'announcer', class: 'sr-only', role: 'log', 'aria-live': 'polite', 'aria-atomic': 'false' });
    document.body.append(el);
  }
  return el;
}

/** Says `text` through the live region. */
export function say(text) {
  const el = region();
  el.append(h('p', {}, text));
  while (el.childElementCount > KEEP) el.firstElementChild.remove();
}

/** A call of the auction in words: "6♠", "pass", "misère". */
function callText(call) {
  if (call === 'pass') return t('call.pass');
  if (call === 'misere') return t('call.misere');
  return contractText(call);
}

/** What one event message says, or nothing. */
export function announcement(state, msg) {
  const item = msg.event;
  if (!item || item.kind !== 'deal') return null;
  const e = item.event;
  const name = (s) => (state.table.seats[s] && state.table.seats[s].name) || t('seat.n', { n: s + 1 });
  switch (e.type) {
    case 'called': return `${name(e.seat)}: ${callText(e.call)}${e.here ? ` ${t('call.here')}` : ''}`;
    case 'declared': return `${t('auction.plays', { name: name(e.seat) })} ${contractText(e.contract)}`;
    case 'whisted': return `${name(e.seat)}: ${t(`whist.${e.call}`)}`;
    case 'defence_chosen': return `${name(e.seat)}: ${t(`defence.${e.defence}`)}`;
    case 'talon_turned': return `${t('an.talon')}: ${e.cards.map(cardName).join(', ')}`;
    case 'talon_card_turned': return `${t('an.talon')}: ${cardName(e.card)}`;
    case 'played': return `${name(e.seat)}: ${cardName(e.card)}`;
    case 'trick_taken': return t('trick.taken_by', { name: name(e.seat) });
    default: return null;
  }
}

/** Follows one event message: says what it shows. */
export function announceNews(state, msg) {
  const text = announcement(state, msg);
  if (text) say(text);
}
