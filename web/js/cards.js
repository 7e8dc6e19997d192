// Why: cards arrive as record codes ("TH", "7S"); this module knows suits and ranks, sorts a
// hand by suit, and draws crisp SVG/CSS cards. The deck is four-coloured (♠ black, ♣ green,
// ♦ blue, ♥ red) and every suit has its own shape, so no suit is told by colour alone.

import { h, svg } from './dom.js';
import { t } from './i18n.js';

export const SUITS = ['S', 'C', 'D', 'H'];
const RANKS = ['7', '8', '9', 'T', 'J', 'Q', 'K', 'A'];

const SUIT_PATHS = {
  S: 'M50 4C36 24 8 38 8 60c0 13 10 22 22 22 8 0 14-4 17-9-1 9-5 17-12 22h30c-7-5-11-13-12-22 3 5 9 9 17 9 12 0 22-9 22-22C92 38 64 24 50 4Z',
  H: 'M50 90C22 68 6 50 6 30 6 16 17 6 29 6c9 0 17 5 21 14C54 11 62 6 71 6c12 0 23 10 23 24 0 20-16 38-44 60Z',
  D: 'M50 3 86 50 50 97 14 50Z',
  C: 'M50 6a19 19 0 0 0-16 29 19 19 0 1 0 13 30c-1 12-5 21-12 29h30c-7-8-11-17-12-29a19 19 0 1 0 13-30A19 19 0 0 0 50 6Z',
};

export const suitOf = (code) => code.slice(-1);
export const rankOf = (code) => code.slice(0, -1);

/** The rank as players of the current language write it (10, or Т К Д В in Russian). */
export function rankLabel(code) {
  const r = rankOf(code);
  return r === 'T' ? '10' : t(`rank.${r}`);
}

/** A suit symbol as a small inline SVG. */
export function suitIcon(suit, cls = 'suit') {
  return svg('svg', { class: `${cls} s-${suit}`, viewBox: '0 0 100 100', 'aria-hidden': 'true' },
    svg('path', { d: SUIT_PATHS[suit] }));
}

/** Sorts a hand: suits alternate colours (♠ ♦ ♣ ♥), high cards first within a suit. */
export function sortHand(cards) {
  const order = { S: 0, D: 1, C: 2, H: 3 };
  return [...cards].sort((a, b) =>
    order[suitOf(a)] - order[suitOf(b)] || RANKS.indexOf(rankOf(b)) - RANKS.indexOf(rankOf(a)));
}

/** Spoken name for screen readers and titles: "10♥". */
export function cardName(code) {
  return `${rankLabel(code)} ${t(`suit.${suitOf(code)}`)}`;
}

/** A face-up card. `data-card` carries its code: only cards the viewer may see exist in the DOM. */
export function face(code, { button = false, cls = '' } = {}) {
  const s = suitOf(code);
  const el = h(button ? 'button' : 'div', {
    class: `card face s-${s} ${cls}`.trim(),
    dataset: { card: code },
    title: cardName(code),
    'aria-label': cardName(code),
    type: button ? 'button' : undefined,
  },
  h('span', { class: 'corner' }, h('b', { class: 'rank' }, rankLabel(code)), suitIcon(s, 'pip')),
  suitIcon(s, 'big'));
  return el;
}

/** A small face-up card inside a line of text: its rank and its suit's glyph. */
export function chip(code) {
  const s = suitOf(code);
  return h('span', { class: `card-chip s-${s}`, 'data-card': code, title: cardName(code) }, rankLabel(code), suitIcon(s, 'pip'));
}

/** A card face down: carries nothing about the card. */
export function back(cls = '') {
  return h('div', { class: `card back ${cls}`.trim(), 'aria-hidden': 'true' });
}

/** A contract or bid code ("7H", "6NT", "misere", "pass") drawn for players. */
export function bidLabel(code) {
  if (code === 'pass') return h('span', { class: 'bid' }, t('call.pass'));
  if (code === 'misere') return h('span', { class: 'bid' }, t('call.misere'));
  if (code === 'misere_no_talon') return h('span', { class: 'bid' }, t('call.misere_no_talon'));
  if (code === 'nine_no_talon') return h('span', { class: 'bid' }, t('call.nine_no_talon'));
  const m = /^(\d+)(NT|[SCDH])$/.exec(code);
  if (!m) return h('span', { class: 'bid' }, code);
  return h('span', { class: 'bid' }, m[1],
    m[2] === 'NT' ? h('span', { class: 'nt' }, t('call.nt')) : suitIcon(m[2], 'pip'));
}
