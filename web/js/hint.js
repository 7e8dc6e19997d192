// Why: at a practice table a player may ask, on his card-play turn, what the strong bot
// would play from his seat (the server works it out from that seat's view only, within a
// per-deal budget). The answer is the bot's card and its best alternatives, each with what
// it does in words and its sampled value, so the player learns why, not only what.

import { h } from './dom.js';
import { t } from './i18n.js';
import { chip } from './cards.js';

/** Whether the viewer may ask for a hint now: a practice table, his turn, cards to choose. */
function canAsk(state) {
  const d = state.snap && state.snap.deal;
  const legal = (state.snap && state.snap.turn && state.snap.turn.legal) || [];
  const cards = legal.filter((a) => a.play).length;
  return state.table.practice && d && state.seat !== null && d.to_act === state.seat && cards >= 2 && cards === legal.length;
}

/** Asks the server for a hint at the current version. */
async function ask(state, toast) {
  state.hintBusy = true;
  state.redraw();
  try {
    const msg = await state.socket.hint();
    state.hint = msg.hint;
  } catch (e) {
    toast(e.reason ? t(`hint.refused.${e.reason}`) : e.message);
  } finally {
    state.hintBusy = false;
    state.redraw();
  }
}

/** A value in whists as written by the server (`"-7/3"`), rounded to one decimal. */
function whists(v) {
  const [n, d] = String(v).split('/').map(Number);
  const x = d ? n / d : n;
  return (Math.round(x * 10) / 10).toString();
}

/** The practice mark, the hint button and the last hint's explanation (while it is for the
 *  shown turn); nothing at another table. */
export function hintPanel(state, toast) {
  if (!state.table || !state.table.practice) return null;
  const mark = h('p', { class: 'practice-mark', id: 'practice-mark' }, t('hint.practice'));
  const shown = state.hint && state.snap && state.hint.version === state.snap.version ? state.hint : null;
  const button = canAsk(state)
    ? h('button', { type: 'button', id: 'hint-ask', disabled: state.hintBusy || (shown && shown.used >= shown.per_deal), onclick: () => ask(state, toast) },
      state.hintBusy ? t('hint.thinking') : t('hint.ask'))
    : null;
  const explained = shown ? h('div', { class: 'hint', id: 'hint-answer', 'aria-live': 'polite' },
    h('p', { id: 'hint-choice' }, t('hint.choice'), ' ', chip(shown.cards[0].card), ' — ', t(`hint.reason.${shown.cards[0].reason}`)),
    h('ol', { class: 'hint-alternatives', id: 'hint-alternatives' }, shown.cards.map((c) => h('li', { 'data-card': c.card },
      chip(c.card), ' ', t(`hint.reason.${c.reason}`), ' ', h('small', {}, t('hint.value', { v: whists(c.value), tricks: whists(c.tricks) }))))),
    h('p', { class: 'hint-note' }, h('small', {}, t('hint.samples', { n: shown.samples, used: shown.used, of: shown.per_deal })))) : null;
  return h('section', { class: 'hint-panel', id: 'hint-panel' }, mark, button, explained);
}
