// Why: a club sets its rules once. The host saves the options he chose under a name; the
// server checks and keeps them and answers with a link (`/?profile=ID`) that opens this start
// page with them chosen. The rules themselves stay on the server: this module only carries
// the saved profile's name, its preset and its resolved options to the start page.

import { api } from './api.js';
import { h, toast } from './dom.js';
import { linkRow } from './lobby.js';
import { t } from './i18n.js';

/** The saved profile the page's link names (`?profile=ID`), or null without one. */
export async function fromLink() {
  const id = new URLSearchParams(location.search).get('profile');
  if (!id) return null;
  try {
    return await api.profile(id);
  } catch (e) {
    toast(e.message);
    return null;
  }
}

/** The card that chooses the saved profile among the presets. */
export function savedCard(profile, on, choose) {
  return h('label', { class: `preset saved ${on ? 'on' : ''}`, id: 'preset-saved' },
    h('input', { type: 'radio', name: 'preset', value: 'saved', checked: on, onchange: choose }),
    h('b', {}, profile.name),
    h('span', {}, t('profiles.based_on', { preset: t(`preset.${profile.preset}`) })));
}

/** The form that saves the current options under a name; `request()` gives the profile
 * request as a table would take it, `saved(profile)` hears the answer. */
export function saveForm(request, saved, last) {
  const name = h('input', { type: 'text', id: 'profile-name', maxlength: 60, placeholder: t('profiles.name'), 'aria-label': t('profiles.name') });
  const save = async () => {
    try {
      saved(await api.saveProfile(name.value, request()));
    } catch (e) {
      toast(e.message);
    }
  };
  return h('div', { class: 'save-profile' },
    h('p', { class: 'opt-help' }, t('profiles.help')),
    h('div', { class: 'save-row' }, name,
      h('button', { type: 'button', class: 'secondary', id: 'save-profile', onclick: save }, t('profiles.save'))),
    last && linkRow(t('profiles.link', { name: last.name }), last.link, 'profile'));
}
