// Why: the day's étude on the start page, and the goal of an étude in words (shared with the
// études page). The server picks the day's étude from the UTC date (`GET /api/etudes`), so
// every visitor sees the same one on the same day.

import { h } from './dom.js';
import { t } from './i18n.js';
import { call } from './api.js';

let list = null;

/** The étude's goal in words. */
export function goalText(e) {
  const d = e.declarer + 1;
  if (e.goal === 'make') return t('et.goal.make', { n: e.tricks, d });
  if (e.goal === 'defend') return t('et.goal.defend', { n: e.tricks, d });
  return t('et.goal.catch_misere', { d });
}

function fill(box) {
  const e = list && list.etudes.find((x) => x.id === list.daily);
  box.replaceChildren(
    h('h2', {}, t('et.daily')),
    e ? h('p', {}, goalText(e), ' ',
      h('a', { class: 'button', id: 'daily-etude', href: `/etudes?e=${encodeURIComponent(e.id)}` }, t('et.open'))) : null,
    h('p', {}, h('a', { id: 'etudes-link', href: '/etudes' }, t('et.all'))));
}

/** The start page's box: the day's étude and a link to all of them. */
export function dailyPanel() {
  const box = h('section', { class: 'daily-etude', id: 'daily-etude-box' });
  fill(box);
  if (!list) {
    call('GET', '/api/etudes').then((l) => { list = l; fill(box); }).catch(() => {});
  }
  return box;
}
