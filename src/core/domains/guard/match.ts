import type * as TS from '@vscode/tree-sitter-wasm';
import { COMMENT, type MaskedText, STRING } from '../../ground/text/mask';
import type { CompiledRuleSet, RegexTask, StructuralTask } from './compile';
import { expandTemplate, regexShape } from './regex-source';
import type { GuardRule } from './rule';
import { runQuery } from './structural';

/** A match before filters and positions: offsets into the text and the rule's index. */
export interface RawMatch {
  rule: number;
  start: number;
  end: number;
  fix?: string;
}

export interface MatchInput {
  raw: string;
  masked: MaskedText;
  /** Whether the raw text holds a needle (memoized per check; see `NeedleIndex`). Default: a search of `raw`. */
  has?(needle: string): boolean;
}

/**
 * Whether each needle occurs in a text, found on demand and carried to the next version of a
 * document: a needle seen in text an edit left alone is still there, and one the previous version did
 * not hold can only appear across the edit, so a re-check after a keystroke searches neither the whole
 * text (150 KB searched for each of twenty needles took half a millisecond of it).
 */
export class NeedleIndex {
  /** Per needle: absent, or an occurrence as early (`first`) and one as late (`last`, found when a next version asks) as known. */
  private readonly at = new Map<string, { absent?: true; first?: number; last?: number }>();

  constructor(
    private readonly text: string,
    private previous?: { index: NeedleIndex; start: number; oldEnd: number; newEnd: number },
  ) {}

  /** Lets go of the previous version once this one is checked (else every version of a document would stay reachable). */
  settle(): void {
    this.previous = undefined;
  }

  has(needle: string): boolean {
    let w = this.at.get(needle);
    if (!w) {
      w = this.carried(needle) ?? this.search(needle, 0, this.text.length);
      this.at.set(needle, w);
    }
    return !w.absent;
  }

  private carried(needle: string): { absent?: true; first?: number; last?: number } | undefined {
    const p = this.previous;
    const before = p?.index.at.get(needle);
    if (!p || !before) return undefined;
    const { start, oldEnd, newEnd } = p;
    // Absent before: only text that changed can hold it now.
    if (before.absent) {
      return this.search(
        needle,
        Math.max(0, start - needle.length + 1),
        Math.min(this.text.length, newEnd + needle.length - 1),
      );
    }
    if (before.first !== undefined && before.first + needle.length <= start) return { first: before.first };
    before.last ??= p.index.text.lastIndexOf(needle);
    if (before.last >= oldEnd) return { last: before.last - oldEnd + newEnd };
    return undefined;
  }

  /** Occurrences wholly inside [from, to) (a slice: indexOf alone would run on to the end of the text). */
  private search(needle: string, from: number, to: number): { absent?: true; first?: number } {
    const part = from === 0 && to === this.text.length ? this.text : this.text.slice(from, to);
    const first = part.indexOf(needle);
    return first < 0 ? { absent: true } : { first: from + first };
  }
}

/**
 * Runs one regex task over the window [from, to) of the text (matches start in the window and may end
 * after it). Combined tasks scan once with the alternation; at each position where some alternative
 * matches, the later members are tried there too (sticky), and the scan resumes one character on, so
 * every member finds exactly the matches it would find alone.
 */
export function runRegexTask(
  task: RegexTask,
  set: CompiledRuleSet,
  input: MatchInput,
  from: number,
  to: number,
  out: RawMatch[],
): void {
  const text = task.scope === 'code' ? input.masked.code : input.raw;
  const wanted = task.scope === 'comments' ? COMMENT : task.scope === 'strings' ? STRING : -1;
  const kinds = input.masked.kinds;
  const accept = (index: number, start: number, end: number, sticky: RegExp) => {
    if (wanted >= 0 && kinds[start] !== wanted) return;
    out.push({ rule: index, start, end, fix: fixFor(set.rules[index], sticky, text, input.raw, start, end) });
  };
  // A rule is skipped in a text holding none of its needles (a multi-line or look-behind regex costs
  // more than a substring search); a combined task runs with the members whose needles are there.
  if (!task.combined) {
    const m0 = task.members[0];
    const has = input.has ?? ((n: string) => input.raw.includes(n));
    if (m0.needles && !m0.needles.some(has)) return;
    const re = m0.global;
    re.lastIndex = from;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null && m.index < to) {
      const end = m.index + m[0].length;
      accept(m0.index, m.index, end, m0.sticky);
      if (end === m.index) re.lastIndex++;
    }
    return;
  }
  // Only the members whose needles the text holds take part: fewer alternatives, a faster scan.
  const present = presentMembers(task, input.has ?? ((n: string) => input.raw.includes(n)));
  if (!present) return;
  const re = present.combined!;
  const members = present.members;
  const nextAllowed = new Array<number>(members.length).fill(from);
  re.lastIndex = from;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null && m.index < to) {
    const pos = m.index;
    let first = 0;
    while (first < members.length && m[members[first].group] === undefined) first++;
    if (first < members.length && pos >= nextAllowed[first]) {
      const end = pos + m[members[first].group].length;
      accept(members[first].index, pos, end, members[first].sticky);
      nextAllowed[first] = Math.max(end, pos + 1);
    }
    for (let k = first + 1; k < members.length; k++) {
      if (pos < nextAllowed[k]) continue;
      const s = members[k].sticky;
      s.lastIndex = pos;
      const mk = s.exec(text);
      if (mk) {
        const end = pos + mk[0].length;
        accept(members[k].index, pos, end, s);
        nextAllowed[k] = Math.max(end, pos + 1);
      }
    }
    re.lastIndex = pos + 1;
  }
}

const subsets = new WeakMap<RegexTask, Map<string, RegexTask>>();

/** The combined task narrowed to the members a text can match (by their needles), compiled once per subset; undefined when none can. */
function presentMembers(task: RegexTask, has: (needle: string) => boolean): RegexTask | undefined {
  const keep = task.members.filter((m) => !m.needles || m.needles.some(has));
  if (keep.length === task.members.length) return task;
  if (keep.length === 0) return undefined;
  let cache = subsets.get(task);
  if (!cache) subsets.set(task, cache = new Map());
  const key = keep.map((m) => m.index).join(',');
  let sub = cache.get(key);
  if (!sub) {
    let group = 1;
    const members = keep.map((m) => {
      const moved = { ...m, group };
      group += 1 + regexShape(m.global.source).groups;
      return moved;
    });
    const flags = task.combined!.flags.replace('g', '');
    sub = { ...task, members, combined: new RegExp(keep.map((m) => `(${m.global.source})`).join('|'), flags + 'g') };
    cache.set(key, sub);
  }
  return sub;
}

/** The fix's replacement text, with groups taken from the raw text (the masked one has blanks). */
function fixFor(
  rule: GuardRule,
  sticky: RegExp,
  text: string,
  raw: string,
  start: number,
  end: number,
): string | undefined {
  if (rule.fix === undefined) return undefined;
  if (!/\$/.test(rule.fix)) return rule.fix;
  sticky.lastIndex = start;
  const m = sticky.exec(text) as
    | (RegExpExecArray & {
      indices?: ([number, number] | undefined)[] & { groups?: Record<string, [number, number] | undefined> };
    })
    | null;
  if (!m || !m.indices) return undefined;
  const slice = (ix: [number, number] | undefined) => (ix ? raw.slice(ix[0], ix[1]) : undefined);
  const groups = m.indices.slice(1).map(slice);
  const named: Record<string, string | undefined> = {};
  for (const [k, ix] of Object.entries(m.indices.groups ?? {})) named[k] = slice(ix);
  return expandTemplate(rule.fix, raw.slice(start, end), groups, named);
}

export function runStructuralTask(
  task: StructuralTask,
  tree: TS.Tree,
  from: number,
  to: number,
  deadline: number,
  out: RawMatch[],
): boolean {
  const { matches, complete } = runQuery(task.query, tree, from, to, deadline);
  for (const m of matches) {
    if (m.start >= from && m.start < to) {
      out.push({ rule: task.ruleOfPattern[m.patternIndex], start: m.start, end: m.end });
    }
  }
  return complete;
}
