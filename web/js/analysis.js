// Why: the deal analysis page (web/analysis.html). `/t/ID/analysis/N` shows finished deal N
// of a table, `/analysis` a deal of a record file opened from disk. The server's exact solver
// computes everything (GET /api/tables/ID/deals/N/analysis, POST /api/analysis: the
// `pref-analysis/1` document of docs/analysis.md); this page only steps through it trick by
// trick with the table's card components: each card's value before and after it, the
// mistakes with what they cost and the best cards in their place, the par and each seat's
// best contract. The hands drawn at a trick are every hand as it stood when the trick was
// led, as the server replayed them (GET /api/tables/ID/deals/N/hands); for a record opened
// from disk, the record's hands as dealt with the cards played so far marked.

import { init, LANGS, lang, use, onChange, t } from './i18n.js';
import { h, toast } from './dom.js';
import { face, sortHand, bidLabel, suitIcon, chip } from './cards.js';
import { claimAnalysis } from './claim.js';

const view = { id: null, deal: 0, deals: 0, record: null, text: null, doc: null, hands: null, step: 0, move: 0, error: null };

async function json(res) {
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new Error((data && data.message) || `HTTP ${res.status}`);
  return data;
}

/** Loads deal `view.deal` from the table or the opened file. */
async function load() {
  view.doc = null;
  view.hands = null;
  view.error = null;
  view.step = 0;
  view.move = 0;
  try {
    if (view.id) {
      if (!view.record) view.record = await fetch(`/api/tables/${view.id}/record`).then(json);
      view.deals = view.record.deals.length;
      view.doc = await fetch(`/api/tables/${view.id}/deals/${view.deal}/analysis`).then(json);
      // Served under the same rule as the analysis; without it the hands as dealt are drawn.
      view.hands = await fetch(`/api/tables/${view.id}/deals/${view.deal}/hands`)
        .then((res) => (res.ok ? res.json() : null)).catch(() => null);
    } else if (view.text) {
      view.doc = await fetch(`/api/analysis?deal=${view.deal}`, { method: 'POST', body: view.text }).then(json);
      // The file's cards are the reader's already: its hands at each trick, replayed by the
      // server; a deal without them (scored from its outcome) draws the hands as dealt.
      view.hands = await fetch(`/api/analysis/hands?deal=${view.deal}`, { method: 'POST', body: view.text })
        .then((res) => (res.ok ? res.json() : null)).catch(() => null);
    }
  } catch (e) {
    view.error = e.message;
  }
  draw();
}

const who = (seat) => (view.doc ? view.doc.players[seat] : '');

function dealPicker() {
  const select = h('select', { id: 'an-deal', 'aria-label': t('an.deal_pick') },
    Array.from({ length: view.deals }, (_, i) => h('option', { value: i, selected: i === view.deal }, t('an.deal', { n: i + 1 }))));
  select.addEventListener('change', () => {
    view.deal = Number(select.value);
    if (view.id) history.replaceState(null, '', `/t/${view.id}/analysis/${view.deal}`);
    load();
  });
  return select;
}

function filePicker() {
  const input = h('input', { type: 'file', id: 'an-file', accept: '.json,application/json' });
  input.addEventListener('change', async () => {
    const file = input.files[0];
    if (!file) return;
    view.text = await file.text();
    try {
      view.record = JSON.parse(view.text);
      view.deals = Array.isArray(view.record.deals) ? view.record.deals.length : 0;
    } catch {
      view.record = null;
      view.deals = 0;
    }
    view.deal = 0;
    load();
  });
  return h('label', { class: 'an-open' }, t('an.open'), ' ', input);
}

function par(d) {
  const p = d.par;
  if (!p) return null;
  let text;
  if (d.kind === 'game') text = t('an.par.game', { who: who(p.declarer), tricks: p.tricks, defence: p.defence });
  else if (d.kind === 'misere') text = t('an.par.misere', { who: who(p.declarer), tricks: p.tricks });
  else text = t('an.par.raspasy', { list: p.tricks.map((n, s) => (n === null ? null : `${who(s)} ${n}`)).filter(Boolean).join(', ') });
  return h('p', { id: 'an-par' }, text);
}

function headline(d) {
  const taken = d.tricks ? d.tricks.join('–') : '—';
  if (d.kind === 'game' || d.kind === 'surrender') {
    return h('p', { id: 'an-head' }, t('an.played', { who: who(d.declarer), tricks: taken }), ' ', bidLabel(d.contract || d.bid));
  }
  if (d.kind === 'misere') return h('p', { id: 'an-head' }, t('an.played', { who: who(d.declarer), tricks: taken }), ' ', bidLabel('misere'));
  return h('p', { id: 'an-head' }, t('an.raspasy', { tricks: taken }));
}

const STRAINS = ['S', 'C', 'D', 'H', 'NT'];

function auction(d) {
  return h('ul', { class: 'an-auction', id: 'an-auction' }, d.auction.map((a) => h('li', { dataset: { seat: a.seat, best: a.best ? a.best.bid : '' } },
    a.best ? [t('an.could', { who: who(a.seat) }), ' ', bidLabel(a.best.bid)] : t('an.none', { who: who(a.seat) }),
    h('span', { class: 'an-strains' }, ' (', STRAINS.map((s, i) => [i ? ', ' : '', s === 'NT' ? t('call.nt') : suitIcon(s, 'pip'), ` ${a.strains[s].tricks}`]), ')'))));
}

/** The cards played before step `step` (tricks 0 … step − 2) and during it (trick step − 1). */
function playedBy(d, step) {
  const before = new Set(d.cards.filter((c) => c.trick < step - 1).map((c) => c.card));
  const now = new Set(d.cards.filter((c) => c.trick === step - 1).map((c) => c.card));
  return { before, now };
}

function hands(d, step) {
  const deal = view.record && view.record.deals[view.deal];
  const given = view.hands && view.hands.deal === view.deal ? view.hands : null;
  // At a trick: the hands when it was led (the server's); before the first: as dealt.
  const led = given && step > 0 ? given.tricks[step - 1] : null;
  const shown = led || (given ? given.dealt : deal && deal.hands);
  if (!shown) return null;
  const talon = given ? given.talon : deal.talon;
  const { before, now } = playedBy(d, step);
  const card = (c) => {
    const el = face(c, { cls: 'small' });
    if (!led && before.has(c)) el.classList.add('played');
    if (now.has(c)) el.classList.add('now');
    return el;
  };
  return h('div', { class: 'an-hands', id: 'an-hands', dataset: { at: led ? 'trick' : 'dealt' } },
    shown.map((hand, seat) => (hand.length ? h('div', { class: 'an-seat', dataset: { seat } }, h('b', {}, who(seat)),
      h('div', { class: 'hand' }, sortHand(hand).map(card))) : null)),
    talon ? h('div', { class: 'an-seat', dataset: { talon: 'true' } }, h('b', {}, t('an.talon')), h('div', { class: 'hand' }, talon.map(card))) : null,
    given && given.discard.length ? h('div', { class: 'an-seat', dataset: { discard: 'true' } }, h('b', {}, t('deal.discard')),
      h('div', { class: 'hand' }, given.discard.map(card))) : null);
}

/** The tricks in a deal: a defender's values are shown as the defence's count. */
const TRICKS = 10;

/** Whose count a card's values are shown as: the side of the player who moved. In a trick
 * contract a defender reads the defence's tricks (the server counts the declarer's); in a
 * misère and on raspasy the counted seat's own tricks are what each side reads. */
function moverSide(d, c) {
  if (d.kind === 'game' && c.seat !== c.counted) return { label: t('an.values_defence'), v: (x) => TRICKS - x };
  return { label: t('an.values', { who: who(c.counted) }), v: (x) => x };
}

function cardRow(d, c) {
  const mistake = c.cost > 0;
  const side = moverSide(d, c);
  return h('li', { class: `an-card${mistake ? ' mistake' : ''}`, dataset: { card: c.card, before: c.before, after: c.after, cost: c.cost } },
    h('b', {}, c.by === c.seat ? who(c.seat) : t('an.for', { who: who(c.by), seat: who(c.seat) })),
    face(c.card, { cls: 'small' }),
    h('span', { class: 'an-value', 'data-shown': `${side.v(c.before)} ${side.v(c.after)}` }, t('an.value', { before: side.v(c.before), after: side.v(c.after) })),
    mistake ? h('span', { class: 'an-cost' }, t('an.cost', { n: c.cost })) : h('span', { class: 'an-ok' }, '✓'),
    mistake ? h('span', { class: 'an-best' }, t('an.best'), ' ', c.best.map((b) => face(b, { cls: 'small' }))) : null,
    h('span', { class: 'an-values' }, side.label, ' ',
      c.values.map((v, i) => [i ? ', ' : '', chip(v.card), ` ${side.v(v.value)}`])));
}

function steps(d) {
  const tricks = d.cards.length ? d.cards[d.cards.length - 1].trick + 1 : 0;
  const go = (i) => { view.step = Math.max(0, Math.min(tricks, i)); draw(); };
  const controls = h('div', { class: 'an-controls' },
    h('button', { type: 'button', id: 'an-prev', disabled: view.step === 0, onclick: () => go(view.step - 1) }, `◀ ${t('an.prev')}`),
    h('button', { type: 'button', id: 'an-next', disabled: view.step === tricks, onclick: () => go(view.step + 1) }, `${t('an.next')} ▶`),
    h('span', { id: 'an-step' }, view.step === 0 ? t('an.dealt') : t('an.trick', { no: view.step, total: tricks })));
  const cards = d.cards.filter((c) => c.trick === view.step - 1);
  return h('section', { id: 'an-steps', dataset: { step: view.step } }, controls, hands(d, view.step),
    view.step > 0 ? h('ol', { class: 'an-trick', id: 'an-trick' }, cards.map((c) => cardRow(d, c))) : null);
}

/** One card position at a time: who is to move and the solver's value of each card he could
 * play there (the document's `values`, from the mover's side), the card played marked. */
function moves(d) {
  const n = d.cards.length;
  if (n === 0) return null;
  const at = Math.max(0, Math.min(n - 1, view.move));
  const go = (i) => { view.move = Math.max(0, Math.min(n - 1, i)); draw(); };
  const c = d.cards[at];
  const side = moverSide(d, c);
  return h('section', { id: 'an-moves', dataset: { move: at, trick: c.trick } },
    h('div', { class: 'an-controls' },
      h('button', { type: 'button', id: 'an-move-prev', disabled: at === 0, 'aria-label': t('an.prev'), onclick: () => go(at - 1) }, '◀'),
      h('span', { id: 'an-move-where' }, t('an.move', { k: at + 1, n }), ' · ', t('an.trick', { no: c.trick + 1, total: d.cards[n - 1].trick + 1 })),
      h('button', { type: 'button', id: 'an-move-next', disabled: at === n - 1, 'aria-label': t('an.next'), onclick: () => go(at + 1) }, '▶')),
    h('p', { id: 'an-move-who' }, h('b', {}, c.by === c.seat ? who(c.seat) : t('an.for', { who: who(c.by), seat: who(c.seat) })), ' ', side.label),
    h('ul', { class: 'an-move-values', id: 'an-move-values' }, c.values.map((v) => h('li', {
      class: v.card === c.card ? 'played' : null, dataset: { card: v.card, value: side.v(v.value), ...(v.card === c.card ? { played: 'true' } : {}) },
    }, face(v.card, { cls: 'small' }), ` ${side.v(v.value)}`))));
}

function dealView(d) {
  if (!d.analysable) return h('p', { id: 'an-reason' }, t('an.unavailable', { reason: d.reason }));
  return h('div', { id: 'an-deal-view', dataset: { deal: d.deal } },
    headline(d), par(d), claimAnalysis(d, who),
    h('p', { id: 'an-mistakes' }, t('an.mistakes', { n: d.mistakes })),
    h('h2', {}, t('an.auction')), auction(d),
    h('h2', {}, t('an.play')), steps(d), moves(d));
}

function draw() {
  document.title = t('an.title');
  const links = document.getElementById('top-links');
  links.replaceChildren(...[view.id && h('a', { href: `/t/${view.id}`, id: 'table-link' }, t('an.back')),
    h('a', { href: '/analysis', id: 'open-link' }, t('an.open_page'))].filter(Boolean));
  const d = view.doc && view.doc.deals[0];
  // `replaceChildren` would write a null out as the text "null": absent parts are left out.
  document.getElementById('app').replaceChildren(...[
    h('h1', {}, t('an.title')),
    h('p', { class: 'lead' }, t('an.lead')),
    h('div', { class: 'an-controls' }, view.id ? null : filePicker(), view.deals > 1 ? dealPicker() : null),
    view.error ? h('p', { class: 'error', id: 'an-error', role: 'alert' }, view.error) : null,
    d ? dealView(d) : null].filter(Boolean));
  document.body.dataset.ready = view.doc || view.error || !view.id ? 'true' : 'false';
}

async function boot() {
  await init();
  const select = document.getElementById('lang');
  select.replaceChildren(...Object.entries(LANGS).map(([code, name]) => h('option', { value: code, selected: code === lang() }, name)));
  select.addEventListener('change', () => use(select.value));
  onChange(draw);
  const m = /^\/t\/([0-9a-fA-F]+)\/analysis\/(\d+)\/?$/.exec(location.pathname);
  if (m) {
    view.id = m[1];
    view.deal = Number(m[2]);
    await load();
  } else {
    draw();
  }
  if (view.error) toast(view.error);
}

boot();
