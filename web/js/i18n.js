// Why: the client speaks English, Russian, French, Portuguese and Italian. Words live in
// /lang/CODE.json (one flat key → text map per language, checked for completeness by the
// tests); this module picks the browser's language, lets the player switch, and formats.
// A page with more words of its own (the guide) adds them with `extend('guide')`, read from
// /lang/guide/CODE.json and merged over the common words.

import { saved } from './store.js';

export const LANGS = { en: 'English', ru: 'Русский', fr: 'Français', pt: 'Português', it: 'Italiano' };

let words = {};
let fallback = {};
let current = 'en';
const listeners = [];
const extra = [];

/** Adds a page's own word files (`/lang/NAME/CODE.json`); call before `init`. */
export const extend = (name) => extra.push(name);

async function load(code) {
  const files = [`/lang/${code}.json`, ...extra.map((n) => `/lang/${n}/${code}.json`)];
  const parts = await Promise.all(files.map((f) => fetch(f).then((res) => res.json())));
  return Object.assign({}, ...parts);
}

/** The language to start with: the stored choice, else the browser's first known one. */
function initial() {
  const stored = saved.lang();
  if (stored && LANGS[stored]) return stored;
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const code = l.slice(0, 2).toLowerCase();
    if (LANGS[code]) return code;
  }
  return 'en';
}

export async function init() {
  fallback = await load('en');
  await use(initial(), false);
}

/** Switches language and redraws whoever listens. */
export async function use(code, remember = true) {
  words = code === 'en' ? fallback : await load(code);
  current = code;
  document.documentElement.lang = code;
  if (remember) saved.setLang(code);
  listeners.forEach((f) => f());
}

export const lang = () => current;
export const onChange = (f) => listeners.push(f);

/** The word of a plural form `{n|one:trick;other:tricks}` for the number `value`: the
 * language's own plural category (`Intl.PluralRules`: one, few, many, other …), else
 * `other`. */
function plural(forms, value) {
  const map = Object.fromEntries(forms.split(';').map((f) => {
    const i = f.indexOf(':');
    return [f.slice(0, i), f.slice(i + 1)];
  }));
  const n = Number(value);
  const category = Number.isFinite(n) ? new Intl.PluralRules(current).select(n) : 'other';
  return map[category] ?? map.other ?? '';
}

/** The text for `key`, with `{name}` placeholders filled from `vars`, and plural forms
 * `{name|one:…;other:…}` chosen by the number `vars.name`. */
export function t(key, vars = {}) {
  const s = words[key] ?? fallback[key] ?? key;
  return s.replace(/\{(\w+)(?:\|([^}]*))?\}/g, (_, k, forms) => {
    if (vars[k] === undefined || vars[k] === null) return `{${k}}`;
    return forms === undefined ? vars[k] : plural(forms, vars[k]);
  });
}
