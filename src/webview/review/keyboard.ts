// The review keys carried out on the page (keys.ts says which key asks for what). The edit form keeps
// every key but Undo: its own Esc and Ctrl+Enter close and save it.
import { decide, openEditor, select, undo } from './actions';
import { keyCommand } from './keys';
import { state, view } from './state';

function move(delta: 1 | -1): void {
  const rows = [...document.querySelectorAll<HTMLElement>('.row-main')];
  if (!rows.length) return;
  const i = rows.findIndex((r) => r.dataset.id === state.selectedId);
  const next = rows[i < 0 ? 0 : Math.max(0, Math.min(rows.length - 1, i + delta))];
  select(next.dataset.id!);
  document.getElementById(next.id)?.focus();
}

export function listenForKeys(): void {
  document.addEventListener('keydown', onKey);
}

function onKey(e: KeyboardEvent): void {
  if (e.key === 'Escape' && view.editing) return;
  const command = keyCommand(e);
  if (!command || !view.setup || (view.editing && command !== 'undo')) return;
  e.preventDefault();
  switch (command) {
    case 'next':
      return move(1);
    case 'previous':
      return move(-1);
    case 'approve':
      return decide('approve');
    case 'reject':
      return decide('reject');
    case 'edit':
      return openEditor();
    case 'undo':
      return undo();
  }
}
