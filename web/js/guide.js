// Why: the entry point of the rules pages (web/guide.html). `/guide` is the players' guide
// with the worked deal replayed by the server's rules core (GET /api/guide); `/t/ID/rules`
// explains one table's house profile option by option. Both share the client's language
// switch, with the guide's own words in /lang/guide/CODE.json.

import { init, LANGS, lang, use, onChange, extend, t } from './i18n.js';
import { h, toast } from './dom.js';
import { guidePage } from './guide-text.js';
import { rulesPage } from './guide-rules.js';
import { anchorRules, showRule } from './guide-anchors.js';

extend('guide');

async function boot() {
  await init();
  const select = document.getElementById('lang');
  select.replaceChildren(...Object.entries(LANGS).map(([code, name]) => h('option', { value: code, selected: code === lang() }, name)));
  select.addEventListener('change', () => use(select.value));
  const print = document.getElementById('print');
  print.addEventListener('click', () => window.print());
  const root = document.getElementById('app');
  const m = /^\/t\/([0-9a-fA-F]+)\/rules\/?$/.exec(location.pathname);
  let data;
  try {
    data = await fetch('/api/guide').then((r) => (r.ok ? r.json() : Promise.reject(new Error(`HTTP ${r.status}`))));
  } catch (e) {
    toast(e.message);
    return;
  }
  const page = m ? await rulesPage(root, m[1], data) : guidePage(root, data);
  const redraw = () => {
    print.textContent = t('g.print');
    document.title = t(m ? 'g.rules.title' : 'g.title');
    const links = document.getElementById('top-links');
    links.replaceChildren(...[
      h('a', { href: '/guide', id: 'guide-link' }, t('g.guide')),
      m && h('a', { href: `/t/${m[1]}`, id: 'table-link' }, t('g.rules.back'))].filter(Boolean));
    page();
    anchorRules(root);
  };
  redraw();
  showRule();
  window.addEventListener('hashchange', showRule);
  onChange(redraw);
  document.body.dataset.ready = 'true';
}

boot();
