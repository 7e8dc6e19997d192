// Why: the shortest way to a game. One click on the start page opens a table with the
// house rules chosen below and the pool size shown beside the button, seats the visitor
// (under the name typed, else a default one) and a bot of the chosen level in every other
// seat, starts the game and goes to it: the same HTTP steps a host takes by hand.

import { api } from './api.js';
import { h, toast } from './dom.js';
import { t } from './i18n.js';
import { saved } from './store.js';

const LEVELS = ['easy', 'normal', 'strong'];
let level = 'normal';

/** Opens, fills and starts a table with `profile` (a request), then goes to it. */
async function play(profile, players, name, button) {
  button.disabled = true;
  try {
    const res = await api.create(profile, false);
    saved.setHost(res.id, res.host_token);
    saved.setName(name);
    saved.setInvite(res.id, res.invite);
    const seat = await api.claim(res.id, name, 0, res.host_token);
    saved.setSeat(res.id, seat.seat, seat.token);
    for (let s = 1; s < players; s++) await api.bot(res.id, s, level, res.host_token);
    await api.start(res.id, res.host_token);
    location.assign(`/t/${res.id}`);
  } catch (e) {
    button.disabled = false;
    toast(e.message);
  }
}

/**
 * The "Play against bots" panel.
 * @param {() => object} request the profile request of the options chosen
 * @param {() => number} players how many sit at the table with those options
 * @param {{get: () => number, set: (n: number) => void}} pool the pool size chosen (the
 *   option `pool_target`, shared with the options below)
 */
export function botsPanel(request, players, pool) {
  const name = h('input', { type: 'text', id: 'bots-name', maxlength: 32, value: saved.name(), placeholder: t('ux.default_name'), 'aria-label': t('lobby.name') });
  const button = h('button', {
    type: 'button', class: 'primary', id: 'play-bots',
    onclick: () => play(request(), players(), name.value.trim() || t('ux.default_name'), button),
  }, t('ux.play_bots'));
  const size = h('input', {
    type: 'number', id: 'bots-pool', min: 1, max: 1000, value: pool.get(), inputmode: 'numeric',
    onchange: (e) => { const n = Number(e.target.value); if (Number.isInteger(n) && n > 0) pool.set(n); },
  });
  return h('section', { class: 'quick-play', id: 'quick-play' },
    h('h2', {}, t('ux.play_bots_title')),
    h('p', { class: 'hint' }, t('ux.play_bots_help')),
    h('div', { class: 'row' },
      name,
      h('label', { class: 'bot-pool' }, t('opt.pool_target'), ' ', size),
      h('label', { class: 'bot-level' }, t('bot.level'), ' ',
        h('select', { id: 'bots-level', onchange: (e) => { level = e.target.value; } },
          LEVELS.map((l) => h('option', { value: l, selected: l === level }, t(`bot.${l}`))))),
      button));
}
