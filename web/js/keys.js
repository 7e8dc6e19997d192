// Why: play without a mouse, every decision included. When the viewer is to act, the arrow
// keys move between what may be chosen now: the bids of the bidding box (← → one call, ↑ ↓
// one level), the whist / pass / half-whist or open / closed buttons, the contracts, a
// pending claim's accept / reject, and the
// cards that may be played or discarded; Enter or Space takes the focused one (they are
// buttons), P passes in the auction and in the whist. L shows the last trick.

/** The enabled buttons the arrows move between now, and the bidding grid's row length. */
function targets() {
  // A claim waiting for this player's answer (R6.7): accept or reject, nothing else.
  const answers = [...document.querySelectorAll('#claim-pending button:not([disabled])')];
  if (answers.length) return { list: answers, row: 0 };
  const bids = [...document.querySelectorAll('#bidbox button:not([disabled])')];
  if (bids.length) return { list: bids, row: 5 };
  // The cards first (to play, or to pick for the discard), then the panel's buttons (the
  // discard's OK, whist, defence, the contract).
  const cards = [...document.querySelectorAll('.hand .card.legal')];
  const choices = [...document.querySelectorAll('.controls .choice button:not([disabled])')];
  return { list: [...cards, ...choices], row: 0 };
}

/** The focused target's step for `key`, or 0 when the key is not an arrow. */
function stepOf(key, row) {
  if (key === 'ArrowRight') return 1;
  if (key === 'ArrowLeft') return -1;
  if (row && key === 'ArrowDown') return row;
  if (row && key === 'ArrowUp') return -row;
  return 0;
}

export const keyboard = {
  install(state) {
    document.addEventListener('keydown', (e) => {
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === 'l' || e.key === 'L') {
        const b = document.getElementById('last-trick');
        if (b) b.click();
        return;
      }
      if (e.key === 'p' || e.key === 'P') {
        const pass = document.querySelector('#bidbox button.pass:not([disabled]), #whist button.whist-pass:not([disabled])');
        if (pass) { e.preventDefault(); pass.click(); }
        return;
      }
      const { list, row } = targets();
      const step = stepOf(e.key, row);
      if (!list.length || !step) return;
      e.preventDefault();
      const i = list.indexOf(document.activeElement);
      const next = i < 0 ? list[0] : list[(i + step + list.length * 5) % list.length];
      next.focus({ preventScroll: true });
      if (next.dataset.card) state.focusCard = next.dataset.card;
    });
  },
  /** Puts the focus back where it was, or on the first thing that may be chosen, after a
   * redraw of the viewer's turn. */
  after(state) {
    const active = document.activeElement;
    if (active instanceof HTMLInputElement || active instanceof HTMLSelectElement || active instanceof HTMLTextAreaElement) return;
    if (document.body.dataset.myturn !== 'true') return;
    const { list } = targets();
    if (!list.length || list.includes(active)) return;
    const keep = list.find((c) => c.dataset.card && c.dataset.card === state.focusCard) || list[0];
    keep.focus({ preventScroll: true });
  },
};
