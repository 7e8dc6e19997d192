// Why: a snapshot carries only the score log's last deals and the log's total
// (`score_log`, `score_total`), so that a long game's snapshot stays small. This module keeps
// the page's whole log: it keeps the deals it already holds across snapshots, and asks the
// socket for the earlier ones a page at a time (`score_page`), one request at a time, until
// it holds every finished deal. A page that does not come (the budget was spent, the socket
// dropped) is asked for again a moment later.

/** How long a page may take before it is asked for again, in milliseconds. */
const RETRY_MS = 3000;

/** The deals to keep of `held` before a snapshot's `log`: the run just before its first. */
function kept(held, log, total) {
  const first = log.length ? log[0].deal_no : total;
  const before = held.filter((e) => e.deal_no < first);
  const last = before.length ? before[before.length - 1].deal_no : -1;
  return last === first - 1 ? before : [];
}

/** Asks for the page before the first deal held, unless one is on its way or none is missing. */
export function scoreFetch(state) {
  const first = state.scoreLog.length ? state.scoreLog[0].deal_no : state.scoreTotal;
  if (first <= 0 || state.scoreAsked === first || !state.socket) return;
  if (!state.socket.scorePage(first)) return;
  state.scoreAsked = first;
  clearTimeout(state.scoreTimer);
  state.scoreTimer = setTimeout(() => {
    state.scoreAsked = null;
    scoreFetch(state);
  }, RETRY_MS);
}

/** Takes a snapshot's score log: the deals held before it stay, the missing ones are asked for. */
export function scoreFromSnapshot(state, snap) {
  const log = snap.score_log || [];
  const total = snap.score_total ?? log.length;
  state.scoreLog = [...kept(state.scoreLog || [], log, total), ...log];
  state.scoreTotal = total;
  state.scoreAsked = null;
  scoreFetch(state);
}

/** Takes a `score_page` answer: its deals go before the first held; then the next page. */
export function scorePage(state, msg) {
  const first = state.scoreLog.length ? state.scoreLog[0].deal_no : state.scoreTotal;
  if (msg.before !== first) return;
  clearTimeout(state.scoreTimer);
  state.scoreAsked = null;
  const entries = msg.entries.filter((e) => e.deal_no < first);
  const last = entries.length ? entries[entries.length - 1].deal_no : -1;
  if (last !== first - 1) return;
  state.scoreLog = [...entries, ...state.scoreLog];
  scoreFetch(state);
}
