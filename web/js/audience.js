// Why: who is at the table and what they may do about it, said plainly: the spectator
// count everybody sees (from the server's `spectators` news), a "watching" badge and, for a
// visitor who arrives after the start, that the game is under way and how a seat is given;
// leaving a seat and ending the game asked once more; and after the game the rematch.

import { h, toast } from './dom.js';
import { t } from './i18n.js';
import { api } from './api.js';
import { saved } from './store.js';
import { confirmStep } from './confirm.js';
import { soundToggle } from './yourturn.js';

/** Whether a person (not a bot, not a bot account) sits at the table: then the host's end
 * is a proposal each of them answers (R10.3), not an end. */
export function peopleSeated(tb) {
  return (tb.seats || []).some((s) => s && s.name && !s.bot && !s.bot_account);
}

/** Ends the game after the host confirmed it, or, with people seated, proposes the end to
 * them (the server answers with the standing proposal, which every page then shows). */
export async function endGame(state, host) {
  const ask = peopleSeated(state.table);
  const confirmed = ask
    ? await confirmStep(t('stop.propose_q'), t('stop.propose'), t('stop.propose_detail'))
    : await confirmStep(t('ux.end_q'), t('deal.end_game'), t('ux.end_detail'));
  if (!confirmed) return;
  try { await api.end(state.id, host); } catch (e) { toast(e.message); }
}

/** Gives up the viewer's seat after a confirmation; the socket's `seat_freed` does the rest. */
async function leaveSeat(state) {
  if (!await confirmStep(t('ux.leave_q'), t('ux.leave'), t('ux.leave_detail'))) return;
  try { await api.leave(state.id, state.token); } catch (e) { toast(e.message); }
}

/** Goes to table `id`; a player of this table first takes the seat kept for him there,
 * his seat token here standing for the invite link (if that fails, he arrives watching). */
async function join(state, id) {
  const me = state.seat !== null ? state.table.seats[state.seat] : null;
  if (me && me.name && !me.bot && state.token && !saved.seat(id)) {
    try {
      const seat = await api.rematchSeat(state.id, state.token);
      saved.setSeat(id, seat.seat, seat.token);
    } catch (e) { toast(e.message); }
  }
  location.assign(`/t/${id}`);
}

/** The host opens the rematch and goes to it like everybody else. */
async function rematch(state, host) {
  try {
    const res = await api.rematch(state.id, host);
    saved.setHost(res.id, res.host_token);
    saved.setInvite(res.id, res.invite);
    await join(state, res.id);
  } catch (e) { toast(e.message); }
}

function spectatorCount(tb) {
  const n = tb.spectators || 0;
  // Nobody watching is nothing to say: the badge stays (with its count) but is not shown.
  return h('span', { class: 'badge watchers', id: 'spectator-count', dataset: { count: n }, hidden: n === 0 },
    t('ux.spectators', { n }));
}

/** The line above the table: badges, the late visitor's notice, leave, sound. */
export function audienceBar(state) {
  const tb = state.table;
  const host = saved.host(state.id);
  const watching = state.seat === null;
  const started = tb.phase === 'playing' || tb.phase === 'between_deals';
  const canLeave = !watching && state.token && (tb.phase === 'lobby' || tb.phase === 'between_deals');
  const notice = watching && started
    ? h('p', { class: 'notice', id: 'late-notice', role: 'status' },
      h('strong', {}, t('ux.late_title')), ' ',
      host
        ? [t('ux.late_host'), ' ', h('a', { href: '#seat-admin', id: 'seat-admin-link' }, t('bot.seats'))]
        : t('ux.late_visitor'))
    : null;
  return h('div', { class: 'audience', id: 'audience' },
    h('div', { class: 'row' },
      watching ? h('span', { class: 'badge watching', id: 'watching-badge' }, t('ux.watching')) : null,
      spectatorCount(tb),
      !watching ? soundToggle(state) : null,
      canLeave ? h('button', { type: 'button', class: 'secondary small', id: 'leave-seat', onclick: () => leaveSeat(state) }, t('ux.leave')) : null),
    notice);
}

/** After the game: the host's "Rematch", and everybody's link once it is open. */
export function rematchPanel(state) {
  const tb = state.table;
  const host = saved.host(state.id);
  if (tb.rematch) {
    return h('p', { class: 'banner rematch', id: 'rematch-open' }, t('ux.rematch_open'), ' ',
      h('a', {
        href: `/t/${tb.rematch}`, id: 'rematch-link',
        onclick: (e) => { e.preventDefault(); join(state, tb.rematch); },
      }, t('ux.rematch_join')));
  }
  if (!host) return null;
  return h('div', { class: 'row rematch' },
    h('button', { type: 'button', class: 'primary', id: 'rematch', onclick: () => rematch(state, host) }, t('ux.rematch')),
    h('span', { class: 'hint' }, t('ux.rematch_help')));
}
