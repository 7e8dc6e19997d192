// Why: the deal's view keeps only each seat's last call, so the bidding vanished as it went.
// This module keeps the whole auction as the server tells it (the snapshot's `auction`, then
// each `called` event, *here* named by the server) and draws it: every call in order, one
// column per seat from first hand, and under it one line with what the auction and the
// decisions after it made (the contract, the whists, the defence). It stays through talon,
// whist and play; on a phone it folds.

import { h } from './dom.js';
import { t } from './i18n.js';
import { bidLabel } from './cards.js';

const nameOf = (state, s) => (state.table.seats[s] && state.table.seats[s].name) || t('seat.n', { n: s + 1 });
const phone = () => window.matchMedia && window.matchMedia('(max-width: 560px)').matches;

/** Takes the snapshot's auction. */
export function auctionFromSnapshot(state, snap) {
  state.auction = (snap.auction || []).map((c) => ({ seat: c.seat, call: c.call, here: !!c.here, dark: !!c.dark }));
}

/** Called after an event was applied: a new deal empties the log, a call extends it. */
export function auctionNews(state, msg) {
  const item = msg.event;
  if (!item || item.kind !== 'deal') return;
  const e = item.event;
  if (e.type === 'dealt') state.auction = [];
  else if (e.type === 'called') state.auction.push({ seat: e.seat, call: e.call, here: !!e.here, dark: !!e.dark });
}

/** A call as players write it: "pass", a bid, or "here" with the bid it holds. */
export function callLabel(c) {
  // A dark call (R3.9) is marked before the call it made.
  const dark = c.dark ? h('span', { class: 'dark-call' }, t('dark.call_mark'), ' ') : null;
  if (c.here) return h('span', { class: 'here-call' }, dark, t('auction.here'), ' ', bidLabel(c.call));
  return dark ? h('span', { class: 'dark-call-wrap' }, dark, bidLabel(c.call)) : bidLabel(c.call);
}

/** The seat's last call for its badge, "here" named. */
export function lastCall(state, s) {
  const log = state.auction || [];
  for (let i = log.length - 1; i >= 0; i--) if (log[i].seat === s) return callLabel(log[i]);
  const d = state.snap.deal;
  return d && d.calls[s] ? bidLabel(d.calls[s]) : null;
}

/** Rows of calls: a seat's column, a new row whenever the order comes round again. */
function rows(log, columns) {
  const out = [];
  let row = null;
  let last = -1;
  for (const c of log) {
    const col = columns.indexOf(c.seat);
    if (!row || col <= last) {
      row = columns.map(() => null);
      out.push(row);
    }
    row[col] = c;
    last = col;
  }
  return out;
}

/** The seats in the log, in order from first hand. */
function columnsOf(state, log) {
  const d = state.snap.deal;
  const n = state.table.players;
  const called = new Set(log.map((c) => c.seat));
  const cols = [];
  for (let i = 0; i < n; i++) {
    const s = (d.first_hand + i) % n;
    if (called.has(s)) cols.push(s);
  }
  return cols;
}

/** What the auction and the decisions after it made, in one line. */
function outcome(state) {
  const d = state.snap.deal;
  const parts = [];
  if (d.kind === 'raspasy') parts.push(t('auction.raspasy'));
  else if (d.declarer !== null && d.declarer !== undefined) {
    const code = d.contract || (d.highest && d.highest.bid);
    parts.push(h('span', {}, t('auction.plays', { name: nameOf(state, d.declarer) }), ' ', code ? bidLabel(code) : null));
  } else return null;
  d.whist.forEach((w, s) => {
    if (w) parts.push(t('auction.whist_by', { name: nameOf(state, s), call: t(`whist.${w}`) }));
  });
  if (d.defence) parts.push(t('auction.defence', { defence: t(`defence.${d.defence}`) }));
  return h('p', { class: 'auction-outcome', id: 'auction-outcome' }, parts.map((p, i) => [i ? ' · ' : null, p]));
}

/** The auction log, or nothing before the first call. */
export function auctionLog(state) {
  const d = state.snap.deal;
  const log = state.auction || [];
  if (!d || !log.length) return null;
  const cols = columnsOf(state, log);
  const open = state.auctionOpen ?? !phone();
  const table = h('table', { class: 'auction-table' },
    h('thead', {}, h('tr', {}, cols.map((s) => h('th', { scope: 'col' }, nameOf(state, s))))),
    h('tbody', {}, rows(log, cols).map((r) => h('tr', {}, r.map((c) => (c
      ? h('td', { class: `auction-call${c.here ? ' here' : ''}${c.call === 'pass' ? ' pass' : ''}`, dataset: { seat: c.seat, call: c.call, here: c.here ? 'true' : undefined } }, callLabel(c))
      : h('td', {})))))));
  const el = h('details', { class: 'auction-log', id: 'auction-log' },
    h('summary', {}, t('auction.title'), ' ', h('span', { class: 'auction-count' }, t('auction.calls', { n: log.length }))),
    table, outcome(state));
  el.open = open;
  el.addEventListener('toggle', () => { state.auctionOpen = el.open; });
  return el;
}
