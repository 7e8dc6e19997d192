// Why: the page keeps one picture of the table (the last snapshot, changed since by every
// numbered item) instead of asking for a snapshot after every action. This module applies one
// item to that picture: the deal's cards move as the events say, the public state the rules
// decided (stage, turn, whist decisions, who plays which hand, cards held) comes with the
// turn on the action's last item, and so do the legal actions. It knows no rule; an item it
// cannot place throws `Unfollowable`, and the page asks for one snapshot instead.

import { SUITS } from './cards.js';
import { followFair } from './fair.js';

const RANKS = ['7', '8', '9', 'T', 'J', 'Q', 'K', 'A'];

/** An item that does not fit the picture: the page resyncs. */
export class Unfollowable extends Error {}

function need(ok, what) {
  if (!ok) throw new Unfollowable(what);
}

/** A card set in the server's order (suit, then rank), as the snapshot writes it. */
function cardSet(cards) {
  const index = (c) => SUITS.indexOf(c.slice(-1)) * 8 + RANKS.indexOf(c.slice(0, -1));
  return [...new Set(cards)].sort((a, b) => index(a) - index(b));
}

const without = (cards, gone) => cards.filter((c) => !gone.includes(c));
const filled = (n, v) => Array.from({ length: n }, () => v);
const seatOf = (you) => (you && typeof you === 'object' ? you.seat : null);

/** The picture of a deal just dealt; the turn's public state completes it. */
function dealt(snap, players, e) {
  return {
    viewer: snap.you, players, dealer: e.dealer, first_hand: null,
    stage: 'auction', kind: 'auction', to_act: null, turn: null,
    hand: e.hand, hand_sizes: filled(players, 0), open_hands: filled(players, null),
    talon: [null, null], discard: null, calls: filled(players, null), highest: null,
    declarer: null, contract: null, surrendered: false, whist: filled(players, null),
    defence: null, controllers: filled(players, 0).map((_, s) => s), trick: [], last_trick: null,
    tricks_taken: filled(players, 0), revealed: null, claim: null,
  };
}

/** Takes `cards` out of whatever this viewer sees of `seat`'s hand. */
function leaves(d, seat, cards) {
  if (d.hand && seatOf(d.viewer) === seat) d.hand = without(d.hand, cards);
  if (d.open_hands[seat]) d.open_hands[seat] = without(d.open_hands[seat], cards);
}

/** Applies one deal event (the core's `ViewEvent`, already projected for this viewer). */
function dealEvent(state, item) {
  const snap = state.snap;
  const e = item.event;
  if (e.type === 'dealt') {
    snap.deal_no = item.deal_no;
    snap.deal = dealt(snap, state.table.players, e);
    state.table.phase = 'playing';
    return;
  }
  const d = snap.deal;
  need(d && snap.deal_no === item.deal_no, `an event of deal ${item.deal_no}`);
  switch (e.type) {
    case 'called': d.calls[e.seat] = e.call; break;
    // dark_games (R2.3): a closed hand reaches its owner with his look; the turn's `dark`
    // says who has looked. A dark misère's talon is its declarer's alone (R4.7.1).
    case 'looked': if (e.hand && seatOf(d.viewer) === e.seat) d.hand = e.hand; break;
    case 'talon_seen':
      if (e.cards && seatOf(d.viewer) === e.seat) {
        d.talon = [...e.cards];
        if (d.hand) d.hand = cardSet([...d.hand, ...e.cards]);
      }
      break;
    case 'auction_won': d.declarer = e.declarer; break;
    case 'all_passed': break;
    case 'talon_turned':
      // Shown to everybody, then taken by the declarer the auction named (R4.1).
      need(d.declarer !== null, 'a talon without a declarer');
      d.talon = [...e.cards];
      if (d.hand && seatOf(d.viewer) === d.declarer) d.hand = cardSet([...d.hand, ...e.cards]);
      break;
    case 'discarded':
      if (e.cards) {
        leaves(d, e.seat, e.cards);
        d.discard = e.cards;
      }
      break;
    case 'declared': d.contract = e.contract; break;
    case 'surrendered': d.surrendered = true; break;
    case 'whisted': d.whist[e.seat] = e.call; break;
    case 'defence_chosen': d.defence = e.defence; break;
    case 'hand_opened': d.open_hands[e.seat] = e.hand; break;
    case 'talon_card_turned':
      d.talon[e.trick] = e.card;
      // At four, the dealer's talon card leads the trick like a played card (R11.3).
      if (d.players === 4) d.trick.push({ seat: d.dealer, card: e.card });
      break;
    case 'played':
      leaves(d, e.seat, [e.card]);
      d.trick.push({ seat: e.seat, card: e.card });
      break;
    case 'trick_taken':
      need(d.trick.length > 0, 'a trick taken with no card on the table');
      d.last_trick = { cards: d.trick, winner: e.seat };
      d.trick = [];
      d.tricks_taken[e.seat] += 1;
      break;
    case 'claimed': break;
    case 'answered': break;
    case 'claim_accepted': d.tricks_taken = [...e.tricks]; break;
    case 'deal_over':
      d.stage = 'finished';
      // A deal played out keeps its last trick on the table (the core's view shows it).
      if (state.lastDealEvent === 'trick_taken') d.trick = [...d.last_trick.cards];
      break;
    case 'revealed':
      d.revealed = { hands: e.hands, talon: e.talon, discard: e.discard };
      d.talon = [...e.talon];
      d.discard = e.discard;
      break;
    default: throw new Unfollowable(`a deal event ${e.type}`);
  }
  state.lastDealEvent = e.type;
}

/** The name a chat line's writer goes by (a seat's player, or "spectator"). */
export function speaker(state, from, t) {
  if (from && typeof from === 'object' && 'seat' in from) {
    const s = state.table.seats[from.seat];
    return (s && s.name) || t('seat.n', { n: from.seat + 1 });
  }
  return t('chat.spectator');
}

/** Applies table news (no card) to the kept summary. */
function publicNews(state, e, t) {
  const tb = state.table;
  const seats = tb.seats;
  switch (e.kind) {
    case 'seat_taken': {
      // `bot_account` is written only when true, as the snapshot's seat writes it; a seat
      // taken is kept for nobody any more (the snapshot drops its `reserved`).
      const { bot_account: _, reserved: __, ...was } = seats[e.seat];
      seats[e.seat] = { ...was, name: e.name, bot: e.bot ?? null, ...(e.bot_account ? { bot_account: true } : {}), connected: !!e.bot };
      break;
    }
    case 'seat_freed': {
      const { bot_account: _, ...was } = seats[e.seat];
      seats[e.seat] = { ...was, name: null, bot: null, connected: false };
      break;
    }
    case 'presence': seats[e.seat] = { ...seats[e.seat], connected: e.connected }; break;
    case 'chat': state.chat.push({ from: speaker(state, e.from, t), text: e.text }); break;
    case 'profile_changed': tb.profile = e.profile; break;
    case 'started': {
      const n = tb.players;
      tb.phase = 'playing';
      tb.sheet = { pool: filled(n, 0), mountain: filled(n, 0), whists: filled(n, 0).map(() => filled(n, 0)) };
      break;
    }
    case 'deal_finished':
      tb.sheet = e.sheet;
      if (e.score && !state.scoreLog.some((x) => x.deal_no === e.score.deal_no)) state.scoreLog.push(e.score);
      state.scoreTotal = Math.max(state.scoreTotal || 0, e.deal_no + 1);
      tb.deals_finished = e.deal_no + 1;
      tb.phase = e.game_over ? 'over' : 'between_deals';
      break;
    case 'game_over':
      tb.settlement = { agreed: e.agreed, balance: e.balance, stop: e.stop || [] };
      tb.phase = 'over';
      tb.stop = null;
      break;
    case 'stop_vote':
      tb.stop = e.vote === 'decline' ? null : { by: e.vote === 'propose' || !tb.stop ? e.seat : tb.stop.by, accepted: e.accepted };
      break;
    case 'spectators': tb.spectators = e.count; break;
    case 'rematch': tb.rematch = e.table; break;
    case 'clock_paused': if (tb.clock) tb.clock.paused = e.paused; break;
    case 'clock_back': {
      const off = (c) => { if (c && c.away) c.away = c.away.filter((s) => s !== e.seat); };
      off(tb.clock);
      off(state.snap.turn && state.snap.turn.clock);
      break;
    }
    case 'fair_seed': case 'fair_commitments': case 'fair_deck': case 'fair_revealed': followFair(state, e); break;
    default: throw new Unfollowable(`table news ${e.kind}`);
  }
}

/** The turn on an action's last item: who acts, the legal actions, the deal's public state. */
function turn(state, tv) {
  const snap = state.snap;
  snap.turn = { to_act: tv.to_act, legal: tv.legal };
  if (tv.claim) snap.turn.claim = tv.claim;
  if (tv.clock) snap.turn.clock = tv.clock;
  state.autopilot = tv.autopilot ?? null;
  const d = snap.deal;
  if (!tv.deal) return;
  need(d, 'a deal state without a deal');
  Object.assign(d, tv.deal, { to_act: tv.to_act });
}

/**
 * Applies one `event` message to `state.snap` / `state.table` / `state.chat`.
 * @param {(key: string, vars?: object) => string} t the page's translation
 * @throws {Unfollowable} when the item does not fit the picture
 */
export function follow(state, msg, t) {
  const item = msg.event;
  if (item && item.kind === 'deal') dealEvent(state, item);
  else if (item) publicNews(state, item, t);
  if (msg.turn) turn(state, msg.turn);
  state.snap.version = msg.version;
  state.table.version = msg.version;
}
