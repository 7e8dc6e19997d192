// Why: the start page's way into scorekeeping for a game played with real cards. The house
// rules chosen above apply; the keeper names the players in seat order and who deals first,
// or imports a record of a game in progress, and is taken to the sheet.

import { call } from './api.js';
import { h, toast } from './dom.js';
import { t } from './i18n.js';
import { saved } from './store.js';

const draft = { names: ['', '', '', ''], dealer: 0 };

function opened(res) {
  saved.setKeeper(res.id, res.keeper_token);
  location.assign(`/k/${res.id}`);
}

async function open(profile, players) {
  const names = draft.names.slice(0, players).map((n, i) => n.trim() || t('seat.n', { n: i + 1 }));
  try {
    opened(await call('POST', '/api/keeper', { profile, players: names, first_dealer: Math.min(draft.dealer, players - 1) }));
  } catch (e) {
    toast(e.message);
  }
}

async function importFile(file) {
  try {
    const record = JSON.parse(await file.text());
    opened(await call('POST', '/api/keeper/import', record));
  } catch (e) {
    toast(e.message);
  }
}

/** The "keep score" panel; `profile()` gives the house profile as the form stands. */
export function keeperStart(profile, players) {
  const names = Array.from({ length: players }, (_, i) => h('label', { class: 'k-name' },
    t('seat.n', { n: i + 1 }), ' ',
    h('input', { type: 'text', id: `k-name-${i}`, maxlength: 32, value: draft.names[i],
      oninput: (e) => { draft.names[i] = e.target.value; } })));
  const dealer = h('select', { id: 'k-dealer', onchange: (e) => { draft.dealer = Number(e.target.value); } },
    Array.from({ length: players }, (_, i) => h('option', { value: i, selected: i === draft.dealer }, t('seat.n', { n: i + 1 }))));
  return h('section', { class: 'panel keeper-start', id: 'keeper-start' },
    h('h2', {}, t('k.start')),
    h('p', { class: 'lead' }, t('k.start.lead')),
    h('div', { class: 'k-names' }, names),
    h('label', {}, t('k.first_dealer'), ' ', dealer),
    h('p', {}, h('button', { type: 'button', class: 'primary', id: 'keep-score', onclick: () => open(profile(), players) }, t('k.open'))),
    h('p', {}, h('label', {}, t('k.import'), ' ',
      h('input', { type: 'file', id: 'k-import', accept: '.json,application/json', onchange: (e) => e.target.files[0] && importFile(e.target.files[0]) }))));
}
