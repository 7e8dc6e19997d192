// Why: a player in another tab should notice that it is his turn: the tab's title says so,
// and, if he asked for it (off by default, remembered in this browser), a short tone plays.
// The tone is made with WebAudio, so no sound file is served.

import { h } from './dom.js';
import { t } from './i18n.js';

const KEY = 'pref:turn-sound';
const TITLE = document.title;
let wasMine = false;
let audio = null;

function soundOn() { return localStorage.getItem(KEY) === 'on'; }

/** A short two-note chime. */
function chime() {
  try {
    audio = audio || new AudioContext();
    const now = audio.currentTime;
    [660, 880].forEach((f, i) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = f;
      gain.gain.setValueAtTime(0.0001, now + i * 0.15);
      gain.gain.exponentialRampToValueAtTime(0.2, now + i * 0.15 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.15 + 0.14);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + i * 0.15);
      osc.stop(now + i * 0.15 + 0.15);
    });
  } catch { /* no audio in this browser: the title still changes */ }
}

/** The "sound on my turn" switch. */
export function soundToggle() {
  return h('label', { class: 'sound-toggle' },
    h('input', {
      type: 'checkbox', id: 'turn-sound', checked: soundOn(),
      onchange: (e) => {
        localStorage.setItem(KEY, e.target.checked ? 'on' : 'off');
        if (e.target.checked) chime();
      },
    }), ' ', t('ux.sound'));
}

/** Called after every redraw with whether the viewer is to act. */
export function yourTurn(mine) {
  document.title = mine ? `● ${t('ux.turn_title')} — ${TITLE}` : TITLE;
  if (mine && !wasMine && soundOn()) chime();
  wasMine = mine;
}
