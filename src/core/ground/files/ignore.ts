/**
 * The one ignore list: `.gitignore` files (nested ones apply below their folder, deeper ones win,
 * `!` re-includes), `.git/info/exclude`, and the folders never worth reading. Every walker of the
 * workspace (guard, structure, bootstrap) goes through it, so they all see the same files.
 */
import ignore, { type Ignore } from 'ignore';
import { ErrorCode } from '../kernel/errors';
import { lookup } from '../kernel/tables';
import type { FileProblem } from './problems';

/**
 * Folders never read, whatever `.gitignore` says: dependencies, build output, caches and tool state.
 * The cold-start skill lists the same ones as "never learn from".
 */
export const ALWAYS_SKIPPED_DIRS: ReadonlySet<string> = new Set([
  'node_modules',
  'bower_components',
  'jspm_packages',
  '.git',
  '.hg',
  '.svn',
  '.autosnippet',
  'dist',
  'build',
  'out',
  'DerivedData',
  'Pods',
  'Carthage',
  '.build',
  '.swiftpm',
  'vendor',
  '.gradle',
  '.idea',
  '.venv',
  'venv',
  '__pycache__',
  '.tox',
  '.mypy_cache',
  '.pytest_cache',
  'coverage',
  '.nyc_output',
  '.next',
  '.nuxt',
  '.turbo',
  '.cache',
  '.parcel-cache',
  '.terraform',
]);

/** Folders that are build output only beside the manifest that produces them (`target/` of Cargo and Maven). */
const OUTPUT_BESIDE: Readonly<Record<string, readonly string[]>> = { target: ['Cargo.toml', 'pom.xml'] };

/** Hidden folders still worth reading (CI workflows and templates, git hooks, agent instructions). */
const HIDDEN_KEPT: ReadonlySet<string> = new Set(['.github', '.circleci', '.gitlab', '.builds', '.husky']);

/** Why a folder named `name` is never walked, given the names beside it; undefined when it is walked. */
export function skippedFolderReason(name: string, siblings: ReadonlySet<string>): string | undefined {
  if (ALWAYS_SKIPPED_DIRS.has(name)) return 'always skipped (dependencies, build output or tool state)';
  if (name.startsWith('.') && !HIDDEN_KEPT.has(name)) return 'a hidden folder';
  const manifests = lookup(OUTPUT_BESIDE, name)?.filter((m) => siblings.has(m));
  if (manifests?.length) return `build output beside ${manifests.join(', ')}`;
  return undefined;
}

/** Longer lines are not patterns anyone writes (a path is at most 4,096 bytes); each becomes a regex. */
const MAX_LINE = 4096;
/** Each `**` becomes an optional "any folders" group in the regex; five of them backtrack for seconds on a deep path. */
const MAX_GLOBSTARS = 3;
/** Every path is tested against every pattern of the files above it. */
const MAX_PATTERNS = 2000;
const PROBE = 'autosnippet-probe/x';

/** The rules of one `.gitignore` (or `.git/info/exclude`) and what was wrong with its lines. */
export interface IgnoreFile {
  rules: Ignore | undefined;
  problems: FileProblem[];
}

/**
 * Parses an ignore file. A line that is too long, has too many `**`, or does not compile is left
 * out with a problem naming the file and the line; the other lines still apply.
 */
export function parseIgnoreFile(text: string, file: string): IgnoreFile {
  const problems: FileProblem[] = [];
  const dropped = (line: number, why: string) =>
    problems.push({
      path: file,
      code: ErrorCode.InvalidIgnoreLine,
      message: `${file} line ${line}: ${why}; the line is not applied.`,
    });
  const kept: { line: number; pattern: string }[] = [];
  let over = 0;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const pattern = lines[i];
    if (pattern.trim() === '' || pattern.startsWith('#')) continue;
    if (pattern.length > MAX_LINE) dropped(i + 1, `it is ${pattern.length} characters long (at most ${MAX_LINE})`);
    else if ((pattern.match(/\*\*/g)?.length ?? 0) > MAX_GLOBSTARS) {
      dropped(i + 1, `it has more than ${MAX_GLOBSTARS} \`**\``);
    } else if (kept.length >= MAX_PATTERNS) over++;
    else kept.push({ line: i + 1, pattern });
  }
  if (over) {
    problems.push({
      path: file,
      code: ErrorCode.InvalidIgnoreLine,
      message: `${file} has more than ${MAX_PATTERNS} patterns; the last ${over} are not applied.`,
    });
  }
  if (kept.length === 0) return { rules: undefined, problems };
  const all = ignore().add(kept.map((k) => k.pattern));
  if (compiles(all)) return { rules: all, problems };
  // Rare: find the lines that do not compile and leave only those out.
  const good = kept.filter((k) => {
    if (compiles(ignore().add(k.pattern))) return true;
    dropped(k.line, 'it is not a pattern git understands');
    return false;
  });
  return { rules: good.length ? ignore().add(good.map((k) => k.pattern)) : undefined, problems };
}

/** The `ignore` package compiles each pattern into a regex on first use; make that happen here. */
function compiles(rules: Ignore): boolean {
  try {
    rules.ignores(PROBE);
    return true;
  } catch {
    return false;
  }
}

/** The ignore files in effect for a folder: its own and those of the folders above, shallowest first. */
export interface IgnoreScope {
  /** Workspace-relative folder of the ignore file ('' for the root). */
  base: string;
  rules: Ignore;
}

/**
 * Whether `rel` is ignored: the deepest file with an opinion decides (a nested `!pattern` re-includes
 * what a file above ignores), as git does.
 */
export function isIgnored(scopes: readonly IgnoreScope[], rel: string, isDir: boolean): boolean {
  for (let i = scopes.length - 1; i >= 0; i--) {
    const s = scopes[i];
    if (s.base && !rel.startsWith(s.base + '/')) continue;
    const sub = (s.base ? rel.slice(s.base.length + 1) : rel) + (isDir ? '/' : '');
    let r;
    try {
      r = s.rules.test(sub);
    } catch {
      continue; // a name the package refuses as a path (`...`): no pattern applies to it
    }
    if (r.ignored) return true;
    if (r.unignored) return false;
  }
  return false;
}
