// Why: entering one deal of a game played with real cards in a few taps. The choices come
// from the server (`next`: the dealer, the seats in play, the contracts, where half-whist
// and the dealer's whist exist); the draft is checked by the server as it is filled in,
// and the rule's words come back when it does not fit. No rule is decided here.

import { h } from './dom.js';
import { t } from './i18n.js';

const SUIT = { S: '♠', C: '♣', D: '♦', H: '♥', NT: 'NT' };

/** A fresh draft for the next deal. */
export function newDraft() {
  return { kind: 'game', declarer: null, level: 6, strain: 'S', whist: {}, defence: 'closed', played: true, tricks: {}, talon: 0, index: null };
}

/** The draft of an entered deal, to correct it as deal `index`. */
export function draftOf(outcome, index) {
  const d = newDraft();
  d.index = index;
  d.kind = outcome.kind;
  if (outcome.declarer !== undefined) d.declarer = outcome.declarer;
  const c = /^(\d+)(S|C|D|H|NT)$/.exec(outcome.contract || outcome.bid || '');
  if (c) { d.level = Number(c[1]); d.strain = c[2]; }
  (outcome.whist || []).forEach((w, s) => { if (w) d.whist[s] = w; });
  if (outcome.defence) d.defence = outcome.defence;
  d.played = !!outcome.tricks;
  (outcome.tricks || []).forEach((n, s) => { d.tricks[s] = n; });
  if (outcome.talon_units !== undefined) d.talon = outcome.talon_units;
  d.dark = !!outcome.dark;
  d.noTalon = !!outcome.no_talon;
  return d;
}

/** The seats whose tricks are entered, the last one following from the others. */
function trickSeats(view, d) {
  return view.next.active;
}

/** The outcome the draft describes, in the record's outcome form. */
export function outcomeOf(view, d) {
  const n = view.players;
  const next = view.next;
  const seats = trickSeats(view, d);
  const tricks = () => {
    const out = Array(n).fill(0);
    let rest = next.tricks_total;
    seats.slice(0, -1).forEach((s) => { out[s] = d.tricks[s] || 0; rest -= out[s]; });
    out[seats[seats.length - 1]] = rest;
    return out;
  };
  if (d.kind === 'raspasy') return { kind: 'raspasy', tricks: tricks() };
  // The house rules' outcome fields (R3.9.1, R4.6), only where the table plays them.
  const house = (o) => {
    if (next.dark && d.dark) o.dark = true;
    if (next.no_talon && d.noTalon && o.kind !== 'surrender') o.no_talon = true;
    return o;
  };
  if (d.kind === 'misere') return house({ kind: 'misere', declarer: d.declarer, tricks: tricks() });
  const contract = `${d.level}${d.strain}`;
  if (d.kind === 'surrender') return house({ kind: 'surrender', declarer: d.declarer, bid: contract });
  const whist = Array.from({ length: n }, (_, s) => (s === d.declarer ? null : d.whist[s] || null));
  const o = { kind: 'game', declarer: d.declarer, contract, whist };
  const whisters = whist.filter((w) => w === 'whist').length;
  if (d.played && whisters === 1) o.defence = d.defence;
  if (d.played) o.tricks = tricks();
  if (next.talon_units) o.talon_units = d.talon;
  return house(o);
}

function choice(name, options, value, set) {
  return h('div', { class: 'k-choice', role: 'radiogroup', 'data-name': name }, options.map(([v, label]) =>
    h('button', { type: 'button', class: `chip ${v === value ? 'on' : ''}`, 'data-value': v, 'aria-pressed': String(v === value), onclick: () => set(v) }, label)));
}

/** A seat's tricks as one tap on a row 0 … `most` (the deal's tricks), not repeated +. */
function trickRow(seat, value, most, set) {
  const row = Array.from({ length: most + 1 }, (_, n) => [n, String(n)]);
  return h('span', { class: 'trick-row' },
    choice(`tricks-${seat}`, row, value, set),
    h('output', { id: `k-tricks-${seat}`, hidden: true }, String(value)));
}

/**
 * The entry form. `ui` holds the draft and the last check's answer; `redraw()` draws the
 * form again; `check(outcome)` asks the server; `submit(outcome)` enters it.
 */
export function entryForm(view, ui, { redraw, check, submit, cancel }) {
  const d = ui.draft;
  const next = view.next;
  const name = (s) => view.names[s];
  const change = (f) => { f(); ui.verdict = null; redraw(); check(outcomeOf(view, d)); };
  const kinds = [['game', t('k.kind.game')], ['misere', t('k.kind.misere')], ['raspasy', t('k.kind.raspasy')]];
  if (next.surrender_max_level) kinds.push(['surrender', t('k.kind.surrender')]);
  const parts = [
    h('p', { class: 'k-dealer' }, d.index === null
      ? t('k.deal_no', { n: view.deals.length + 1, dealer: name(next.dealer) })
      : t('k.correcting', { n: d.index + 1 })),
    choice('kind', kinds, d.kind, (v) => change(() => { d.kind = v; })),
  ];
  // dark_games / misere_without_talon: the deal was dark (×2), or played without talon.
  const yesNo = [[false, t('no')], [true, t('yes')]];
  if (next.dark && d.kind !== 'raspasy') {
    parts.push(h('h3', {}, t('k.dark')), choice('dark', yesNo, !!d.dark, (v) => change(() => { d.dark = v; })));
  }
  if (next.no_talon && (d.kind === 'misere' || d.kind === 'game')) {
    parts.push(h('h3', {}, t('k.no_talon')), choice('no-talon', yesNo, !!d.noTalon, (v) => change(() => { d.noTalon = v; })));
  }
  if (d.kind !== 'raspasy') {
    parts.push(h('h3', {}, t('k.declarer')),
      choice('declarer', next.active.map((s) => [s, name(s)]), d.declarer, (v) => change(() => { d.declarer = v; delete d.whist[v]; })));
  }
  if (d.kind === 'game' || d.kind === 'surrender') {
    const levels = [...new Set(next.contracts.map((c) => Number(/^\d+/.exec(c)[0])))];
    const strains = [...new Set(next.contracts.map((c) => c.replace(/^\d+/, '')))];
    parts.push(h('h3', {}, d.kind === 'game' ? t('k.contract') : t('k.bid')),
      choice('level', levels.map((l) => [l, String(l)]), d.level, (v) => change(() => { d.level = v; })),
      choice('strain', strains.map((s) => [s, SUIT[s] || s]), d.strain, (v) => change(() => { d.strain = v; })));
  }
  if (d.kind === 'game' && d.declarer !== null) {
    const half = next.half_whist_levels.includes(d.level);
    const calls = [['whist', t('whist.whist')], ['pass', t('whist.pass')]];
    if (half) calls.push(['half', t('whist.half')]);
    const defenders = next.active.filter((s) => s !== d.declarer);
    parts.push(h('h3', {}, t('k.whist')));
    for (const s of defenders) {
      parts.push(h('div', { class: 'k-row' }, h('span', { class: 'k-who' }, name(s)),
        choice(`whist-${s}`, calls, d.whist[s] || null, (v) => change(() => {
          // A half-whist stands without play (R5.2): the cards were not played out.
          const was = d.whist[s];
          d.whist[s] = v;
          if (v === 'half') d.played = false;
          else if (was === 'half') d.played = true;
        }))));
    }
    if (next.dealer_whist) {
      const s = next.dealer;
      parts.push(h('div', { class: 'k-row' }, h('span', { class: 'k-who' }, `${name(s)} (${t('seat.dealer')})`),
        choice(`whist-${s}`, [[null, '—'], ['whist', t('whist.whist')]], d.whist[s] || null, (v) => change(() => { d.whist[s] = v; }))));
    }
    parts.push(h('label', { class: 'check' }, h('input', { type: 'checkbox', id: 'k-played', checked: d.played, onchange: (e) => change(() => { d.played = e.target.checked; }) }), ' ', t('k.played')));
    if (d.played) {
      parts.push(h('h3', {}, t('k.defence')),
        choice('defence', [['closed', t('k.closed')], ['open', t('k.open_defence')]], d.defence, (v) => change(() => { d.defence = v; })));
    }
    if (next.talon_units) {
      parts.push(h('h3', {}, t('k.talon_units')), choice('talon', [0, 1, 2, 3].map((u) => [u, String(u)]), d.talon, (v) => change(() => { d.talon = v; })));
    }
  }
  const playedOut = d.kind === 'raspasy' || d.kind === 'misere' || (d.kind === 'game' && d.played);
  if (playedOut) {
    const seats = trickSeats(view, d);
    const o = outcomeOf(view, d);
    parts.push(h('h3', {}, t('k.tricks')));
    seats.forEach((s, i) => {
      const last = i === seats.length - 1;
      parts.push(h('div', { class: 'k-row' }, h('span', { class: 'k-who' }, name(s)),
        last ? h('output', { id: `k-tricks-${s}`, class: 'k-rest' }, String(o.tricks[s]))
          : trickRow(s, d.tricks[s] || 0, next.tricks_total, (v) => change(() => { d.tricks[s] = v; }))));
    });
  }
  const verdict = ui.verdict;
  parts.push(h('p', { class: `k-verdict ${verdict && verdict.error ? 'bad' : 'ok'}`, id: 'k-verdict', role: 'alert' },
    verdict ? (verdict.error || t('k.fits')) : ''));
  parts.push(h('p', { class: 'k-actions' },
    h('button', { type: 'button', class: 'primary', id: 'k-enter', onclick: () => submit(outcomeOf(view, d)) }, d.index === null ? t('k.enter') : t('k.save')),
    d.index !== null && h('button', { type: 'button', class: 'secondary', id: 'k-cancel', onclick: cancel }, t('k.cancel'))));
  return h('section', { class: 'panel k-form', id: 'k-form' }, h('h2', {}, t('k.new_deal')), parts);
}
