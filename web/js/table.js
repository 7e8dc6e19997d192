// Why: the table page's controller. It owns the one state object (the last snapshot, the
// table summary kept current by table news, chat lines, the viewer's seat and selections),
// connects the socket, asks for a fresh snapshot after every change of the deal, and redraws.
// It knows no rule: what may be done comes from the legal actions in the snapshot.

import { h, toast } from './dom.js';
import { t } from './i18n.js';
import { TableSocket } from './socket.js';
import { saved } from './store.js';
import { lobby } from './lobby.js';
import { seatBox, positions, baseSeat } from './seats.js';
import { centre } from './centre.js';
import { controls, legalSets } from './controls.js';
import { sheetPanel } from './sheet.js';
import { chatPanel } from './chat.js';
import { keyboard } from './keys.js';

function speaker(state, from) {
  if (from && typeof from === 'object' && 'seat' in from) {
    const s = state.table.seats[from.seat];
    return (s && s.name) || t('seat.n', { n: from.seat + 1 });
  }
  return t('chat.spectator');
}

/** Applies table news that carries no card to the kept summary. */
function applyPublic(state, e) {
  const seats = state.table.seats;
  switch (e.kind) {
    case 'seat_taken': seats[e.seat] = { ...seats[e.seat], name: e.name, bot: e.bot ?? null, connected: !!e.bot }; break;
    case 'seat_freed': seats[e.seat] = { ...seats[e.seat], name: null, bot: null, connected: false }; break;
    case 'presence': seats[e.seat] = { ...seats[e.seat], connected: e.connected }; break;
    case 'chat': state.chat.push({ from: speaker(state, e.from), text: e.text }); break;
    case 'profile_changed': state.table.profile = e.profile; break;
    case 'started': state.table.phase = 'between_deals'; break;
    case 'deal_finished':
      state.table.sheet = e.sheet;
      if (e.score && !state.scoreLog.some((x) => x.deal_no === e.score.deal_no)) state.scoreLog.push(e.score);
      state.table.deals_finished = e.deal_no + 1;
      state.table.phase = e.game_over ? 'over' : 'between_deals';
      break;
    case 'game_over':
      state.table.settlement = { agreed: e.agreed, balance: e.balance, stop: e.stop || [] };
      state.table.phase = 'over';
      break;
    default: break;
  }
}

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
    version: state.snap.version, toact: d && d.stage !== 'finished' && d.to_act !== null ? d.to_act : '',
  });
  const main = [];
  if (tb.phase === 'lobby') {
    main.push(lobby(state));
  } else if (tb.phase === 'over') {
    main.push(h('p', { class: 'banner', id: 'game-over' }, t('table.over')), sheetPanel(state));
  } else {
    main.push(felt(state));
  }
  const sheetAside = tb.phase === 'lobby' || tb.phase === 'over' ? null : sheetPanel(state);
  const side = h('aside', { class: 'side' }, sheetAside, chatPanel(state));
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
}

export function tablePage(root, id) {
  const watch = new URLSearchParams(location.search).has('watch');
  const mine = watch ? null : saved.seat(id);
  const state = {
    root, id, seat: null, token: mine ? mine.token : null, snap: null, table: null, chat: [],
    status: 'connecting', busy: false, selected: new Set(), showLast: false, sheetHistory: new Map(), focusCard: null,
    scoreLog: [],
  };
  state.redraw = () => { if (state.snap) render(state); };
  state.afterRender = () => keyboard.after(state);
  state.act = async (action) => {
    state.busy = true;
    state.redraw();
    try {
      await state.socket.act(action);
      state.selected.clear();
    } catch (e) {
      toast(e.message);
    } finally {
      state.busy = false;
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
      snapshot: (snap) => {
        state.syncing = false;
        state.snap = snap;
        state.table = snap.table;
        state.scoreLog = snap.score_log || [];
        state.seat = snap.you && typeof snap.you === 'object' ? snap.you.seat : null;
        if (!snap.deal || snap.deal.stage !== 'discard') state.selected.clear();
        if (!snap.deal || !snap.deal.last_trick) state.showLast = false;
        render(state);
      },
      event: (msg) => {
        if (msg.event && msg.event.kind !== 'deal') applyPublic(state, msg.event);
        // A deal or the game changed: the picture, the legal actions and the sheet come
        // whole in a snapshot.
        const phaseNews = msg.event && ['started', 'game_over'].includes(msg.event.kind);
        if (msg.turn !== undefined || phaseNews) {
          state.syncing = state.socket.resync();
        }
        state.redraw();
      },
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
