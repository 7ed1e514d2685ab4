import { COMMENT, type MaskedText } from '../../ground/text/mask';

/** `autosnippet-guard-disable-next-line id1, id2 -- why` and `…-disable-line`, in comments only. */
const DISABLE = /autosnippet-guard-disable-(next-line|line)\b([^\n]*)/g;

export const DISABLE_NEXT_LINE = 'autosnippet-guard-disable-next-line';

/** Line (0-based) → rule ids disabled there, or '*' for all rules. */
export type InlineDisables = Map<number, Set<string> | '*'>;

export function inlineDisables(
  text: string,
  masked: MaskedText,
  lineOfOffset: (offset: number) => number,
): InlineDisables {
  const out: InlineDisables = new Map();
  if (!text.includes('autosnippet-guard-disable')) return out;
  DISABLE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = DISABLE.exec(text)) !== null) {
    if (masked.kinds[m.index] !== COMMENT) continue;
    const line = lineOfOffset(m.index) + (m[1] === 'next-line' ? 1 : 0);
    const spec = m[2].split('--')[0].replace(/\*\/.*$/, '');
    const ids = spec.split(/[\s,]+/).filter(Boolean);
    const existing = out.get(line);
    if (ids.length === 0 || existing === '*') {
      out.set(line, '*');
      continue;
    }
    const set = existing ?? new Set<string>();
    for (const id of ids) set.add(id);
    out.set(line, set);
  }
  return out;
}

export function isDisabled(disables: InlineDisables, line: number, ruleId: string): boolean {
  const d = disables.get(line);
  return d !== undefined && (d === '*' || d.has(ruleId));
}

export { GlobSet } from '../../ground/files/globs';
