// The extension's messages to the page (protocol.ts, ToPage). Each updates the page's state and the
// page is rebuilt, except where a message moves the selection (select() rebuilds) or only refreshes
// the edit form's checklist (the form being typed in must stay).
import { select } from './actions';
import { t } from './format';
import type { ToPage } from './protocol';
import { persist, render, send, state, view } from './state';

export function listenForMessages(): void {
  window.addEventListener('message', onMessage);
}

function onMessage(event: MessageEvent<ToPage>): void {
  const m = event.data;
  switch (m.type) {
    case 'setup':
      view.setup = m.setup;
      state.folder = m.setup.folder;
      persist();
      break;
    case 'list': {
      view.items = m.items;
      const known = new Set(view.items.filter((c) => c.status === 'pending').map((c) => c.id));
      state.checked = state.checked.filter((id) => known.has(id));
      persist();
      // Ask again when the candidate on show changed status meanwhile (approved here, or by another process).
      const current = view.items.find((c) => c.id === state.selectedId);
      const target = view.advanceTo ? view.items.find((c) => c.id === view.advanceTo) : undefined;
      // After a decision the next candidate opens; after an undo, the one brought back. Both are
      // pending: a list that still shows the target decided was sent before the change landed, and
      // the next list will show it.
      if (target && target.status === 'pending') {
        const id = target.id;
        view.advanceTo = undefined;
        const c = target;
        if (state.status !== 'all' && c.status !== state.status) state.status = 'all';
        select(id);
        document.getElementById(`row-${id}`)?.focus();
        return;
      }
      if (current && (!view.detail || view.detail.status !== current.status)) send({ type: 'select', id: current.id });
      break;
    }
    case 'checklist':
      if (m.id === state.selectedId && view.editing) {
        view.liveChecklist = m.items;
        view.checklistView?.(m.items);
      }
      return;
    case 'detail':
      if (m.detail.id === state.selectedId) view.detail = m.detail;
      break;
    case 'detailMissing':
      if (m.id === state.selectedId) view.detailError = m.message;
      break;
    case 'focus': {
      state.selectedId = undefined;
      const c = view.items?.find((x) => x.id === m.id);
      if (c && state.status !== 'all' && c.status !== state.status) state.status = 'all';
      select(m.id);
      document.querySelector<HTMLElement>(`.row-main[data-id="${CSS.escape(m.id)}"]`)?.focus();
      return;
    }
    case 'outcome':
      view.outcome = m.outcome;
      state.checked = [];
      persist();
      break;
    case 'editResult':
      if (m.ok) {
        view.editing = false;
        view.editError = undefined;
        view.liveChecklist = undefined;
        view.outcome = { kind: 'updated', message: t('saved') };
      } else view.editError = { message: m.message ?? '', field: m.field };
      break;
    case 'busy':
      view.busy = m.busy;
      break;
  }
  render();
}
