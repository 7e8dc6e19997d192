// Why: the entry point. Loads the words, fills the language switch, links the rules guide
// (and, at a table, that table's rules) in the header, and sends the visitor to the start
// page (`/`), to a table (`/t/ID`, `?watch` for a spectator) or to a scorekeeping sheet
// (`/k/ID`).

import { init, LANGS, lang, use, onChange, extend, t } from './i18n.js';
import { h } from './dom.js';
import { startPage } from './start.js';
import { tablePage } from './table.js';
import { keeperPage } from './keeper.js';
import { accountCorner, rejoinSeat } from './account.js';

// The header's links are words of the guide.
extend('guide');

/** The header's links: the guide everywhere, the table's own rules at a table (in a new tab). */
function headerLinks(id) {
  const select = document.getElementById('lang');
  let nav = document.getElementById('top-links');
  if (!nav) {
    nav = h('nav', { class: 'top-links', id: 'top-links' });
    select.before(nav);
  }
  // At a table the links open a new tab, so that reading the rules never leaves the game.
  const away = id ? { target: '_blank', rel: 'noopener' } : {};
  nav.replaceChildren(...[
    h('a', { href: '/guide', id: 'guide-link', ...away }, t('g.guide')),
    id && h('a', { href: `/t/${id}/rules`, id: 'rules-link', ...away }, t('g.rules.link'))].filter(Boolean));
}

async function boot() {
  await init();
  const select = document.getElementById('lang');
  select.replaceChildren(...Object.entries(LANGS).map(([code, name]) => h('option', { value: code, selected: code === lang() }, name)));
  select.addEventListener('change', () => use(select.value));
  const root = document.getElementById('app');
  const m = /^\/t\/([0-9a-fA-F]+)\/?$/.exec(location.pathname);
  headerLinks(m && m[1]);
  accountCorner();
  const k = /^\/k\/([0-9a-fA-F]+)\/?$/.exec(location.pathname);
  const redraw = k ? keeperPage(root, k[1]) : m ? tablePage(root, m[1]) : await startPage(root);
  if (m) rejoinSeat(m[1]);
  onChange(() => { headerLinks(m && m[1]); accountCorner(); redraw(); });
}

boot();
