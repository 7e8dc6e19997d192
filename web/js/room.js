// Why: the public lobby on the start page, above the fold: quick pairing by a grid of the
// common choices (Sochi / Leningrad / Rostov × relaxed / normal / blitz) with how many are
// seeking each, the public tables waiting for players (sit down without an invite link) and
// the games in progress on public tables, busiest first, each with a preview of its deal and
// sheet (what a spectator sees, as the server last looked), to watch. One WebSocket
// (`/api/lobby/ws`) keeps it live: a snapshot, then numbered items; the seek lives as long as
// the page, and the seat the server gives comes back over it.

import { api } from './api.js';
import { h, toast } from './dom.js';
import { t } from './i18n.js';
import { saved } from './store.js';
import { ratingEl } from './ratings.js';
import { bidLabel } from './cards.js';
import { mixed } from './mixed.js';

const PRESETS = ['sochi', 'leningrad', 'rostov'];
const CLOCKS = ['relaxed', 'normal', 'blitz'];

const room = { lobby: { n: 0, tables: [], live: [], seeking: [] }, resyncing: false, socket: null, waiting: null, bots: false, botsAfter: 30, rated: false, panel: null };

/** A rated table's mark in a lobby row (nothing for another table). */
const ratedBadge = (family) => (family ? [' · ', h('span', { class: 'badge rated' }, t('rt.rated', { family: t(`rt.family.${family}`) }))] : '');

function count(preset, clock) {
  const c = room.lobby.seeking.find((s) => s.preset === preset && s.clock === clock);
  return c ? c.seeking : 0;
}

function name() {
  const input = document.getElementById('room-name');
  return (input && input.value.trim()) || saved.name() || t('ux.default_name');
}

function send(message) {
  if (room.socket && room.socket.readyState === WebSocket.OPEN) room.socket.send(JSON.stringify(message));
}

function seek(preset, clock) {
  const me = name();
  saved.setName(me);
  const message = { type: 'seek', name: me, profile: preset, clock };
  if (room.rated) message.rated = true;
  else if (room.bots) message.bots_after_secs = room.botsAfter;
  room.waiting = { preset, clock };
  send(message);
  draw();
}

function cancel() {
  room.waiting = null;
  send({ type: 'cancel' });
  draw();
}

async function sit(id) {
  const me = name();
  try {
    const seat = await api.claim(id, me);
    saved.setName(me);
    saved.setSeat(id, seat.seat, seat.token);
    location.assign(`/t/${id}`);
  } catch (e) {
    toast(e.message);
  }
}

function grid() {
  return h('table', { class: 'room-grid', id: 'room-grid' },
    h('thead', {}, h('tr', {}, h('th', {}, ''), CLOCKS.map((c) => h('th', { scope: 'col' }, t(`clock.${c}`))))),
    h('tbody', {}, PRESETS.map((p) => h('tr', {},
      h('th', { scope: 'row' }, t(`preset.${p}`)),
      CLOCKS.map((c) => {
        const on = room.waiting && room.waiting.preset === p && room.waiting.clock === c;
        const n = count(p, c);
        return h('td', {}, h('button', {
          type: 'button', id: `seek-${p}-${c}`, class: on ? 'primary' : '',
          'aria-pressed': on ? 'true' : 'false',
          onclick: () => (on ? cancel() : seek(p, c)),
        }, on ? t('room.cancel') : t('room.play'), n ? h('span', { class: 'room-count' }, t('room.seeking', { n })) : ''));
      })))));
}

// The names in the seats ("—" for a free one), each with its rating at a rated table
// (`ratings`, by seat, from the lobby's row).
function seatsText(seats, ratings) {
  return seats.flatMap((s, i) => {
    const r = ratings && ratings[i];
    const name = r ? [s || '—', ' ', ratingEl(r)] : [s || '—'];
    return i ? [', ', ...name] : name;
  });
}

function tables() {
  return h('ul', { class: 'room-list', id: 'room-tables' }, room.lobby.tables.map((tb) => h('li', {},
    h('b', {}, tb.preset ? t(`preset.${tb.preset}`) : '?'),
    Object.keys(tb.differs || {}).length ? ` (${t('room.differs', { n: Object.keys(tb.differs).length })})` : '',
    ' · ', tb.clock ? t(`clock.${tb.clock}`) : t('clock.off'),
    ratedBadge(tb.rated),
    ' · ', ...seatsText(tb.seats, tb.ratings),
    tb.host ? ` · ${t('room.host', { name: tb.host })}` : '',
    ' · ', t('room.waited', { n: Math.floor(tb.waiting_secs / 60) }), ' ',
    h('button', { type: 'button', class: 'room-sit', onclick: () => sit(tb.id) }, t('room.sit')))));
}

// The shown deal's contract as everybody knows it, in words: the standing bid while
// bidding, the declarer and his contract, misère or raspasy (the server's preview).
function contractLine(p, seats) {
  const who = (s) => seats[s] || '—';
  const c = p.contract;
  switch (c.kind) {
    case 'bidding': return c.bid ? [t('room.pv.bidding'), ': ', bidLabel(c.bid), ` (${who(c.by)})`] : [t('room.pv.bidding')];
    case 'game': return [t('room.pv.plays', { name: who(c.declarer) }), ' ', c.contract ? bidLabel(c.contract) : '…'];
    case 'misere': return [t('room.pv.misere', { name: who(c.declarer) })];
    case 'raspasy': return [t('room.pv.raspasy')];
    default: return [];
  }
}

// A live game's sheet as its preview shows it: by seat, the name (and rating), tricks taken
// in the deal shown, pool, mountain and the balance were the game settled now; the seat to
// play marked.
function previewSheet(g) {
  const p = g.preview;
  const col = (key) => h('th', { scope: 'col' }, t(key));
  return h('table', { class: 'room-sheet' },
    h('thead', {}, h('tr', {}, col('room.pv.player'), col('room.pv.tricks'), col('sheet.pool'), col('sheet.mountain'), col('room.pv.balance'))),
    h('tbody', {}, g.seats.map((name, i) => {
      const r = g.ratings && g.ratings[i];
      const turn = p.turn === i;
      return h('tr', { class: turn ? 'turn' : '' },
        h('th', { scope: 'row' }, turn ? h('span', { class: 'room-turn', title: t('room.pv.turn') }, '▸ ') : '', name || '—', r ? [' ', ratingEl(r)] : ''),
        h('td', {}, String(p.tricks[i] ?? 0)),
        h('td', {}, String(p.pool[i] ?? 0)),
        h('td', {}, String(p.mountain[i] ?? 0)),
        h('td', { title: p.balance[i] }, mixed(p.balance[i] ?? '0')));
    })));
}

// One game in progress: house rules, clock, marks and spectators, then its preview (the
// deal, its contract and the sheet); a click anywhere on it opens the spectator's view.
function liveGame(g) {
  const watch = `/t/${g.id}?watch`;
  const p = g.preview;
  return h('li', { class: 'room-game', 'data-id': g.id, onclick: (e) => { if (!e.target.closest('a')) location.assign(watch); } },
    h('div', { class: 'room-game-head' },
      h('b', {}, g.preset ? t(`preset.${g.preset}`) : '?'),
      ' · ', g.clock ? t(`clock.${g.clock}`) : t('clock.off'),
      ratedBadge(g.rated),
      p && p.practice ? [' · ', h('span', { class: 'badge practice' }, t('room.pv.practice'))] : '',
      g.spectators ? ` · ${t('room.watchers', { n: g.spectators })}` : '', ' ',
      h('a', { href: watch, class: 'room-watch' }, t('room.watch'))),
    p ? [
      h('div', { class: 'room-game-deal' },
        p.deal ? [h('span', { class: 'room-deal-no' }, t('room.pv.deal', { n: p.deal })), ' · '] : '',
        ...contractLine(p, g.seats),
        p.stage === 'finished' ? ` · ${t('room.pv.over')}` : ''),
      previewSheet(g),
    ] : h('div', { class: 'room-game-seats' }, ...seatsText(g.seats, g.ratings)));
}

function live() {
  return h('ul', { class: 'room-list room-games', id: 'room-live' }, room.lobby.live.map(liveGame));
}

function draw() {
  if (!room.panel) return;
  room.panel.replaceChildren(...[
    h('h2', {}, t('room.title')),
    h('p', { class: 'hint' }, t('room.lead')),
    h('div', { class: 'row' },
      h('input', { type: 'text', id: 'room-name', maxlength: 32, value: saved.name(), placeholder: t('ux.default_name'), 'aria-label': t('lobby.name') }),
      h('label', { class: 'check' },
        h('input', { type: 'checkbox', id: 'room-bots', checked: room.bots, onchange: (e) => { room.bots = e.target.checked; } }),
        ' ', t('room.bots_after'), ' ',
        h('input', { type: 'number', id: 'room-bots-after', min: 0, max: 600, value: room.botsAfter, inputmode: 'numeric',
          onchange: (e) => { const n = Number(e.target.value); if (Number.isInteger(n) && n >= 0) room.botsAfter = n; } })),
      h('label', { class: 'check', title: t('rt.option_help') },
        h('input', { type: 'checkbox', id: 'room-rated', checked: room.rated, onchange: (e) => { room.rated = e.target.checked; } }),
        ' ', t('rt.seek'))),
    grid(),
    room.waiting ? h('p', { class: 'room-waiting', id: 'room-waiting', role: 'status' }, t('room.waiting')) : '',
    // Lists only when they hold something, so that on a phone the page's other parts stay
    // near the top.
    room.lobby.tables.length ? [h('h3', {}, t('room.tables')), tables()] : '',
    room.lobby.live.length ? [h('h3', {}, t('room.live')), live()] : '',
    room.lobby.tables.length || room.lobby.live.length ? '' : h('p', { class: 'hint', id: 'room-empty' }, t('room.empty')),
  ].flat());
}

// A numbered item follows the one before it: an older one is covered already, and after a
// gap the page asks for the whole lobby again and drops the items until it comes.
function inOrder(m) {
  if (m.n === undefined) return true;
  if (room.resyncing || m.n <= room.lobby.n) return false;
  if (m.n !== room.lobby.n + 1) {
    room.resyncing = true;
    send({ type: 'resync' });
    return false;
  }
  room.lobby.n = m.n;
  return true;
}

// The live list's order, the server's (`LiveTable::busiest_first`): busiest first, then
// the table opened first, then the smaller id.
function busiestFirst(a, b) {
  return b.spectators - a.spectators || a.opened - b.opened || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

// Only the games that changed come: each replaces its entry or joins the list, the gone
// leave it.
function liveChanged(m) {
  const gone = new Set(m.gone || []);
  const live = room.lobby.live.filter((g) => !gone.has(g.id));
  for (const g of m.games || []) {
    const i = live.findIndex((x) => x.id === g.id);
    if (i >= 0) live[i] = g; else live.push(g);
  }
  room.lobby.live = live.sort(busiestFirst);
}

function onMessage(m) {
  if (m.type !== 'snapshot' && !inOrder(m)) return;
  switch (m.type) {
    case 'snapshot': room.lobby = m.lobby; room.resyncing = false; break;
    case 'listed': {
      const i = room.lobby.tables.findIndex((x) => x.id === m.table.id);
      if (i >= 0) room.lobby.tables[i] = m.table; else room.lobby.tables.push(m.table);
      break;
    }
    case 'unlisted': room.lobby.tables = room.lobby.tables.filter((x) => x.id !== m.id); break;
    case 'live_changed': liveChanged(m); break;
    case 'seeking': room.lobby.seeking = m.seeking; break;
    case 'waiting': return;
    case 'paired':
      saved.setSeat(m.table, m.seat, m.token);
      location.assign(`/t/${m.table}`);
      return;
    case 'error': room.waiting = null; toast(m.message); break;
    default: return;
  }
  draw();
}

function connect() {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/lobby/ws`;
  const socket = new WebSocket(url);
  let opened = false;
  room.socket = socket;
  socket.onopen = () => { opened = true; };
  socket.onmessage = (e) => onMessage(JSON.parse(e.data));
  socket.onclose = () => {
    if (room.socket !== socket) return;
    // The seek went with the socket: the page says so and connects again (later when the
    // server refused the socket: a cap or a budget, which a quick retry would spend).
    room.socket = null;
    room.waiting = null;
    draw();
    setTimeout(() => { if (!room.socket && room.panel && room.panel.isConnected) connect(); }, opened ? 2000 : 30000);
  };
}

/** The lobby's panel; connects its socket once. */
export function roomPanel() {
  room.panel = h('section', { class: 'room', id: 'room' });
  draw();
  if (!room.socket) connect();
  return room.panel;
}
