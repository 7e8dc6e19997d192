// Why: play without a mouse. When the viewer is to play, the arrow keys move between the
// cards that may be played and Enter or Space plays the focused one; L shows the last trick.

function legalCards() {
  return [...document.querySelectorAll('.hand .card.legal')];
}

export const keyboard = {
  install(state) {
    document.addEventListener('keydown', (e) => {
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
      if (e.key === 'l' || e.key === 'L') {
        const b = document.getElementById('last-trick');
        if (b) b.click();
        return;
      }
      if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
      const cards = legalCards();
      if (!cards.length) return;
      e.preventDefault();
      const i = cards.indexOf(document.activeElement);
      const step = e.key === 'ArrowRight' ? 1 : -1;
      const next = cards[(i + step + cards.length) % cards.length];
      next.focus({ preventScroll: true });
      state.focusCard = next.dataset.card;
    });
  },
  /** Puts the focus back on the card it was on, or the first playable card, after a redraw. */
  after(state) {
    const cards = legalCards();
    if (!cards.length || document.activeElement instanceof HTMLInputElement) return;
    const keep = cards.find((c) => c.dataset.card === state.focusCard) || cards[0];
    keep.focus({ preventScroll: true });
  },
};
