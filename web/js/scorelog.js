// Why: "What the deal wrote": every finished deal of the game as the server's score log
// sends it, each line of the sheet as a plain sentence with the rule that wrote it (a link
// into the guide), and the running totals after the deal, as the server computed them. No
// rule is applied here: amounts, reasons, rule ids and totals all come from the server.

import { h } from './dom.js';
import { t } from './i18n.js';
import { claimOutcome } from './claim.js';
import { dealAnalysisLink } from './analysis-link.js';
import { fairMark } from './fair.js';

const SUITS = { S: '♠', C: '♣', D: '♦', H: '♥' };

/** A contract code ("7H", "6NT") as text. */
export function contractText(code) {
  const m = /^(\d+)(NT|[SCDH])$/.exec(code || '');
  if (!m) return code || '';
  return m[1] + (m[2] === 'NT' ? t('call.nt') : SUITS[m[2]]);
}

/** The guide section that explains a rule id (the guide's sections, `web/js/guide-text.js`). */
export function guideAnchor(rule) {
  const [chapter, item] = rule.split('.');
  if (chapter === 'R8' && item === '8') return 's-misere';
  if (chapter === 'R8' && item === '9') return 's-raspasy';
  const sections = { R4: 's-talon', R5: 's-whist', R7: 's-raspasy', R8: 's-scoring', R9: 's-closing', R10: 's-closing', R11: 's-four' };
  return sections[chapter] || 's-scoring';
}

/** A link to the guide for one rule id: to the rule's own anchor (`#r8-1`), which the guide
 * places at the rule's first mention or, for a rule it does not name, at its chapter's section. */
export function ruleLink(rule) {
  return h('a', { class: 'rule', href: `/guide#${rule.toLowerCase().replace(/\./g, '-')}`, target: '_blank', rel: 'noopener', 'data-rule': rule }, rule);
}

/** Why a line was written, in words. */
function reason(l, name) {
  const c = contractText(l.contract);
  const u = l.undertricks;
  switch (l.reason) {
    case 'made': return t(l.unwhisted ? 'log.why.made_unwhisted' : 'log.why.made', { contract: c });
    case 'failed': return t('log.why.failed', { contract: c, u });
    case 'consolation': return t(`log.why.consolation.${l.by}`, { contract: c, u, owner: name(l.owner) });
    case 'trick_whists': {
      const key = l.dealer ? 'log.why.trick_whists_dealer' : l.split ? 'log.why.trick_whists_split' : 'log.why.trick_whists';
      return t(key, { contract: c, tricks: l.tricks });
    }
    case 'shortfall': return t(l.half ? 'log.why.shortfall_half' : 'log.why.shortfall', { contract: c, short: l.short });
    case 'conceded': return t('log.why.conceded', { contract: c });
    case 'half_whist_stands': return t('log.why.half_whist_stands', { contract: c });
    case 'half_whist': return t('log.why.half_whist', { contract: c });
    case 'misere_made': return t('log.why.misere_made');
    case 'misere_failed': return t('log.why.misere_failed', { tricks: l.tricks });
    case 'raspasy_tricks': {
      const key = l.dealer ? 'log.why.raspasy_talon' : l.charged !== l.tricks ? 'log.why.raspasy_amnesty' : 'log.why.raspasy_tricks';
      return t(key, { tricks: l.tricks, charged: l.charged, price: l.price });
    }
    case 'raspasy_zero': return t('log.why.raspasy_zero', { price: l.price });
    case 'talon_bonus': return t('log.why.talon_bonus', { contract: c, units: l.units });
    case 'surrender': return t('log.why.surrender', { bid: contractText(l.bid), factor: l.factor });
    case 'help': return t('log.why.help', { earner: name(l.earner), points: l.points });
    case 'overflow': return t('log.why.overflow', { earner: name(l.earner), points: l.points });
    case 'open_pool': return t('log.why.open_pool', { missing: l.missing });
    default: return l.reason;
  }
}

/** Where a line goes and how much, in words. */
function column(l, name) {
  if (l.column === 'pool') return t('log.col.pool', { n: l.amount });
  if (l.column === 'mountain') {
    return l.amount < 0 ? t('log.col.mountain_off', { n: -l.amount }) : t('log.col.mountain', { n: l.amount });
  }
  return t('log.col.whists', { n: l.amount, on: name(l.on) });
}

/** One line of the sheet as a sentence: "Anna: +4 to the pool (7♥ made, R8.1)". */
export function sentence(l, name) {
  const why = [reason(l, name)];
  if (l.converted) {
    why.push(t('log.converted', { name: name(l.converted.seat), m: l.converted.mountain, k: l.converted.factor }));
  }
  // R8.11: an entry of a dark deal is already doubled; the sentence says so.
  if (l.dark) why.push(t('dark.x2'));
  return h('li', { class: 'log-line', 'data-reason': l.reason, 'data-seat': l.seat, 'data-dark': l.dark ? 'true' : undefined },
    `${name(l.seat)}: ${column(l, name)} (${why.join('; ')}, `, ruleLink(l.rule), ')');
}

/** What happened in the deal, in short. */
function summary(o, name) {
  const tricks = o.tricks ? t('log.tricks', { tricks: o.tricks.join('–') }) : '';
  switch (o.kind) {
    case 'raspasy': return [t('log.outcome.raspasy'), tricks];
    case 'misere': return [t('log.outcome.misere', { who: name(o.declarer) }), tricks];
    case 'surrender': return [t('log.outcome.surrender', { who: name(o.declarer), bid: contractText(o.bid) })];
    default: {
      const calls = (o.whist || []).map((w, s) => (w ? `${name(s)} ${t(`whist.${w}`).toLowerCase()}` : null)).filter(Boolean);
      const parts = [t('log.outcome.game', { who: name(o.declarer), contract: contractText(o.contract) })];
      if (calls.length) parts.push(calls.join(', '));
      if (o.defence) parts.push(t(`defence.${o.defence}`).toLowerCase());
      parts.push(o.tricks ? tricks : t('log.not_played'));
      return parts;
    }
  }
}

/** The running totals after a deal, as the server sent them. */
function totals(entry, name, n) {
  const s = entry.sheet;
  const rows = [];
  for (let p = 0; p < n; p++) {
    const whists = s.whists[p].map((w, o) => (o === p ? null : `${name(o)} ${w}`)).filter(Boolean).join(' · ');
    rows.push(h('tr', { 'data-seat': p },
      h('th', { scope: 'row' }, name(p)), h('td', { class: 'pool' }, s.pool[p]),
      h('td', { class: 'mountain' }, s.mountain[p]), h('td', { class: 'whists' }, whists)));
  }
  return h('table', { class: 'log-totals' },
    h('caption', {}, t('log.totals')),
    h('thead', {}, h('tr', {}, h('th', {}, ''), ['sheet.pool', 'sheet.mountain', 'log.whists_on'].map((k) => h('th', { scope: 'col' }, t(k))))),
    h('tbody', {}, rows));
}

/** One deal of the log; `folds` keeps each deal's open or folded state across redraws;
 * `mark` is the page's own check of the deal's fairness. */
function deal(entry, name, n, folds, last, link, mark) {
  const open = folds.has(entry.deal_no) ? folds.get(entry.deal_no) : last;
  return h('details', {
    class: 'log-deal', 'data-deal': entry.deal_no, open,
    ontoggle: (e) => folds.set(entry.deal_no, e.target.open),
  },
    h('summary', {}, h('b', {}, t('log.deal', { n: entry.deal_no + 1 })), ' ', mark, ' · ',
      t('log.dealer', { name: name(entry.dealer) }), ': ', [...summary(entry.outcome, name), claimOutcome(entry.outcome, name)].filter(Boolean).join('; ')),
    entry.lines.length ? h('ul', { class: 'log-lines' }, entry.lines.map((l) => sentence(l, name))) : h('p', {}, t('log.nothing')),
    totals(entry, name, n),
    link);
}

/** A seat's player name, or "Seat N". */
const seatName = (state) => (s) => (state.table.seats[s] && state.table.seats[s].name) || t('seat.n', { n: s + 1 });

/** The score log panel: the last deal open, the others folded. */
export function scoreLog(state) {
  const log = state.scoreLog || [];
  if (!log.length) return null;
  const n = state.table.players;
  const name = seatName(state);
  if (!state.logFolds) state.logFolds = new Map();
  return h('section', { class: 'score-log', id: 'score-log' },
    h('h3', {}, t('log.title')),
    [...log].reverse().map((e, i) => deal(e, name, n, state.logFolds, i === 0, dealAnalysisLink(state, e.deal_no), fairMark(state, e.deal_no, t))));
}

/** The R10.3 adjustment of an agreed stop, one sentence per charged pool. */
export function stopLines(state, lines) {
  const name = seatName(state);
  return h('ul', { class: 'log-lines', id: 'stop-lines' }, lines.map((l) => sentence(l, name)));
}
