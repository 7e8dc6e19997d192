// Why: the start page. The host picks a preset, sees the options in closed folds by subject
// (whist, raspasy, four players …) with what differs from the preset named above them, opens
// a fold to read each option's plain explanation and the preset's value, overrides what the
// table agreed, creates the table (by link only, or public: listed in the lobby) and gets the
// invite and spectator links to hand out. The public lobby and quick pairing come first
// (`room.js`).

import { clockChoice } from './clock.js';
import { api, links } from './api.js';
import { h, toast } from './dom.js';
import { linkRow } from './lobby.js';
import { t } from './i18n.js';
import { GROUPS, OPTIONS, inGroup, overrides, readList, show } from './options.js';
import { fromLink, saveForm, savedCard } from './profiles.js';
import { saved } from './store.js';
import { keeperStart } from './keeper-start.js';
import { botsPanel } from './quickplay.js';
import { roomPanel } from './room.js';
import { dailyPanel } from './etude-daily.js';

const PRESET_ORDER = ['sochi', 'leningrad', 'rostov', 'sochi4'];
let presets = null;
const form = { preset: 'sochi', profile: null, spectatorChat: false, public: false, peopleOnly: false, created: null, open: new Set(), saved: null, useSaved: false };

function control(key, spec) {
  const value = form.profile[key];
  const set = (v) => { form.profile[key] = v; showDifferences(); };
  const id = `opt-${key}`;
  if (spec.choices) {
    return h('select', { id, name: key, onchange: (e) => set(typeof value === 'number' ? Number(e.target.value) : e.target.value) },
      spec.choices.map((c) => h('option', { value: c, selected: c === value }, t(`opt.${key}.${c}`))));
  }
  if (typeof value === 'boolean') {
    return h('input', { id, name: key, type: 'checkbox', checked: value, onchange: (e) => set(e.target.checked) });
  }
  if (spec.list) {
    return h('input', { id, name: key, type: 'text', value: show(value), inputmode: 'numeric', size: 8, onchange: (e) => set(readList(e.target.value)) });
  }
  if (spec.word) {
    // A number, or the word instead of it (ticked: the number field is off).
    const isWord = value === spec.word;
    const num = h('input', { id, name: key, type: 'number', value: isWord ? '' : value, min: spec.min, step: spec.step || 1, disabled: isWord, onchange: (e) => set(Number(e.target.value)) });
    const word = h('input', { id: `${id}-${spec.word}`, name: `${key}-${spec.word}`, type: 'checkbox', checked: isWord,
      onchange: (e) => {
        num.disabled = e.target.checked;
        set(e.target.checked ? spec.word : Number(num.value || spec.min || 0));
      } });
    return h('span', {}, num, ' ', h('label', { class: 'check' }, word, ' ', t(`opt.${key}.${spec.word}`)));
  }
  return h('input', { id, name: key, type: 'number', value, min: spec.min, max: spec.max, step: spec.step || 1, onchange: (e) => set(Number(e.target.value)) });
}

function valueText(key, value, spec) {
  if (spec.choices || (spec.word && value === spec.word)) return t(`opt.${key}.${value}`);
  if (typeof value === 'boolean') return t(value ? 'yes' : 'no');
  return show(value);
}

function option(key, spec, base) {
  return h('div', { class: 'option', id: `row-${key}` },
    h('label', { for: `opt-${key}`, class: 'opt-name' }, t(`opt.${key}`)),
    h('div', { class: 'opt-control' }, control(key, spec)),
    h('p', { class: 'opt-help' }, t(`opt.${key}.help`), ' ',
      h('span', { class: 'opt-default' }, t('start.default', { value: valueText(key, base[key], spec) }))));
}

/** The options grouped in folds, each closed until opened, under a line naming what differs
 * from the preset; the folds count their own differences. */
function optionsTable() {
  const base = presets[form.preset];
  return h('div', { class: 'options' },
    h('p', { class: 'opt-diff', id: 'opt-diff' }),
    GROUPS.map((group) => h('details', {
      class: 'opt-group', id: `group-${group}`, open: form.open.has(group),
      ontoggle: (e) => { if (e.target.open) form.open.add(group); else form.open.delete(group); },
    },
    h('summary', {}, t(`start.group.${group}`), ' ', h('span', { class: 'opt-count', id: `count-${group}` })),
    h('p', { class: 'opt-group-help' }, t(`start.group.${group}.help`)),
    inGroup(group).map(([key, spec]) => option(key, spec, base)))));
}

/** Names the options that differ from the preset, marks their rows and counts them per fold. */
function showDifferences() {
  const line = document.getElementById('opt-diff');
  if (!line) return;
  const changed = Object.keys(overrides(form.profile, presets[form.preset]));
  const preset = t(`preset.${form.preset}`);
  line.textContent = changed.length
    ? t('start.differences', { preset, list: changed.map((k) => t(`opt.${k}`)).join(', ') })
    : t('start.no_differences', { preset });
  for (const [key] of OPTIONS) {
    document.getElementById(`row-${key}`)?.classList.toggle('changed', changed.includes(key));
  }
  for (const group of GROUPS) {
    const n = inGroup(group).filter(([k]) => changed.includes(k)).length;
    document.getElementById(`count-${group}`).textContent = n ? t('start.changed', { n }) : '';
  }
}

function createdPanel(root) {
  const { id } = form.created;
  const l = links(id);
  return h('section', { class: 'panel created' },
    h('h2', {}, t('start.created')),
    h('p', {}, t('start.share')),
    linkRow(t('start.invite'), l.invite, 'invite'),
    linkRow(t('start.watch_link'), l.watch, 'watch'),
    h('p', {}, h('a', { class: 'button primary', href: `/t/${id}`, id: 'go-table' }, t('start.go'))));
}

/** The profile request for the options chosen: the preset and what differs from it. */
function request() {
  return { preset: form.preset, ...overrides(form.profile, presets[form.preset]) };
}

/** Chooses saved profile `p` (from a link or just saved): its preset and its options. */
function useSaved(p) {
  form.saved = p;
  form.useSaved = true;
  form.preset = p.preset;
  form.profile = structuredClone(p.resolved);
}

async function create(root) {
  const profile = request();
  try {
    const extra = {
      ...(form.public ? { public: true, name: saved.name() || undefined } : {}),
      ...(form.practice ? { practice: true } : {}),
      ...(form.peopleOnly ? { people_only: true } : {}),
      ...(form.rated ? { rated: true } : {}),
    };
    const res = await api.create(profile, form.spectatorChat, form.clock, extra);
    saved.setHost(res.id, res.host_token);
    saved.setInvite(res.id, res.invite);
    form.created = res;
    render(root);
  } catch (e) {
    toast(e.message);
  }
}

function render(root) {
  root.replaceChildren();
  if (form.created) { root.append(createdPanel(root)); return; }
  root.append(h('section', { class: 'panel start' },
    h('h1', {}, t('start.title')),
    // On a phone the page's other two jobs are screens down: say so at the top.
    h('nav', { class: 'start-jump', id: 'start-jump', 'aria-label': t('ux.jump') },
      h('a', { href: '#friends' }, t('ux.jump_friends')), ' · ',
      h('a', { href: '#keeper-start' }, t('ux.jump_keeper'))),
    h('p', { class: 'lead' }, t('start.lead')),
    roomPanel(),
    botsPanel(request, () => form.profile.players, {
      get: () => form.profile.pool_target,
      set: (n) => { form.profile.pool_target = n; render(root); },
    }),
    h('h2', { id: 'friends' }, t('start.preset')),
    h('div', { class: 'presets', role: 'radiogroup' },
      form.saved && savedCard(form.saved, form.useSaved, () => { useSaved(form.saved); render(root); }),
      PRESET_ORDER.filter((n) => presets[n]).map((name) => {
        const on = !form.useSaved && name === form.preset;
        return h('label', { class: `preset ${on ? 'on' : ''}` },
          h('input', { type: 'radio', name: 'preset', value: name, checked: on,
            onchange: () => { form.useSaved = false; form.preset = name; form.profile = structuredClone(presets[name]); render(root); } }),
          h('b', {}, t(`preset.${name}`)), h('span', {}, t(`preset.${name}.help`)));
      })),
    h('h2', {}, t('start.options')),
    optionsTable(),
    saveForm(request, (p) => {
      useSaved(p);
      history.replaceState(null, '', `/?profile=${p.id}`);
      render(root);
    }, form.useSaved && form.saved),
    clockChoice(form),
    h('label', { class: 'check' }, h('input', { type: 'checkbox', id: 'spectator-chat', checked: form.spectatorChat, onchange: (e) => { form.spectatorChat = e.target.checked; } }), ' ', t('start.spectator_chat')),
    h('label', { class: 'check' }, h('input', { type: 'checkbox', id: 'public-table', checked: form.public, onchange: (e) => { form.public = e.target.checked; } }), ' ', t('start.public')),
    h('label', { class: 'check' }, h('input', { type: 'checkbox', id: 'practice', checked: !!form.practice, onchange: (e) => { form.practice = e.target.checked; } }), ' ', t('start.practice')),
    h('label', { class: 'check' }, h('input', { type: 'checkbox', id: 'people-only', checked: form.peopleOnly, onchange: (e) => { form.peopleOnly = e.target.checked; } }), ' ', t('start.people_only')),
    h('label', { class: 'check', title: t('rt.option_help') }, h('input', { type: 'checkbox', id: 'rated', checked: !!form.rated, onchange: (e) => { form.rated = e.target.checked; } }), ' ', t('rt.option')),
    h('p', {}, h('button', { type: 'button', class: 'primary', id: 'create', onclick: () => create(root) }, t('start.create'))),
    // The leaderboards and the day's étude come after the two ways to play: a phone sees
    // those first.
    h('p', { class: 'leaderboards' }, h('a', { href: '/ratings', id: 'leaderboards-link' }, t('rt.leaderboards'))),
    dailyPanel()),
  keeperStart(() => ({ preset: form.preset, ...overrides(form.profile, presets[form.preset]) }), form.profile.players));
  showDifferences();
}

export async function startPage(root) {
  if (!presets) presets = await api.presets();
  if (!form.profile) {
    const linked = await fromLink();
    if (linked) useSaved(linked);
    else form.profile = structuredClone(presets[form.preset]);
  }
  render(root);
  return () => render(root);
}
