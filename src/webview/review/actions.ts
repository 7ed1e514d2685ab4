// What the person can do to the candidates, whichever way it was asked (a click, a key, a message):
// each changes the page's state and asks the extension, which alone writes anything. A decision also
// records where review goes next, so the next candidate opens once the extension's new list arrives.
import { persist, render, send, state, view } from './state';

export function toggleChecked(ids: string[], on: boolean): void {
  const set = new Set(state.checked);
  for (const id of ids) on ? set.add(id) : set.delete(id);
  state.checked = [...set];
  persist();
  render();
}

export function select(id: string): void {
  if (state.selectedId !== id) {
    state.selectedId = id;
    view.detail = undefined;
    view.detailError = undefined;
    view.editing = false;
    view.editError = undefined;
    view.rejectingOne = false;
    view.liveChecklist = undefined;
    view.editDraft = undefined;
    view.reasonDraft = '';
    persist();
    send({ type: 'select', id });
  }
  render();
}

export function openEditor(field?: string): void {
  if (!view.detail || view.detail.status !== 'pending') return;
  view.editing = true;
  view.editError = undefined;
  view.rejectingOne = false;
  view.editFocus = field ?? 'title';
  view.editDraft = undefined;
  render();
}

/** The candidate after `id` in the list as shown (before it, at the end): where review goes next. */
export function neighbour(id: string): string | undefined {
  const ids = [...document.querySelectorAll<HTMLElement>('.row-main')].map((r) => r.dataset.id!);
  const i = ids.indexOf(id);
  return i < 0 ? undefined : ids[i + 1] ?? ids[i - 1];
}

export function decide(kind: 'approve' | 'reject'): void {
  // By the list's entry: a key pressed before the detail has arrived still counts.
  const c = view.items?.find((x) => x.id === state.selectedId);
  if (view.busy || !c || c.status !== 'pending' || view.editing) return;
  if (kind === 'reject') {
    view.rejectingOne = true;
    render();
    return;
  }
  view.advanceTo = neighbour(c.id);
  send({ type: 'approve', ids: [c.id] });
}

export function undo(): void {
  const ids = view.outcome?.undo;
  if (view.busy || !ids?.length) return;
  // The candidate comes back where it was and is shown again, ready for another decision.
  view.advanceTo = ids[0];
  view.outcome = undefined;
  send({ type: 'undo', ids });
}
