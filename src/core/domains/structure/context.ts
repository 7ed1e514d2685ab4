import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import { readRepoFile } from '../../ground/files';
import { ErrorCode, isAutoSnippetError } from '../../ground/kernel/errors';
import type { ManifestProblem, Target } from './types';

/** What an ecosystem reader gets: the workspace listing, a reader, and a place for problems. */
export class DiscoveryContext {
  private readonly set: Set<string>;
  private readonly byBase = new Map<string, string[]>();
  private readonly cache = new Map<string, Promise<string | undefined>>();
  readonly problems: ManifestProblem[] = [];
  /** Manifests found outside the listing (in hidden folders a workspace glob names). */
  private readonly extra = new Set<string>();

  constructor(readonly root: string, readonly files: readonly string[]) {
    this.set = new Set(files);
    for (const f of files) {
      const base = f.slice(f.lastIndexOf('/') + 1);
      const list = this.byBase.get(base);
      if (list) list.push(f);
      else this.byBase.set(base, [f]);
    }
  }

  /**
   * Files with this exact base name, shallowest first. Manifests of sample projects (fixtures,
   * examples, testdata, tutorials, a tests folder's inputs) are left out unless asked for: a workspace
   * may still declare them as members.
   */
  named(base: string, includeSamples = false): string[] {
    return [...(this.byBase.get(base) ?? [])].filter((f) =>
      includeSamples || !(isSamplePath(dirOf(f)) || isTestDataPath(dirOf(f)))
    ).sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : 1));
  }

  has(rel: string): boolean {
    return this.set.has(rel) || this.extra.has(rel);
  }

  read(rel: string): Promise<string | undefined> {
    let p = this.cache.get(rel);
    if (!p) {
      p = readRepoFile(this.root, rel, { kind: 'manifest' }).then(
        (f) => f.text,
        (e) => {
          // Readers probe for optional manifests: only a file that exists and cannot be read is a problem.
          if (!isAutoSnippetError(e) || e.code !== ErrorCode.NotFound) this.problem(rel, (e as Error).message);
          return undefined;
        },
      );
      this.cache.set(rel, p);
    }
    return p;
  }

  async readJson(
    rel: string,
    parse: (text: string) => unknown = JSON.parse,
  ): Promise<Record<string, unknown> | undefined> {
    const text = await this.read(rel);
    if (text === undefined) return undefined;
    try {
      const v = parse(text);
      if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
      this.problem(rel, 'the file is not a JSON object');
    } catch (e) {
      this.problem(rel, `not valid JSON: ${(e as Error).message}`);
    }
    return undefined;
  }

  problem(manifest: string, message: string): void {
    this.problems.push({ manifest, message });
  }

  /**
   * Folders (relative to the workspace) under `base` that match workspace globs such as `packages/*`.
   * A glob that names a hidden folder (`examples/.test/*`) matches it, as the package managers do,
   * although the workspace listing leaves hidden folders out: those few are read from the disk.
   */
  async matchDirs(base: string, patterns: string[], manifestName: string): Promise<string[]> {
    const include = patterns.filter((p) => !p.startsWith('!')).map((p) => cleanGlob(p));
    const exclude = patterns.filter((p) => p.startsWith('!')).map((p) => cleanGlob(p.slice(1)));
    if (include.length === 0) return [];
    const yes = picomatch(include, { dot: false });
    const hidden = include.filter((p) =>
      p.split('/').some((seg) => seg.startsWith('.') && seg !== '.' && seg !== '..')
    );
    const yesHidden = hidden.length ? picomatch(hidden, { dot: true }) : () => false;
    const no = exclude.length ? picomatch(exclude, { dot: true }) : () => false;
    const out = new Set<string>();
    const consider = (dir: string) => {
      const rel = relativeTo(base, dir);
      if (rel === undefined || rel === '') return;
      if ((yes(rel) || yesHidden(rel)) && !no(rel)) out.add(dir);
    };
    for (const m of this.named(manifestName, true)) consider(dirOf(m));
    for (const pattern of hidden) {
      for (const dir of await this.expandDirs(base, pattern.split('/'), manifestName)) consider(dir);
    }
    return [...out].sort();
  }

  /** Folders matching a glob segment by segment (`*` and literal names), that hold `manifestName`. */
  private async expandDirs(dir: string, segments: string[], manifestName: string): Promise<string[]> {
    if (segments.length === 0) {
      const manifest = joinRel(dir, manifestName);
      if (!this.has(manifest)) {
        const found = await stat(path.join(this.root, manifest)).then((st) => st.isFile(), () => false);
        if (!found) return [];
        this.extra.add(manifest);
      }
      return [dir];
    }
    const [seg, ...rest] = segments;
    if (seg === '**') return [];
    if (!/[*?[{]/.test(seg)) return this.expandDirs(joinRel(dir, seg), rest, manifestName);
    const match = picomatch(seg, { dot: true });
    let names: string[];
    try {
      names = (await readdir(path.join(this.root, dir), { withFileTypes: true })).filter((e) =>
        e.isDirectory() && e.name !== 'node_modules' && match(e.name)
      ).map((e) => e.name);
    } catch {
      return [];
    }
    const out: string[] = [];
    for (const n of names.sort()) out.push(...(await this.expandDirs(joinRel(dir, n), rest, manifestName)));
    return out;
  }
}

export type Discoverer = (ctx: DiscoveryContext) => Promise<Target[]>;

export function dirOf(rel: string): string {
  const i = rel.lastIndexOf('/');
  return i < 0 ? '' : rel.slice(0, i);
}

export function joinRel(...parts: string[]): string {
  const joined = path.posix.normalize(parts.filter((p) => p !== '' && p !== '.').join('/') || '.');
  return joined === '.' ? '' : joined.replace(/\/$/, '');
}

/** `dir` relative to `base`, or undefined when it is not inside it. */
export function relativeTo(base: string, dir: string): string | undefined {
  if (base === '') return dir;
  if (dir === base) return '';
  return dir.startsWith(base + '/') ? dir.slice(base.length + 1) : undefined;
}

function depth(rel: string): number {
  return rel.split('/').length;
}

function cleanGlob(p: string): string {
  return p.trim().replace(/^\.\//, '').replace(/\/+$/, '');
}

/** 1-based line of the first `needle` at or after `from`; the line of `from` itself when absent. */
export function lineOf(text: string, needle: string | RegExp, from = 0): number {
  let at: number;
  if (typeof needle === 'string') at = text.indexOf(needle, from);
  else {
    const re = new RegExp(needle.source, needle.flags.includes('g') ? needle.flags : needle.flags + 'g');
    re.lastIndex = from;
    at = re.exec(text)?.index ?? -1;
  }
  return lineAt(text, at < 0 ? from : at);
}

export function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Folders of sample projects inside a repository: their manifests are not the project's targets. */
export function isSamplePath(rel: string): boolean {
  return /(^|\/)(fixtures?|__fixtures__|testdata|test-data|examples?|samples?|tutorials?)(\/|$)/i.test(rel);
}

/** Folders below a tests folder: the tests' sample inputs (syntax-test sources of a highlighter), not packages, unless a workspace declares them. */
export function isTestDataPath(rel: string): boolean {
  return /(^|\/)tests?\/./i.test(rel);
}
