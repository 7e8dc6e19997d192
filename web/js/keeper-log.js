// Why: the score log under a kept sheet: each deal in words (who dealt, what was played,
// the whists, the tricks, made or not), with the keeper's buttons to correct or delete it,
// what each deal wrote on the sheet and why (one sentence per entry, with its rule),
// and the history of every change, so that a corrected mistake stays visible to all.

import { h } from './dom.js';
import { t } from './i18n.js';
import { contractText, sentence } from './scorelog.js';

/** One deal's outcome in words. */
export function dealText(view, deal) {
  const o = deal.outcome;
  const name = (s) => view.names[s];
  const parts = [];
  if (o.kind === 'raspasy') parts.push(t('k.kind.raspasy'));
  else if (o.kind === 'misere') parts.push(`${name(o.declarer)}: ${t('k.kind.misere')}`);
  else if (o.kind === 'surrender') parts.push(`${name(o.declarer)}: ${t('k.kind.surrender')} ${contractText(o.bid)}`);
  else parts.push(`${name(o.declarer)}: ${contractText(o.contract)}`);
  if (o.whist) {
    const calls = o.whist.map((w, s) => (w ? `${name(s)} ${t(`whist.${w}`)}` : null)).filter(Boolean);
    if (calls.length) parts.push(calls.join(', '));
  }
  if (o.defence) parts.push(t(o.defence === 'open' ? 'k.open_defence' : 'k.closed'));
  if (o.tricks) parts.push(t('k.tricks_are', { tricks: o.tricks.join('–') }));
  if (deal.made !== null && deal.made !== undefined) parts.push(t(deal.made ? 'k.made' : 'k.failed'));
  return parts.join(' · ');
}

/** What the deal wrote on the sheet, line by line. */
function linesOf(view, deal) {
  if (!deal.lines || !deal.lines.length) return null;
  const name = (s) => view.names[s];
  return h('ul', { class: 'k-lines log-lines' }, deal.lines.map((e) => sentence({ ...e.line, rule: e.rule }, name)));
}

/** The deals, newest first; `actions` gives the keeper's buttons for deal `i`, or null. */
export function scoreLog(view, actions) {
  const items = view.deals.map((deal, i) => h('li', { class: 'k-deal', 'data-deal': i },
    h('span', { class: 'k-no' }, `${i + 1}.`), ' ',
    h('span', { class: 'k-dealt' }, t('k.dealt', { name: view.names[deal.dealer] })), ' ',
    h('span', { class: 'k-what' }, dealText(view, deal)),
    actions && actions(i),
    linesOf(view, deal))).reverse();
  return h('section', { class: 'panel k-log', id: 'k-log' },
    h('h2', {}, t('k.log')),
    items.length ? h('ol', { class: 'k-deals', reversed: true }, items) : h('p', {}, t('k.no_deals')));
}

function changeText(view, c) {
  const op = c.op;
  const deal = (o) => dealText(view, { outcome: o, made: null });
  switch (op.op) {
    case 'import': return t('k.h.import', { n: op.deals.length });
    case 'add': return t('k.h.add', { what: deal(op.outcome) });
    case 'correct': return t('k.h.correct', { n: op.index + 1, was: deal(op.was), what: deal(op.outcome) });
    case 'delete': return t('k.h.delete', { n: op.index + 1, was: deal(op.was) });
    case 'stop': return t(op.agreed ? 'k.h.stop' : 'k.h.resume');
    default: return op.op;
  }
}

/** Every change, oldest first, with its time. */
export function historyPanel(view) {
  return h('details', { class: 'panel k-history', id: 'k-history' },
    h('summary', {}, t('k.history', { n: view.history.length })),
    h('ol', {}, view.history.map((c) => h('li', { 'data-op': c.op.op },
      h('time', {}, new Date(c.at * 1000).toLocaleTimeString()), ' ', changeText(view, c)))));
}
