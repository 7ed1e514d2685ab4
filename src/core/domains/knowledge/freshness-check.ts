/**
 * One recipe against the code it cites: per source, whether the cited lines are as recorded, moved
 * (same lines elsewhere in the file, or the file renamed), changed or gone; and whether the recipe's
 * code excerpt still appears in a cited file. Pure over an `SourceAccess` (how files are read and
 * where git says a file went), so the tracker, the accept step and tests share it.
 */
import {
  formatSourceRef,
  hashLines,
  parseSourceRef,
  type SourceRead,
  type SourceRef,
  splitLines,
} from './freshness-fingerprint';
import type { Fingerprints } from './types';

export type SourceState = 'fresh' | 'moved' | 'changed' | 'deleted' | 'untracked' | 'unreadable';
export type Freshness = 'fresh' | 'stale' | 'moved' | 'untracked';

export interface SourceFreshness {
  /** The source as the recipe writes it. */
  source: string;
  state: SourceState;
  /** What happened, for a person and an agent. */
  message: string;
  /** The reference to the same lines now (moved lines, a renamed file): what accepting the update writes. */
  movedTo?: string;
}

export interface ExcerptFreshness {
  state: 'fresh' | 'changed' | 'untracked';
  message: string;
  /** Where the excerpt is now, as `path:start-end`. */
  foundAt?: string;
}

export interface RecipeFreshness {
  id: string;
  freshness: Freshness;
  /** One line: the first thing to know. */
  reason: string;
  sources: SourceFreshness[];
  excerpt?: ExcerptFreshness;
}

/** What a check needs of a recipe. */
export interface TrackedRecipe {
  id: string;
  sources: string[];
  fingerprints?: Fingerprints;
  /** The recipe's code, needed only when its excerpt is tracked. */
  code?: string;
}

export interface SourceAccess {
  read(rel: string): Promise<SourceRead>;
  /** Where git (or the working tree) says a missing file went, if anywhere. */
  renamedTo(rel: string, ref: SourceRef, recorded?: string): Promise<string | undefined>;
}

/** Checks a recipe; every file is read through `access` (which caches within one refresh). */
export async function checkRecipe(recipe: TrackedRecipe, access: SourceAccess): Promise<RecipeFreshness> {
  const sources: SourceFreshness[] = [];
  const readable: string[] = [];
  for (const raw of recipe.sources) {
    const result = await checkSource(raw, recipe.fingerprints?.sources?.[raw], access);
    sources.push(result.state);
    if (result.readFrom) readable.push(result.readFrom);
  }
  const excerpt = await checkExcerpt(recipe, readable, access);
  return { id: recipe.id, ...verdict(sources, excerpt), sources, ...(excerpt ? { excerpt } : {}) };
}

async function checkSource(
  raw: string,
  recorded: string | undefined,
  access: SourceAccess,
): Promise<{ state: SourceFreshness; readFrom?: string }> {
  const ref = parseSourceRef(raw);
  if (!ref) {
    return {
      state: {
        source: raw,
        state: 'unreadable',
        message: `"${raw}" is not a workspace path with a line (path:line): it is not checked.`,
      },
    };
  }
  const read = await access.read(ref.path);
  if (!read.ok && read.reason === 'missing') {
    const renamed = await access.renamedTo(ref.path, ref, recorded);
    if (!renamed) {
      return {
        state: {
          source: raw,
          state: 'deleted',
          message: `${ref.path} no longer exists${recorded ? '' : ' (and no rename was found)'}.`,
        },
      };
    }
    const moved = await access.read(renamed);
    if (!moved.ok) {
      return {
        state: {
          source: raw,
          state: 'deleted',
          message: `${ref.path} was renamed to ${renamed}, which cannot be read.`,
        },
      };
    }
    return { state: locate(raw, ref, recorded, moved.text, renamed), readFrom: renamed };
  }
  if (!read.ok) return { state: { source: raw, state: 'unreadable', message: `${read.problem} It is not checked.` } };
  return { state: locate(raw, ref, recorded, read.text, ref.path), readFrom: ref.path };
}

/** Where the recorded lines of `ref` are in `text` (the file at `file`, which may be its new name). */
function locate(
  raw: string,
  ref: SourceRef,
  recorded: string | undefined,
  text: import('./freshness-fingerprint').SourceText,
  file: string,
): SourceFreshness {
  const renamed = file !== ref.path;
  const renameNote = renamed ? `${ref.path} was renamed to ${file}` : '';
  if (ref.start === undefined) {
    return renamed
      ? { source: raw, state: 'moved', message: `${renameNote}.`, movedTo: file }
      : { source: raw, state: 'fresh', message: `${file} exists.` };
  }
  const start = ref.start;
  const end = ref.end ?? start;
  const sameLines = formatSourceRef(file, start, ref.end);
  if (!recorded) {
    if (end > text.lines.length) {
      return {
        source: raw,
        state: 'changed',
        message: `${
          renamed ? renameNote + ', which' : file
        } has only ${text.lines.length} lines, so line ${end} is gone.`,
        ...(renamed ? { movedTo: sameLines } : {}),
      };
    }
    return renamed
      ? {
        source: raw,
        state: 'moved',
        message: `${renameNote}; no fingerprint was recorded, so the lines are not compared.`,
        movedTo: sameLines,
      }
      : {
        source: raw,
        state: 'untracked',
        message: 'No fingerprint was recorded for it: accept an update to start tracking it.',
      };
  }
  if (text.hashAt(start, end) === recorded) {
    return renamed
      ? { source: raw, state: 'moved', message: `${renameNote}; the cited lines are unchanged.`, movedTo: sameLines }
      : { source: raw, state: 'fresh', message: 'The cited lines are as recorded.' };
  }
  const found = text.findBlock(recorded, end - start + 1, start);
  if (found) {
    const to = formatSourceRef(file, found.start, ref.end !== undefined && ref.end > start ? found.end : undefined);
    const where = found.start === start
      ? `at the same line of ${file}`
      : `to ${found.end > found.start ? `lines ${found.start}-${found.end}` : `line ${found.start}`}`;
    return {
      source: raw,
      state: 'moved',
      message: `${renamed ? renameNote + '; the' : 'The'} cited lines moved ${where}${
        found.matches > 1 ? ` (the nearest of ${found.matches} places with the same lines)` : ''
      }.`,
      movedTo: to,
    };
  }
  const gone = end > text.lines.length ? ` (${file} now has ${text.lines.length} lines)` : '';
  return {
    source: raw,
    state: 'changed',
    message: `${renamed ? renameNote + ', and the' : 'The'} cited ${
      end > start ? `lines ${start}-${end}` : `line ${start}`
    } changed since the recipe recorded ${end > start ? 'them' : 'it'}${gone}.`,
    ...(renamed ? { movedTo: sameLines } : {}),
  };
}

async function checkExcerpt(
  recipe: TrackedRecipe,
  files: string[],
  access: SourceAccess,
): Promise<ExcerptFreshness | undefined> {
  const recorded = recipe.fingerprints?.code;
  if (!recorded || !recipe.code) return undefined;
  if (hashLines(splitLines(recipe.code)) !== recorded) {
    return {
      state: 'untracked',
      message:
        "The recipe's code was edited after it was recorded, so it is not compared with the source: accept an update to track it again.",
    };
  }
  for (const file of files) {
    const read = await access.read(file);
    const at = read.ok ? read.text.findExcerpt(recipe.code) : undefined;
    if (at) {
      return {
        state: 'fresh',
        message: `The recipe's code still appears in ${file}.`,
        foundAt: formatSourceRef(file, at.start, at.end),
      };
    }
  }
  return {
    state: 'changed',
    message: files.length
      ? `The code the recipe shows no longer appears in ${files.join(', ')}.`
      : 'The code the recipe shows was taken from files that are gone.',
  };
}

function verdict(
  sources: SourceFreshness[],
  excerpt: ExcerptFreshness | undefined,
): { freshness: Freshness; reason: string } {
  const stale = sources.find((s) => s.state === 'changed' || s.state === 'deleted');
  if (stale) return { freshness: 'stale', reason: `${stale.source}: ${stale.message}` };
  if (excerpt?.state === 'changed') return { freshness: 'stale', reason: excerpt.message };
  const moved = sources.find((s) => s.state === 'moved');
  if (moved) {
    return {
      freshness: 'moved',
      reason: `${moved.source}: ${moved.message} Accept the update to point the recipe at ${moved.movedTo}.`,
    };
  }
  const checked = sources.some((s) => s.state === 'fresh') || excerpt?.state === 'fresh';
  if (checked) {
    return {
      freshness: 'fresh',
      reason: excerpt?.state === 'fresh'
        ? 'The cited code and the excerpt are as recorded.'
        : 'The cited code is as recorded.',
    };
  }
  if (sources.length === 0) {
    return { freshness: 'untracked', reason: 'The recipe cites no source, so there is nothing to compare.' };
  }
  const unreadable = sources.find((s) => s.state === 'unreadable');
  if (unreadable) return { freshness: 'untracked', reason: `${unreadable.source}: ${unreadable.message}` };
  return {
    freshness: 'untracked',
    reason: 'No fingerprint was recorded for its sources: accept an update to start tracking them.',
  };
}
