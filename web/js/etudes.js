// Why: the études page (`/etudes`, `/etudes?e=ID`; docs/protocol.md, "Études"). A phone-first list of
// problems with the day's étude first; an étude open as three hands face up (an étude hides
// nothing) where the player plays his side's cards and the server answers each with the
// solver's best reply. The server judges every card: the first that loses the goal ends the
// attempt with the defence's line that refutes it. The page keeps only the player's cards and
// sends them all with each move; the server holds no attempt.

import { init, onChange, t } from './i18n.js';
import { langSelect } from './lang-select.js';
import { h, toast } from './dom.js';
import { call } from './api.js';
import { chip, face, sortHand, suitIcon } from './cards.js';
import { goalText } from './etude-daily.js';

const state = { list: null, etude: null, cards: [], answer: null, busy: false };

const wantedId = () => new URLSearchParams(location.search).get('e');

function listItem(e, daily) {
  return h('li', { class: `etude-item ${daily ? 'daily' : ''}`.trim() },
    h('a', { href: `/etudes?e=${encodeURIComponent(e.id)}`, id: `etude-${e.id}`,
      onclick: (ev) => { ev.preventDefault(); open(e.id); } },
    h('b', {}, daily ? [t('et.daily'), ' · '] : null, e.id),
    ' ', h('span', { class: 'etude-goal' }, goalText(e)),
    ' ', h('span', { class: 'etude-meta' }, t(`et.source.${e.source}`), ' · ', t('et.nodes', { n: e.nodes }))));
}

function drawList(root) {
  const { daily, etudes } = state.list;
  const first = etudes.find((e) => e.id === daily);
  root.append(h('section', { class: 'panel etudes' },
    h('h1', {}, t('et.title')),
    h('p', { class: 'lead' }, t('et.lead')),
    h('ul', { class: 'etude-list', id: 'etude-list' },
      first ? listItem(first, true) : null,
      etudes.filter((e) => e !== first).map((e) => listItem(e, false)))));
}

/** Cards still in player `p`'s hand after the steps played. */
function handNow(p) {
  const played = new Set((state.answer?.steps || []).map((s) => s.card));
  return sortHand(state.etude.hands[p].filter((c) => !played.has(c)));
}

async function play(card) {
  if (state.busy) return;
  state.busy = true;
  state.cards.push(card);
  try {
    await ask();
  } catch (e) {
    state.cards.pop();
    toast(e.message);
  }
  state.busy = false;
  redraw();
}

async function ask() {
  state.answer = await call('POST', `/api/etudes/${encodeURIComponent(state.etude.id)}/attempt`, { cards: state.cards });
}

function hand(p) {
  const e = state.etude;
  const a = state.answer;
  const mine = e.plays.includes(p);
  const turn = a && a.status === 'playing' && a.to_play === p;
  const legal = new Set(turn ? a.legal : []);
  return h('div', { class: `etude-hand ${turn ? 'turn' : ''}`.trim(), id: `etude-hand-${p}` },
    h('p', { class: 'etude-who' }, t('et.player', { n: p + 1 }),
      p === e.declarer ? [' · ', t('et.declarer')] : null, ' · ',
      t(mine ? 'et.you_play' : 'et.solver_plays')),
    h('div', { class: 'cards' }, handNow(p).map((c) => {
      if (!legal.has(c)) return face(c);
      const b = face(c, { button: true, cls: 'legal' });
      b.addEventListener('click', () => play(c));
      return b;
    })));
}

/** The trick on the table: the cards of the last, unfinished or just finished trick. */
function trick() {
  const steps = state.answer?.steps || [];
  const n = steps.length;
  const start = n === 0 ? 0 : n - (((n - 1) % 3) + 1);
  return h('div', { class: 'etude-trick', id: 'etude-trick' },
    steps.slice(start).map((s) => h('span', { class: 'etude-played' }, t('et.player', { n: s.player + 1 }), ' ', chip(s.card))));
}

function verdict() {
  const a = state.answer;
  if (!a) return null;
  if (a.status === 'solved') return h('p', { class: 'banner ok', id: 'etude-verdict', dataset: { status: 'solved' } }, t('et.solved'));
  if (a.status === 'lost') {
    const last = a.steps[a.steps.length - 1];
    const line = a.refutation.slice(0, 6).map((s) => [chip(s.card), ' ']);
    return h('p', { class: 'banner', id: 'etude-verdict', dataset: { status: 'lost' } },
      t('et.lost_before'), ' ', chip(last.card), ' ', t('et.lost_after'), ' ', line);
  }
  return h('p', { class: 'etude-turn', id: 'etude-verdict', dataset: { status: 'playing' } }, t('et.turn', { n: a.to_play + 1 }));
}

function drawEtude(root) {
  const e = state.etude;
  const a = state.answer;
  root.append(h('section', { class: 'panel etude', id: 'etude', dataset: { id: e.id } },
    h('p', {}, h('a', { href: '/etudes', id: 'etude-back-list', onclick: (ev) => { ev.preventDefault(); history.pushState(null, '', '/etudes'); state.etude = null; redraw(); } }, '← ', t('et.list'))),
    h('h1', {}, t('et.title'), ' ', e.id),
    h('p', { class: 'lead', id: 'etude-goal' }, goalText(e),
      e.trump ? [' ', t('et.trump'), ' ', suitIcon(e.trump, 'pip')] : null),
    verdict(),
    hand((e.declarer + 1) % 3),
    hand((e.declarer + 2) % 3),
    trick(),
    hand(e.declarer),
    h('p', { class: 'etude-tricks' }, t('et.tricks', { n: a ? a.declarer_tricks : 0 })),
    h('p', { class: 'etude-actions' },
      h('button', { type: 'button', id: 'etude-undo', disabled: state.cards.length === 0,
        onclick: async () => { state.cards.pop(); await restart(); } }, t('et.undo')), ' ',
      h('button', { type: 'button', id: 'etude-again',
        onclick: async () => { state.cards = []; await restart(); } }, t('et.again')))));
}

async function restart() {
  try {
    await ask();
  } catch (e) {
    toast(e.message);
  }
  redraw();
}

async function open(id) {
  const e = state.list.etudes.find((x) => x.id === id);
  if (!e) { toast(t('et.no_such')); return; }
  if (wantedId() !== id) history.pushState(null, '', `/etudes?e=${encodeURIComponent(id)}`);
  state.etude = e;
  state.cards = [];
  state.answer = null;
  await restart();
}

function redraw() {
  const root = document.getElementById('app');
  root.replaceChildren();
  if (!state.list) return;
  if (state.etude) drawEtude(root); else drawList(root);
  document.body.dataset.ready = 'true';
  document.body.dataset.drawn = String(Number(document.body.dataset.drawn || 0) + 1);
}

async function boot() {
  await init();
  langSelect();
  try {
    state.list = await call('GET', '/api/etudes');
  } catch (e) {
    document.getElementById('app').replaceChildren(h('p', { class: 'banner' }, e.message));
    return;
  }
  onChange(redraw);
  window.addEventListener('popstate', () => {
    const id = wantedId();
    if (id) open(id); else { state.etude = null; redraw(); }
  });
  const id = wantedId();
  if (id) await open(id); else redraw();
}

boot();
