// Why: a step that cannot be undone (ending the game, giving up a seat) is asked once more
// in a real modal dialog: the browser's <dialog> keeps the focus inside it, Escape cancels,
// and the safe answer has the focus first, so a stray Enter changes nothing.

import { h } from './dom.js';
import { t } from './i18n.js';

/**
 * Asks `question` with `ok` as the confirming button's label.
 * @returns {Promise<boolean>} true only when the person confirmed
 */
export function confirmStep(question, ok, detail = '') {
  return new Promise((resolve) => {
    const done = (yes) => { dialog.close(yes ? 'ok' : 'cancel'); };
    const cancel = h('button', { type: 'button', class: 'secondary', id: 'confirm-cancel', onclick: () => done(false) }, t('ux.cancel'));
    const dialog = h('dialog', { class: 'confirm', id: 'confirm', 'aria-labelledby': 'confirm-q' },
      h('p', { id: 'confirm-q', class: 'confirm-q' }, question),
      detail ? h('p', { class: 'hint' }, detail) : null,
      h('div', { class: 'row' },
        cancel,
        h('button', { type: 'button', class: 'primary danger', id: 'confirm-ok', onclick: () => done(true) }, ok)));
    dialog.addEventListener('close', () => {
      dialog.remove();
      resolve(dialog.returnValue === 'ok');
    });
    document.body.append(dialog);
    dialog.showModal();
    cancel.focus();
  });
}
