// The review page's keys: one decision, one keystroke. Letters act only where they are not typed
// into a field; the edit form has its own keys (Ctrl+Enter saves, Esc cancels).

export type KeyCommand = 'next' | 'previous' | 'approve' | 'reject' | 'edit' | 'undo';

/** What the page reads of a KeyboardEvent (its target: the element with focus). */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  defaultPrevented: boolean;
  target: unknown;
}

interface Focused {
  tagName?: string;
  type?: string;
  isContentEditable?: boolean;
}

const KEYS: Record<string, KeyCommand> = {
  j: 'next',
  ArrowDown: 'next',
  k: 'previous',
  ArrowUp: 'previous',
  a: 'approve',
  r: 'reject',
  e: 'edit',
  u: 'undo',
};

/** The command a key press asks for, or undefined when the key belongs to what has focus. */
export function keyCommand(e: KeyPress): KeyCommand | undefined {
  if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return undefined;
  if (e.target && typesText(e.target as Focused)) return undefined;
  return Object.hasOwn(KEYS, e.key) ? KEYS[e.key] : undefined;
}

/** Text entry, a select and a scrollable code block keep their own keys (arrows scroll the code). */
function typesText(el: Focused): boolean {
  if (el.isContentEditable || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.tagName === 'PRE') return true;
  if (el.tagName !== 'INPUT') return false;
  return !['checkbox', 'radio', 'button', 'submit'].includes(el.type ?? 'text');
}
