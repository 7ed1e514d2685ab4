/**
 * What a person does with a stale or moved recipe: look at the cited lines then and now, and accept
 * the update — the references move to where the lines are now and fresh fingerprints are recorded.
 * Nothing here runs on its own: the check only proposes, a person accepts.
 */
import path from 'node:path';
import { parseFrontMatter, readRepoFile } from '../../ground/files';
import { AutoSnippetError, ErrorCode } from '../../ground/kernel/errors';
import { escapeRegExp } from '../../ground/kernel/names';
import type { Workspace } from '../../ground/workspace';
import { CachedSourceAccess, freshnessTracker } from './freshness';
import { checkRecipe, type RecipeFreshness, type SourceFreshness } from './freshness-check';
import { computeFingerprints, parseSourceRef, type SourceRef, SourceText } from './freshness-fingerprint';
import { fileHistory } from './freshness-git';
import { contentHash, normalizeText, parseRecipeFile, patchFrontmatter } from './recipe-file';
import { syncRecipes } from './recipe-index';
import { assertOwnRecipe, resolveRecipeRow, writeFileAtomic } from './recipes';
import type { Recipe } from './types';

const CONTEXT_LINES = 3;
const MAX_SIDE_LINES = 200;

/** One side of a change: some lines of a file (or of the recipe), with where they start. */
export interface ChangeSide {
  /** Where the text comes from: a file path, `recipe excerpt`, or `git <commit>`. */
  origin: string;
  startLine: number;
  text: string;
}

/** The cited lines then (as recorded) and now, for a person to compare. */
export interface SourceChange {
  source: string;
  state: SourceFreshness['state'] | 'excerpt';
  message: string;
  /** Undefined when the recorded lines can no longer be found (no excerpt holds them, no git history). */
  then?: ChangeSide;
  now?: ChangeSide;
}

/** The recipe and its verdict, computed now (not from the tracker's cache). */
export async function checkRecipeNow(ws: Workspace, recipe: Recipe): Promise<RecipeFreshness> {
  return checkRecipe({
    id: recipe.id,
    sources: recipe.sourceFiles ?? [],
    fingerprints: recipe.fingerprints,
    code: recipe.code,
  }, new CachedSourceAccess(ws.root));
}

/**
 * Then and now for every source that is not fresh, and for the excerpt when it changed. Both sides
 * cover the same span: the recorded lines with the context "then" has (the whole excerpt, or a few
 * lines of an earlier version), and the same span around where the lines are now.
 */
export async function describeChanges(
  ws: Workspace,
  recipe: Recipe,
  verdict: RecipeFreshness,
): Promise<SourceChange[]> {
  const access = new CachedSourceAccess(ws.root);
  const out: SourceChange[] = [];
  for (const s of verdict.sources) {
    if (s.state === 'fresh' || s.state === 'untracked' || s.state === 'unreadable') continue;
    const ref = parseSourceRef(s.source);
    if (!ref || ref.start === undefined) {
      out.push({ source: s.source, state: s.state, message: s.message });
      continue;
    }
    const recorded = recipe.fingerprints?.sources?.[s.source];
    const then = recorded ? await recordedLines(ws, recipe, ref, recorded) : undefined;
    // Now: where the lines moved to, or the same lines of the file (renamed or not).
    const nowRef = (s.movedTo ? parseSourceRef(s.movedTo) : ref) ?? ref;
    const nowRead = await access.read(nowRef.path);
    const before = then?.before ?? CONTEXT_LINES;
    const after = then?.after ?? CONTEXT_LINES;
    const now = nowRead.ok
      ? side(
        nowRef.path,
        nowRead.text,
        (nowRef.start ?? ref.start) - before,
        (nowRef.end ?? nowRef.start ?? ref.start) + after,
      )
      : undefined;
    out.push({
      source: s.source,
      state: s.state,
      message: s.message,
      ...(then ? { then: then.side } : {}),
      ...(now ? { now } : {}),
    });
  }
  // The excerpt on its own, unless a source's change already shows it as "then".
  if (verdict.excerpt?.state === 'changed' && recipe.code && !out.some((c) => c.then?.origin === EXCERPT)) {
    const refs = (recipe.sourceFiles ?? []).map(parseSourceRef).filter((r): r is SourceRef =>
      !!r && r.start !== undefined
    );
    const excerpt = new SourceText(recipe.code);
    // Align on a cited line the excerpt holds; else start at the first cited line.
    const anchor =
      refs.map((r) => ({ r, at: excerptOffset(excerpt, recipe.fingerprints?.sources?.[r.raw], r) })).find((x) => x.at)
        ?? (refs[0] ? { r: refs[0], at: undefined } : undefined);
    const read = anchor ? await access.read(anchor.r.path) : undefined;
    const first = anchor ? anchor.r.start! - (anchor.at ? anchor.at.start - 1 : 0) : 1;
    const now = read?.ok && anchor
      ? side(anchor.r.path, read.text, first, first + excerpt.lines.length - 1)
      : undefined;
    out.push({
      source: anchor?.r.raw ?? 'code',
      state: 'excerpt',
      message: verdict.excerpt.message,
      then: { origin: EXCERPT, startLine: 1, text: cap(recipe.code) },
      ...(now ? { now } : {}),
    });
  }
  return out;
}

const EXCERPT = 'recipe excerpt';

function excerptOffset(
  excerpt: SourceText,
  recorded: string | undefined,
  ref: SourceRef,
): { start: number; end: number } | undefined {
  if (!recorded || ref.start === undefined) return undefined;
  return excerpt.findBlock(recorded, (ref.end ?? ref.start) - ref.start + 1, 1);
}

/**
 * The recorded lines of a source, found again: in the recipe's own excerpt (the code was copied from
 * there), or in the file's git history (the newest version whose lines there hash as recorded); with
 * how many lines of context "then" shows before and after them.
 */
async function recordedLines(
  ws: Workspace,
  recipe: Recipe,
  ref: SourceRef,
  recorded: string,
): Promise<{ side: ChangeSide; before: number; after: number } | undefined> {
  const start = ref.start!;
  const end = ref.end ?? start;
  if (recipe.code) {
    const excerpt = new SourceText(recipe.code);
    const at = excerptOffset(excerpt, recorded, ref);
    if (at) {
      return {
        side: { origin: EXCERPT, startLine: 1, text: cap(recipe.code) },
        before: at.start - 1,
        after: excerpt.lines.length - at.end,
      };
    }
  }
  for await (const version of fileHistory(ws.root, ref.path)) {
    const text = new SourceText(version.text);
    const at = text.hashAt(start, end) === recorded ? { start, end } : text.findBlock(recorded, end - start + 1, start);
    if (!at) continue;
    const before = Math.min(CONTEXT_LINES, at.start - 1);
    const after = Math.min(CONTEXT_LINES, text.lines.length - at.end);
    return { side: side(`git ${version.commit.slice(0, 7)}`, text, at.start - before, at.end + after), before, after };
  }
  return undefined;
}

function side(origin: string, text: SourceText, from: number, end: number): ChangeSide {
  const start = Math.max(1, from);
  const last = Math.min(text.lines.length, end, start + MAX_SIDE_LINES - 1);
  return { origin, startLine: start, text: text.text(start, last) };
}

function cap(code: string): string {
  const lines = code.split('\n');
  return lines.length > MAX_SIDE_LINES
    ? lines.slice(0, MAX_SIDE_LINES).join('\n') + `\n… (${lines.length - MAX_SIDE_LINES} more lines)`
    : code;
}

export interface AcceptResult {
  id: string;
  file: string;
  /** References rewritten to where the lines are now. */
  moved: { from: string; to: string }[];
  /** Sources whose fingerprint was recorded (again). */
  recorded: string[];
  /** Whether the code excerpt is tracked after the update. */
  excerptTracked: boolean;
  freshness: RecipeFreshness['freshness'];
}

/**
 * Accepts the code a recipe cites as it is now: references that moved are rewritten (frontmatter
 * `sources` and the body's source list), and every source and the excerpt get a fresh fingerprint.
 * The file is written only if nobody changed it meanwhile.
 */
export async function acceptFreshnessUpdate(ws: Workspace, ref: string): Promise<AcceptResult> {
  const row = await resolveRecipeRow(ws, ref);
  assertOwnRecipe(row, 'updated');
  const abs = path.join(ws.root, row.file);
  const original = (await readRepoFile(ws.root, row.file, { kind: 'recipe' })).text;
  const parsed = parseRecipeFile(original, row.file);
  if (!parsed.ok) {
    throw new AutoSnippetError(
      ErrorCode.InvalidRecipeFile,
      `${row.file} cannot be read: ${parsed.problems.map((p) => p.message).join(' ')}`,
      'Fix the file first.',
      { problems: parsed.problems },
    );
  }
  const verdict = await checkRecipeNow(ws, parsed.recipe);
  const moved = verdict.sources.filter((s) => s.movedTo && s.movedTo !== s.source).map((s) => ({
    from: s.source,
    to: s.movedTo!,
  }));
  const rewritten = rewriteSources(normalizeText(original), moved);
  const reparsed = parseRecipeFile(rewritten, row.file);
  if (!reparsed.ok) {
    throw new AutoSnippetError(
      ErrorCode.Internal,
      `Rewriting the sources of ${row.file} made it unreadable.`,
      'Edit the sources by hand; nothing was written.',
    );
  }
  const fingerprints = await computeFingerprints(ws.root, reparsed.recipe);
  const text = patchFrontmatter(rewritten, { fingerprints });
  if (contentHash((await readRepoFile(ws.root, row.file, { kind: 'recipe' })).text) !== contentHash(original)) {
    throw new AutoSnippetError(
      ErrorCode.Conflict,
      `${row.file} changed while the update was prepared.`,
      'Check the recipe again and accept once more.',
    );
  }
  await writeFileAtomic(abs, text);
  await syncRecipes(ws);
  const after = await checkRecipeNow(ws, { ...reparsed.recipe, fingerprints });
  await freshnessTracker(ws).refresh();
  return {
    id: row.id,
    file: row.file,
    moved,
    recorded: Object.keys(fingerprints?.sources ?? {}),
    excerptTracked: !!fingerprints?.code,
    freshness: after.freshness,
  };
}

/**
 * Replaces each moved reference in the frontmatter's `sources` and in list items of the body (the
 * `## Sources` section writes them as `- [path:line](../../path#Lline)`), link targets included.
 */
export function rewriteSources(text: string, moves: { from: string; to: string }[]): string {
  if (moves.length === 0) return text;
  let out = text;
  const fm = parseFrontMatter(out);
  const listed = fm.ok ? fm.value.data.sources : undefined;
  if (listed !== undefined) {
    const map = new Map(moves.map((m) => [m.from, m.to]));
    const list = typeof listed === 'string'
      ? listed.split(',').map((s) => s.trim())
      : Array.isArray(listed)
      ? listed.map(String)
      : [];
    out = patchFrontmatter(out, { sources: list.map((s) => map.get(s) ?? s) });
  }
  const bodyStart = /^---[ \t]*\n/.test(out) ? out.indexOf('\n---', 3) + 4 : 0;
  const head = out.slice(0, bodyStart);
  const body = out.slice(bodyStart).split('\n').map((line) => {
    if (!/^\s*[-*+]\s/.test(line)) return line;
    let l = line;
    for (const m of moves) {
      if (!l.includes(m.from)) continue;
      l = replaceWhole(l, m.from, m.to);
      const from = parseSourceRef(m.from);
      const to = parseSourceRef(m.to);
      // A link target is relative to the recipe file, so the path stands after a `/` there.
      if (from && to) {
        l = replaceWhole(l, anchor(from.path, from.start, from.end), anchor(to.path, to.start, to.end), /[(/]/);
      }
    }
    return l;
  });
  return head + body.join('\n');
}

/** Replaces `from` where it stands on its own (`a.ts:1` is not the start of `a.ts:12`), after `before` if given. */
function replaceWhole(line: string, from: string, to: string, before?: RegExp): string {
  const escaped = escapeRegExp(from);
  const lead = before ? `(?<=${before.source})` : '(?<![\\w./-])';
  return line.replace(new RegExp(`${lead}${escaped}(?![\\w-])`, 'g'), () => to);
}

function anchor(file: string, start?: number, end?: number): string {
  return `${encodeURI(file)}${
    start !== undefined ? `#L${start}${end !== undefined && end > start ? `-L${end}` : ''}` : ''
  }`;
}
