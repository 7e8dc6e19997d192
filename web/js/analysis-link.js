// Why: the table page's way into the deal analysis (web/analysis.html): a link to the last
// finished deal once the server serves its analysis (at the deal's end where the table shows
// the hands after the deal, otherwise when the game is over); the page picks any other deal.

import { h } from './dom.js';
import { t } from './i18n.js';

/** The link, or nothing while no finished deal may be analysed. */
export function analysisLink(state) {
  const tb = state.table;
  const ready = tb.deals_finished > 0 && (tb.phase === 'over' || tb.profile.reveal_after_deal);
  if (!ready) return null;
  return h('p', {}, h('a', {
    class: 'button secondary', id: 'analysis-link', href: `/t/${state.id}/analysis/${tb.deals_finished - 1}`,
  }, t('sheet.analysis')));
}
