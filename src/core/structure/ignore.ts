import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

/**
 * Folders never worth reading for structure or knowledge: dependencies, build output, caches and
 * tool state. The coldstart skill lists the same ones as "never learn from".
 */
export const ALWAYS_SKIPPED_DIRS = new Set([
  'node_modules', 'bower_components', 'jspm_packages', '.git', '.hg', '.svn', '.autosnippet',
  'dist', 'build', 'out', 'DerivedData', 'Pods', 'Carthage', '.build', '.swiftpm', 'vendor',
  '.gradle', '.idea', '.venv', 'venv', '__pycache__', '.tox', '.mypy_cache', '.pytest_cache',
  'coverage', '.nyc_output', '.next', '.nuxt', '.turbo', '.cache', '.parcel-cache', '.terraform',
]);

/** Folders that are build output only beside the manifest that produces them. */
const OUTPUT_BESIDE: Record<string, string[]> = { target: ['Cargo.toml', 'pom.xml'] };

/** Hidden folders still worth reading (agent instructions, workflows). */
const HIDDEN_KEPT = new Set(['.github']);

/**
 * The project's `.gitignore` files (the root one, nested ones, `.git/info/exclude`) plus the folders
 * above. Nested files are read as the walk reaches their folder, and each applies to paths below it.
 */
export class WorkspaceIgnore {
  private readonly byDir = new Map<string, Ignore | null>();

  constructor(private readonly root: string) {
    const rootRules = ignore();
    let any = false;
    for (const f of ['.gitignore', path.join('.git', 'info', 'exclude')]) {
      const text = readText(path.join(root, f));
      if (text !== undefined) {
        rootRules.add(text);
        any = true;
      }
    }
    this.byDir.set('', any ? rootRules : null);
  }

  /** Whether a folder (workspace-relative, `/` separators) is skipped. */
  skipsDir(rel: string): boolean {
    const name = rel.slice(rel.lastIndexOf('/') + 1);
    if (ALWAYS_SKIPPED_DIRS.has(name)) return true;
    if (name.startsWith('.') && !HIDDEN_KEPT.has(name)) return true;
    const beside = OUTPUT_BESIDE[name];
    if (beside?.some((m) => existsSync(path.join(this.root, path.dirname(rel), m)))) return true;
    return this.ignored(rel, true);
  }

  skipsFile(rel: string): boolean {
    return this.ignored(rel, false);
  }

  private ignored(rel: string, isDir: boolean): boolean {
    const parts = rel.split('/');
    for (let depth = parts.length - 1; depth >= 0; depth--) {
      const dir = parts.slice(0, depth).join('/');
      const rules = this.rulesFor(dir);
      if (!rules) continue;
      const sub = parts.slice(depth).join('/') + (isDir ? '/' : '');
      const r = rules.test(sub);
      if (r.ignored) return true;
      if (r.unignored) return false;
    }
    return false;
  }

  private rulesFor(dir: string): Ignore | null {
    let rules = this.byDir.get(dir);
    if (rules === undefined) {
      const text = readText(path.join(this.root, dir, '.gitignore'));
      rules = text === undefined ? null : ignore().add(text);
      this.byDir.set(dir, rules);
    }
    return rules;
  }
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
