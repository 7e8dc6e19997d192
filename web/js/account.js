// Why: accounts are optional, so they live in the header only: "Sign in" opens a dialog to
// sign in or up; signed in, the header names the player (his page, "my games") and signs
// out. A browser that played as a guest holds its seat tokens; after signing in or up it
// offers once to tie those games to the account (the server checks every token). The
// session itself is an HttpOnly cookie the page never sees.

import { call } from './api.js';
import { h, toast } from './dom.js';
import { t } from './i18n.js';
import { confirmStep } from './confirm.js';
import { saved } from './store.js';

export const accountApi = {
  me: () => call('GET', '/api/me'),
  signUp: (name, password) => call('POST', '/api/accounts', { name, password }),
  signIn: (name, password) => call('POST', '/api/session', { name, password }),
  signOut: () => call('POST', '/api/session/end'),
  attach: (seats) => call('POST', '/api/me/seats', { seats }),
  seatToken: (table) => call('GET', `/api/me/seats/${table}`),
  tablePlayers: (table) => call('GET', `/api/tables/${table}/players`),
};

/** The page of player `name`. */
export const pageOf = (name) => `/@/${encodeURIComponent(name)}`;

let current;

/** The signed-in player (`{name, created, hidden}`), or null; asked once per page. */
export function me() {
  if (!current) current = accountApi.me().catch(() => null);
  return current;
}

/** The guest seats this browser holds, as the server takes them. */
function heldSeats() {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const m = /^pref:([0-9a-f]{32}):seat$/.exec(localStorage.key(i) || '');
    if (!m) continue;
    try {
      const { token } = JSON.parse(localStorage.getItem(localStorage.key(i)));
      if (token) out.push({ table: m[1], token });
    } catch { /* not a seat */ }
  }
  return out;
}

/** Offers to tie the browser's guest games to the account. */
async function offerAttach() {
  const seats = heldSeats();
  if (!seats.length) return;
  const yes = await confirmStep(t('acc.attach_q', { n: seats.length }), t('acc.attach_ok'), t('acc.attach_help'));
  if (!yes) return;
  const res = await accountApi.attach(seats.slice(0, 50));
  toast(t('acc.attached', { n: res.attached.length }));
}

/** The sign-in / sign-up dialog. */
function signInDialog() {
  const name = h('input', { type: 'text', id: 'acc-name', maxlength: 32, autocomplete: 'username', required: true });
  const password = h('input', { type: 'password', id: 'acc-password', autocomplete: 'current-password', required: true });
  const error = h('p', { class: 'error', id: 'acc-error', role: 'alert', hidden: true });
  const dialog = h('dialog', { class: 'confirm account', id: 'account-dialog', 'aria-labelledby': 'acc-title' });
  const enter = async (up) => {
    error.hidden = true;
    try {
      if (up) await accountApi.signUp(name.value.trim(), password.value);
      else await accountApi.signIn(name.value.trim(), password.value);
      dialog.close();
      await offerAttach().catch((e) => toast(e.message));
      location.reload();
    } catch (e) {
      error.textContent = e.status === 401 ? t('acc.refused') : e.message;
      error.hidden = false;
    }
  };
  dialog.append(
    h('p', { id: 'acc-title', class: 'confirm-q' }, t('acc.title')),
    h('p', { class: 'hint' }, t('acc.help')),
    h('label', { class: 'field' }, t('acc.name'), ' ', name),
    h('label', { class: 'field' }, t('acc.password'), ' ', password),
    error,
    h('div', { class: 'row' },
      h('button', { type: 'button', class: 'secondary', id: 'acc-cancel', onclick: () => dialog.close() }, t('ux.cancel')),
      h('button', { type: 'button', class: 'secondary', id: 'acc-sign-up', onclick: () => enter(true) }, t('acc.sign_up')),
      h('button', { type: 'button', class: 'primary', id: 'acc-sign-in', onclick: () => enter(false) }, t('acc.sign_in'))));
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  name.focus();
}

/** Fills the header's account corner: who is signed in, or the way to sign in. */
export async function accountCorner() {
  const select = document.getElementById('lang');
  let corner = document.getElementById('account');
  if (!corner) {
    corner = h('span', { class: 'account-corner', id: 'account' });
    select.before(corner);
  }
  const who = await me();
  if (who) {
    corner.replaceChildren(
      h('a', { href: pageOf(who.name), id: 'my-games', title: t('acc.my_games') }, `@${who.name}`),
      h('button', {
        type: 'button', class: 'small secondary', id: 'sign-out',
        onclick: async () => { await accountApi.signOut().catch((e) => toast(e.message)); location.reload(); },
      }, t('acc.sign_out')));
  } else {
    corner.replaceChildren(h('button', { type: 'button', class: 'small secondary', id: 'sign-in', onclick: signInDialog }, t('acc.sign_in')));
  }
}

// Who sits at each table, by table id: { key (the seats' names), players (seat → account) }.
const tables = new Map();

/** The name of seat `s` at `table`: a link to its player's page when a signed-in player holds
 * it, plain text for a guest or a bot. Who is who is asked of the server whenever the seats'
 * names change; the names already drawn become links when the answer comes. */
export function seatName(table, seats, s, text) {
  const key = seats.map((x) => (x && x.name) || '').join('\u0000');
  let known = tables.get(table);
  if (!known || known.key !== key) {
    known = { key, players: null };
    tables.set(table, known);
    accountApi.tablePlayers(table).then((res) => {
      if (tables.get(table) !== known) return;
      known.players = Object.fromEntries(res.players.filter((p) => p.account).map((p) => [p.seat, p.account]));
      for (const el of document.querySelectorAll('.seat-name[data-seat]')) {
        const account = known.players[el.dataset.seat];
        if (account && el.tagName !== 'A') el.replaceWith(nameEl(account, el.dataset.seat, el.textContent));
      }
    }).catch(() => {});
  }
  const account = known.players && known.players[s];
  return account ? nameEl(account, s, text) : h('span', { class: 'name seat-name', dataset: { seat: s } }, text);
}

function nameEl(account, s, text) {
  return h('a', { class: 'name seat-name', href: pageOf(account), target: '_blank', rel: 'noopener', dataset: { seat: s } }, text);
}

/** The signed-in player takes his seat at `table` again from any device: the account gives
 * the seat's token, which the browser keeps, and the table opens as his seat. */
export async function takeSeatBack(table) {
  const got = await accountApi.seatToken(table);
  saved.setSeat(table, got.seat, got.token);
  location.assign(`/t/${table}`);
}

/** A signed-in player on another device opens his table: the page has no seat token for it,
 * so it asks the account for the seat's token, keeps it and opens the table as his seat. */
export async function rejoinSeat(table) {
  if (new URLSearchParams(location.search).has('watch') || saved.seat(table)) return;
  if (!(await me())) return;
  const got = await accountApi.seatToken(table).catch(() => null);
  if (got) {
    saved.setSeat(table, got.seat, got.token);
    location.reload();
  }
}
