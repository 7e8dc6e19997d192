// Why: the page of a kept sheet (`/k/ID`). Everybody with the link sees the same paper
// sheet as at an online table, live (server-sent events), with the score log and the
// settlement, and can print it; the keeper (whose browser holds the keeper token) also
// enters deals, corrects or deletes them, and records the agreed stop.

import { call } from './api.js';
import { h, toast } from './dom.js';
import { t } from './i18n.js';
import { linkRow } from './lobby.js';
import { sheetPanel } from './sheet.js';
import { saved } from './store.js';
import { draftOf, entryForm, newDraft } from './keeper-form.js';
import { historyPanel, scoreLog } from './keeper-log.js';

/** The view as the online sheet's drawing reads a table's state. */
function sheetState(id, view) {
  const table = {
    players: view.players,
    profile: view.profile,
    seats: view.names.map((name) => ({ name })),
    sheet: view.sheet,
    settlement: view.settlement,
    phase: 'keeper',
    // No deal counts as finished here: the online sheet's record link is the table's, and
    // the sheet has its own export.
    deals_finished: 0,
  };
  // The running totals ("2.4.6") come from the sheet after each deal, in order.
  return { id, seat: null, table, trail: view.deals.length ? view.deals.map((d) => d.sheet) : [view.sheet] };
}

export function keeperPage(root, id) {
  const token = saved.keeper(id);
  const ui = { view: null, draft: newDraft(), verdict: null, seq: 0 };
  const path = `/api/keeper/${id}`;

  async function check(outcome) {
    const seq = ++ui.seq;
    const body = { outcome };
    if (ui.draft.index !== null) body.index = ui.draft.index;
    let verdict;
    try {
      await call('POST', `${path}/check`, body);
      verdict = { error: null };
    } catch (e) {
      verdict = { error: e.message };
    }
    if (seq === ui.seq) { ui.verdict = verdict; render(); }
  }

  async function change(method, suffix, body) {
    try {
      ui.view = await call(method, `${path}${suffix}`, body, token);
      return true;
    } catch (e) {
      ui.verdict = { error: e.message };
      toast(e.message);
      render();
      return false;
    }
  }

  async function submit(outcome) {
    const d = ui.draft;
    const ok = d.index === null
      ? await change('POST', '/deals', { outcome })
      : await change('PUT', `/deals/${d.index}`, { outcome });
    if (ok) { ui.draft = newDraft(); ui.verdict = null; render(); }
  }

  function dealActions(i) {
    if (!token) return null;
    return h('span', { class: 'k-buttons' },
      h('button', { type: 'button', class: 'secondary small', 'data-correct': i,
        onclick: async () => {
          try {
            ui.choices = await call('GET', `${path}/choices?deal=${i}`);
          } catch (e) { toast(e.message); return; }
          ui.draft = draftOf(ui.view.deals[i].outcome, i); ui.verdict = null; render(); window.scrollTo(0, 0);
        } }, t('k.correct')),
      h('button', { type: 'button', class: 'secondary small', 'data-delete': i,
        onclick: async () => { if (confirm(t('k.delete_confirm', { n: i + 1 }))) { await change('DELETE', `/deals/${i}`); render(); } } }, t('k.delete')));
  }

  function render() {
    const view = ui.view;
    root.replaceChildren();
    if (!view) { root.append(h('p', { class: 'loading' }, '…')); return; }
    const keeper = !!token;
    const editing = ui.draft.index !== null;
    const parts = [h('section', { class: 'panel k-head' },
      h('h1', {}, t('k.title')),
      h('p', {}, view.names.join(' · ')),
      h('p', { class: 'lead' }, keeper ? t('k.you_keep') : t('k.you_watch')),
      linkRow(t('k.watch_link'), `${location.origin}/k/${id}`, 'sheet'))];
    if (keeper && (view.next || editing)) {
      const formView = editing ? { ...view, next: ui.choices } : view;
      parts.push(entryForm(formView, ui, {
        redraw: render, check, submit,
        cancel: () => { ui.draft = newDraft(); ui.verdict = null; render(); },
      }));
    }
    parts.push(sheetPanel(sheetState(id, view)));
    parts.push(scoreLog(view, keeper ? dealActions : null));
    const tools = [
      h('a', { class: 'button secondary', id: 'k-export', href: `${path}/record`, download: `pulka-${id.slice(0, 8)}.json` }, t('k.export')),
      h('button', { type: 'button', class: 'secondary', id: 'k-print', onclick: () => window.print() }, t('k.print')),
    ];
    if (keeper && view.deals.length && !(view.settlement && !view.settlement.agreed)) {
      const agreed = !!(view.settlement && view.settlement.agreed);
      tools.push(h('button', { type: 'button', class: 'secondary', id: 'k-stop',
        onclick: async () => { if (await change('POST', '/stop', { agreed: !agreed })) render(); } }, t(agreed ? 'k.resume' : 'k.stop')));
    }
    parts.push(h('p', { class: 'k-tools' }, tools));
    parts.push(historyPanel(view));
    root.append(...parts);
  }

  const events = new EventSource(`${path}/events`);
  events.addEventListener('sheet', (e) => {
    ui.view = JSON.parse(e.data);
    render();
  });
  events.onerror = () => {
    if (events.readyState === EventSource.CLOSED) toast(t('k.gone'));
  };
  render();
  return render;
}
