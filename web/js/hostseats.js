// Why: the host's say over the seats. In the lobby and between deals the host puts a bot
// of a chosen level into any free seat and takes a bot or a player out of a taken one; the
// server refuses both in the middle of a deal, so the panel is not offered then.

import { h, toast } from './dom.js';
import { t } from './i18n.js';
import { api } from './api.js';

const LEVELS = ['easy', 'normal', 'strong'];

/** A small badge naming a bot's level (a bot account's, an outside program's: "bot"), or
 * nothing for a person. */
export function botBadge(seat) {
  if (seat && seat.bot_account) {
    return h('span', { class: 'badge bot', dataset: { level: 'account' } }, t('bot.badge'));
  }
  return seat && seat.bot
    ? h('span', { class: 'badge bot', dataset: { level: seat.bot }, title: t('bot.title', { level: t(`bot.${seat.bot}`) }) },
      t('ux.bot_badge', { level: t(`bot.${seat.bot}`) }))
    : null;
}

/** The level chosen for the next bot, kept while the page lives. */
let level = 'normal';

/** The bot account's name typed for an invitation (docs/bot-api.md). */
let invitee = '';

/** The level picker and, per seat, "add a bot" or "remove"; `host` is the host token. */
export function seatAdmin(state, host) {
  const tb = state.table;
  const picker = h('label', { class: 'bot-level' }, t('bot.level'), ' ',
    h('select', { id: 'bot-level', onchange: (e) => { level = e.target.value; } },
      LEVELS.map((l) => h('option', { value: l, selected: l === level }, t(`bot.${l}`)))));
  const run = async (f) => { try { await f(); } catch (e) { toast(e.message); } };
  // In the lobby of a table open to bots, a free seat may be kept for a bot account by name.
  const invites = tb.phase === 'lobby' && !tb.people_only;
  return h('div', { class: 'seat-admin', id: 'seat-admin' },
    h('h2', {}, t('bot.seats')),
    picker,
    invites ? h('label', { class: 'bot-name' }, t('bot.account_name'), ' ',
      h('input', { id: 'bot-account', value: invitee, maxlength: 32, oninput: (e) => { invitee = e.target.value; } })) : null,
    h('ul', { class: 'seats' }, tb.seats.map((s) => h('li', { class: s.name ? 'taken' : 'free' },
      h('span', { class: 'seat-no' }, t('seat.n', { n: s.seat + 1 })),
      h('span', { class: 'name' }, s.name || t('seat.free')),
      botBadge(s),
      s.name
        ? (state.seat === s.seat ? null : h('button', {
          type: 'button', class: 'secondary', dataset: { remove: s.seat },
          onclick: () => run(() => api.remove(state.id, s.seat, host)),
        }, t('bot.remove')))
        : [h('button', {
          type: 'button', class: 'secondary', dataset: { bot: s.seat },
          onclick: () => run(() => api.bot(state.id, s.seat, level, host)),
        }, t('bot.add')),
        invites ? h('button', {
          type: 'button', class: 'secondary', dataset: { inviteBot: s.seat },
          onclick: () => run(() => api.inviteBot(state.id, s.seat, invitee.trim(), host)),
        }, t('bot.invite')) : null]))));
}
