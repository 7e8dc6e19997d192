// Why: "the rules of this table" (/t/ID/rules): one table's house profile, option by option,
// in the words the start page uses, with every difference from Sochi marked, so players can
// check what they agreed to from the table itself.

import { h } from './dom.js';
import { t } from './i18n.js';
import { api } from './api.js';
import { OPTIONS } from './options.js';
import { valueText } from './guide-text.js';
import { controlText } from './clock.js';

/** Loads the table's profile and returns the redraw (for a change of language). */
export async function rulesPage(root, id, data) {
  let profile = null;
  let clock = null;
  try {
    const summary = await api.summary(id);
    profile = summary.profile;
    clock = summary.clock || null;
  } catch {
    profile = null;
  }
  const sochi = data.presets.sochi;
  const draw = () => {
    if (!profile) {
      root.replaceChildren(h('section', { class: 'panel g-rules' }, h('h1', {}, t('g.rules.title')), h('p', { id: 'no-table' }, t('g.rules.none'))));
      return;
    }
    const differs = (key) => JSON.stringify(profile[key]) !== JSON.stringify(sochi[key]);
    const n = OPTIONS.filter(([key]) => differs(key)).length;
    root.replaceChildren(h('section', { class: 'panel g-rules' },
      h('h1', {}, t('g.rules.title')),
      h('p', { class: 'lead' }, t('g.rules.lead')),
      h('p', { class: n ? 'g-diff-count' : 'g-same', id: 'diff-count' }, n ? t('g.rules.diff', { n }) : t('g.rules.same')),
      h('p', { id: 'table-clock' }, t('clock.title'), ': ', clock ? controlText(clock.control) : t('clock.off')),
      h('dl', { class: 'g-options', id: 'table-rules' }, OPTIONS.map(([key, spec]) => {
        const diff = differs(key);
        return h('div', { class: `g-option ${diff ? 'differs' : ''}`, dataset: { key } },
          h('dt', {}, t(`opt.${key}`), ': ', h('b', { class: 'g-value' }, valueText(key, profile[key], spec))),
          h('dd', {}, t(`opt.${key}.help`),
            diff ? h('span', { class: 'g-sochi' }, ' ', t('g.rules.sochi', { value: valueText(key, sochi[key], spec) })) : null));
      })),
      h('p', {}, h('a', { class: 'button', href: `/t/${id}` }, t('g.rules.back')), ' ',
        h('a', { class: 'button', href: '/guide' }, t('g.guide')))));
  };
  draw();
  return draw;
}
