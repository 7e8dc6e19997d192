// Why: every page's header has the language menu; one helper fills it and switches.

import { LANGS, lang, use } from './i18n.js';
import { h } from './dom.js';

/** Fills the header's `#lang` menu with the languages and switches on a choice. */
export function langSelect() {
  const select = document.getElementById('lang');
  select.replaceChildren(...Object.entries(LANGS).map(([code, label]) => h('option', { value: code, selected: code === lang() }, label)));
  select.addEventListener('change', () => use(select.value));
}
