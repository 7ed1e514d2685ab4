import type { Truncation } from './types';

/** Room kept for the truncation note itself, so the whole answer stays within the bound. */
const NOTE_ROOM = 400;

/**
 * Fits a result into `maxChars` of JSON. A paged array is sliced from `cursor` and says where to go on;
 * otherwise the largest top-level array is cut between items, or the largest text between paragraphs
 * (lines if it must). Never cuts silently: the returned `truncated` says what was left out.
 */
export function fitToBound(data: unknown, maxChars: number, pageField?: string, cursor?: number): { data: unknown; truncated?: Truncation } {
  if (pageField && isRecord(data) && Array.isArray(data[pageField])) return page(data, pageField, cursor ?? 0, maxChars);
  if (size(data) <= maxChars) return { data };

  if (typeof data === 'string') {
    const text = cutText(data, maxChars - NOTE_ROOM);
    return { data: text, truncated: textNote('(result)', text.length, data.length) };
  }
  if (Array.isArray(data)) {
    const n = fitCount(data.length, (k) => size(data.slice(0, k)), maxChars - NOTE_ROOM);
    return { data: data.slice(0, n), truncated: itemsNote('(result)', n, data.length) };
  }
  if (!isRecord(data)) return { data };

  const field = largestField(data);
  if (!field) return { data };
  const value = data[field];
  if (Array.isArray(value)) {
    const n = fitCount(value.length, (k) => size({ ...data, [field]: value.slice(0, k) }), maxChars - NOTE_ROOM);
    return { data: { ...data, [field]: value.slice(0, n) }, truncated: itemsNote(field, n, value.length) };
  }
  const rest = size({ ...data, [field]: '' });
  const text = cutText(value as string, Math.max(0, maxChars - NOTE_ROOM - rest));
  return { data: { ...data, [field]: text }, truncated: textNote(field, text.length, (value as string).length) };
}

function page(data: Record<string, unknown>, field: string, cursor: number, maxChars: number): { data: unknown; truncated?: Truncation } {
  const all = data[field] as unknown[];
  const rest = all.slice(cursor);
  const n = fitCount(rest.length, (k) => size({ ...data, [field]: rest.slice(0, k) }), maxChars - NOTE_ROOM);
  const out = { ...data, [field]: rest.slice(0, n) };
  if (cursor + n >= all.length) return { data: out };
  return {
    data: out,
    truncated: {
      field,
      returned: n,
      total: all.length,
      unit: 'items',
      nextCursor: cursor + n,
      hint: `Showing ${field} ${cursor + 1}–${cursor + n} of ${all.length}. Call again with the same arguments and cursor: ${cursor + n} for the next page.`,
    },
  };
}

/** Largest k in [0, max] with measure(k) <= budget (measure grows with k). At least one item when any exists and it fits alone. */
function fitCount(max: number, measure: (k: number) => number, budget: number): number {
  let lo = 0;
  let hi = max;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure(mid) <= budget) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Cuts at the last paragraph break before the budget, else the last line break, else a word. */
export function cutText(text: string, budget: number): string {
  if (text.length <= budget) return text;
  const head = text.slice(0, Math.max(0, budget));
  for (const sep of ['\n\n', '\n', ' ']) {
    const at = head.lastIndexOf(sep);
    if (at > budget * 0.5) return head.slice(0, at);
  }
  return head;
}

function largestField(data: Record<string, unknown>): string | undefined {
  let best: string | undefined;
  let bestSize = 0;
  for (const [k, v] of Object.entries(data)) {
    if (!Array.isArray(v) && typeof v !== 'string') continue;
    const s = size(v);
    if (s > bestSize) [best, bestSize] = [k, s];
  }
  return best;
}

function itemsNote(field: string, returned: number, total: number): Truncation {
  return {
    field,
    returned,
    total,
    unit: 'items',
    hint: `Only ${returned} of ${total} ${field === '(result)' ? 'items' : field} fit in one answer. Narrow the request (a filter, a smaller limit, a more specific query) to see the rest.`,
  };
}

function textNote(field: string, returned: number, total: number): Truncation {
  return {
    field,
    returned,
    total,
    unit: 'chars',
    hint: `The text was cut at a paragraph boundary after ${returned} of ${total} characters. Ask for a smaller part (a section or a chunk) to read the rest.`,
  };
}

function size(v: unknown): number {
  return JSON.stringify(v)?.length ?? 0;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
