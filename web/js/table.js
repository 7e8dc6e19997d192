// Why: the table page's controller. It owns the one state object (the picture: the last
// snapshot kept current by every item since, through `follow.js`; chat lines, the viewer's
// seat and selections), connects the socket, and redraws. It knows no rule: what may be done
// comes from the legal actions the last turn carried. It counts the snapshots it received by
// cause (`window.prefSnapshots`, `data-snapshots`), so a test can see that actions cost none.

import { ratedMark } from './ratings.js';
import { clockPanel } from './clock.js';
import { h, toast } from './dom.js';
import { t } from './i18n.js';
import { TableSocket } from './socket.js';
import { saved } from './store.js';
import { lobby } from './lobby.js';
import { seatBox, positions, baseSeat } from './seats.js';
import { centre } from './centre.js';
import { controls, legalSets } from './controls.js';
import { sheetPanel } from './sheet.js';
import { chatPanel, chatFromSnapshot } from './chat.js';
import { keyboard } from './keys.js';
import { follow, Unfollowable } from './follow.js';
import { trickNews, trickReset } from './trick.js';
import { auctionNews, auctionFromSnapshot } from './auctionlog.js';
import { claimPanel } from './claim.js';
import { audienceBar, rematchPanel } from './audience.js';
import { yourTurn } from './yourturn.js';
import { fairSnapshot, fairEvent, fairPanel } from './fair.js';
import { scoreFromSnapshot, scorePage } from './scorepages.js';
import { reviewFromSnapshot, reviewNews, reviewPanel } from './review.js';
import { hintPanel } from './hint.js';
import { stepPanel } from './stepper.js';
import { announceNews } from './announce.js';

/** Snapshots received by cause, for the page and its tests. */
const snapshots = { connect: 0, lagged: 0, stale: 0, gap: 0, unfollowable: 0, unasked: 0 };
window.prefSnapshots = snapshots;

function status(state, s) {
  state.status = s;
  const el = document.getElementById('conn');
  el.hidden = s === 'online';
  el.textContent = t(`conn.${s}`);
  el.className = `conn ${s}`;
  document.body.dataset.conn = s;
}

function felt(state) {
  const n = state.table.players;
  const base = baseSeat(state);
  const legal = legalSets(state);
  const d = state.snap.deal;
  const selectable = d && d.stage === 'discard' && legal.discard.length ? new Set(legal.discard.flat()) : new Set();
  const pos = positions(n);
  const boxes = [];
  for (let i = 0; i < n; i++) {
    const s = (base + i) % n;
    boxes.push(seatBox(state, s, pos[i], legal.play, selectable));
  }
  const me = boxes.shift();
  return h('section', { class: `felt players-${n}`, id: 'felt' },
    h('div', { class: 'opponents' }, boxes),
    centre(state),
    claimPanel(state),
    controls(state),
    me);
}

function render(state) {
  const root = state.root;
  const tb = state.table;
  const d = state.snap && state.snap.deal;
  const mine = d && state.seat !== null && d.to_act === state.seat && (state.snap.turn.legal || []).length > 0;
  Object.assign(document.body.dataset, {
    phase: tb.phase, stage: d ? d.stage : '', myturn: mine && !state.busy && !state.syncing ? 'true' : 'false', seat: state.seat ?? 'spectator',
    version: state.snap.version, snapshots: Object.values(snapshots).reduce((a, b) => a + b, 0), toact: d && d.stage !== 'finished' && d.to_act !== null ? d.to_act : '',
  });
  const main = [audienceBar(state), ratedMark(state)];
  if (tb.phase === 'lobby') {
    main.push(lobby(state));
  } else if (tb.phase === 'over') {
    // The last deal stays to step through: its cards are everybody's once the game is over.
    main.push(h('p', { class: 'banner', id: 'game-over' }, t('table.over')), rematchPanel(state), sheetPanel(state), stepPanel(state));
  } else {
    main.push(clockPanel(state), felt(state), hintPanel(state, toast), reviewPanel(state), stepPanel(state));
  }
  const sheetAside = tb.phase === 'lobby' || tb.phase === 'over' ? null : sheetPanel(state);
  const side = h('aside', { class: 'side' }, sheetAside, chatPanel(state), fairPanel(state, t));
  // A redraw replaces the page; a field being typed in keeps its focus and caret (its text
  // is kept in the state as it is typed).
  const active = document.activeElement;
  const typing = active instanceof HTMLInputElement && active.id
    ? { id: active.id, start: active.selectionStart, end: active.selectionEnd } : null;
  root.replaceChildren(h('div', { class: `table-screen ${state.status}` }, h('div', { class: 'main' }, main), side));
  const again = typing && document.getElementById(typing.id);
  if (again) {
    again.focus({ preventScroll: true });
    again.setSelectionRange(typing.start, typing.end);
  }
  state.afterRender();
  yourTurn(document.body.dataset.myturn === 'true');
}

/** The items of the page's last accepted action are all followed: the controls wake. */
function caughtUp(state) {
  state.waitFor = undefined;
  state.busy = false;
}

export function tablePage(root, id) {
  // The invite key is read (and kept) first, which takes it out of the address bar.
  saved.invite(id);
  const watch = new URLSearchParams(location.search).has('watch');
  const mine = watch ? null : saved.seat(id);
  const state = {
    root, id, seat: null, token: mine ? mine.token : null, snap: null, table: null, chat: [],
    status: 'connecting', busy: false, selected: new Set(), showLast: false, focusCard: null,
    scoreLog: [], scoreTotal: 0, scoreAsked: null,
  };
  // The event stream can bring hundreds of items a second (three bots playing fast): the
  // page is drawn at most once a frame for them, not once an item. A hidden page gets no
  // frames, so a timer draws it too (the "your turn" title must still change there).
  let queued = false;
  state.redraw = () => { queued = false; if (state.snap) render(state); };
  state.redrawSoon = () => {
    if (queued) return;
    queued = true;
    const go = () => { if (queued) state.redraw(); };
    requestAnimationFrame(go);
    setTimeout(go, 100);
  };
  // The kept picture, for tests that compare it with a fresh snapshot.
  window.prefPicture = () => state.snap && JSON.stringify({
    version: state.snap.version, table: state.table, deal_no: state.snap.deal_no, deal: state.snap.deal, turn: state.snap.turn,
  });
  state.afterRender = () => keyboard.after(state);
  state.act = async (action) => {
    state.busy = true;
    state.redraw();
    try {
      const ack = await state.socket.act(action);
      state.selected.clear();
      // The ack may come before the action's items: until the last of them (the one with
      // the turn) is followed, the picture still shows the turn just played.
      if (state.snap.version < ack.version) state.waitFor = ack.version;
    } catch (e) {
      toast(e.message);
    } finally {
      state.busy = state.waitFor !== undefined;
      state.redraw();
    }
  };
  state.nextDeal = async () => {
    try { await state.socket.nextDeal(); } catch (e) { toast(e.message); }
  };
  state.onCard = (c) => {
    if (state.busy || state.syncing) return;
    const d = state.snap.deal;
    if (d.stage === 'discard') {
      if (state.selected.has(c)) state.selected.delete(c);
      else if (state.selected.size < 2) state.selected.add(c);
      state.redraw();
    } else {
      state.focusCard = c;
      state.act({ play: c });
    }
  };
  const connect = () => {
    if (state.socket) state.socket.close();
    state.socket = new TableSocket(id, state.token, {
      status: (s) => { status(state, s); if (state.snap) state.redraw(); },
      snapshot: (snap, cause) => {
        snapshots[cause] += 1;
        state.syncing = false;
        if (state.waitFor !== undefined) caughtUp(state);
        state.snap = snap;
        state.table = snap.table;
        chatFromSnapshot(state, snap);
        scoreFromSnapshot(state, snap);
        state.seat = snap.you && typeof snap.you === 'object' ? snap.you.seat : null;
        if (!snap.deal || snap.deal.stage !== 'discard') state.selected.clear();
        if (!snap.deal || !snap.deal.last_trick) state.showLast = false;
        trickReset(state);
        auctionFromSnapshot(state, snap);
        reviewFromSnapshot(state, snap);
        fairSnapshot(state);
        render(state);
      },
      event: (msg) => {
        if (state.syncing) return;
        try {
          follow(state, msg, t);
          trickNews(state, msg);
          auctionNews(state, msg);
          reviewNews(state, msg);
          announceNews(state, msg);
        } catch (e) {
          if (!(e instanceof Unfollowable)) throw e;
          console.warn('resync:', e.message);
          state.syncing = state.socket.resync('unfollowable');
        }
        if (state.waitFor !== undefined && state.snap.version >= state.waitFor) caughtUp(state);
        fairEvent(state, msg);
        if (state.snap.deal && state.snap.deal.stage !== 'discard') state.selected.clear();
        state.redrawSoon();
      },
      scorePage: (msg) => { scorePage(state, msg); state.redraw(); },
      error: (e) => { if (e.code !== 'lagged') toast(e.message); },
      seatFreed: () => { saved.dropSeat(id); state.token = null; toast(t('lobby.freed')); connect(); },
      tokenRefused: () => { saved.dropSeat(id); state.token = null; connect(); },
    });
  };
  state.sit = (seat, token) => { state.token = token; connect(); };
  connect();
  keyboard.install(state);
  return () => state.redraw();
}
