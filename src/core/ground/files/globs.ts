import picomatch from 'picomatch';

/**
 * Workspace-relative path globs, compiled once. A glob without a slash matches a file or folder name
 * at any depth, like a `.gitignore` line (`*.min.js`, `generated`).
 */
export class GlobSet {
  private readonly match: (p: string) => boolean;
  readonly empty: boolean;

  constructor(globs: readonly string[]) {
    this.empty = globs.length === 0;
    const matchers = globs.map((g) => picomatch(g.replace(/^\.\//, ''), { dot: true }));
    const basenames = globs.filter((g) => !g.includes('/')).map((g) => picomatch(g, { dot: true }));
    this.match = (p) => matchers.some((m) => m(p)) || basenames.some((m) => p.split('/').some((seg) => m(seg)));
  }

  has(relPath: string): boolean {
    return !this.empty && this.match(relPath.replace(/\\/g, '/'));
  }
}
