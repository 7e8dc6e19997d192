// Why: the players' guide itself: sections of words from /lang/guide/CODE.json with the
// tables and examples built from the server's data (GET /api/guide), so every number on the
// page — in the tables and inside the sentences — is one the rules core computed.

import { h } from './dom.js';
import { t } from './i18n.js';
import { bidLabel } from './cards.js';
import { OPTIONS, show } from './options.js';
import { dealDiagram, dealtHands } from './guide-deal.js';
import { SEATS, dash, describe, entryList, ratio, signed } from './guide-fmt.js';

/** Sections in order: id, paragraphs before the extras, bullet items, extras, paragraphs after. */
const SECTIONS = [
  { id: 'history', paras: 3 },
  { id: 'profile', paras: 1, items: 6, after: 1 },
  { id: 'cards', paras: 2 },
  { id: 'bidding', paras: 2, extra: auction, after: 1 },
  { id: 'talon', paras: 2 },
  { id: 'play', paras: 2 },
  { id: 'whist', paras: 3, extra: (d) => [valuesTable(d), casesTable(d)] },
  { id: 'scoring', paras: 3, extra: (d) => examplesTable(d, ['ex1', 'ex2', 'ex3', 'ex4']) },
  { id: 'misere', paras: 3, extra: (d) => examplesTable(d, ['ex7']) },
  { id: 'raspasy', paras: 3, extra: (d) => [raspasyTable(d), examplesTable(d, ['ex6'])] },
  { id: 'deal', paras: 2, extra: diagram },
  { id: 'closing', paras: 2, extra: helpExample, after: 2, more: settlementTables },
  { id: 'four', paras: 3, extra: (d) => [presetsTable(d), compareTable(d)] },
  { id: 'agreements', paras: 1, items: 6, after: 1 },
  { id: 'mistakes', paras: 0, items: 5 },
  { id: 'checklist', paras: 0, items: 7, ordered: true, after: 1 },
  { id: 'faq', paras: 0, faq: 5 },
  { id: 'sources', paras: 1, sources: true },
];

/** Files of this project the guide was checked against, each with its words in `g.src.*`. */
const SOURCES = [
  ['rules', 'docs/rules.md'],
  ['options', 'docs/options.md'],
  ['example', 'docs/worked-example.md'],
  ['record', 'tests/records/worked-deal.json'],
];

/** The numbers the sentences interpolate, all read from the data. */
function numbers(d) {
  const sochi = d.presets.sochi;
  const v = Object.fromEntries(d.values.contracts.flatMap((c) => [[`v${c.level}`, c.value], [`q${c.level}`, c.quota]]));
  const deal = d.deal;
  const hand = deal.dealt[0].length;
  const talon = deal.steps[0].talon.length;
  const five = d.examples.find((e) => e.id === 'ex5');
  const helped = five.sheet.pool[1] - five.before.pool[1];
  const tricks = deal.outcome.tricks;
  const bLed = deal.steps.filter((s) => s.kind === 'trick' && s.trick.leader === 1).map((s) => s.trick.no);
  return {
    ...v,
    target: sochi.pool_target,
    hand,
    talon,
    deck: hand * deal.players.length + talon,
    misere: d.values.misere,
    help: (five.sheet.whists[0][1] - five.before.whists[0][1]) / helped,
    rprice: d.raspasy.sochi.price[0],
    rbonus: d.raspasy.sochi.zero_bonus,
    t0: tricks[0],
    t1: tricks[1],
    t2: tricks[2],
    def: tricks[1] + tricks[2],
    led: bLed.join(', '),
    pool: deal.sheet.pool[deal.outcome.declarer],
    wb: deal.sheet.whists[1][deal.outcome.declarer],
    wc: deal.sheet.whists[2][deal.outcome.declarer],
    scale: d.settlement.scale,
    p0: five.before.pool[0],
    p1: five.before.pool[1],
    p2: five.before.pool[2],
    v8: d.values.contracts.find((c) => c.level === 8).value,
    half6: d.values.half_whist.find((x) => x.level === 6).whists,
    half7: d.values.half_whist.find((x) => x.level === 7).whists,
    a_tricks: dash(d.amnesty.tricks),
    a_written: dash(d.amnesty.sheet.mountain),
    rostov: d.presets.rostov.mountain_as_whists,
    lening: d.presets.leningrad.whist_scale,
  };
}

/** A table; each cell also carries its column's heading, which a phone shows above the cell
 *  when the wide tables are stacked row by row (guide.css). */
function table(cls, head, rows, id) {
  return h('div', { class: 'g-table-wrap' }, h('table', { class: `g-table ${cls}`, id },
    h('thead', {}, h('tr', {}, head.map((x) => h('th', {}, x)))),
    h('tbody', {}, rows.map((r) => h('tr', { class: r.cls || '' },
      (r.cells || r).map((x, i) => h('td', { dataset: { label: head[i] } }, x)))))));
}

function auction(d) {
  const calls = d.deal.steps[9].calls;
  return h('p', { class: 'g-auction' }, calls.map((c, i) => h('span', { class: `g-call ${c.here ? 'here' : ''}` },
    i ? ' · ' : '', h('b', {}, d.deal.players[c.seat]), ' ', bidLabel(c.call), c.here ? ` ${t('call.here')}` : '')));
}

function valuesTable(d) {
  const rows = d.values.contracts.map((c) => [String(c.level), String(c.value), String(c.quota)]);
  rows.push([t('call.misere'), String(d.values.misere), '—']);
  return table('values', [t('g.t.level'), t('g.t.value'), t('g.t.quota')], rows, 'values-table');
}

function casesTable(d) {
  return table('cases', [t('g.t.case'), t('g.t.example'), t('g.t.entries'), t('g.t.rule')],
    d.cases.map((c) => [t(`g.case.${c.id}`), describe(c.outcome), entryList(c.sheet), c.rules]), 'cases-table');
}

function examplesTable(d, ids) {
  const rows = ids.map((id) => d.examples.find((e) => e.id === id))
    .map((e) => ({ cls: e.id, cells: [describe(e.outcome), entryList(e.sheet, e.before), e.rules] }));
  return table('examples', [t('g.t.example'), t('g.t.entries'), t('g.t.rule')], rows);
}

function raspasyTable(d) {
  const names = d.compared;
  const rows = d.raspasy[names[0]].price.map((_, i) => [t('g.t.nth', { n: i + 1 }),
    ...names.map((n) => t('g.t.price_exit', { price: d.raspasy[n].price[i], exit: d.raspasy[n].exit[i] }))]);
  return table('raspasy', ['', ...names.map((n) => t(`preset.${n}`))], rows, 'raspasy-table');
}

function diagram(d) {
  const holder = h('div', { class: 'g-deal-holder', id: 'deal-holder' });
  const redraw = () => holder.replaceChildren(dealDiagram(d.deal, redraw));
  redraw();
  return [holder, dealtHands(d.deal)];
}

function helpExample(d) {
  const e = d.examples.find((x) => x.id === 'ex5');
  return table('examples', [t('g.t.example'), t('g.t.entries'), t('g.t.rule')],
    [{ cls: 'ex5', cells: [describe(e.outcome), entryList(e.sheet, e.before), e.rules] }]);
}

function settlementTables(d) {
  const s = d.settlement;
  let before = null;
  const deals = s.deals.map((x, i) => {
    const row = [String(i + 1), describe(x.outcome), entryList(x.sheet, before)];
    before = x.sheet;
    return row;
  });
  const sheetRows = SEATS.slice(0, s.players).map((name, p) => [name, String(s.sheet.pool[p]), String(s.sheet.mountain[p]),
    String(s.rows[p].written), String(s.rows[p].received)]);
  const result = s.rows.map((r, p) => [SEATS[p], String(r.mountain), ratio(r.term), signed(r.written), signed(-r.received), h('b', {}, ratio(r.result))]);
  result.push({ cls: 'sum', cells: [t('g.t.total'), '', '', '', '', h('b', { id: 'settlement-sum' }, ratio(s.sum))] });
  return [
    table('deals', [t('g.t.deal_no'), t('g.t.example'), t('g.t.entries')], deals, 'settlement-deals'),
    table('sheet', [t('g.t.player'), t('g.t.pool'), t('g.t.mountain'), t('g.t.written'), t('g.t.received')], sheetRows, 'settlement-sheet'),
    h('p', { class: 'g-formula' }, t('g.t.avg', { total: s.mountain_total, n: s.players, avg: ratio(s.rows[0].avg) })),
    table('result', [t('g.t.player'), t('g.t.mountain'), t('g.t.term', { scale: s.scale }), t('g.t.written'), t('g.t.received'), t('g.t.result')], result, 'settlement-table'),
  ];
}

/** An option's value in words, as the start page shows it. */
export function valueText(key, value, spec) {
  if (spec.choices) return t(`opt.${key}.${value}`);
  if (typeof value === 'boolean') return t(value ? 'yes' : 'no');
  if (spec.word && value === spec.word) return t(`opt.${key}.${value}`);
  return show(value);
}

function presetsTable(d) {
  const names = d.compared;
  const base = d.presets[names[0]];
  const rows = OPTIONS.map(([key, spec]) => ({
    cls: names.some((n) => JSON.stringify(d.presets[n][key]) !== JSON.stringify(base[key])) ? 'differs' : '',
    cells: [t(`opt.${key}`), ...names.map((n) => {
      const v = d.presets[n][key];
      const diff = JSON.stringify(v) !== JSON.stringify(base[key]);
      return h('span', { class: diff ? 'diff' : '' }, valueText(key, v, spec));
    })],
  }));
  return table('presets', [t('g.t.option'), ...names.map((n) => t(`preset.${n}`))], rows, 'presets-table');
}

function compareTable(d) {
  const names = d.compared;
  const rows = d.compare.map((e) => [describe(e.outcome), ...names.map((n) => entryList(e.by[n]))]);
  return table('compare', [t('g.t.example'), ...names.map((n) => t(`preset.${n}`))], rows, 'compare-table');
}

function section(spec, d, vars) {
  const key = (k) => `g.${spec.id}.${k}`;
  const paras = (from, n) => Array.from({ length: n }, (_, i) => h('p', {}, t(key(`p${from + i}`), vars)));
  const list = spec.items ? h(spec.ordered ? 'ol' : 'ul', { class: 'g-list' },
    Array.from({ length: spec.items }, (_, i) => h('li', {}, t(key(`li${i + 1}`), vars)))) : null;
  const faq = spec.faq ? h('dl', { class: 'g-faq' }, Array.from({ length: spec.faq }, (_, i) => [
    h('dt', {}, t(key(`q${i + 1}`), vars)), h('dd', {}, t(key(`a${i + 1}`), vars))])) : null;
  const sources = spec.sources ? h('ol', { class: 'g-sources', id: 'sources' },
    SOURCES.map(([code, file]) => h('li', {}, t(`g.src.${code}`), ' — ', h('code', {}, file)))) : null;
  return h('section', { class: 'g-section', id: `s-${spec.id}` },
    h('h2', {}, t(key('title'))),
    paras(1, spec.paras), list, faq,
    spec.extra ? spec.extra(d) : null,
    spec.after ? paras(spec.paras + 1, spec.after) : null,
    spec.more ? spec.more(d) : null,
    sources);
}

/** Draws the guide into `root`; returns the redraw for a change of language. */
export function guidePage(root, data) {
  const draw = () => {
    const vars = numbers(data);
    root.replaceChildren(h('article', { class: 'g-article' },
      h('h1', {}, t('g.title')),
      h('p', { class: 'lead' }, t('g.lead', vars)),
      h('nav', { class: 'g-toc' }, h('b', {}, t('g.toc')), h('ol', {}, SECTIONS.map((s) =>
        h('li', {}, h('a', { href: `#s-${s.id}` }, t(`g.${s.id}.title`)))))),
      SECTIONS.map((s) => section(s, data, vars))));
  };
  draw();
  return draw;
}

