// Why: the agreed stop (R10.3) is everybody's, not the host's alone: between deals a seated
// player proposes to stop, every other player is asked and accepts or declines, and the
// game ends by agreement only once all accepted (bots accept at once). The proposal comes
// from the table's summary and its `stop_vote` news, so a reload or a late spectator sees
// it as it stands. The host's own end is the same proposal when other people sit at the
// table (the server decides; `audience.js` asks it as a proposal then).

import { h, toast } from './dom.js';
import { t } from './i18n.js';
import { api } from './api.js';
import { confirmStep } from './confirm.js';

async function vote(state, v) {
  try { await api.stop(state.id, state.token, v); } catch (e) { toast(e.message); }
}

/** Proposes to stop, after the same confirmation the host's end asks. */
async function propose(state) {
  if (!await confirmStep(t('stop.propose_q'), t('stop.propose'), t('stop.propose_detail'))) return;
  await vote(state, 'propose');
}

/** The "propose to stop" button for a seated player between deals, when none stands. */
export function proposeButton(state) {
  if (state.seat === null || state.table.stop) return null;
  return h('button', {
    type: 'button', class: 'secondary', id: 'propose-stop', onclick: () => propose(state),
  }, t('stop.propose'));
}

/** A standing proposal: who proposed, who agreed, and for a seat not yet agreed its answer. */
export function stopPanel(state) {
  const p = state.table.stop;
  if (!p) return null;
  const name = (s) => (state.table.seats[s] && state.table.seats[s].name) || t('seat.n', { n: s + 1 });
  const asked = state.seat !== null && !p.accepted.includes(state.seat);
  // No proposer's seat: the host, who holds none, proposed by ending the game.
  const from = p.by === undefined || p.by === null ? t('stop.proposed_host') : t('stop.proposed', { name: name(p.by) });
  return h('div', { class: 'banner stop-proposal', id: 'stop-proposal', role: 'status' },
    h('p', {}, from),
    h('p', { id: 'stop-agreed' }, t('stop.agreed', { list: p.accepted.map(name).join(', ') })),
    asked
      ? h('div', { class: 'row' },
        h('button', { type: 'button', class: 'primary', id: 'stop-accept', onclick: () => vote(state, 'accept') }, t('stop.accept')),
        h('button', { type: 'button', class: 'secondary', id: 'stop-decline', onclick: () => vote(state, 'decline') }, t('stop.decline')))
      : h('p', {}, t('stop.waiting')));
}
