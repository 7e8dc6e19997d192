// Why: the table's clock as the server sends it on every turn (seat, deadline, banks, away
// seats), drawn the same for every viewer: each seat's bank, the running move time, a warning
// for the player whose time is nearly up, the autopilot's moves and "away (autopilot)".
// The browser only counts down to the server's deadline; it decides nothing. It counts on the
// server's clock: each clock carries the server's time it was sent at, and the difference from
// the browser's clock is taken off. The host pauses and resumes the clock between deals.

import { h, toast } from './dom.js';
import { t } from './i18n.js';
import { api } from './api.js';
import { saved } from './store.js';

/** Seconds under which the player to act is warned. */
const WARN_S = 10;

/** How many recent estimates of the server's clock are kept. */
const ESTIMATES = 8;

/** Server time minus browser time (ms), per clock message: a message that waited on the way
 *  makes the difference look smaller than it is, never larger, so the largest recent one is
 *  the best guess. */
const estimates = [];

/** Clock objects already used for an estimate (each message's clock counts once, when it is
 *  first drawn, which is when it arrives). */
const counted = new WeakSet();

/** Notes the server's time a clock was sent at (`now_ms`, absent from older servers). */
function observe(clock) {
  if (!clock || counted.has(clock) || typeof clock.now_ms !== 'number') return;
  counted.add(clock);
  estimates.push(clock.now_ms - Date.now());
  if (estimates.length > ESTIMATES) estimates.shift();
}

/** The server's time now, as well as the browser can tell it. */
export function serverNow() {
  return Date.now() + (estimates.length ? Math.max(...estimates) : 0);
}

/** m:ss for a number of milliseconds (never below zero). */
function mmss(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** The running seat's move time and bank left at `now` (an away seat's deadline comes
 *  before its allowance ends: then its move time is what is left to the deadline). */
function left(clock, now) {
  const bank = clock.banks[clock.seat] ?? 0;
  const moveEnd = Math.min(clock.bank_from, clock.deadline);
  if (now < moveEnd) return { move: moveEnd - now, bank: Math.max(0, Math.min(bank, clock.deadline - clock.bank_from)) };
  return { move: 0, bank: clock.deadline - now };
}

/** Redraws the running countdowns (the rest of the panel does not change between turns). */
function tick() {
  for (const el of document.querySelectorAll('[data-clock-deadline]')) {
    const clock = JSON.parse(el.dataset.clock);
    const now = serverNow();
    const l = left(clock, now);
    el.querySelector('.clock-move').textContent = mmss(l.move);
    el.querySelector('.clock-bank').textContent = mmss(l.bank);
    const warn = el.dataset.mine === 'true' && clock.deadline - now <= WARN_S * 1000;
    el.classList.toggle('warn', warn);
    const hurry = el.querySelector('.clock-hurry');
    if (hurry) hurry.hidden = !warn;
  }
}

let ticking = null;

/** The clock panel for `state`, or nothing at a table without a clock. */
export function clockPanel(state) {
  const info = state.table.clock;
  if (!info) return null;
  if (!ticking) ticking = setInterval(tick, 250);
  const clock = state.snap.turn && state.snap.turn.clock;
  observe(clock);
  const away = new Set((clock ? clock.away : info.away) || []);
  const seats = state.table.seats.map((s) => {
    const name = s.name || '—';
    const running = clock && clock.seat === s.seat;
    const mine = state.seat === s.seat;
    const attrs = { class: `clock-seat ${running ? 'running' : ''} ${away.has(s.seat) ? 'away' : ''}`, dataset: { seat: s.seat } };
    if (running) Object.assign(attrs.dataset, { clockDeadline: clock.deadline, clock: JSON.stringify(clock), mine: String(mine) });
    const l = running ? left(clock, serverNow()) : null;
    return h('li', attrs,
      h('b', {}, name), ' ',
      running ? h('span', { class: 'clock-move', title: t('clock.move') }, mmss(l.move)) : null, running ? ' + ' : null,
      h('span', { class: 'clock-bank', title: t('clock.bank') }, mmss(running ? l.bank : (clock ? clock.banks[s.seat] ?? 0 : info.control.bank * 1000))),
      away.has(s.seat) ? h('span', { class: 'clock-away' }, ' ', t('clock.away')) : null,
      running && mine ? h('span', { class: 'clock-hurry', hidden: true }, ' ', t('clock.hurry')) : null);
  });
  const auto = state.autopilot;
  const autoName = auto !== null && auto !== undefined && state.table.seats[auto] ? state.table.seats[auto].name : null;
  return h('section', { class: 'clock-panel', id: 'clock' },
    h('span', { class: 'clock-title' }, t('clock.title'), ': ', controlText(info.control), info.paused ? ` — ${t('clock.paused')}` : ''),
    h('ul', { class: 'clock-seats' }, seats),
    pauseButton(state, info),
    state.seat !== null && away.has(state.seat) ? h('button', {
      type: 'button', class: 'primary', id: 'clock-back', onclick: () => state.socket.back(),
    }, t('clock.back')) : null,
    autoName ? h('p', { class: 'clock-autopilot', id: 'autopilot-move' }, t('clock.autopilot_moved', { name: autoName })) : null,
    pilotedNote(state, clock));
}

/** Who the autopilot has moved for in this deal, as the server's clock says (so also after
 *  a reload, or when its move came while this page was away). */
function pilotedNote(state, clock) {
  const names = ((clock && clock.piloted) || []).map((s) => (state.table.seats[s] && state.table.seats[s].name) || String(s + 1));
  if (names.length === 0) return null;
  return h('p', { class: 'clock-autopilot hint', id: 'autopilot-deal', dataset: { seats: clock.piloted.join(',') } },
    t('clock.autopilot_deal', { names: names.join(', ') }));
}

/** The host's pause / resume button, between deals (and in the lobby) only: the server
 *  refuses it during a deal. */
function pauseButton(state, info) {
  const host = saved.host(state.id);
  if (!host || !['lobby', 'between_deals'].includes(state.table.phase)) return null;
  const paused = info.paused;
  return h('button', {
    type: 'button', class: 'secondary', id: 'clock-pause', dataset: { paused: String(paused) },
    onclick: async () => {
      try {
        const summary = await api.pauseClock(state.id, !paused, host);
        state.table.clock = summary.clock;
        state.redraw();
      } catch (e) { toast(e.message); }
    },
  }, t(paused ? 'clock2.resume' : 'clock2.pause'));
}

/** A time control in words: "blitz: 10 s a move, 30 s bank, +5 s each deal". */
export function controlText(c) {
  const name = ['relaxed', 'normal', 'blitz'].includes(c.preset) ? t(`clock.${c.preset}`) : t('clock.custom');
  return `${name}: ${t('clock.control', { move: c.move, bank: c.bank, refill: c.refill, grace: c.grace })}`;
}

/** The custom values the start page offers, with their starting values (seconds). */
const CUSTOM = [['move', 20], ['bank', 60], ['refill', 10], ['grace', 60]];

/**
 * The start page's choice of clock; `form.clock` holds it: `off` (the default), a preset
 * name, or the custom values as an object (the server checks them).
 */
export function clockChoice(form) {
  const custom = form.clock !== null && typeof form.clock === 'object';
  const fields = h('span', { class: 'clock-custom', hidden: !custom }, CUSTOM.map(([key, start]) =>
    h('label', {}, ' ', t(`clock.${key}_s`), ' ',
      h('input', { type: 'number', min: 0, id: `clock-${key}`, value: custom ? form.clock[key] : start,
        onchange: (e) => { if (typeof form.clock === 'object') form.clock[key] = Number(e.target.value); } }))));
  const choose = (v) => {
    form.clock = v === 'custom' ? Object.fromEntries(CUSTOM.map(([k]) => [k, Number(document.getElementById(`clock-${k}`).value)])) : v;
    fields.hidden = v !== 'custom';
  };
  const now = custom ? 'custom' : (form.clock || 'off');
  return h('div', { class: 'clock-choice' }, h('label', {}, t('clock.choose'), ' ',
    h('select', { id: 'clock-choice', onchange: (e) => choose(e.target.value) },
      ['off', 'relaxed', 'normal', 'blitz', 'custom'].map((v) => h('option', { value: v, selected: now === v }, t(`clock.${v}`))))),
    fields);
}
