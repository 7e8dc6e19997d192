// Why: the leaderboards (`/ratings`): one per rating family, the people's and the bots'
// apart (they never mix), of the players with a rated game in the last 30 days, highest
// first, a page at a time as the server hands them out (`GET /api/ratings/{family}`).

import { init, onChange, t } from './i18n.js';
import { langSelect } from './lang-select.js';
import { h, toast } from './dom.js';
import { call } from './api.js';
import { accountCorner, pageOf } from './account.js';
import { ratingEl } from './ratings.js';

const FAMILIES = ['sochi', 'leningrad', 'rostov', 'four'];
const query = new URLSearchParams(location.search);
const view = {
  family: FAMILIES.includes(query.get('family')) ? query.get('family') : 'sochi',
  kind: query.get('kind') === 'bots' ? 'bots' : 'people',
};

function row(p) {
  return h('tr', { dataset: { name: p.name } },
    h('td', { class: 'place' }, String(p.place)),
    h('td', {}, h('a', { href: pageOf(p.name) }, p.name)),
    h('td', {}, ratingEl(p.rating)),
    h('td', { class: 'games' }, String(p.rating.games)),
    h('td', { class: 'when' }, new Date(p.last_played * 1000).toLocaleDateString()));
}

async function board() {
  const body = h('tbody', {});
  const more = h('button', { type: 'button', class: 'secondary', id: 'more-players', hidden: true }, t('rt.more'));
  let offset = 0;
  const next = async () => {
    more.disabled = true;
    const page = await call('GET', `/api/ratings/${view.family}?kind=${view.kind}&offset=${offset}`);
    body.append(...page.players.map(row));
    offset = page.next ?? null;
    more.hidden = offset === null;
    more.style.display = offset === null ? 'none' : '';
    more.disabled = false;
  };
  more.addEventListener('click', () => next().catch((e) => toast(e.message)));
  await next();
  if (!body.children.length) return h('p', { class: 'hint', id: 'board-empty' }, t('rt.none'));
  return h('div', {},
    h('table', { class: 'leaderboard', id: 'leaderboard' },
      h('thead', {}, h('tr', {}, ['place', 'player', 'rating', 'games', 'last'].map((k) => h('th', { scope: 'col' }, t(`rt.${k}`))))),
      body),
    more);
}

function choice(key, values, label) {
  return h('nav', { class: 'tabs', id: `${key}-tabs` }, values.map((v) => h('a', {
    href: `/ratings?family=${key === 'family' ? v : view.family}&kind=${key === 'kind' ? v : view.kind}`,
    class: view[key] === v ? 'on' : '',
    dataset: { [key]: v },
  }, label(v))));
}

async function draw(root) {
  try {
    document.title = `Preferans — ${t('rt.leaderboards')}`;
    root.replaceChildren(
      h('h1', {}, t('rt.leaderboards')),
      choice('family', FAMILIES, (f) => t(`rt.family.${f}`)),
      choice('kind', ['people', 'bots'], (k) => t(`rt.${k}`)),
      h('p', { class: 'hint' }, t('rt.active')),
      await board());
    document.body.dataset.ready = 'true';
  } catch (e) {
    root.replaceChildren(h('p', { class: 'banner' }, e.message));
    document.body.dataset.ready = 'error';
  }
}

async function boot() {
  await init();
  langSelect();
  const root = document.getElementById('app');
  const redraw = () => { accountCorner(); draw(root); };
  redraw();
  onChange(redraw);
}

boot();
