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

/** A link to deal `n`'s analysis in the score log, once its cards may be seen by everyone
 * (the same rule as above: after each deal where the table shows the hands, else at the end). */
export function dealAnalysisLink(state, n) {
  const tb = state.table;
  if (!(n < tb.deals_finished && (tb.phase === 'over' || tb.profile.reveal_after_deal))) return null;
  return h('p', { class: 'log-analysis' }, h('a', {
    class: 'deal-analysis', href: `/t/${state.id}/analysis/${n}`, dataset: { deal: n }, target: '_blank', rel: 'noopener',
  }, t('ux.analyse_deal', { n: n + 1 })));
}
