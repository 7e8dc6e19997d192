// Why: the entry point. Loads the words, fills the language switch, and sends the visitor
// to the start page (`/`) or to a table (`/t/ID`, `?watch` for a spectator).

import { init, LANGS, lang, use, onChange } from './i18n.js';
import { h } from './dom.js';
import { startPage } from './start.js';
import { tablePage } from './table.js';

async function boot() {
  await init();
  const select = document.getElementById('lang');
  select.replaceChildren(...Object.entries(LANGS).map(([code, name]) => h('option', { value: code, selected: code === lang() }, name)));
  select.addEventListener('change', () => use(select.value));
  const root = document.getElementById('app');
  const m = /^\/t\/([0-9a-fA-F]+)\/?$/.exec(location.pathname);
  const redraw = m ? tablePage(root, m[1]) : await startPage(root);
  onChange(redraw);
}

boot();
