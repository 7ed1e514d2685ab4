import type { Truncation } from './types';

/** Room kept for the truncation note itself, so the whole answer stays within the bound. */
const NOTE_ROOM = 400;
/** Cuts tried before giving up; each removes at least the excess from the largest piece. */
const MAX_CUTS = 64;

type Path = (string | number)[];

/**
 * Fits a result into `maxChars` of JSON. A paged array is sliced from `cursor` and says where to go on;
 * then, while the answer is still too large, the largest text or list anywhere in it (nested ones
 * included) is cut: lists between items, text at a paragraph, line or word. Never cuts silently: the
 * returned `truncated` says what was left out. Returns `undefined` data only if nothing can be cut.
 */
export function fitToBound(
  data: unknown,
  maxChars: number,
  pageField?: string,
  cursor?: number,
): { data: unknown; truncated?: Truncation; fits: boolean } {
  let truncated: Truncation | undefined;
  if (pageField && isRecord(data) && Array.isArray(data[pageField])) {
    ({ data, truncated } = page(data, pageField, cursor ?? 0, maxChars));
  }
  if (size(data) <= (truncated ? maxChars - NOTE_ROOM : maxChars)) return { data, truncated, fits: true };

  const budget = maxChars - NOTE_ROOM;
  for (let i = 0; i < MAX_CUTS; i++) {
    const total = size(data);
    if (total <= budget) break;
    const piece = largestPiece(data);
    if (!piece) break;
    const cut = cutPiece(piece.value, piece.size - (total - budget));
    data = replaceAt(data, piece.path, cut.value);
    truncated ??= cut.note(pathName(piece.path));
  }
  return { data, truncated, fits: size(data) <= budget };
}

function page(
  data: Record<string, unknown>,
  field: string,
  cursor: number,
  maxChars: number,
): { data: unknown; truncated?: Truncation } {
  const all = data[field] as unknown[];
  const rest = all.slice(cursor);
  // At least one item per page, even one too large to fit alone (it is cut below): a page of none would never advance.
  const pageOf = (k: number) => ({
    ...data,
    [field]: rest.slice(0, k),
    hasMore: cursor + k < all.length,
    ...(cursor + k < all.length ? { nextCursor: cursor + k } : {}),
  });
  const n = Math.max(Math.min(1, rest.length), fitCount(rest.length, (k) => size(pageOf(k)), maxChars - NOTE_ROOM));
  const more = cursor + n < all.length;
  // The page's position sits inside the data too: callers that read only `data` (an export loop, a
  // model skimming the answer) otherwise take the first page for the whole list.
  const out = pageOf(n);
  if (!more) return { data: out };
  return {
    data: out,
    truncated: {
      field,
      returned: n,
      total: all.length,
      unit: 'items',
      nextCursor: cursor + n,
      hint: `Showing ${field} ${cursor + 1}–${
        cursor + n
      } of ${all.length}. Call again with the same arguments and cursor: ${cursor + n} for the next page.`,
    },
  };
}

/** Largest k in [0, max] with measure(k) <= budget (measure grows with k). */
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

/** The string or array anywhere in `data` whose JSON is largest, with its path: what to cut first. */
function largestPiece(data: unknown): { path: Path; value: string | unknown[]; size: number } | undefined {
  let best: { path: Path; value: string | unknown[]; size: number } | undefined;
  const visit = (v: unknown, path: Path, depth: number): number => {
    let s: number;
    if (typeof v === 'string') s = size(v);
    else if (Array.isArray(v)) {
      s = depth > 64
        ? size(v)
        : 2 + v.reduce((n: number, x, i) => n + visit(x, [...path, i], depth + 1) + (i ? 1 : 0), 0);
    } else if (isRecord(v)) {
      if (depth > 64) return size(v);
      const entries = Object.entries(v).filter(([, x]) => x !== undefined);
      return 2 + entries.reduce((n, [k, x], i) => n + size(k) + 1 + visit(x, [...path, k], depth + 1) + (i ? 1 : 0), 0);
    } else return size(v);
    if ((typeof v === 'string' ? v.length > 0 : v.length > 0) && (!best || s > best.size)) {
      best = { path, value: v, size: s };
    }
    return s;
  };
  visit(data, [], 0);
  return best;
}

/** Cuts a text or a list so its JSON takes at most `target` characters (at least something goes). */
function cutPiece(
  value: string | unknown[],
  target: number,
): { value: string | unknown[]; note: (field: string) => Truncation } {
  if (typeof value === 'string') {
    // Escapes make JSON longer than the text: keep the same share of characters as of JSON.
    const keep = Math.min(
      value.length - 1,
      Math.max(0, Math.floor((value.length * Math.max(0, target - 2)) / size(value))),
    );
    const text = cutText(value, keep);
    return { value: text, note: (field) => textNote(field, text.length, value.length) };
  }
  const n = Math.min(value.length - 1, fitCount(value.length, (k) => size(value.slice(0, k)), Math.max(2, target)));
  return { value: value.slice(0, n), note: (field) => itemsNote(field, n, value.length) };
}

function replaceAt(data: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (Array.isArray(data)) return data.map((x, i) => (i === head ? replaceAt(x, rest, value) : x));
  const record = data as Record<string, unknown>;
  return { ...record, [head]: replaceAt(record[head as string], rest, value) };
}

function pathName(path: Path): string {
  if (path.length === 0) return '(result)';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

function itemsNote(field: string, returned: number, total: number): Truncation {
  return {
    field,
    returned,
    total,
    unit: 'items',
    hint: `Only ${returned} of ${total} ${
      field === '(result)' ? 'items' : field
    } fit in one answer. Narrow the request (a filter, a smaller limit, a more specific query) to see the rest.`,
  };
}

function textNote(field: string, returned: number, total: number): Truncation {
  return {
    field,
    returned,
    total,
    unit: 'chars',
    hint:
      `The text of ${field} was cut at a paragraph boundary after ${returned} of ${total} characters. Ask for a smaller part (a section or a chunk) to read the rest.`,
  };
}

function size(v: unknown): number {
  return JSON.stringify(v)?.length ?? 0;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
