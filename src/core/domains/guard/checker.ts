import type * as TS from '@vscode/tree-sitter-wasm';
import { changedSpan, type MaskedText, maskText, remaskText, type TextEdit } from '../../ground/text/mask';
import type { TimeBudget } from './budget';
import type { CompiledRuleSet, RegexTask, Task } from './compile';
import { NeedleIndex, type RawMatch, runRegexTask, runStructuralTask } from './match';
import type { StoppedRule } from './rule';
import type { TreeSitterHost } from './structural';

export interface RunOptions {
  /** Identifies a document across edits (a URI or path); enables incremental re-checks. */
  documentKey?: string;
  /** Re-check only around what changed since the last check of the same document. */
  incremental?: boolean;
  budgetMs: number;
  /**
   * Run regexes that are not proven linear under the watchdog (default). A scan worker turns it off:
   * its whole batch has a deadline, and a worker past it is stopped from outside.
   */
  guarded?: boolean;
}

export interface RunResult {
  matches: RawMatch[];
  masked: MaskedText;
  /** Offsets where lines start, computed on first use (a file without matches never needs them). */
  readonly lineStarts: number[];
  stopped: StoppedRule[];
  incomplete: boolean;
  /** Characters actually re-checked (the whole text, or the window around an edit). */
  checkedChars: number;
}

interface DocumentState {
  setKey: string;
  text: string;
  masked: MaskedText;
  needles: NeedleIndex;
  matches: RawMatch[];
  trees: Map<string, TS.Tree>;
}

/** Characters of built-in regex work small enough to run without the watchdog (an edit's window). */
const SMALL_WINDOW = 16 * 1024;

/** Lines of context re-checked on each side of an edit, for patterns that span lines. */
const MARGIN_LINES = 40;
const MAX_DOCUMENTS = 64;

/**
 * Runs a compiled rule set over a text under a time budget, and keeps what it needs per document to
 * re-check only the lines around an edit: the previous text, its matches and its syntax trees.
 */
export class DocumentChecker {
  private readonly docs = new Map<string, DocumentState>();
  /** Rules stopped by the budget on a document, skipped there until the rules change. */
  private readonly benched = new Map<string, Set<number>>();

  constructor(private readonly budget: TimeBudget, private readonly treeSitter: TreeSitterHost) {}

  run(set: CompiledRuleSet, setKey: string, text: string, opts: RunOptions): RunResult {
    // A text no rule can match (it holds none of their needles) and no document to remember: the
    // most files of a scan. Nothing is masked or searched; the masked text is made only if asked for.
    if (opts.documentKey === undefined && set.needles && !set.needles.some((n) => text.includes(n))) {
      return untouched(text, set.language);
    }
    const deadline = performance.now() + opts.budgetMs;
    let starts: number[] | undefined;
    const lineStarts = () => (starts ??= computeLineStarts(text));
    const key = opts.documentKey;
    const prev = key !== undefined ? this.docs.get(key) : undefined;
    // While typing, only the lines around the edit are lexed again; a file opened or saved is masked whole.
    const changed: { edit?: Edit } = {};
    const masked = opts.incremental && prev && prev.setKey === setKey
      ? remaskText(prev, text, set.language, changed)
      : maskText(text, set.language, { forRemask: key !== undefined });
    const bench = key !== undefined ? this.benched.get(`${setKey}\u0000${key}`) : undefined;

    let from = 0;
    let to = text.length;
    let kept: RawMatch[] = [];
    let edit: Edit | undefined;
    if (opts.incremental && prev && prev.setKey === setKey) {
      // Re-masking found where the text and its mask changed; else compare both.
      edit = prev.text === text
        ? undefined
        : (changed.edit ?? changedSpan(prev.text, text, prev.masked.code, masked.code));
      const window = edit && editWindow(edit, prev.matches, lineStarts(), text.length);
      if (window) {
        ({ from, to } = window);
        kept = window.kept;
      } else if (!edit) {
        from = to = 0;
        kept = prev.matches;
      }
    }

    const matches: RawMatch[] = [];
    const stopped: StoppedRule[] = [];
    let incomplete = false;
    // Results without a stopped regex rule stay consistent (that rule is benched from now on);
    // a stopped parse or query leaves partial matches, which must not seed an incremental check.
    let storable = true;
    const regexTasks = set.tasks.filter((t, i) => t.kind === 'regex' && !bench?.has(i)) as RegexTask[];
    for (const i of bench ?? []) {
      stopped.push(
        ...stopReport(
          set,
          set.tasks[i],
          opts.budgetMs,
          'skipped on this document: it ran past the time budget here before',
        ),
      );
      incomplete = true;
    }
    // Needles found in the previous version's unchanged text are not searched for again.
    const needles = new NeedleIndex(
      text,
      edit && prev
        ? { index: prev.needles, ...edit }
        : !edit && prev?.text === text
        ? { index: prev.needles, start: text.length, oldEnd: text.length, newEnd: text.length }
        : undefined,
    );
    const input = { raw: text, masked, has: (n: string) => needles.has(n) };
    const runTask = (task: RegexTask) => {
      const local: RawMatch[] = [];
      runRegexTask(task, set, input, from, to, local);
      for (const m of local) matches.push(m);
    };
    // Proven-linear regexes run as they are, and so does every regex when the caller keeps its own
    // deadline, or built-in ones (never worse than quadratic, a test holds them to it) on the few
    // lines around an edit. The rest run under the watchdog, the only thing that stops a
    // backtracking regex, at the price of a thread per call.
    const small = to - from <= SMALL_WINDOW;
    const free = (t: RegexTask) => opts.guarded === false || t.linear || (small && t.trusted);
    const watched = regexTasks.filter((t) => !free(t));
    if (from < to) { for (const t of regexTasks) if (free(t)) runTask(t); }
    let next = 0;
    let current = -1;
    while (from < to && next < watched.length) {
      const remaining = deadline - performance.now();
      current = -1;
      const finished = this.budget.run(() => {
        for (; next < watched.length; next++) {
          current = next;
          runTask(watched[next]);
        }
      }, remaining / 2);
      if (finished) break;
      if (current === -1) {
        // No time was left to start the next rule: the rest are reported as not run. (Blaming the last
        // slow rule again, as if it had run, would loop here for ever.)
        for (const t of watched.slice(next)) {
          stopped.push(
            ...stopReport(
              set,
              t,
              opts.budgetMs,
              'not run: the time budget of this check was used up by slower rules',
              'unstarted',
            ),
          );
        }
        incomplete = true;
        break;
      }
      const slow = watched[current];
      stopped.push(...stopReport(set, slow, opts.budgetMs));
      if (key !== undefined) this.benchTask(`${setKey}\u0000${key}`, set.tasks.indexOf(slow));
      incomplete = true;
      next = current + 1;
    }

    const trees = new Map<string, TS.Tree>();
    // Where each grammar's queries must run again: the edit's window, widened to the syntax the edit
    // changed (a slash or a quote can re-shape the tree far below the lines around it).
    const reach = new Map<string, { from: number; to: number }>();
    for (const [i, task] of set.tasks.entries()) {
      if (task.kind !== 'structural' || bench?.has(i)) continue;
      if (task.prefilter && !task.prefilter.test(masked.code)) continue;
      let tree = trees.get(task.grammar);
      if (!tree && prev && prev.setKey === setKey && prev.text === text) tree = prev.trees.get(task.grammar);
      if (tree) trees.set(task.grammar, tree);
      if (!tree) {
        let old = prev?.setKey === setKey ? prev.trees.get(task.grammar) : undefined;
        if (old && edit) {
          old = old.copy();
          old.edit(toTreeEdit(edit, prev!.text, lineStarts()));
        }
        tree = this.treeSitter.parse(task.grammar, text, edit ? old : undefined, deadline);
        if (tree && from < to) {
          reach.set(
            task.grammar,
            old && edit
              ? widened(tree.getChangedRanges(old), from, to, lineStarts(), text.length)
              : { from: 0, to: text.length },
          );
        }
        if (old && old !== prev?.trees.get(task.grammar)) old.delete();
        if (!tree) {
          incomplete = true;
          storable = false;
          stopped.push(
            ...stopReport(
              set,
              task,
              opts.budgetMs,
              this.treeSitter.isReady(task.grammar) ? undefined : 'the parser is still loading',
            ),
          );
          continue;
        }
        trees.set(task.grammar, tree);
      }
      let [qFrom, qTo] = [from, to];
      const wide = reach.get(task.grammar);
      if (wide && (wide.from < from || wide.to > to)) {
        // The task's earlier matches in the wider reach are found again; one that reaches into it from before is too.
        const own = new Set(task.ruleOfPattern);
        if (kept.some((m) => own.has(m.rule) && m.start < wide.from && m.end > wide.from)) {
          [qFrom, qTo] = [0, text.length];
        } else [qFrom, qTo] = [wide.from, wide.to];
        kept = kept.filter((m) => !own.has(m.rule) || m.start < qFrom || m.start >= qTo);
      }
      if (qFrom < qTo && !runStructuralTask(task, tree, qFrom, qTo, deadline, matches)) {
        incomplete = true;
        storable = false;
        stopped.push(...stopReport(set, task, opts.budgetMs));
      }
    }

    needles.settle();
    const all = kept.length ? mergeSorted(kept, matches) : matches.sort(byStart);
    if (key !== undefined) {
      if (prev) { for (const [g, t] of prev.trees) if (trees.get(g) !== t) t.delete(); }
      this.docs.delete(key);
      if (storable) this.docs.set(key, { setKey, text, masked, needles, matches: all, trees });
      else for (const t of trees.values()) t.delete();
      this.evict();
    } else {
      for (const t of trees.values()) t.delete();
    }
    return {
      matches: all,
      masked,
      stopped,
      incomplete,
      checkedChars: Math.max(0, to - from),
      get lineStarts() {
        return lineStarts();
      },
    };
  }

  forget(documentKey: string): void {
    const d = this.docs.get(documentKey);
    if (d) { for (const t of d.trees.values()) t.delete(); }
    this.docs.delete(documentKey);
  }

  clear(): void {
    for (const key of [...this.docs.keys()]) this.forget(key);
    this.benched.clear();
  }

  private benchTask(key: string, taskIndex: number): void {
    let s = this.benched.get(key);
    if (!s) this.benched.set(key, s = new Set());
    s.add(taskIndex);
  }

  private evict(): void {
    while (this.docs.size > MAX_DOCUMENTS) {
      const oldest = this.docs.keys().next().value as string;
      this.forget(oldest);
    }
  }
}

/** The result for a text nothing was searched in: no matches, the masked text and line starts on demand. */
function untouched(text: string, language: string): RunResult {
  let masked: MaskedText | undefined;
  let starts: number[] | undefined;
  return {
    matches: [],
    stopped: [],
    incomplete: false,
    checkedChars: 0,
    get masked() {
      return (masked ??= maskText(text, language));
    },
    get lineStarts() {
      return (starts ??= computeLineStarts(text));
    },
  };
}

function stopReport(
  set: CompiledRuleSet,
  task: Task,
  budgetMs: number,
  why?: string,
  reason: StoppedRule['reason'] = 'budget',
): StoppedRule[] {
  const ids = task.kind === 'regex'
    ? task.members.map((m) => set.rules[m.index].id)
    : [set.rules[task.ruleOfPattern[0]].id];
  return ids.map((ruleId) => ({
    ruleId,
    reason,
    detail: why
      ?? `stopped after running past the ${budgetMs} ms budget for this check; it is skipped for this document until the rules change`,
  }));
}

export function computeLineStarts(text: string): number[] {
  const starts = [0];
  let i = -1;
  while ((i = text.indexOf('\n', i + 1)) !== -1) starts.push(i + 1);
  return starts;
}

/** Index of the line containing `offset` (0-based). */
export function lineOf(lineStarts: number[], offset: number): number {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineStarts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The changed span: [start, oldEnd) before the edit, [start, newEnd) after. */
type Edit = TextEdit;

/**
 * The window to re-check (whole lines around the edit plus a margin) and the previous matches that
 * stay valid: those before the window that end in unchanged text, and those after it, shifted.
 * Undefined when a previous match straddles the edit in a way the window cannot re-find.
 */
function editWindow(
  edit: Edit,
  old: RawMatch[],
  lineStarts: number[],
  length: number,
): { from: number; to: number; kept: RawMatch[] } | undefined {
  const firstLine = Math.max(0, lineOf(lineStarts, edit.start) - MARGIN_LINES);
  const lastLine = lineOf(lineStarts, edit.newEnd) + MARGIN_LINES + 1;
  const from = lineStarts[firstLine];
  const to = lastLine < lineStarts.length ? lineStarts[lastLine] : length;
  const delta = edit.newEnd - edit.oldEnd;
  const toOld = to - delta;
  const kept: RawMatch[] = [];
  for (const m of old) {
    if (m.start < from) {
      if (m.end > edit.start) return undefined;
      kept.push(m);
    } else if (m.start >= toOld) {
      kept.push({ ...m, start: m.start + delta, end: m.end + delta });
    }
  }
  return { from, to, kept };
}

/** The window [from, to) grown to whole lines around the ranges whose syntax changed. */
function widened(
  ranges: readonly TS.Range[],
  from: number,
  to: number,
  lineStarts: number[],
  length: number,
): { from: number; to: number } {
  for (const r of ranges) {
    from = Math.min(from, lineStarts[lineOf(lineStarts, r.startIndex)]);
    const next = lineOf(lineStarts, Math.max(r.startIndex, r.endIndex - 1)) + 1;
    to = Math.max(to, next < lineStarts.length ? lineStarts[next] : length);
  }
  return { from, to };
}

function toTreeEdit(edit: Edit, oldText: string, newLineStarts: number[]): TS.Edit {
  // Rows from the new text's line starts; the old end's row is the start's plus the lines the edit removed.
  const point = (row: number, lineStart: number, offset: number) => ({ row, column: offset - lineStart });
  const startRow = lineOf(newLineStarts, edit.start);
  const newEndRow = lineOf(newLineStarts, edit.newEnd);
  let oldEndRow = startRow;
  let oldLineStart = newLineStarts[startRow];
  for (let i = oldText.indexOf('\n', edit.start); i !== -1 && i < edit.oldEnd; i = oldText.indexOf('\n', i + 1)) {
    oldEndRow++;
    oldLineStart = i + 1;
  }
  return {
    startIndex: edit.start,
    oldEndIndex: edit.oldEnd,
    newEndIndex: edit.newEnd,
    startPosition: point(startRow, newLineStarts[startRow], edit.start),
    oldEndPosition: point(oldEndRow, oldLineStart, edit.oldEnd),
    newEndPosition: point(newEndRow, newLineStarts[newEndRow], edit.newEnd),
  } as TS.Edit;
}

const byStart = (a: RawMatch, b: RawMatch) => a.start - b.start || a.rule - b.rule;

function mergeSorted(a: RawMatch[], b: RawMatch[]): RawMatch[] {
  return [...a, ...b].sort(byStart);
}
