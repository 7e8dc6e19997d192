// Why: a player's page (`/@/{name}`): who he is, the games he is playing now (to watch), his
// figures as the server's rules core computed them, the balance over time and his contracts
// by level drawn as inline SVG, and every game he played, newest first, a page at a time,
// each with its players, result and links to the table, the record and the analysis.
// Numbers arrive exact ("14/3"); the page only rounds shares to a percentage for reading,
// and writes balances as mixed numbers ("−29 ⅓"), with the exact value in the title.

import { init, LANGS, lang, use, onChange, t } from './i18n.js';
import { h, svg, toast } from './dom.js';
import { call } from './api.js';
import { accountCorner, me, pageOf, takeSeatBack } from './account.js';
import { confirmStep } from './confirm.js';
import { mixed } from './mixed.js';
import { ratingsSection } from './ratings.js';

const name = decodeURIComponent(location.pathname.replace(/^\/@\//, '').replace(/\/$/, ''));
const path = `/api/players/${encodeURIComponent(name)}`;

/** "a/b" or "a" as a number, for drawing and rounding only. */
function value(text) {
  if (text === null || text === undefined) return null;
  const [n, d] = String(text).split('/');
  return Number(n) / (d === undefined ? 1 : Number(d));
}

/** An exact share shown as a rounded percentage, the exact fraction in its title. */
function percent(text) {
  if (text === null) return h('b', {}, '—');
  return h('b', { title: text }, `${Math.round(value(text) * 100)} %`);
}

/** An exact number shown as is ("-35/3" stays exact). */
const exact = (text) => h('b', { title: text }, text === null ? '—' : text);

/** A balance in whists as a mixed number ("−29 ⅓"), the exact fraction in its title. */
const whists = (text) => h('b', { title: text }, mixed(text));

function figure(label, shown, id) {
  return h('div', { class: 'figure', id }, label, shown);
}

/** The balance over time as a line, zero marked. */
function balanceChart(counted) {
  const w = 600, hgt = 200, pad = 30;
  if (!counted.length) return h('p', { class: 'hint', id: 'balance-chart' }, t('pl.no_finished'));
  // The line starts at zero, before the first game.
  const points = [{ games: 0, balance: '0' }, ...counted];
  const ys = points.map((p) => value(p.balance));
  const lo = Math.min(0, ...ys), hi = Math.max(0, ...ys);
  const span = hi - lo || 1;
  const last = points[points.length - 1].games;
  const x = (g) => pad + ((w - 2 * pad) * g) / (last || 1);
  const y = (v) => hgt - pad - ((hgt - 2 * pad) * (v - lo)) / span;
  const line = points.map((p, i) => `${x(p.games).toFixed(1)},${y(ys[i]).toFixed(1)}`).join(' ');
  return svg('svg', { class: 'chart', id: 'balance-chart', viewBox: `0 0 ${w} ${hgt}`, role: 'img', 'aria-label': t('pl.balance_chart') },
    svg('line', { class: 'axis', x1: pad, x2: w - pad, y1: y(0), y2: y(0) }),
    svg('text', { x: 2, y: y(0) + 4 }, '0'),
    svg('text', { x: w - pad, y: hgt - 8, 'text-anchor': 'end' }, t('pl.games_n', { n: last })),
    svg('polyline', { class: 'line', points: line }),
    svg('text', { x: x(last), y: y(ys[ys.length - 1]) - 6, 'text-anchor': 'end', class: 'last' }, mixed(points[points.length - 1].balance)));
}

/** Contracts by level: declared (light) and made (dark). */
function levelBars(levels) {
  const w = 600, hgt = 180, pad = 30;
  const top = Math.max(1, ...levels.map((l) => l.played));
  const slot = (w - 2 * pad) / levels.length;
  const bar = (n) => ((hgt - 2 * pad) * n) / top;
  return svg('svg', { class: 'chart', id: 'level-bars', viewBox: `0 0 ${w} ${hgt}`, role: 'img', 'aria-label': t('pl.levels_chart') },
    svg('line', { class: 'axis', x1: pad, x2: w - pad, y1: hgt - pad, y2: hgt - pad }),
    levels.map((l, i) => {
      const x0 = pad + i * slot + slot * 0.2;
      const bw = slot * 0.6;
      return [
        svg('rect', { class: 'played', x: x0, y: hgt - pad - bar(l.played), width: bw, height: bar(l.played) },
          svg('title', {}, t('pl.level_title', { level: l.level, played: l.played, made: l.made }))),
        svg('rect', { class: 'made', x: x0 + bw * 0.25, y: hgt - pad - bar(l.made), width: bw * 0.5, height: bar(l.made) }),
        svg('text', { x: x0 + bw / 2, y: hgt - pad + 16, 'text-anchor': 'middle' }, String(l.level)),
        svg('text', { x: x0 + bw / 2, y: hgt - pad - bar(l.played) - 4, 'text-anchor': 'middle' }, `${l.made}/${l.played}`),
      ];
    }));
}

function statsPanel(s) {
  return h('section', { id: 'stats' },
    h('h2', {}, t('pl.stats')),
    h('div', { class: 'figures' },
      figure(t('pl.games'), exact(String(s.games)), 'fig-games'),
      figure(t('pl.deals'), exact(String(s.deals)), 'fig-deals'),
      figure(t('pl.declared'), percent(s.declared_share), 'fig-declared'),
      figure(t('pl.misere', { n: s.misere.played }), exact(`${s.misere.caught}/${s.misere.played}`), 'fig-misere'),
      figure(t('pl.whist_success', { n: s.whists.made }), percent(s.whists.success), 'fig-whists'),
      figure(t('pl.whists_per_deal'), exact(s.whists.per_deal), 'fig-whists-deal'),
      figure(t('pl.whists_per_game'), exact(s.whists.per_game), 'fig-whists-game'),
      figure(t('pl.raspasy'), percent(s.raspasy.share), 'fig-raspasy'),
      figure(t('pl.raspasy_tricks'), exact(s.raspasy.average_tricks), 'fig-raspasy-tricks'),
      // Counted once the game's analysis has run in the background (none before).
      figure(t('pl.accuracy'), exact(s.accuracy.per_deal), 'fig-accuracy'),
      figure(t('pl.analysed_deals'), exact(String(s.accuracy.deals)), 'fig-analysed'),
      figure(t('pl.balance'), whists(s.balance), 'fig-balance')),
    h('h3', {}, t('pl.balance_chart')),
    balanceChart(s.over_time),
    h('h3', {}, t('pl.levels_chart')),
    levelBars(s.levels));
}

function playerEl(p) {
  if (p.deleted) return h('span', { class: 'deleted' }, t('pl.deleted'));
  const text = p.bot ? `${p.name} (${t(`bot.${p.bot}`)})`
    : p.bot_account ? `${p.name} (${t('bot.badge')})` : p.name || t('seat.free');
  return p.account ? h('a', { href: pageOf(p.account) }, text) : h('span', {}, text);
}

/** A game in the list; `own` (the signed-in player's own page) adds "rejoin" to a game in
 * progress, which takes his seat back through the account on this device. */
function gameItem(g, own = false) {
  const when = new Date(g.date * 1000).toLocaleString(lang());
  const players = g.players.map(playerEl).flatMap((el, i) => (i ? [', ', el] : [el]));
  return h('li', { dataset: { table: g.table, phase: g.phase } },
    h('span', { class: 'when' }, when),
    h('span', { class: 'preset' }, g.profile),
    h('span', { class: 'who' }, players),
    g.phase === 'over'
      ? h('span', { class: 'result', title: g.result ?? '' }, t('pl.result', { result: mixed(g.result) }))
      : h('span', { class: 'result' }, t(`pl.phase.${g.phase}`)),
    h('a', { class: 'table-link', href: g.phase === 'over' ? g.links.table : `${g.links.table}?watch` }, g.phase === 'over' ? t('pl.open') : t('pl.watch')),
    own && g.phase !== 'over'
      ? h('button', { type: 'button', class: 'primary rejoin', dataset: { rejoin: g.table }, onclick: () => takeSeatBack(g.table).catch((e) => toast(e.message)) }, t('pl.rejoin'))
      : null,
    g.phase === 'over' ? h('a', { href: g.links.record, download: `${g.table}.json` }, t('pl.record')) : null,
    g.phase === 'over' ? h('a', { href: g.links.analysis }, t('pl.analysis')) : null);
}

async function gamesPanel() {
  const list = h('ul', { class: 'games', id: 'games' });
  const more = h('button', { type: 'button', class: 'secondary', id: 'more-games', hidden: true }, t('pl.more'));
  let before = null;
  const next = async () => {
    more.disabled = true;
    const page = await call('GET', `${path}/games${before === null ? '' : `?before=${before}`}`);
    list.append(...page.games.map((g) => gameItem(g)));
    before = page.next;
    more.hidden = before === null;
    more.disabled = false;
  };
  more.addEventListener('click', () => next().catch((e) => toast(e.message)));
  await next();
  return h('section', { id: 'all-games' }, h('h2', {}, t('pl.all_games')), list.children.length ? list : h('p', { class: 'hint' }, t('pl.no_games')), more);
}

/** The player's own settings on his page: hide it, a new password, deleting the account. */
function ownPanel(who) {
  const hidden = h('input', { type: 'checkbox', id: 'hide-page', checked: who.hidden });
  hidden.addEventListener('change', () => call('POST', '/api/me/hidden', { hidden: hidden.checked })
    .then(() => toast(t(hidden.checked ? 'acc.hidden_on' : 'acc.hidden_off')))
    .catch((e) => { hidden.checked = !hidden.checked; toast(e.message); }));
  const now = h('input', { type: 'password', id: 'pw-now', autocomplete: 'current-password' });
  const next = h('input', { type: 'password', id: 'pw-new', autocomplete: 'new-password' });
  const change = () => call('POST', '/api/me/password', { password: now.value, new_password: next.value })
    .then(() => { now.value = ''; next.value = ''; toast(t('acc.password_changed')); })
    .catch((e) => toast(e.status === 401 ? t('acc.refused') : e.message));
  const remove = async () => {
    if (!(await confirmStep(t('acc.delete_q'), t('acc.delete'), t('acc.delete_help')))) return;
    call('POST', '/api/me/delete', { password: now.value })
      .then(() => location.assign('/'))
      .catch((e) => toast(e.status === 401 ? t('acc.refused') : e.message));
  };
  return h('section', { id: 'own-settings' },
    h('h2', {}, t('acc.settings')),
    h('label', { class: 'field' }, hidden, ' ', t('acc.hide_page')),
    h('label', { class: 'field' }, t('acc.password'), ' ', now),
    h('label', { class: 'field' }, t('acc.new_password'), ' ', next),
    h('div', { class: 'row' },
      h('button', { type: 'button', class: 'secondary', id: 'change-password', onclick: change }, t('acc.change_password')),
      h('button', { type: 'button', class: 'secondary danger', id: 'delete-account', onclick: remove }, t('acc.delete'))));
}

async function draw(root) {
  try {
    const [profile, stats, who] = await Promise.all([call('GET', path), call('GET', `${path}/stats`), me()]);
    document.title = `Preferans — ${profile.name}`;
    const since = new Date(profile.created * 1000).toLocaleDateString(lang());
    root.replaceChildren(
      h('h1', { id: 'player-name' }, profile.name,
        profile.bot ? h('span', { class: 'badge bot', id: 'player-bot' }, t('bot.badge')) : null),
      h('p', { class: 'hint' }, t('pl.since', { date: since }), ' · ', t('pl.games_n', { n: profile.games }),
        who && who.name === profile.name ? [' · ', t('pl.mine')] : null),
      h('section', { id: 'in-progress' },
        h('h2', {}, t('pl.in_progress')),
        profile.in_progress.length
          ? h('ul', { class: 'games' }, profile.in_progress.map((g) => gameItem(g, who && who.name === profile.name)))
          : h('p', { class: 'hint' }, t('pl.none_in_progress'))),
      await ratingsSection(profile.name),
      statsPanel(stats),
      await gamesPanel(),
      who && who.name === profile.name ? ownPanel(who) : null);
    document.body.dataset.ready = 'true';
  } catch (e) {
    const key = e.status === 404 ? 'pl.no_player' : e.status === 403 ? 'pl.hidden' : null;
    root.replaceChildren(h('p', { class: 'banner', id: 'player-error' }, key ? t(key) : e.message));
    document.body.dataset.ready = 'error';
  }
}

async function boot() {
  await init();
  const select = document.getElementById('lang');
  select.replaceChildren(...Object.entries(LANGS).map(([code, label]) => h('option', { value: code, selected: code === lang() }, label)));
  select.addEventListener('change', () => use(select.value));
  const root = document.getElementById('app');
  const redraw = () => { accountCorner(); draw(root); };
  redraw();
  onChange(redraw);
}

boot();
