// Why: duplicate tournaments (`/tournaments`, `/tournaments/{id}`; docs/tournaments.md). The
// list of open and past tournaments and the form that makes a challenge; a tournament's page
// with its standings, the entry form, the entrant's own table (his hand, the deal as his seat
// sees it, his legal actions) and, after each deal, how every entrant played the same cards
// with the solver's par. Numbers arrive exact ("-34/3"); a percentage is rounded for reading
// only, the exact value in its title. The entrant's token stays in this browser.

import { init, lang, onChange, t } from './i18n.js';
import { langSelect } from './lang-select.js';
import { h, toast } from './dom.js';
import { call } from './api.js';
import { accountCorner, me } from './account.js';
import { bidLabel, chip, sortHand, suitIcon } from './cards.js';
import { mixed } from './mixed.js';

const id = (/^\/tournaments\/([0-9a-f-]{32,36})/.exec(location.pathname) || [])[1];
const tokenKey = (tid) => `pref:tournament:${tid}:token`;
const token = () => (id ? localStorage.getItem(tokenKey(id)) : null);
// The answer to the action that ended a deal: drawn as it is, so that the next deal is dealt
// only when the entrant asks for it ("Next deal").
let held = null;

/** "a/b" or "a" as a number, for rounding only. */
function value(text) {
  const [n, d] = String(text).split('/');
  return Number(n) / (d === undefined ? 1 : Number(d));
}

const pct = (text) => (text === undefined || text === null
  ? h('span', {}, '—')
  : h('span', { title: text }, `${Math.round(value(text))} %`));

/** An exact whists result as players write it ("−16 ⅔"), the exact text in its title. */
const whists = (text) => h('span', { class: 'exact', title: text }, mixed(text));

const when = (secs) => new Date(secs * 1000).toLocaleString(lang());

/** An outcome in short: the contract and its declarer, or raspasy; the tricks. */
function outcomeText(o) {
  const tricks = (o.tricks || []).join('–');
  if (o.kind === 'raspasy') return [t('log.outcome.raspasy'), ' ', tricks];
  const what = o.kind === 'misere' ? bidLabel('misere') : o.contract ? bidLabel(o.contract) : o.kind;
  return [what, ' ', t('tn.by_seat', { n: o.declarer }), tricks ? [' · ', tricks] : null];
}

/** The label of a legal action. */
function actionLabel(a) {
  if (a === 'surrender') return t('call.surrender');
  if (a === 'look') return t('dark.look');
  if (a.bid) return bidLabel(a.bid);
  if (a.declare) return bidLabel(a.declare);
  if (a.dark) return [bidLabel(a.dark), ' ', t('dark.call_mark')];
  if (a.play) return chip(a.play);
  if (a.discard) return a.discard.map(chip);
  if (a.whist) return t(`whist.${a.whist}`);
  if (a.defence) return t(`defence.${a.defence}`);
  return JSON.stringify(a);
}

function briefRow(b) {
  return h('tr', { 'data-id': b.id },
    h('td', {}, h('a', { href: `/tournaments/${b.id}` }, b.name)),
    h('td', {}, t(`tn.kind.${b.kind}`)),
    h('td', {}, b.preset, ' · ', t(`tn.level.${b.level}`)),
    h('td', { class: 'num' }, b.deals),
    h('td', { class: 'num' }, b.entrants),
    h('td', {}, when(b.ends)));
}

function briefTable(list, empty) {
  if (!list.length) return h('p', { class: 'hint' }, empty);
  return h('table', {},
    h('tr', {}, ['tn.name', 'tn.kind', 'tn.rules', 'tn.deals', 'tn.entrants', 'tn.ends'].map((k) => h('th', {}, t(k)))),
    list.map(briefRow));
}

function createForm() {
  const name = h('input', { name: 'name', required: true, maxlength: 60, value: t('tn.default_name') });
  const preset = h('select', { name: 'preset' }, ['sochi', 'leningrad', 'rostov', 'sochi4'].map((p) => h('option', { value: p }, p)));
  const level = h('select', { name: 'level' }, ['easy', 'normal', 'strong'].map((l) => h('option', { value: l }, t(`tn.level.${l}`))));
  const deals = h('input', { name: 'deals', type: 'number', min: 1, max: 24, value: 12 });
  const hours = h('input', { name: 'hours', type: 'number', min: 1, max: 168, value: 24 });
  const out = h('p', { id: 'created' });
  const form = h('form', { class: 'create', id: 'create-form' },
    h('label', {}, t('tn.name'), name), h('label', {}, t('tn.preset'), preset),
    h('label', {}, t('tn.level'), level), h('label', {}, t('tn.deals'), deals),
    h('label', {}, t('tn.hours'), hours), h('button', { type: 'submit' }, t('tn.create')));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    try {
      const c = await call('POST', '/api/tournaments', {
        name: name.value, preset: preset.value, level: level.value,
        deals: Number(deals.value), hours: Number(hours.value),
      });
      localStorage.setItem(`pref:tournament:${c.id}:host`, c.host_token);
      out.replaceChildren(t('tn.send_link'), ' ', h('a', { href: c.link, id: 'created-link' }, c.link));
    } catch (e) { toast(e.message); }
  });
  return [h('h2', {}, t('tn.new_challenge')), form, out];
}

async function drawList(root) {
  const list = await call('GET', '/api/tournaments');
  root.replaceChildren(h('div', {},
    h('h1', {}, t('tn.title')),
    h('p', { class: 'hint' }, t('tn.lead')),
    h('h2', {}, t('tn.open')), briefTable(list.open, t('tn.none_open')),
    h('h2', {}, t('tn.past')), briefTable(list.past, t('tn.none_past')),
    createForm()));
}

function standings(page) {
  return h('table', { id: 'standings' },
    h('tr', {}, ['tn.rank', 'tn.player', 'tn.finished', 'tn.standing'].map((k) => h('th', {}, t(k)))),
    page.standings.map((r) => h('tr', { class: r.entrant === page.you ? 'you' : null, 'data-entrant': r.entrant },
      h('td', { class: 'num' }, r.rank), h('td', {}, r.name),
      h('td', { class: 'num' }, `${r.finished} / ${page.tournament.deals}`),
      h('td', { class: 'num' }, pct(r.standing)))));
}

async function comparison(k) {
  const c = await call('GET', `/api/tournaments/${id}/deals/${k}`, undefined, token() || undefined);
  const par = c.par
    ? h('p', { class: 'par' }, t('tn.par'), ' ', c.par.best ? bidLabel(c.par.best) : t('tn.no_contract'),
      ' (', ['S', 'C', 'D', 'H', 'NT'].map((s, i) => [i ? ', ' : '', s === 'NT' ? t('call.nt') : suitIcon(s, 'pip'), ` ${c.par.tricks[i]}`]), ')')
    : null;
  return h('section', { class: 'board', id: `comparison-${k}` },
    h('h3', {}, t('tn.deal_n', { n: k + 1 })), par,
    h('table', {},
      h('tr', {}, ['tn.player', 'tn.played', 'tn.result', 'tn.mp', 'tn.pct'].map((x) => h('th', {}, t(x)))),
      c.entrants.map((r) => h('tr', { 'data-entrant': r.entrant },
        h('td', {}, r.name), h('td', {}, outcomeText(r.outcome)), h('td', { class: 'num' }, whists(r.result)),
        h('td', { class: 'num' }, r.matchpoints), h('td', { class: 'num' }, pct(r.percentage))))));
}

/** The entrant's table, or what he finished last and the way on. */
async function tableView(table, redraw) {
  const parts = [];
  if (table.last) {
    parts.push(h('p', { id: 'last-result' }, t('tn.your_result', { n: table.last.deal + 1 }), ' ', h('b', {}, whists(table.last.result))));
    parts.push(await comparison(table.last.deal));
  }
  const v = table.view;
  if (v) {
    const legal = table.legal.map((a) => h('button', {
      class: 'act', onclick: async () => {
        try {
          held = await call('POST', `/api/tournaments/${id}/play`, { deal: table.deal, action: a }, token());
          redraw();
        } catch (e) { toast(e.message); }
      },
    }, actionLabel(a)));
    parts.unshift(h('section', { class: 'board', id: 'table' },
      h('h3', {}, t('tn.deal_of', { n: table.deal + 1, of: table.deals })),
      h('p', {}, t('tn.stage', { stage: v.stage }), v.contract ? [' · ', bidLabel(v.contract)] : null,
        ' · ', t('tn.tricks', { list: v.tricks_taken.join('–') })),
      v.trick.length ? h('p', {}, t('tn.trick'), ' ', v.trick.map((c) => chip(c.card))) : null,
      h('div', { class: 'hand', id: 'hand' }, sortHand(v.hand || []).map(chip)),
      h('div', { class: 'actions', id: 'actions' }, legal.length ? legal : h('span', { class: 'hint' }, t('tn.waiting')))));
  } else if (table.deal < table.deals) {
    parts.push(h('button', { id: 'next-deal', onclick: () => { held = null; redraw(); } }, t('tn.next_deal')));
  } else {
    parts.push(h('p', { id: 'all-done' }, t('tn.all_done')));
  }
  return parts;
}

function enterForm(redraw, who) {
  const name = h('input', { name: 'name', maxlength: 32, required: !who });
  const form = h('form', { class: 'enter', id: 'enter-form' },
    who ? h('span', {}, t('tn.enter_as', { name: who.name })) : h('label', {}, t('tn.your_name'), name),
    h('button', { type: 'submit' }, t('tn.enter')));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    try {
      const e = await call('POST', `/api/tournaments/${id}/entrants`, who ? {} : { name: name.value });
      localStorage.setItem(tokenKey(id), e.token);
      redraw();
    } catch (err) { toast(err.message); }
  });
  return form;
}

async function drawTournament(root, redraw) {
  const page = await call('GET', `/api/tournaments/${id}`, undefined, token() || undefined);
  const tn = page.tournament;
  const mine = page.you !== undefined;
  const table = mine && !tn.closed
    ? held || await call('GET', `/api/tournaments/${id}/play`, undefined, token())
    : null;
  const host = localStorage.getItem(`pref:tournament:${id}:host`);
  const closed = tn.closed
    ? await Promise.all(Array.from({ length: tn.deals }, (_, k) => comparison(k)))
    : [];
  root.replaceChildren(h('div', {},
    h('h1', { id: 'tournament-name' }, tn.name),
    h('p', { class: 'hint' }, t(`tn.kind.${tn.kind}`), ' · ', tn.preset, ' · ', t(`tn.level.${tn.level}`),
      ' · ', t('tn.deals_n', { n: tn.deals }), ' · ', tn.closed ? t('tn.closed') : t('tn.closes', { when: when(tn.ends) })),
    table ? await tableView(table, redraw) : null,
    !mine && !tn.closed ? enterForm(redraw, await me()) : null,
    h('h2', {}, t('tn.standings')), standings(page),
    tn.closed ? [h('h2', {}, t('tn.deals_played')), closed] : null,
    host && !tn.closed ? h('button', {
      id: 'close', onclick: async () => {
        try { await call('POST', `/api/tournaments/${id}/close`, undefined, host); redraw(); } catch (e) { toast(e.message); }
      },
    }, t('tn.close')) : null,
    h('p', { class: 'hint' }, t('tn.fair'))));
}

async function draw(root) {
  try {
    if (id) await drawTournament(root, () => draw(root));
    else await drawList(root);
    document.body.dataset.ready = 'true';
    // Counted, so that a test knows an action's answer has been drawn.
    document.body.dataset.drawn = String(Number(document.body.dataset.drawn || 0) + 1);
  } catch (e) {
    root.replaceChildren(h('p', { class: 'banner', id: 'tournament-error' }, e.status === 404 ? t('tn.no_such') : e.message));
    document.body.dataset.ready = 'error';
  }
}

async function boot() {
  await init();
  langSelect();
  const root = document.getElementById('app');
  const redraw = () => {
    document.getElementById('tournaments-link').textContent = t('tn.title');
    accountCorner();
    draw(root);
  };
  redraw();
  onChange(redraw);
}

boot();
