// Why: the table's chat: the snapshot brings the table's last lines (the server keeps them,
// so a reload or a late viewer reads what was said), then lines arrive as table news; they
// are sent over the same socket. Spectators take part only where the host allowed it: elsewhere the
// server sends them no line at all, and the panel says so.

import { h } from './dom.js';
import { t } from './i18n.js';
import { speaker } from './follow.js';

/** Takes a snapshot's kept chat lines, in place of the page's. */
export function chatFromSnapshot(state, snap) {
  state.chat = (snap.chat || []).map((l) => ({ from: speaker(state, l.from, t), text: l.text }));
}

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
  const panel = h('section', { class: 'chat', id: 'chat' }, h('h2', {}, t('chat.title')), list, canWrite ? form : null,
    h('p', { class: 'hint', id: 'chat-rule' }, t(state.table.spectator_chat ? 'ux.chat_spectators_join' : state.seat === null ? 'ux.chat_spectators_none' : 'ux.chat_players_only')));
  requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; });
  return panel;
}
