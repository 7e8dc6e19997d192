// Why: joining by link. Shows the seats (free or whose), lets a visitor enter a name and take
// a seat, or just watch; the host also sees the links to hand out and starts the game once
// every seat is taken.

import { api, links } from './api.js';
import { h, copy, toast } from './dom.js';
import { t } from './i18n.js';
import { saved } from './store.js';
import { botBadge, seatAdmin } from './hostseats.js';

/** A link to hand out, with a copy button. */
export function linkRow(label, url, name) {
  const input = h('input', { type: 'text', readonly: true, value: url, id: `link-${name}`, onclick: (e) => e.target.select() });
  return h('div', { class: 'link-row' }, h('label', { for: `link-${name}` }, label), input,
    h('button', { type: 'button', class: 'secondary', onclick: async () => { await copy(url, input); toast(t('start.copied')); } }, t('start.copy')));
}

export function lobby(state) {
  const tb = state.table;
  const host = saved.host(state.id);
  const full = tb.seats.every((s) => s.name);
  // The watch link lacks the invite key: its visitors watch (the server refuses their claims).
  const invite = saved.invite(state.id);
  const canTake = state.seat === null && ((tb.phase === 'lobby' && invite) || host);
  const nameInput = h('input', {
    type: 'text', id: 'name', maxlength: 32, value: state.nameDraft ?? saved.name(), placeholder: t('lobby.name'), 'aria-label': t('lobby.name'),
    oninput: (e) => { state.nameDraft = e.target.value; },
  });
  const take = async (seat) => {
    const name = nameInput.value.trim();
    if (!name) { toast(t('lobby.need_name')); nameInput.focus(); return; }
    try {
      const res = await api.claim(state.id, name, seat, host || undefined, invite);
      saved.setName(name);
      saved.setSeat(state.id, res.seat, res.token);
      state.sit(res.seat, res.token);
    } catch (e) { toast(e.message); }
  };
  const l = links(state.id);
  return h('section', { class: 'panel lobby', id: 'lobby' },
    h('h1', {}, t(state.seat === null && !canTake ? 'lobby.title_watch' : 'lobby.title')),
    h('p', { class: 'lead', id: 'lobby-preset' }, tb.preset ? [h('b', {}, t(`preset.${tb.preset}`)), ' · '] : null,
      t(`preset.summary`, { players: tb.players, target: tb.profile.pool_target })),
    canTake ? h('p', {}, nameInput) : null,
    h('ul', { class: 'seats' }, tb.seats.map((s) => h('li', { class: s.name ? 'taken' : 'free' },
      h('span', { class: 'seat-no' }, t('seat.n', { n: s.seat + 1 })),
      h('span', { class: 'name' }, s.name || (s.reserved ? t('ux.reserved', { name: s.reserved }) : t('seat.free'))),
      botBadge(s),
      state.seat === s.seat ? h('span', { class: 'you' }, t('seat.you')) : null,
      !s.name && canTake ? h('button', { type: 'button', class: 'primary', dataset: { take: s.seat }, onclick: () => take(s.seat) }, t('lobby.take')) : null))),
    // A visitor by the watch link cannot take a seat: he is told how one is taken instead.
    h('p', { class: 'hint', id: 'lobby-hint' }, t(state.seat !== null ? (host ? 'ux.seated_host' : 'lobby.seated') : canTake ? 'lobby.watching' : 'lobby.watch_only')),
    host && tb.phase === 'lobby' ? h('div', { class: 'host' },
      linkRow(t('start.invite'), l.invite, 'invite'),
      linkRow(t('start.watch_link'), l.watch, 'watch'),
      seatAdmin(state, host),
      h('button', {
        type: 'button', class: 'primary', id: 'start-game', disabled: !full,
        onclick: async () => { try { await api.start(state.id, host); } catch (e) { toast(e.message); } },
      }, full ? t('lobby.start') : t('lobby.wait_full'))) : null);
}
