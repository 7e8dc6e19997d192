// Why: provably fair deals in the page (docs/fairness.md, schemes pref-fair/2 and
// pref-fair/1 before it). A seated
// page joins, then for each deal draws its own value with crypto.getRandomValues, commits
// to it, and reveals it once every commitment is published. Once a deal's values are
// revealed the page recomputes the commitments and the shuffle itself with Web Crypto's
// SHA-256 and shows "verified ✓" or what failed; it never takes the server's word for it.
// A pref-fair/2 deal must also name this table (the tag of the id in the address) and its
// own deal number, so that no deal of another game or of another place passes.
// The mark stands beside each finished deal of the score log; a snapshot lists only the last
// few deals' values, so the page reads the earlier ones from the game record.

import { h } from './dom.js';
import { call } from './api.js';

/** The contribution commitment's scheme word: the same under both schemes. */
const SCHEME_1 = 'pref-fair/1';
const SCHEME_2 = 'pref-fair/2';

const hex = (buf) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');

/** SHA-256 of a text (UTF-8), as 64 lowercase hex digits. */
export async function sha256(text) {
  return hex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}

/** The 32 cards in index order: ♠ ♣ ♦ ♥, each 7 to ace. */
function newDeck() {
  const deck = [];
  for (const s of 'SCDH') for (const r of '789TJQKA') deck.push(r + s);
  return deck;
}

/**
 * The deck of a deal from its seed and contributions (the record's `fairness` object):
 * Fisher–Yates from the top, driven by SHA-256 in counter mode over the shuffle text.
 * @returns {Promise<string>} the cards, space-separated, position 0 first
 */
/** The lines that name a pref-fair/2 deal's place (none under pref-fair/1). */
const place = (f) => (f.scheme === SCHEME_2 ? `table ${f.table}\ndeal ${f.deal}\n` : '');

/** The tag of table `id`, as pref-fair/2 deals name it. */
export const tableTag = (id) => sha256(`${SCHEME_2} table ${id}\n`);

export async function deckOf(f) {
  let text = `${f.scheme} shuffle\n${place(f)}server ${f.server_seed}\n`;
  for (const c of f.contributions) if (!c.late) text += `seat ${c.seat} ${c.value}\n`;
  const deck = newDeck();
  let words = [];
  let k = 0;
  for (let i = 31; i >= 1; i--) {
    const n = i + 1;
    let u;
    do {
      if (words.length === 0) {
        const block = await sha256(`${text}block ${k}\n`);
        k += 1;
        words = block.match(/.{8}/g).map((w) => parseInt(w, 16));
      }
      u = words.shift();
    } while (u >= 2 ** 32 - (2 ** 32 % n));
    const j = u % n;
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck.join(' ');
}

/** A contribution's commitment for `seat`. */
export const commitmentOf = (seat, value) => sha256(`${SCHEME_1} contribution ${seat} ${value}\n`);

/**
 * Checks one deal's revealed values against each other and against what this page saw.
 * @param f the `fairness` object
 * @param seen { seed_commitment?, deck_commitment?, mine?: { seat, value } } seen live
 * @param at { table, deal }: this table's tag and the deal's number, which a pref-fair/2
 *   deal must name
 * @returns {Promise<string|null>} null when it holds, else the key of what failed
 */
export async function check(f, seen, at) {
  if (f.scheme !== SCHEME_1 && f.scheme !== SCHEME_2) return 'fair.why.scheme';
  if (f.scheme === SCHEME_2 && (f.table !== at.table || f.deal !== at.deal)) return 'fair.why.place';
  if (seen.seed_commitment && seen.seed_commitment !== f.seed_commitment) return 'fair.why.live';
  if (seen.deck_commitment && seen.deck_commitment !== f.deck_commitment) return 'fair.why.live';
  if (await sha256(`${f.scheme} seed ${f.server_seed}\n${place(f)}`) !== f.seed_commitment) return 'fair.why.seed';
  const deck = await deckOf(f);
  if (deck !== f.deck) return 'fair.why.deck';
  if (await sha256(`${f.scheme} deck ${deck}\n${place(f)}secret ${f.server_seed}\n`) !== f.deck_commitment) return 'fair.why.deck_commitment';
  if (seen.mine) {
    const c = f.contributions.find((x) => x.seat === seen.mine.seat);
    if (!c || c.value !== seen.mine.value) return 'fair.why.mine';
  }
  if (seen.hand) {
    const dealt = handOf(deck, seen.hand.players, seen.hand.dealer, seen.hand.seat);
    const same = dealt && dealt.length === seen.hand.cards.length && dealt.every((c) => seen.hand.cards.includes(c));
    if (!same) return 'fair.why.hand';
  }
  return null;
}

/**
 * The cards the deck deals to `seat`: cards 0–9 to the first active seat left of the dealer,
 * 10–19 to the next, 20–29 to the next (at four players the dealer sits out).
 * @returns {string[]|null} null for a seat that does not play the deal
 */
export function handOf(deck, players, dealer, seat) {
  const order = [];
  for (let i = 1; i <= players; i++) {
    const s = (dealer + i) % players;
    if (players === 3 || s !== dealer) order.push(s);
  }
  const at = order.indexOf(seat);
  return at < 0 ? null : deck.split(' ').slice(at * 10, at * 10 + 10);
}

/** The page's fairness memory, kept on the table state. */
function memory(state) {
  if (!state.fair) state.fair = { seen: new Map(), mine: new Map(), results: new Map(), revealed: new Map(), joined: false };
  return state.fair;
}

function seenFor(fm, dealNo) {
  if (!fm.seen.has(dealNo)) fm.seen.set(dealNo, {});
  return fm.seen.get(dealNo);
}

/** Draws, keeps and commits to this seat's value for a deal. */
async function contribute(state, dealNo) {
  const fm = memory(state);
  if (fm.mine.has(dealNo) || state.seat === null) return;
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  const mine = { seat: state.seat, value: hex(bytes.buffer), revealed: false };
  fm.mine.set(dealNo, mine);
  const commitment = await commitmentOf(mine.seat, mine.value);
  state.socket.send({ type: 'fair_commit', id: `fc${dealNo}`, deal_no: dealNo, commitment });
}

/** Reveals this seat's value once the commitments are published, if it is among them. */
async function reveal(state, dealNo, commitments) {
  const mine = memory(state).mine.get(dealNo);
  if (!mine || mine.revealed) return;
  const listed = commitments.find((c) => c.seat === mine.seat);
  if (!listed || listed.commitment !== await commitmentOf(mine.seat, mine.value)) return;
  mine.revealed = true;
  state.socket.send({ type: 'fair_reveal', id: `fr${dealNo}`, deal_no: dealNo, value: mine.value });
}

/** Checks a revealed deal and redraws with the result. */
async function verify(state, dealNo, fairness) {
  const fm = memory(state);
  fm.revealed.set(dealNo, fairness);
  const mine = fm.mine.get(dealNo);
  const seen = { ...seenFor(fm, dealNo), mine: mine && mine.revealed ? mine : null };
  let why;
  try {
    why = await check(fairness, seen, { table: await tableTag(state.id), deal: dealNo });
  } catch (e) {
    why = 'fair.why.error';
  }
  const list = Array.isArray(fairness.contributions) ? fairness.contributions : [];
  const late = mine && list.some((c) => c.seat === mine.seat && c.late);
  fm.results.set(dealNo, { why, late, hand: !!seen.hand, inDeck: list.filter((c) => !c.late).map((c) => c.seat) });
  state.redraw();
}

/** A snapshot: join as a seat, remember the commitments, pick up an open window. */
export function fairSnapshot(state) {
  const fm = memory(state);
  if (state.seat !== null) state.socket.send({ type: 'fair_join' });
  const f = state.snap.fair || {};
  for (const d of f.dealt || []) Object.assign(seenFor(fm, d.deal_no), { seed_commitment: d.seed_commitment, deck_commitment: d.deck_commitment });
  const w = f.window;
  if (w) {
    seenFor(fm, w.deal_no).seed_commitment = w.seed_commitment;
    if (!w.revealing && state.seat !== null && w.seats.includes(state.seat)) contribute(state, w.deal_no);
    if (w.revealing) reveal(state, w.deal_no, w.commitments);
  }
  const revealed = f.revealed || [];
  for (const r of revealed) {
    // Published values never change: values other than the ones already checked fail.
    const had = fm.revealed.get(r.deal_no);
    if (had && JSON.stringify(had) !== JSON.stringify(r.fairness)) fm.results.set(r.deal_no, { why: 'fair2.why.changed' });
    else if (!fm.results.has(r.deal_no)) verify(state, r.deal_no, r.fairness);
  }
  if (revealed.length && revealed[0].deal_no > 0) fromRecord(state, revealed[0].deal_no);
}

/** Checks deals 0 to `before` − 1, which the snapshot left out, from the game record. */
async function fromRecord(state, before) {
  const fm = memory(state);
  if (fm.fromRecord) return;
  fm.fromRecord = true;
  let deals = null;
  try {
    deals = (await call('GET', `/api/tables/${state.id}/record`)).deals;
  } catch (e) {
    deals = null;
  }
  const checks = [];
  for (let n = 0; n < before; n++) {
    if (fm.results.has(n)) continue;
    const f = deals && deals[n] && deals[n].fairness;
    if (f) checks.push(verify(state, n, f));
    else fm.results.set(n, { why: deals ? 'fair2.why.missing' : 'fair2.why.record' });
  }
  await Promise.all(checks);
  state.redraw();
}

/** Who shuffled a checked deck, in words on the page (no tooltip a phone cannot show): the
 * server's seed and the players whose values are in it, by name. */
function fairFrom(state, r, t) {
  const name = (s) => (state.table.seats[s] && state.table.seats[s].name) || t('seat.n', { n: s + 1 });
  return r.inDeck.length ? t('fair.with', { names: r.inDeck.map(name).join(', ') }) : t('fair.alone');
}

/**
 * The mark beside finished deal `dealNo` in the score log: "verified ✓", or "not verified ✗"
 * with the reason, as this page's own check found; "checking…" while it runs; and before
 * the deal's values are published, that they will be checked then.
 */
export function fairMark(state, dealNo, t) {
  const fm = memory(state);
  const r = fm.results.get(dealNo);
  if (r && r.why) {
    return h('span', { class: 'fair-mark fair-failed', 'data-fair': 'failed', 'data-why': r.why },
      h('b', {}, t('fair2.not_verified')), ` (${t(r.why)})`);
  }
  if (r) {
    const from = fairFrom(state, r, t);
    return h('span', { class: 'fair-mark fair-ok', 'data-fair': 'ok' }, t('fair2.verified'), ' ', h('span', { class: 'fair-from' }, `(${from})`),
      r.late ? h('span', { class: 'hint' }, ' ', t('fair.late')) : null);
  }
  if (fm.revealed.has(dealNo) || fm.fromRecord) return h('span', { class: 'fair-mark', 'data-fair': 'checking' }, t('fair2.checking'));
  return h('span', { class: 'fair-mark hint', 'data-fair': 'later' }, t('fair2.later'));
}

/** Keeps `state.snap.fair` as the server's snapshot would hold it (from follow.js). */
export function followFair(state, e) {
  const f = state.snap.fair || (state.snap.fair = {});
  switch (e.kind) {
    case 'fair_seed':
      f.window = { deal_no: e.deal_no, seed_commitment: e.seed_commitment, seats: e.seats, commitments: [], revealing: false };
      break;
    case 'fair_commitments':
      if (f.window) Object.assign(f.window, { commitments: e.commitments, revealing: true });
      break;
    case 'fair_deck':
      f.dealt = [...(f.dealt || []), { deal_no: e.deal_no, seed_commitment: f.window ? f.window.seed_commitment : null, deck_commitment: e.deck_commitment }];
      delete f.window;
      break;
    case 'fair_revealed':
      f.dealt = (f.dealt || []).filter((d) => d.deal_no !== e.deal_no);
      f.revealed = [...(f.revealed || []), { deal_no: e.deal_no, fairness: e.fairness }];
      break;
    default:
      break;
  }
}

/** An event: contribute, reveal, remember what was seen live, and check what is revealed. */
export function fairEvent(state, msg) {
  const e = msg.event;
  const fm = memory(state);
  if (e && e.kind === 'deal' && e.event.type === 'dealt' && e.event.hand && state.seat !== null) {
    // The hand this page was dealt, to compare with the deck once it is revealed.
    seenFor(fm, e.deal_no).hand = { players: state.table.players, dealer: e.event.dealer, seat: state.seat, cards: e.event.hand };
  }
  if (!e || !String(e.kind).startsWith('fair_')) return;
  const seen = seenFor(fm, e.deal_no);
  switch (e.kind) {
    case 'fair_seed':
      seen.seed_commitment = e.seed_commitment;
      if (state.seat !== null && e.seats.includes(state.seat)) contribute(state, e.deal_no);
      break;
    case 'fair_commitments': reveal(state, e.deal_no, e.commitments); break;
    case 'fair_deck': seen.deck_commitment = e.deck_commitment; break;
    case 'fair_revealed': verify(state, e.deal_no, e.fairness); break;
    default: break;
  }
}

/** The side panel: one line per revealed deal, checked in this page. */
export function fairPanel(state, t) {
  const fm = memory(state);
  if (fm.revealed.size === 0) return null;
  const rows = [...fm.revealed.keys()].sort((a, b) => a - b).map((n) => {
    const r = fm.results.get(n);
    const deal = t('fair.deal', { n: n + 1 });
    if (!r) return h('li', { class: 'fair-checking', 'data-deal': n }, deal, ' ', t('fair.checking'));
    if (r.why) return h('li', { class: 'fair-failed', 'data-deal': n }, deal, ' ', h('b', {}, t('fair.failed')), ' ', t(r.why));
    const from = fairFrom(state, r, t);
    return h('li', { class: 'fair-ok', 'data-deal': n, 'data-hand': r.hand ? 'checked' : '' }, deal, ' ', h('b', {}, t('fair.verified')), ' ', h('span', { class: 'fair-from' }, from),
      r.late ? h('span', { class: 'hint' }, ' ', t('fair.late')) : null);
  });
  return h('section', { class: 'fair', id: 'fair' }, h('h2', {}, t('fair.title')), h('ol', { class: 'fair-deals' }, rows),
    h('p', { class: 'hint' }, t('fair.how')));
}
