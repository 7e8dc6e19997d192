// Why: what the viewer may do now, and nothing else. Every button comes from the legal
// actions the server sent with the turn: the bidding box (a legal repeat of the standing bid
// is *here*), the discard of two, the contract (or a surrender, R4.5, where the table allows
// it), whist / pass / half-whist, open or closed, and between deals the next deal. A legal
// action is an object with one verb or a bare word ("surrender"); a word this client does
// not know is ignored, never a failure. Cards to play are enabled in the hands (seats.js).

import { h } from './dom.js';
import { t } from './i18n.js';
import { bidLabel } from './cards.js';
import { saved } from './store.js';
import { seatAdmin } from './hostseats.js';
import { claimPending } from './claim.js';
import { endGame, peopleSeated } from './audience.js';
import { proposeButton, stopPanel } from './stop.js';

const STRAINS = ['S', 'C', 'D', 'H', 'NT'];

/** The legal actions split by verb. */
export function legalSets(state) {
  const legal = (state.snap.turn && state.snap.turn.legal) || [];
  const out = { bid: new Set(), dark: new Set(), play: new Set(), discard: [], declare: new Set(), whist: new Set(), defence: new Set(), words: new Set() };
  for (const a of legal) {
    if (typeof a === 'string') out.words.add(a);
    else if (!a || typeof a !== 'object') continue;
    else if ('bid' in a) out.bid.add(a.bid);
    else if ('dark' in a) out.dark.add(a.dark);
    else if ('play' in a) out.play.add(a.play);
    else if ('discard' in a) out.discard.push(a.discard);
    else if ('declare' in a) out.declare.add(a.declare);
    else if ('whist' in a) out.whist.add(a.whist);
    else if ('defence' in a) out.defence.add(a.defence);
  }
  return out;
}

function actButton(state, action, label, attrs = {}) {
  const word = typeof action === 'string';
  return h('button', {
    type: 'button', class: attrs.class || 'call', disabled: attrs.disabled || state.busy || state.syncing, id: attrs.id,
    dataset: word ? { action } : { action: Object.keys(action)[0], value: JSON.stringify(Object.values(action)[0]) },
    onclick: () => state.act(action),
  }, label);
}

/** The look (R2.3): the viewer sees his closed hand; it uses no turn. */
function lookButton(state) {
  return h('div', { class: 'row dark-row' },
    actButton(state, 'look', t('dark.look'), { class: 'primary look', id: 'look' }),
    h('small', { class: 'dark-help' }, t('dark.look_help')));
}

/** Whether the viewer holds a closed hand he may still look at (R2.3). */
export function mayLook(state) {
  const d = state.snap.deal;
  const me = state.seat;
  return !!(d && me !== null && d.stage === 'auction' && d.dark && d.dark.looked && d.dark.looked[me] === false
    && d.calls[me] === null);
}

function bidBox(state, legal) {
  const d = state.snap.deal;
  const here = d.highest ? d.highest.bid : null;
  // With `dark_games` (R3.9) the same calls are made dark while the hand is unseen: the
  // bidding box sends `{dark: code}` for every call the server lists dark.
  const dark = legal.dark.size > 0;
  const verb = dark ? 'dark' : 'bid';
  const has = (code) => (dark ? legal.dark.has(code) : legal.bid.has(code));
  const grid = [];
  for (let level = 6; level <= 10; level++) {
    for (const s of STRAINS) {
      const code = `${level}${s}`;
      const ok = has(code);
      const isHere = ok && code === here;
      grid.push(actButton(state, { [verb]: code },
        isHere ? [bidLabel(code), h('small', {}, t('call.here'))] : bidLabel(code),
        { disabled: !ok, class: `call ${isHere ? 'here' : ''}` }));
    }
  }
  // R3.10: the two calls without talon sit between the nines and the tens, where legal.
  const noTalon = ['misere_no_talon', 'nine_no_talon'].filter((c) => has(c))
    .map((c) => actButton(state, { [verb]: c }, bidLabel(c), { class: `call wide ${c}` }));
  return h('div', { class: `bidbox${dark ? ' dark' : ''}`, id: 'bidbox' },
    legal.words.has('look') ? lookButton(state) : null,
    dark ? h('p', { class: 'dark-note', id: 'dark-note' }, t('dark.calls_dark')) : null,
    h('div', { class: 'grid' }, grid),
    noTalon.length ? h('div', { class: 'row no-talon' }, noTalon) : null,
    h('div', { class: 'row' },
      actButton(state, { [verb]: 'misere' }, bidLabel('misere'), { disabled: !has('misere'), class: 'call wide' }),
      actButton(state, { [verb]: 'pass' }, t('call.pass'), { disabled: !has('pass'), class: 'call wide pass' })));
}

/** "Surrender (down N)" when the declarer may surrender (R4.5); N from the table's profile. */
function surrenderButton(state, legal) {
  if (!legal.words.has('surrender')) return null;
  const profile = (state.table && state.table.profile) || {};
  const n = profile.surrender;
  const label = typeof n === 'number' && n > 0 ? t('call.surrender_down', { n }) : t('call.surrender');
  return h('div', { class: 'row' }, actButton(state, 'surrender', label, { class: 'secondary surrender', id: 'surrender' }));
}

function discardBox(state, legal) {
  const pick = [...state.selected];
  const ok = pick.length === 2 && legal.discard.some((p) => p.length === 2 && p.includes(pick[0]) && p.includes(pick[1]));
  return h('div', { class: 'choice' },
    h('p', {}, t('discard.help', { n: pick.length })),
    h('button', {
      type: 'button', class: 'primary', id: 'discard-ok', disabled: !ok || state.busy || state.syncing,
      onclick: () => state.act({ discard: pick }),
    }, t('discard.ok')),
    surrenderButton(state, legal));
}

function declareBox(state, legal) {
  const codes = [];
  for (let level = 6; level <= 10; level++) for (const s of STRAINS) if (legal.declare.has(`${level}${s}`)) codes.push(`${level}${s}`);
  return h('div', { class: 'choice', id: 'declare' },
    h('p', {}, t('declare.help')),
    h('div', { class: 'grid' }, codes.map((c) => actButton(state, { declare: c }, bidLabel(c)))),
    surrenderButton(state, legal));
}

function pickBox(state, id, verb, values, help) {
  return h('div', { class: 'choice', id },
    h('p', {}, t(help)),
    h('div', { class: 'row' }, values.map((v) => actButton(state, { [verb]: v }, t(`${verb}.${v}`), { class: `call wide ${verb}-${v}` }))));
}

/** The panel above the viewer's hand. */
export function controls(state) {
  const d = state.snap.deal;
  const phase = state.table.phase;
  if (phase === 'lobby') return null;
  if (!d || d.stage === 'finished') {
    if (phase !== 'between_deals') return null;
    const host = saved.host(state.id);
    // A seated player (the host too) proposes the agreed stop to the others (R10.3); a
    // host who holds no seat ends his table, or proposes the end to the people seated.
    return h('div', { class: 'controls between' }, stopPanel(state), h('div', { class: 'row' },
      state.seat !== null && !state.table.stop ? h('button', {
        type: 'button', class: 'primary', id: 'next-deal', disabled: state.busy, onclick: () => state.nextDeal(),
      }, t('deal.next')) : null,
      proposeButton(state),
      host && state.seat === null && !state.table.stop ? h('button', {
        type: 'button', class: 'secondary', id: 'end-game',
        onclick: () => endGame(state, host),
      }, t(peopleSeated(state.table) ? 'stop.propose' : 'deal.end_game')) : null),
    host ? seatAdmin(state, host) : null);
  }
  const legal = legalSets(state);
  const mine = state.seat !== null && d.to_act === state.seat && (state.snap.turn.legal || []).length > 0;
  if (!mine) {
    if (claimPending(state)) return null;
    const who = d.to_act !== null && d.to_act !== undefined ? state.table.seats[d.to_act] : null;
    return h('div', { class: 'controls waiting' }, h('p', {}, who ? t('turn.waiting', { name: who.name || '' }) : ''),
      mayLook(state) ? lookButton(state) : null);
  }
  let body;
  switch (d.stage) {
    case 'auction': body = bidBox(state, legal); break;
    case 'discard': body = discardBox(state, legal); break;
    case 'declare': body = declareBox(state, legal); break;
    case 'whist': body = pickBox(state, 'whist', 'whist', ['whist', 'half', 'pass'].filter((v) => legal.whist.has(v)), 'whist.help'); break;
    case 'defence': body = pickBox(state, 'defence', 'defence', ['open', 'closed'].filter((v) => legal.defence.has(v)), 'defence.help'); break;
    // While a claim is pending the answer is in the claim panel (claim.js).
    case 'play': body = claimPending(state) ? null : h('p', { class: 'your-turn' }, t('turn.play')); break;
    default: body = null;
  }
  return h('div', { class: 'controls mine' }, h('p', { class: 'your-turn-title' }, t('turn.yours')), body);
}
