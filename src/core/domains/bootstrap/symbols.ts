import path from 'node:path';
import { type DeclFact, factsOf, type ImportFact, INTERNAL_PATH } from './facts';
import { wordPattern } from './form';
import { JS_RESOLUTION_SUFFIXES } from './js-resolution';
import type { AnalysisContext, Family, SourceFile } from './types';

/** A top-level declaration of a production file. */
export interface Definition extends DeclFact {
  path: string;
  family: Family;
  target?: string;
  /** Other targets that compile the file too. */
  alsoIn?: string[];
}

interface FileRecord {
  path: string;
  family: Family;
  target?: string;
  alsoIn?: string[];
  imports: ImportFact[];
  packageName?: string;
  /** Names the file declares itself: a use of one of them is the file's own. */
  declared: string[];
  /** Methods and properties the file declares in its types: in Swift, Kotlin and Java a bare call inside the type reaches those first. */
  members: string[];
  /** Bare uses as parallel arrays (names, first lines): a Map per file would weigh on large trees. */
  useNames: string[];
  useLines: Uint32Array;
  qualified: Map<string, Map<string, number>>;
}

export interface Use {
  path: string;
  line: number;
}

const MAX_FILES = 20_000;

/**
 * The declarations and uses of the scanned production files, and the rules that decide whether a
 * use of a name in one file refers to a given declaration in another: through an import that binds
 * it (from that file, its package or its module), a qualifier that names its module, or the
 * language's own scope (same package in Go and Java/Kotlin, same module in Swift). A bare name
 * alone is never enough.
 */
export class SymbolIndex {
  private readonly files: FileRecord[] = [];
  private readonly byPath = new Map<string, FileRecord>();
  /** name → the files that use it bare or qualified: only those can refer to a declaration of that name. */
  private readonly users = new Map<string, FileRecord[]>();
  readonly definitions = new Map<string, Definition[]>();
  private reexports: Map<string, { f: FileRecord; imp: ImportFact }[]> | undefined;

  add(file: SourceFile): void {
    if (file.kind !== 'production' || file.family === 'other' || this.files.length >= MAX_FILES) return;
    this.reexports = undefined;
    const f = factsOf(file);
    // Filled by a loop: Uint32Array.from over the Map's iterator is slow in the scan's cold code.
    const useLines = new Uint32Array(f.uses.size);
    let i = 0;
    for (const line of f.uses.values()) useLines[i++] = line;
    const rec: FileRecord = {
      path: file.path,
      family: file.family,
      ...(file.target ? { target: file.target } : {}),
      ...(file.alsoIn ? { alsoIn: file.alsoIn } : {}),
      imports: f.imports,
      ...(f.packageName ? { packageName: f.packageName } : {}),
      declared: f.decls.filter((d) => !d.member).map((d) => d.name),
      members: f.decls.filter((d) => d.member).map((d) => d.name),
      useNames: [...f.uses.keys()],
      useLines,
      qualified: f.qualified,
    };
    this.files.push(rec);
    this.byPath.set(file.path, rec);
    for (const d of f.decls) {
      if (d.member) continue;
      const list = this.definitions.get(d.name) ?? [];
      list.push({
        ...d,
        path: file.path,
        family: file.family,
        ...(file.target ? { target: file.target } : {}),
        ...(file.alsoIn ? { alsoIn: file.alsoIn } : {}),
      });
      this.definitions.set(d.name, list);
    }
  }

  fileOf(p: string): { family: Family; target?: string; packageName?: string } | undefined {
    return this.byPath.get(p);
  }

  /** The module aliases a file imports (`* as ns`, Go package names, `import x.y as z`). */
  aliasesOf(p: string): string[] {
    return (this.byPath.get(p)?.imports ?? []).flatMap((i) => (i.alias ? [i.alias] : []));
  }

  /** name → files that use it: built once, on first need, for the declared names only. */
  private usersOf(name: string): FileRecord[] {
    if (this.users.size === 0) {
      for (const f of this.files) {
        const seen = new Set<string>();
        for (const n of f.useNames) {
          if (this.definitions.has(n)) {
            seen.add(n);
            push(this.users, n, f);
          }
        }
        for (const q of f.qualified.values()) {
          for (const n of q.keys()) {
            if (this.definitions.has(n) && !seen.has(n)) {
              seen.add(n);
              push(this.users, n, f);
            }
          }
        }
      }
      if (this.users.size === 0) this.users.set('', []);
    }
    return this.users.get(name) ?? [];
  }

  /** The production files whose uses of `def.name` resolve to `def`, with the line of the first one. */
  usesOf(def: Definition, ctx: AnalysisContext): Use[] {
    const out: Use[] = [];
    const defFile = this.byPath.get(def.path);
    for (const f of this.usersOf(def.name)) {
      if (f.path === def.path || f.family !== def.family) continue;
      const line = this.resolve(f, def, defFile, ctx);
      if (line !== undefined) out.push({ path: f.path, line });
    }
    return out;
  }

  private resolve(
    f: FileRecord,
    def: Definition,
    defFile: FileRecord | undefined,
    ctx: AnalysisContext,
  ): number | undefined {
    const use = (name: string) => {
      const i = f.useNames.indexOf(name);
      return i < 0 ? undefined : f.useLines[i];
    };
    const bare = use(def.name);
    if (f.declared.includes(def.name)) return undefined;
    // A member of the same name shadows a top-level function for the bare calls in its type
    // (`TimelineViewController.markArticles` is no use of a global markArticles()).
    if (
      !def.member && def.kind === 'function' && ['swift', 'kotlin', 'java'].includes(def.family)
      && f.members.includes(def.name)
    ) return undefined;
    // The names first: whether an import reaches the definition's file is the costly question.
    const binds = (pred: (imp: ImportFact) => boolean) =>
      f.imports.find((i) => i.names?.some((n) => n.imported === def.name || n.local === def.name) && pred(i));
    const viaAlias = (pred: (imp: ImportFact) => boolean) => {
      for (const imp of f.imports) {
        if (!imp.alias || !pred(imp)) continue;
        const line = f.qualified.get(imp.alias)?.get(def.name);
        if (line !== undefined) return line;
      }
      return undefined;
    };
    switch (def.family) {
      case 'jsts': {
        const hits = (imp: ImportFact) => this.jsImportReaches(f.path, imp.spec, def, ctx);
        const imp = binds(hits);
        if (imp) {
          const local = imp.names!.find((n) => n.imported === def.name || n.local === def.name)!.local;
          return use(local) ?? (local !== def.name ? undefined : bare);
        }
        return viaAlias(hits);
      }
      case 'python': {
        const hits = (imp: ImportFact) => this.pyImportReaches(f.path, imp.spec, def);
        const imp = binds(hits);
        if (imp) {
          const local = imp.names!.find((n) => n.imported === def.name)?.local ?? def.name;
          return use(local);
        }
        return viaAlias(hits);
      }
      case 'go': {
        if (path.posix.dirname(f.path) === path.posix.dirname(def.path)) return bare;
        return viaAlias((imp) =>
          imp.spec.endsWith('/' + path.posix.dirname(def.path))
          || (path.posix.dirname(def.path) !== '.' && imp.spec.endsWith(path.posix.dirname(def.path)))
        );
      }
      case 'rust': {
        const sameCrate = f.target === def.target;
        const crateName = (def.target ?? '').replace(/-/g, '_');
        const imp = binds((i) =>
          (sameCrate && /^(crate|super|self)::/.test(i.spec))
          || (!!crateName && (i.spec === crateName || i.spec.startsWith(crateName + '::')))
        );
        return imp ? bare : undefined;
      }
      case 'java':
      case 'kotlin': {
        const pkg = defFile?.packageName;
        if (!pkg) return undefined;
        if (f.packageName === pkg) return bare;
        const imp = f.imports.find((i) => i.spec === `${pkg}.${def.name}` || i.spec === `${pkg}.*` || i.spec === pkg);
        return imp ? bare : undefined;
      }
      case 'swift': {
        // A file compiled into several targets (an app's Shared/ folder) is visible in each of them.
        const defIn = [def.target, ...(def.alsoIn ?? [])];
        if (f.target !== undefined && [f.target, ...(f.alsoIn ?? [])].some((t) => defIn.includes(t))) return bare;
        return def.target && f.imports.some((i) => i.spec === def.target) ? bare : undefined;
      }
      case 'objc': {
        const header = def.path.endsWith('.h') ? def.path : def.path.replace(/\.mm?$/, '.h');
        const base = header.slice(header.lastIndexOf('/') + 1);
        if (f.path.replace(/\.mm?$/, '.h') === header) return bare;
        return f.imports.some((i) => i.spec === base || i.spec.endsWith('/' + base)) ? bare : undefined;
      }
      default:
        return undefined;
    }
  }

  /**
   * A JS/TS definition that a file of its package outside any internal folder re-exports by name
   * (a package's `index.ts` passing on `getErrorFromUnknown` from
   * `unstable-core-do-not-import/`): that file and line, since the name is then public API.
   */
  async publicReexport(def: Definition, ctx: AnalysisContext): Promise<Use | undefined> {
    if (def.family !== 'jsts') return undefined;
    if (!this.reexports) {
      // Built once: name → the public (non-internal) files that pass it on, with the statement.
      this.reexports = new Map();
      for (const f of this.files) {
        if (f.family !== 'jsts' || INTERNAL_PATH.test(f.path.replace(/\.[cm]?[jt]sx?$/, ''))) continue;
        for (const i of f.imports) {
          if (i.reexport) { for (const n of i.names ?? []) push(this.reexports, n.imported, { f, imp: i }); }
        }
      }
    }
    for (const { f, imp } of this.reexports.get(def.name) ?? []) {
      if (f.target !== def.target || f.path === def.path || !this.jsImportReaches(f.path, imp.spec, def, ctx)) continue;
      // The line of the statement that names it (an export list may span many lines).
      const lines = (await ctx.read(f.path))?.split('\n') ?? [];
      const named = wordPattern(def.name);
      let line = imp.line;
      for (let l = imp.line; l < imp.line + (imp.span ?? 1) && l <= lines.length; l++) {
        if (named.test(lines[l - 1])) {
          line = l;
          break;
        }
      }
      return { path: f.path, line };
    }
    return undefined;
  }

  /**
   * The package specifier other packages' files import a JS/TS definition through, the most used
   * one (`@scope/server/unstable-core-do-not-import`, not just the package name); undefined when none does.
   */
  importSpecifier(def: Definition, users: readonly Use[]): string | undefined {
    if (def.family !== 'jsts' || !def.target) return undefined;
    const counts = new Map<string, number>();
    for (const u of users) {
      const f = this.byPath.get(u.path);
      if (!f || f.target === def.target) continue;
      for (const i of f.imports) {
        const pkg = i.spec.startsWith('@') ? i.spec.split('/').slice(0, 2).join('/') : i.spec.split('/')[0];
        if (pkg === def.target && i.names?.some((n) => n.imported === def.name)) {
          counts.set(i.spec, (counts.get(i.spec) ?? 0) + 1);
        }
      }
    }
    return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0];
  }

  /** Whether a JS/TS import specifier reaches the file of `def`: directly, through an index, or through its package. */
  private jsImportReaches(from: string, spec: string, def: Definition, ctx: AnalysisContext, depth = 0): boolean {
    if (spec.startsWith('.')) {
      const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec)).replace(/\.(m|c)?js$/, '');
      for (const ext of JS_RESOLUTION_SUFFIXES) {
        const candidate = base + ext;
        if (candidate === def.path || candidate === def.path.replace(/\.(m|c)?[jt]sx?$/, '') + ext) return true;
        // An index that re-exports what lives below it.
        if (
          /\/index\.[cm]?[jt]sx?$/.test(candidate) && def.path.startsWith(path.posix.dirname(candidate) + '/')
          && ctx.has(candidate)
        ) return true;
        // A barrel file elsewhere that passes the name on (`export * from './x'`, `export { name } from './x'`), a few hops at most.
        const barrel = depth < 3 ? this.byPath.get(candidate) : undefined;
        if (
          barrel?.imports.some((i) =>
            i.reexport && ((!i.names && !i.alias) || i.names?.some((n) => n.imported === def.name))
            && this.jsImportReaches(barrel.path, i.spec, def, ctx, depth + 1)
          )
        ) return true;
      }
      return false;
    }
    const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
    return !!def.target && pkg === def.target;
  }

  /**
   * Whether a Python import (`.models`, `client._utils`, `client`) names the module of `def`, or a
   * package above it (which then re-exports the name).
   */
  private pyImportReaches(from: string, spec: string, def: Definition): boolean {
    const module = def.path.replace(/\.py$/, '').replace(/\/__init__$/, '');
    const dots = /^\.*/.exec(spec)![0].length;
    const rest = spec.slice(dots).split('.').filter(Boolean).join('/');
    const target = dots
      ? path.posix.normalize(path.posix.join(path.posix.dirname(from), ...Array(dots - 1).fill('..'), rest))
      : rest;
    if (!target || target === '.') return false;
    const reaches = (t: string) => module === t || module.startsWith(t + '/');
    return reaches(target) || (!dots && ['src', 'lib'].some((root) => reaches(`${root}/${target}`)));
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
