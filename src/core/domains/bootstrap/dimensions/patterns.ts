import path from 'node:path';
import { languageForPath } from '../../../ground/kernel/languages';
import { slicer } from '../../../ground/kernel/slices';
import { docIndex, purposeOf } from '../docs';
import { confidence, Tallies } from '../evidence';
import { factsOf } from '../facts';
import { fit, IMPORT_LINE, MAX_SUMMARY, nameList, shortPath, shownTarget, wordPattern } from '../form';
import { callsSentence, nestedTypesUsed, outlined, outlineOf, typeUse } from '../members';
import { ReferenceFinder } from '../references';
import { FAMILY_LABEL } from '../source';
import { type Definition, SymbolIndex, type Use } from '../symbols';
import type { AnalysisContext, Analyzer, CandidateDraft, Family, SourceFile } from '../types';
import { extensionPoints, type Subclasses } from './extension-points';
import { languageOf } from './standards';

/** Names too generic to call a project pattern even when they are everywhere. */
/** Type names of settings and configuration holders. */
const CONFIG_TYPE = /(Config|Configuration|Settings|Options|Preferences|Prefs)$/;
const GENERIC = new Set([
  'main',
  'init',
  'setup',
  'test',
  'run',
  'start',
  'stop',
  'get',
  'set',
  'create',
  'update',
  'delete',
  'render',
  'handler',
  'handle',
  'log',
  'debug',
  'assert',
  'expect',
  'describe',
  'it',
  'default',
  'index',
  'value',
  'error',
  'toString',
  'equals',
  'hashCode',
  'description',
  'body',
  'New',
  'String',
  'Error',
  'Result',
  'Options',
  'Config',
  'Context',
  'Builder',
]);

/** Languages where the unit of reuse is a package (a folder), not a file. */
const PACKAGE_SCOPED = new Set<Family>(['go', 'java', 'kotlin']);

/** Shortlisted definitions whose uses are checked in the syntax trees of their users, and how many users each. */
const SHORTLIST = 40;
const VERIFIED_USERS = 10;

interface Helper {
  def: Definition;
  users: Use[];
  modules: string[];
  purpose?: string;
  scope: 'internal' | 'shared';
  /** The doc file that names it, when one does: then it is not "internal". */
  documentedIn?: string;
  /** `path:line` of a public entry file of its package that re-exports it (JS/TS): then it is not "internal" either. */
  exportedFrom?: string;
}

/**
 * Dimension 2, code pattern: the project's own internal helpers and types that several modules
 * reuse (uses resolved through imports, qualifiers and scope, never by bare name; public API,
 * methods and trivial getters left out; near-duplicates merged), the base types its extension
 * points are built on, factory functions (JS/TS), and its shared instances.
 */
export class CodePatternAnalyzer implements Analyzer {
  private readonly symbols = new SymbolIndex();
  private readonly subclasses: Subclasses = new Map();
  private readonly singletons = new Tallies(8);
  /** `family|Type.accessor` of class accessors with a setter: replaceable defaults, said beside the singletons. */
  private readonly settable = new Map<string, { path: string; line: number }>();
  /** `family|Type.accessor` → the files that use that shared instance. */
  private readonly sharedUses = new Map<string, Set<string>>();
  private readonly factories = new Tallies(6);
  private readonly targets = new Map<string, string | undefined>();
  private docFiles = 0;

  visit(file: SourceFile): void {
    if (file.kind !== 'production' || file.family === 'other') return;
    this.symbols.add(file);
    this.targets.set(file.path, file.target);
    const facts = factsOf(file);
    for (const d of facts.decls) {
      if (d.kind === 'type') {
        for (const base of d.bases ?? (d.base ? [d.base] : [])) {
          const key = `${file.family}|${base}`;
          const list = this.subclasses.get(key) ?? [];
          list.push({
            name: d.name,
            path: file.path,
            line: d.line,
            text: (file.lines[d.line - 1] ?? '').trim().slice(0, 120),
          });
          this.subclasses.set(key, list);
        }
      }
      if (
        file.family === 'jsts' && d.kind === 'function' && d.exported && !d.member
        && isFactory(d.name, file.lines[d.line - 1] ?? '')
      ) this.factories.get(file.family).add(file, d.line);
    }
    // Implementations the type's own declaration does not list: a Swift extension adding a conformance
    // (`extension Feed: ArticleFetcher {`), a Rust `impl Trait for Type` block, a Java/TS `implements` list.
    for (const impl of facts.impls) {
      const key = `${file.family}|${impl.base}`;
      const list = this.subclasses.get(key) ?? [];
      if (list.some((x) => x.name === impl.type && (impl.how === 'extension' || x.path === file.path))) continue;
      list.push({
        // A nested type keeps its qualifier (`KF.Builder`): that is how the code names it.
        name: impl.type,
        path: file.path,
        line: impl.line,
        text: (file.lines[impl.line - 1] ?? '').trim().slice(0, 120),
        ...(impl.how === 'extension' ? { byExtension: true } : {}),
      });
      this.subclasses.set(key, list);
    }
    // `defaultInstance` too (an image downloader's), not `default…` factories such as `defaultPolicy`.
    const shared =
      /(?:static\s+(?:let|var|val|final)\s+(shared\w*|instance|default|sharedInstance)\b|\+\s*\([^)]*\)\s*(shared\w*|defaultInstance)\s*;|@property\s*\([^)]*\bclass\b[^)]*\)\s*[\w<>]+\s*\*\s*(shared\w*)\s*;)/g;
    const types = facts.decls.filter((d) => d.kind === 'type');
    for (let m = shared.exec(file.code); m; m = shared.exec(file.code)) {
      if (file.family === 'objc' && !file.path.endsWith('.h')) continue;
      // One with a setter (`+setSharedImageDownloader:`) is a replaceable default, not a singleton (UIKit categories).
      const accessor = m[1] ?? m[2] ?? m[3];
      const line = lineOf(file.code, m.index);
      // A class method of an Objective-C category belongs to the class it extends (`UIButton (ImageLoading)`).
      const category = file.family === 'objc'
        ? [...file.code.slice(0, m.index).matchAll(/^@interface[ \t]+(\w+)\b/gm)].pop()?.[1]
        : undefined;
      if (
        category
        && new RegExp(`\\+\\s*\\(void\\)\\s*set${accessor[0].toUpperCase()}${accessor.slice(1)}\\s*:`).test(file.code)
      ) {
        this.settable.set(`${file.family}|${category}.${accessor}`, { path: file.path, line });
        continue;
      }
      const owner = category ?? [...types].reverse().find((t) => t.line <= line)?.name;
      if (owner) this.singletons.get(`${file.family}|${owner}.${accessor}`).add(file, line);
    }
    // Who uses which shared instance: the most used are named first (not alphabetically).
    // Only where shared instances are an idiom (in JS/TS `x.default` is a module's default export).
    if (['swift', 'objc', 'kotlin', 'java'].includes(file.family)) {
      for (const m of file.code.matchAll(
        /\b([A-Z]\w*)\.(shared\w*|instance|default|defaultInstance)\b|\[\s*([A-Z]\w*)\s+(shared\w*|defaultInstance)\s*\]/g,
      )) {
        const key = `${file.family}|${m[1] ?? m[3]}.${m[2] ?? m[4]}`;
        this.sharedUses.set(key, (this.sharedUses.get(key) ?? new Set<string>()).add(file.path));
      }
    }
  }

  async finish(ctx: AnalysisContext): Promise<CandidateDraft[]> {
    return [
      ...(await this.helpers(ctx)),
      ...(await extensionPoints(this.symbols, this.subclasses, ctx)),
      ...this.factoryDrafts(ctx),
      ...this.singletonDrafts(ctx),
    ];
  }

  /** Internal helpers and types that several modules reuse: what an agent would otherwise write again. */
  private async helpers(ctx: AnalysisContext): Promise<CandidateDraft[]> {
    const multiTarget = ctx.structure.targets.filter((t) => t.kind === 'library' || t.kind === 'app').length >= 2;
    const moduleOf = (p: string) => (multiTarget ? this.targets.get(p) ?? topModule(p) : topModule(p));
    const libraries = new Set(
      ctx.structure.targets.filter((t) => t.kind === 'library' || t.kind === 'plugin').map((t) => t.name),
    );
    const ranked: Helper[] = [];
    const checkpoint = slicer();
    for (const [name, defs] of this.symbols.definitions) {
      await checkpoint();
      // Overloads of one function (TypeScript's `pointFrom(x, y)` / `pointFrom(coords)`) are one definition.
      const single = defs.length === 1
        || defs.every((d) => d.path === defs[0].path && d.kind === 'function' && defs[0].kind === 'function');
      if (!single || name.length < 4 || GENERIC.has(name) || /(Error|Exception)$/.test(name)) continue;
      const def = defs[0];
      if (def.member || def.visibility === 'private' || def.kind === 'constant') continue;
      // What a library publishes is its API, documented for its users; an app's exports are its own business.
      const api = def.visibility === 'public'
        && (libraries.has(def.target ?? '') || (def.target === undefined && libraries.size > 0));
      if (api && (def.kind === 'type' || !multiTarget)) continue;
      const users = this.symbols.usesOf(def, ctx);
      if (users.length < 3) continue;
      const modules = [...new Set([def.path, ...users.map((u) => u.path)].map(moduleOf))];
      // Reuse across modules: packages (folders) in Go, Java and Kotlin; in the other languages a file is a module.
      if (
        PACKAGE_SCOPED.has(def.family)
        && new Set([def.path, ...users.map((u) => u.path)].map((p) => path.posix.dirname(p))).size < 2
      ) continue;
      if (
        !PACKAGE_SCOPED.has(def.family) && multiTarget && modules.length < 2
        && new Set(users.map((u) => path.posix.dirname(u.path))).size < 2
      ) continue;
      // A public function counts only as a utility several other packages reuse.
      if (api && new Set(users.map((u) => this.targets.get(u.path)).filter((t) => t !== def.target)).size < 2) continue;
      ranked.push({ def, users, modules, scope: api ? 'shared' : 'internal' });
    }
    // Helpers (functions) before types, then the widest reuse: an agent misses a helper more easily than a type.
    ranked.sort((a, b) =>
      Number(a.def.kind === 'type') - Number(b.def.kind === 'type') || b.modules.length - a.modules.length
      || b.users.length - a.users.length || (a.def.name < b.def.name ? -1 : 1)
    );
    const verified = await this.verify(ranked.slice(0, SHORTLIST), ctx);
    const kept: Helper[] = [];
    const docs = verified.length ? await docIndex(ctx) : undefined;
    this.docFiles = docs?.files ?? 0;
    for (const h of verified) {
      if ((await isTrivial(h.def, ctx)) || (await isEnum(h.def, ctx))) continue;
      // A few lines only three files use are cheaper to read than to remember (a threadFactory()).
      if (
        h.def.kind === 'function' && new Set(h.users.map((u) => u.path)).size <= 3 && (await bodyLines(h.def, ctx)) <= 3
      ) continue;
      // A name the documentation uses is public API its users read about: a documented type is not
      // a helper to point out, and a documented function is not "internal".
      const documentedIn = docs?.mention(h.def.name);
      if (documentedIn && h.def.kind === 'type') continue;
      if (documentedIn) Object.assign(h, { scope: 'shared', documentedIn });
      const exported = h.scope === 'internal' ? await this.symbols.publicReexport(h.def, ctx) : undefined;
      if (exported && h.def.kind === 'type') continue;
      if (exported) Object.assign(h, { scope: 'shared', exportedFrom: `${exported.path}:${exported.line}` });
      if (h.def.family === 'python' && (await reexported(h.def, ctx))) continue;
      h.purpose = await purposeOf(h.def, ctx);
      // A settings or configuration type is the shape of the project's settings, not something anyone
      // would rewrite as a local variant (a Settings, a UiConfig or Font are no
      // helpers; wrappers such as a `Protected<Value>` lock are).
      if (
        h.def.kind === 'type'
        && (CONFIG_TYPE.test(h.def.name)
          || /^(the )?(\w+ )?(root )?(config|configuration|settings)( (of|for|section)\b|\.?$)/i.test(h.purpose ?? ''))
      ) continue;
      kept.push(h);
    }
    return (await this.merged(kept, ctx, moduleOf)).slice(0, 5);
  }

  /** Keeps the uses the syntax tree confirms (where a grammar loads); drops helpers left with too few. */
  private async verify(helpers: Helper[], ctx: AnalysisContext): Promise<Helper[]> {
    const finder = new ReferenceFinder();
    try {
      const out: Helper[] = [];
      for (const h of helpers) {
        const language = languageForPath(h.def.path) ?? '';
        if (!(await finder.supports(language))) {
          out.push(h);
          continue;
        }
        const users: Use[] = [];
        // Up to ten users are checked in their syntax trees; the rest keep their import-resolved use.
        for (const u of h.users.slice(0, VERIFIED_USERS)) {
          const text = await ctx.read(u.path);
          if (text === undefined) continue;
          const qualifiers = h.def.family === 'go' || h.def.family === 'python' || h.def.family === 'jsts'
            ? importAliases(u.path, this.symbols)
            : [];
          const line = finder.firstUse(u.path, languageForPath(u.path) ?? language, text, h.def.name, qualifiers);
          if (line === null) continue;
          users.push({ path: u.path, line: line ?? u.line });
        }
        if (users.length >= 3) out.push({ ...h, users: [...users, ...h.users.slice(VERIFIED_USERS)] });
      }
      return out;
    } finally {
      finder.dispose();
    }
  }

  /** One candidate per helper, or one for a family of near-identical ones (`…Serializer`s in one folder). */
  private async merged(
    helpers: Helper[],
    ctx: AnalysisContext,
    moduleOf: (p: string) => string,
  ): Promise<CandidateDraft[]> {
    const groups = new Map<string, Helper[]>();
    const functionFamilies = functionFamilyKeys(helpers);
    // A file whose every function is a helper here is one set of helpers (a bytesconv.go:
    // StringToBytes and BytesToString; get/setAssociatedObject): one card, not one per function.
    const wholeFiles = this.wholeHelperFiles(helpers.filter((h) => !functionFamilies.has(h)));
    for (const h of helpers) {
      const suffix = /[a-z0-9]([A-Z][a-z0-9]{4,})$/.exec(h.def.name)?.[1];
      const key = functionFamilies.get(h)
        ?? (wholeFiles.has(h.def.path)
          ? `${h.def.path}|*`
          : suffix && h.def.kind === 'type'
          ? `${h.def.family}|${path.posix.dirname(h.def.path)}|${suffix}`
          : `${h.def.path}|${h.def.name}`);
      groups.set(key, [...(groups.get(key) ?? []), h]);
    }
    // A family of types is three or more near-identical names; fewer stay separate. Functions of one
    // file that share a word (AuditErr, AuditWarn; isDevEnv, isTestEnv) are one family from two on:
    // each member after the first would repeat it.
    for (const [key, group] of [...groups]) {
      if (
        group.length > 1 && group.length < 3 && !functionFamilies.has(group[0]) && !wholeFiles.has(group[0].def.path)
      ) {
        groups.delete(key);
        for (const h of group) groups.set(`${h.def.path}|${h.def.name}`, [h]);
      }
    }
    const out: CandidateDraft[] = [];
    for (const group of groups.values()) {
      const [h] = group;
      const { def } = h;
      const users = [...new Map(group.flatMap((g) => g.users).map((u) => [u.path, u])).values()];
      // Where it is used, not where it is defined (an image composable used in :core:ui and two features, defined in :core:designsystem).
      const modules = [...new Set(users.map((u) => shownTarget(moduleOf(u.path))!))].sort();
      const kindWord = h.scope === 'internal' ? 'internal ' : '';
      const fileLines = group.length === 1 && def.kind === 'type' ? ((await ctx.read(def.path)) ?? '').split('\n') : [];
      const declLine = fileLines[def.line - 1] ?? '';
      // An annotation is put on declarations, not reused in place of a local variant (an
      // @InternalApi marks internal APIs other modules may use; a @MainThread marks main-thread-only calls).
      const annotation = /\bannotation\s+class\b|@interface\b/.test(declLine);
      // An opt-in requirement (an @InternalApi that is `@RequiresOptIn(level = ERROR)`): what it marks needs `@OptIn`.
      let annotationStart = def.line;
      while (annotation && annotationStart > 1 && /^\s*@/.test(fileLines[annotationStart - 2] ?? '')) annotationStart--;
      const optIn = annotation
        && fileLines.slice(annotationStart - 1, def.line).some((l) => /@RequiresOptIn\b/.test(l));
      // The build may opt the project's own modules in (a convention's `optIn.add("com.example.InternalApi")`).
      const builtIn = optIn ? await buildOptIn(ctx, def.name) : undefined;
      const what = annotation ? `\`@${def.name}\`` : def.kind === 'type' ? `\`${def.name}\`` : `\`${def.name}()\``;
      // Where other packages import it from, as they write it (`@scope/server/internal`).
      const from = shownTarget(
        group.length === 1 ? this.symbols.importSpecifier(def, users) ?? def.target : def.target,
      );
      // A purpose is said whole or not at all: a doc comment cut mid-sentence reads as noise.
      const withPurpose = group.length === 1 && h.purpose
        ? (annotation
          ? `Mark declarations with the ${kindWord}\`@${def.name}\`: ${h.purpose}`
          : h.scope === 'shared' && from
          ? `Reuse ${what} from \`${from}\`: ${h.purpose}`
          : `Reuse the ${kindWord}${what}: ${h.purpose}`)
        : undefined;
      const family = functionFamilies.get(h)?.split('|').pop();
      const names = group.map((g) => `\`${g.def.name}()\``);
      const plain = group.length > 1 && wholeFiles.has(def.path)
        ? ((head) => `${head}${nameList(group.map((g) => `${g.def.name}()`), 100 - head.length)}`)(
          `Reuse the ${kindWord}helpers of ${path.posix.basename(def.path)}: `,
        )
        : group.length > 1 && family
        ? `Reuse the ${kindWord}\`${family.startsWith('^') ? `${family.slice(1)}…` : family}()\` helpers of ${
          shortPath(def.path, 50)
        }`
        : group.length > 1
        ? `Reuse the ${kindWord}${nameList(group.map((g) => g.def.name), 60)} types of ${
          shortPath(path.posix.dirname(def.path), 30)
        }`
        : annotation
        ? `Mark declarations with the ${kindWord}\`@${def.name}\` annotation`
        : h.scope === 'shared' && from
        ? `Reuse ${what} from \`${from}\``
        : `Reuse the ${kindWord}${what} from ${shortPath(def.path, 50)}`;
      const title = withPurpose && withPurpose.length <= 100 ? withPurpose : plain;
      // A type is said with the methods other files call on it; "instead of a local variant" is for functions.
      // A protocol or interface is said with its implementations: a new one is another of them (NNW's AccountDelegate).
      const impls = /\b(protocol|interface|trait)\b/.test(declLine)
        ? (this.subclasses.get(`${def.family}|${def.name}`) ?? []).map((x) => x.name)
        : [];
      const implemented = impls.length >= 2
        ? `It is implemented by ${nameList(impls, 90)}; a new variant implements it too.`
        : '';
      // The implementations first: what a new one must do matters more than which methods callers use.
      const used = group.length === 1 ? await typeUse(def, users, ctx) : { calls: [] };
      const nested = group.length === 1 ? await nestedTypesUsed(def, users, ctx) : [];
      const lead = `${
        group.length > 1
          ? `${
            family
              ? nameList(this.familyMembers(group, family, ctx).map((n) => `${n}()`), 110)
              : wholeFiles.has(def.path)
              ? names.join(', ')
              : group.map((g) => `\`${g.def.name}\``).join(', ')
          } (${shortPath(def.path, 60)})`
          : `${what} (${shortPath(def.path, 60)}:${def.line})${
            withPurpose && title !== withPurpose ? ` — ${h.purpose} —` : ''
          }`
      } ${group.length > 1 ? 'are' : 'is'} used from ${users.length} files across ${nameList(modules, 70, false)}.${
        from && from !== shownTarget(def.target) && h.scope === 'internal'
          ? ` Other packages import it from \`${from}\`.`
          : ''
      }`;
      const calls = [implemented, callsSentence(used, nested, MAX_SUMMARY - lead.length - implemented.length - 2)]
        .filter(Boolean).join(' ');
      // A type with nothing to say but its name (no purpose, no method its users call, no shared instance): "use it instead of a
      // local variant" tells an agent nothing the compiler does not (an OpenedInput, an OwnerFilter: trivial).
      if (def.kind === 'type' && group.length === 1 && !annotation && !withPurpose && !calls) continue;
      const carried = `New declarations of the same kind carry \`@${def.name}\` too.`;
      const advice = annotation
        ? `${
          optIn
            ? `${
              builtIn ? 'Outside the modules the build opts in, code' : 'Code'
            } that uses what it marks needs \`@OptIn(${def.name}::class)\`. `
            : ''
        }${carried}`
        : calls || `Use ${group.length > 1 ? 'them' : 'it'} instead of writing a local variant.`;
      out.push({
        title: fit(title, 100),
        knowledgeType: 'code-pattern',
        dimension: 'code-pattern',
        language: languageOf(def.family, ctx),
        category: 'shared-code',
        summary: `${lead} ${advice}`,
        // A file's whole set of helpers is shown whole (a bytesconv.go: both functions).
        // A type whose callers use a few of its methods is shown as those methods' signatures (Protected: read, write).
        code: await withUsage(
          wholeFiles.has(def.path)
            ? (await Promise.all(
              [...group].sort((a, b) => a.def.line - b.def.line).map((g) => ctx.excerpt(def.path, g.def.line, 8)),
            )).join('\n\n')
            : annotation
            ? fileLines.slice(annotationStart - 1, def.line).join('\n')
            : outlineOf(fileLines.join('\n'), def, outlined(used)) ?? (await ctx.excerpt(def.path, def.line, 16)),
          group.length === 1 ? def : undefined,
          users,
          ctx,
        ),
        reasoning: {
          whyStandard:
            `The uses were resolved through each file's imports (or the language's scope) to this definition, not matched by name; ${
              h.documentedIn
                ? `it is documented in ${h.documentedIn}.`
                : h.exportedFrom
                ? `its package exports it publicly (${h.exportedFrom}), though it lives in an internal folder.`
                : h.scope === 'internal'
                ? `it is internal to the project and no documentation of the project names it (${this.docFiles} doc files checked), so an agent would not find it there.`
                : 'it is shared between its packages and no documentation of the project names it.'
            }`,
          sources: [
            `${def.path}:${def.line}`,
            ...(h.exportedFrom && group.length === 1 ? [h.exportedFrom] : []),
            ...(builtIn ? [builtIn] : []),
            ...users.slice(0, 5).map((u) => `${u.path}:${u.line}`),
          ],
          confidence: confidence(Math.min(1, 0.6 + users.length / 25), users.length),
        },
        tags: ['shared', 'helper', def.family],
        trigger: def.name,
        // Used only inside its own package: a target-scoped finding.
        ...(def.target && users.every((u) => this.targets.get(u.path) === def.target)
            && ctx.structure.targets.length > 1
          ? { target: def.target }
          : {}),
      });
    }
    return out;
  }

  /** Files that define two or more of `helpers` and no other top-level function: their helpers are one set. */
  private wholeHelperFiles(helpers: readonly Helper[]): Set<string> {
    const byFile = new Map<string, number>();
    for (const h of helpers) if (h.def.kind === 'function') byFile.set(h.def.path, (byFile.get(h.def.path) ?? 0) + 1);
    const functions = new Map<string, number>();
    for (const defs of this.symbols.definitions.values()) {
      for (const d of defs) {
        if (d.kind === 'function' && !d.member && byFile.has(d.path)) {
          functions.set(d.path, (functions.get(d.path) ?? 0) + 1);
        }
      }
    }
    return new Set([...byFile].filter(([file, n]) => n >= 2 && functions.get(file) === n).map(([file]) => file));
  }

  /**
   * Every function of the family's file that shares its words, the most used first (the verified
   * members lead): the reviewers asked for the family, not the members that happened to rank.
   */
  private familyMembers(group: Helper[], family: string, ctx: AnalysisContext): string[] {
    const file = group[0].def.path;
    const [first, last] = family.startsWith('^') ? [family.slice(1), undefined] : family.split('…');
    const fits = (name: string) => {
      const w = words(name);
      return w.length >= 2 && w[0] === first && (last === undefined || (w.length >= 3 && w[w.length - 1] === last));
    };
    const used = new Map(group.map((g) => [g.def.name, g.users.length]));
    for (const [name, defs] of this.symbols.definitions) {
      if (used.has(name) || !fits(name)) continue;
      const d = defs.find((x) => x.path === file && x.kind === 'function' && !x.member && x.visibility !== 'private');
      if (d) used.set(name, this.symbols.usesOf(d, ctx).length);
    }
    return [...used].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([name]) => name);
  }

  private factoryDrafts(ctx: AnalysisContext): CandidateDraft[] {
    return this.factories
      .entries()
      .filter(([, t]) => t.files.size >= 3)
      .map(([fam, t]) => ({
        title: `${FAMILY_LABEL[fam as Family]} services are built by \`create…()\` factory functions`,
        knowledgeType: 'code-pattern' as const,
        dimension: 'code-pattern',
        language: languageOf(fam as Family, ctx),
        category: 'construction',
        summary: `${t.count} exported factory functions in ${t.files.size} production files (${
          t.samples.slice(0, 3).map((s) => `\`${/(\w+)\s*[(<]/.exec(s.text)?.[1] ?? s.text}\``).join(', ')
        }). Expose new services the same way rather than exporting classes to instantiate.`,
        code: t.samples.slice(0, 5).map((s) => s.text).join('\n'),
        reasoning: {
          whyStandard: 'The factory naming recurs across production modules.',
          sources: t.sources(),
          confidence: confidence(0.8, t.count),
        },
        tags: ['factory', fam],
      }));
  }

  /** The shared instances the project publishes, by name: use these instead of new instances. */
  private singletonDrafts(ctx: AnalysisContext): CandidateDraft[] {
    const byFamily = new Map<Family, { name: string; path: string; line: number }[]>();
    for (const [key, t] of this.singletons.entries()) {
      const [fam, name] = key.split('|') as [Family, string];
      byFamily.set(fam, [...(byFamily.get(fam) ?? []), { name, path: t.samples[0].path, line: t.samples[0].line }]);
    }
    const out: CandidateDraft[] = [];
    for (const [fam, list] of byFamily) {
      if (list.length < 3) continue;
      // The managers and caches first: one coder among many says less than the one cache.
      const rank = (s: { name: string; path: string }) =>
        (/\.sharedCoder$|\.default$|\.instance$/.test(s.name) ? 2 : 0)
        + (/(^|\/)(Private|internal)\//.test(s.path) ? 1 : 0);
      const uses = (s: { name: string }) => this.sharedUses.get(`${fam}|${s.name}`)?.size ?? 0;
      const settable = [...this.settable].filter(([k]) => k.startsWith(`${fam}|`));
      const sorted = list.sort((a, b) => uses(b) - uses(a) || rank(a) - rank(b) || (a.name < b.name ? -1 : 1));
      out.push({
        title: fit(`Shared instances: ${nameList(sorted.map((s) => s.name), 70)}`, 100),
        knowledgeType: 'code-pattern',
        dimension: 'code-pattern',
        language: languageOf(fam, ctx),
        category: 'construction',
        summary: `${sorted.length} types publish a shared instance (${
          nameList(sorted.map((s) => s.name), settable.length ? 90 : 150, false)
        }). ${
          settable.length
            ? `Use these, not new instances; ${
              nameList([...new Set(settable.map(([k]) => k.split('|')[1].split('.')[0]))], 40)
            } code goes through ${settable.length === 1 ? 'its' : 'their'} settable ${
              nameList([...new Set(settable.map(([k]) => k.split('.').pop()!))], 40)
            } instead.`
            : 'Use these rather than creating new instances, unless the code needs its own configuration.'
        }`,
        code: '',
        reasoning: {
          whyStandard: 'Declared as class-level shared accessors in the production sources.',
          sources: sorted.slice(0, 8).map((s) => `${s.path}:${s.line}`),
          confidence: confidence(0.8, sorted.length * 2),
        },
        tags: ['singleton', fam],
        trigger: 'shared-instances',
      });
    }
    return out;
  }
}

/** The words of a name, case kept: `isDevEnv` → is, Dev, Env; `audit_err` → audit, err. */
function words(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(/[\s_]+/).filter(Boolean);
}

/** Words of a name that say little about a family: verbs every helper starts with. */
const COMMON_FIRST_WORDS = new Set([
  'get',
  'set',
  'is',
  'has',
  'to',
  'from',
  'make',
  'new',
  'create',
  'with',
  'on',
  'do',
  'can',
  'should',
  'as',
  'parse',
  'read',
  'write',
  'load',
  'build',
  'find',
  'add',
  'remove',
  'update',
]);

/**
 * Functions of one file that share their first word (`Audit` in AuditErr, AuditWarn) or, past a
 * common verb, their first and last (`is…Env` in isDevEnv, isTestEnv): each member's family key,
 * `path|^Word` or `path|first…Last`, for the families of two or more.
 */
function functionFamilyKeys(helpers: readonly Helper[]): Map<Helper, string> {
  const keysOf = (h: Helper): string[] => {
    const w = words(h.def.name);
    if (w.length < 2) return [];
    const out: string[] = [];
    if (w[0].length >= 4 && !COMMON_FIRST_WORDS.has(w[0].toLowerCase())) out.push(`${h.def.path}|^${w[0]}`);
    // The last word alone joins unrelated helpers (isObject, emptyObject): with the first, it names a family (is…Env).
    if (w.length >= 3 && w[w.length - 1].length >= 3) out.push(`${h.def.path}|${w[0]}…${w[w.length - 1]}`);
    return out;
  };
  const count = new Map<string, number>();
  const functions = helpers.filter((h) => h.def.kind === 'function');
  for (const h of functions) for (const k of keysOf(h)) count.set(k, (count.get(k) ?? 0) + 1);
  const out = new Map<Helper, string>();
  for (const h of functions) {
    const best = keysOf(h).filter((k) => (count.get(k) ?? 0) >= 2).sort((a, b) => count.get(b)! - count.get(a)!)[0];
    if (best) out.set(h, best);
  }
  return out;
}

/** The first folder that tells modules apart: `Source/Core` for `Source/Core/Request.swift`. */
function topModule(p: string): string {
  const parts = p.split('/');
  const roots = new Set([
    'src',
    'lib',
    'source',
    'sources',
    'pkg',
    'internal',
    'app',
    'main',
    'kotlin',
    'java',
    'crates',
    'packages',
  ]);
  let i = 0;
  while (i < parts.length - 2 && roots.has(parts[i].toLowerCase())) i++;
  return parts.slice(0, Math.min(parts.length - 1, i + 1)).join('/') || '.';
}

/** Import aliases a file qualifies names with (`pkg.Name`, `module.name`, `ns.name`). */
function importAliases(file: string, symbols: SymbolIndex): string[] {
  return symbols.aliasesOf(file);
}

/** A getter: a function whose whole body hands back a field (`return this.x`, `self.x`, `c.parent`). */
async function isTrivial(def: Definition, ctx: AnalysisContext): Promise<boolean> {
  if (def.kind !== 'function') return false;
  const body = (await ctx.excerpt(def.path, def.line, 8)).split('\n').slice(1).map((l) => l.trim()).filter((l) =>
    l && !/^[{}()\]]+;?$/.test(l)
  );
  return body.length === 1 && /^(return\s+)?[\w$]+(\.[\w$]+)+;?$/.test(body[0]);
}

/**
 * How many lines of code a function's body has: the lines after its signature (which may span
 * several lines) that are more indented than the declaration, closing brackets not counted.
 */
async function bodyLines(def: Definition, ctx: AnalysisContext): Promise<number> {
  const lines = ((await ctx.read(def.path)) ?? '').split('\n');
  const indent = (l: string) => /^\s*/.exec(l)![0].length;
  const start = def.line - 1;
  const base = indent(lines[start] ?? '');
  let body = start;
  while (body < lines.length && body < start + 12 && !/[{=:]\s*$|=>\s*[^\s]|\{\s*\S/.test(lines[body])) body++;
  let n = 0;
  for (let i = body + 1; i < lines.length && i < body + 80; i++) {
    const l = lines[i];
    if (!l.trim()) continue;
    if (indent(l) <= base) break;
    if (!/^[\s})\]]+[;,]?$/.test(l)) n++;
  }
  return n;
}

/** An enumeration is data the code switches on, not a helper to reuse. */
async function isEnum(def: Definition, ctx: AnalysisContext): Promise<boolean> {
  const line = ((await ctx.read(def.path)) ?? '').split('\n')[def.line - 1] ?? '';
  return def.kind === 'type' && /\benum\b/.test(line);
}

/** Python: a name its package's `__init__.py` imports is the package's public API. */
async function reexported(def: Definition, ctx: AnalysisContext): Promise<boolean> {
  let dir = path.posix.dirname(def.path);
  for (let depth = 0; depth < 3 && dir && dir !== '.'; depth++, dir = path.posix.dirname(dir)) {
    const init = await ctx.read(`${dir}/__init__.py`);
    if (init && new RegExp(`\\bimport\\b[^\\n]*\\b${def.name}\\b|["']${def.name}["']`).test(init)) return true;
  }
  return false;
}

/** `createLogger(…): Logger`, `makeStore(): Store<…>`: a function named after the type it returns. */
function isFactory(name: string, line: string): boolean {
  const m = /^(?:create|make|new)([A-Z]\w*)$/.exec(name);
  if (!m) return false;
  const noun = m[1];
  return new RegExp(
    `\\)\\s*:\\s*(?:Promise<\\s*)?I?${noun}\\b|\\breturn\\s+new\\s+${noun}\\b|->\\s*${noun}\\b|\\)\\s*${noun}\\s*\\{`,
  ).test(line);
}

function lineOf(text: string, index: number): number {
  let n = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/**
 * A definition's excerpt followed by one line that uses it, from another folder where possible: how it
 * is called says more than its body.
 */
async function withUsage(
  excerpt: string,
  def: Definition | undefined,
  users: readonly Use[],
  ctx: AnalysisContext,
): Promise<string> {
  if (!def) return excerpt;
  const named = wordPattern(def.name);
  const ordered = [...users].sort((a, b) =>
    Number(path.posix.dirname(a.path) === path.posix.dirname(def.path))
    - Number(path.posix.dirname(b.path) === path.posix.dirname(def.path))
  );
  for (const u of ordered.slice(0, 10)) {
    const line = (await ctx.read(u.path))?.split('\n')[u.line - 1]?.trim();
    if (!line || line.length > 140 || !named.test(line) || IMPORT_LINE.test(line)) continue;
    // A whole statement, not the middle of one (`isObject(obj) &&`, `: f(x);`, `g((o) => {`).
    if (/^[:?&|.+*/=,)\]}]/.test(line) || /(?:&&|\|\||[(,{[=+?:]|=>)\s*$/.test(line)) continue;
    const comment = def.family === 'python' ? '#' : '//';
    return `${excerpt}\n\n${comment} Used in ${u.path}:${u.line}:\n${line}`;
  }
  return excerpt;
}

/** `file:line` of a build script that opts modules in to an annotation (`optIn.add("….Name")`, `-opt-in=….Name`). */
async function buildOptIn(ctx: AnalysisContext, name: string): Promise<string | undefined> {
  const re = new RegExp(
    `(?:optIn(?:\\.add)?\\s*\\(|-opt-in=|optIn\\s*\\+?=)\\s*(?:setOf\\(|listOf\\()?["']?[\\w.]*\\b${name}\\b`,
  );
  for (
    const f of ctx.listing.filter((x) => /\.gradle(\.kts)?$/.test(x) || /^(build-logic|buildSrc)\/.*\.kts?$/.test(x))
  ) {
    const text = (await ctx.read(f)) ?? '';
    if (!text.includes(name)) continue;
    const m = re.exec(text);
    if (m) return `${f}:${text.slice(0, m.index).split('\n').length}`;
  }
  return undefined;
}
