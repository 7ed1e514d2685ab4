// What the review page holds. Two kinds, kept apart because they live differently: `state` is the
// person's own view (filters, selection, ticks) and is saved with the webview (getState/setState), so
// it survives the tab being hidden and a window reload; `view` is what the extension last sent and
// the forms open on the page, rebuilt from the extension's messages after a reload.
import type { ChecklistEntry, ReviewDetail, ReviewListItem, ReviewOutcome, ReviewSetup, ToExtension } from './protocol';

declare function acquireVsCodeApi(): {
  postMessage(m: ToExtension): void;
  getState(): unknown;
  setState(s: unknown): void;
};
// The API may be acquired once per page: this module is its only holder.
const vscode = acquireVsCodeApi();

export type Status = 'pending' | 'approved' | 'rejected' | 'all';
export type GroupBy = 'category' | 'dimension' | 'language' | 'none';
export type SortBy = 'confidence' | 'newest' | 'title';

interface PageState {
  status: Status;
  language: string;
  groupBy: GroupBy;
  sortBy: SortBy;
  text: string;
  selectedId?: string;
  checked: string[];
  collapsed: string[];
  /** The workspace folder reviewed: a restored tab reopens on the same folder. */
  folder?: string;
}

const saved = (vscode.getState() ?? {}) as Partial<PageState>;
export const state: PageState = {
  status: 'pending',
  language: '',
  groupBy: 'category',
  sortBy: 'confidence',
  text: '',
  checked: [],
  collapsed: [],
  ...saved,
};

/** An object, not module variables: the modules that change a field import it and assign to it. */
export const view: {
  setup: ReviewSetup | undefined;
  items: ReviewListItem[] | undefined;
  detail: ReviewDetail | undefined;
  detailError: string | undefined;
  outcome: ReviewOutcome | undefined;
  editing: boolean;
  editError: { message: string; field?: string } | undefined;
  rejecting: boolean;
  /** The reason field for the candidate on show (key r), not for a selection. */
  rejectingOne: boolean;
  /** The candidate to show once the list comes back after a decision or an undo. */
  advanceTo: string | undefined;
  /** The checklist as the edit form's current values would leave it (undefined: the saved one). */
  liveChecklist: ChecklistEntry[] | undefined;
  /** The form field to focus when the editor opens (a checklist item's link). */
  editFocus: string | undefined;
  /**
   * What has been typed and not yet sent: the edit form's values and the rejection reason. The page is
   * rebuilt whenever a message arrives (a list refresh, the detail), and typing must survive that.
   */
  editDraft: Record<string, string> | undefined;
  reasonDraft: string;
  busy: boolean;
  /** The live checklist's renderer while the editor is open (the form stays; only the list changes). */
  checklistView: ((list: ChecklistEntry[]) => void) | undefined;
} = {
  setup: undefined,
  items: undefined,
  detail: undefined,
  detailError: undefined,
  outcome: undefined,
  editing: false,
  editError: undefined,
  rejecting: false,
  rejectingOne: false,
  advanceTo: undefined,
  liveChecklist: undefined,
  editFocus: undefined,
  editDraft: undefined,
  reasonDraft: '',
  busy: false,
  checklistView: undefined,
};

export const lang = document.documentElement.lang || 'en';

export function persist(): void {
  vscode.setState(state);
}

export function send(m: ToExtension): void {
  vscode.postMessage(m);
}

let renderPage: () => void = () => {};

/**
 * Rebuilds the whole page. The page's renderer (main.ts) imports every part that asks for a rebuild,
 * so it is handed in here at start-up rather than imported: the parts import this module only.
 */
export function render(): void {
  renderPage();
}

export function setPageRenderer(renderer: () => void): void {
  renderPage = renderer;
}
