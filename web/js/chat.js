// Why: the table's chat: lines arrive as table news, are kept for this visit, and are sent
// over the same socket. Spectators write only where the host allowed it.

import { h } from './dom.js';
import { t } from './i18n.js';

export function chatPanel(state) {
  const canWrite = state.seat !== null || state.table.spectator_chat;
  const list = h('ol', { class: 'chat-lines', id: 'chat-lines', 'aria-live': 'polite' },
    state.chat.map((line) => h('li', {}, h('b', {}, line.from), ' ', line.text)));
  const input = h('input', {
    type: 'text', id: 'chat-input', maxlength: 300, value: state.chatDraft || '', placeholder: t('chat.placeholder'), 'aria-label': t('chat.placeholder'),
    oninput: (e) => { state.chatDraft = e.target.value; },
  });
  const form = h('form', {
    class: 'chat-form',
    onsubmit: (e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (text && state.socket.chat(text)) {
        input.value = '';
        state.chatDraft = '';
      }
    },
  }, input, h('button', { type: 'submit', class: 'secondary' }, t('chat.send')));
  const panel = h('section', { class: 'chat', id: 'chat' }, h('h2', {}, t('chat.title')), list, canWrite ? form : h('p', { class: 'hint' }, t('chat.spectators_read')));
  requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; });
  return panel;
}
