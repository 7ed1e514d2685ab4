// Extension points of the cold start's code-pattern dimension: project types several production
// types extend or implement, and where the implementations are listed, so a new one is added there too.
import { purposeOf } from '../docs';
import { confidence, enclosingScope } from '../evidence';
import { escapeName, fit, IMPORT_LINE, MAX_SUMMARY, nameList, shortPath, wordPattern } from '../form';
import { methodsOf, outlineOf, type Requirement, requirementsOf } from '../members';
import { FAMILY_LABEL, pathKind } from '../source';
import type { Definition, SymbolIndex } from '../symbols';
import type { AnalysisContext, CandidateDraft, Family } from '../types';
import { languageOf } from './standards';

/** Names of stand-ins for tests and demos: not implementations of their own. */
const STAND_IN = /^(NoOp|Noop|Stub|Fake|Mock|Dummy|Test|Empty|Null|Demo|Preview)[A-Z]|(Stub|Fake|Mock|Dummy)$/;
/** What a base type's own documentation says when new subclasses are not wanted. */
const DISCOURAGED =
  /\bsubclass(?:es|ing)?\b[^.\n]{0,60}\b(?:is|are)\s+(?:highly\s+|strongly\s+)?(?:discouraged|not\s+(?:allowed|supported|intended|permitted))|\b(?:do\s+not|don't|must\s+not|should\s+not|never)\s+(?:subclass|extend|implement)\s+this\b/i;

/** A type that extends or implements a base: where it is declared (or, for a nested type, the extension that adds the conformance). */
export interface Implementation {
  name: string;
  path: string;
  line: number;
  text: string;
  /** The base it is reached through (`Feed` via `SidebarItem`). */
  via?: string;
  /** The conformance is added by a Swift extension, not by the declaration. */
  byExtension?: boolean;
}

/** `family|base` → the types that extend or implement it directly. */
export type Subclasses = Map<string, Implementation[]>;

/** Project types that several production types extend: the extension points (descendants counted). */
export async function extensionPoints(
  symbols: SymbolIndex,
  subclasses: Subclasses,
  ctx: AnalysisContext,
): Promise<CandidateDraft[]> {
  const out: CandidateDraft[] = [];
  const found: { fam: Family; base: Definition; subs: Implementation[] }[] = [];
  for (const [key, all] of subclasses) {
    const [fam, baseName] = key.split('|') as [Family, string];
    // A conformance added by an extension counts for a type the project declares, not for a platform type or an alias
    // (`extension PlatformImage: Compatible` on an alias gives UIImage a namespace).
    // It is cited where the type is declared: extensions of several types in one file are still several types.
    const direct = all.flatMap((s) => {
      if (!s.byExtension) return [s];
      // A nested type (`KF.Builder`) is the project's when its outer type is; it is cited at the extension.
      const [outer, ...inner] = s.name.split('.');
      const def = (symbols.definitions.get(outer) ?? []).find((d) => d.family === fam && d.kind === 'type');
      if (!def) return [];
      return inner.length ? [s] : [{ ...s, path: def.path, line: def.line }];
    });
    const defs = (symbols.definitions.get(baseName) ?? []).filter((d) => d.family === fam && d.kind === 'type');
    if (defs.length === 0) continue;
    // Objective-C: the public header's @interface, not a private class extension or the .m.
    const base = defs.find((d) => d.path.endsWith('.h') && d.visibility === 'public') ?? defs[0];
    const subs: Implementation[] = [...direct];
    for (let i = 0; i < subs.length && subs.length < 40; i++) {
      for (const s of subclasses.get(`${fam}|${subs[i].name}`) ?? []) {
        if (!subs.some((x) => x.name === s.name)) subs.push({ ...s, via: subs[i].name });
      }
    }
    // Two types of one name in two modules are two implementations (one ServiceLoader target in a ktor2 and a ktor3 module).
    const unique = [...new Map(subs.map((s) => [`${s.name}\u0000${s.path}`, s])).values()].filter((s) =>
      s.name !== baseName
    );
    // Three kinds at least: one class copied into a second module (a CookieJar adapter in two modules) is not a third kind of implementation.
    // A Python `_Private` subclass is the module's own detail, no kind of its own (a `_CachedRequest`).
    const kinds = unique.filter((s) => fam !== 'python' || !s.name.startsWith('_'));
    if (new Set(kinds.map((s) => s.name)).size < 3 || new Set(kinds.map((s) => s.path)).size < 3) continue;
    // A real implementation and its stand-ins (NoOp, Stub, Fake…) are a seam for tests, not a place new types plug in (an AnalyticsHelper and its NoOp).
    if (unique.filter((s) => !STAND_IN.test(s.name)).length < 2) continue;
    // A protocol of one property (`nameForDisplay`) is a label every model wears, not a place new types plug in (rejected twice as trivial).
    if (await onePropertyProtocol(base, ctx)) continue;
    // A base whose own code says not to subclass it ("Creating custom JsonElement subclasses is highly discouraged") is a closed set.
    if (DISCOURAGED.test((await ctx.read(base.path)) ?? '')) continue;
    found.push({ fam, base, subs: unique });
  }
  // A base whose other implementers all adopt a refining type it also lists (RequestAdapter and
  // RequestInterceptor) is reached through that type: the refining one is where new types plug in.
  const refined = new Map<string, string[]>();
  for (const f of found) {
    for (const r of found) {
      if (r === f || r.fam !== f.fam || !f.subs.some((s) => s.name === r.base.name)) continue;
      const others = f.subs.filter((s) => s.name !== r.base.name);
      if (others.every((s) => r.subs.some((x) => x.name === s.name))) {
        refined.set(`${r.fam}|${r.base.name}`, [...(refined.get(`${r.fam}|${r.base.name}`) ?? []), f.base.name]);
      }
    }
  }
  const dropped = new Set([...refined.entries()].flatMap(([k, v]) => v.map((name) => `${k.split('|')[0]}|${name}`)));
  // Sync and async twins (SyncByteStream and AsyncByteStream, BaseTransport and AsyncBaseTransport) are one
  // extension point: one card, the async one, naming its twin (the reviewers rejected the second as a mirror).
  const twins = new Map<Definition, Definition>();
  for (const f of found) {
    if (!/^Async|Async$/.test(f.base.name)) continue;
    const names = [
      f.base.name.replace(/^Async/, ''),
      f.base.name.replace(/^Async/, 'Sync'),
      f.base.name.replace(/Async$/, ''),
      f.base.name.replace(/Async$/, 'Sync'),
    ];
    const twin = (symbols.definitions.get(
      names.find((n) =>
        n !== f.base.name && symbols.definitions.get(n)?.some((d) => d.family === f.fam && d.path === f.base.path)
      ) ?? '',
    ) ?? []).find((d) => d.family === f.fam && d.path === f.base.path && d.kind === 'type');
    if (twin) twins.set(f.base, twin);
  }
  const mirrored = new Set([...twins.values()].map((d) => `${d.family}|${d.name}`));
  const kept = found.filter((f) => !dropped.has(`${f.fam}|${f.base.name}`) && !mirrored.has(`${f.fam}|${f.base.name}`));
  kept.sort((a, b) => b.subs.length - a.subs.length || (a.base.name < b.base.name ? -1 : 1));
  for (const { fam, base, subs } of kept.slice(0, 3)) {
    const twin = twins.get(base);
    const refines = refined.get(`${fam}|${base.name}`) ?? [];
    // Those nearest the base first (its own file, its folder, its module): otherwise a title leads with classes of an extras
    // module or a throwaway struct declared in a function, not with the base's own implementations.
    const near = (p: string) => sharedFolders(p, base.path);
    const sorted = [...subs].sort((a, b) =>
      near(b.path) - near(a.path) || (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line)
    );
    const baseLine = ((await ctx.read(base.path)) ?? '').split('\n')[base.line - 1] ?? '';
    const verb =
      /\b(protocol|interface|trait)\b/.test(baseLine) || (fam === 'python' && /\b(Protocol|ABC)\b/.test(baseLine))
        ? 'implement'
        : 'extend';
    // Types that conform through an extension are existing types given one more role (a Feed and a Folder): the
    // files that use them are not where implementations are listed.
    const sites = await registrationSites(symbols, fam, sorted.filter((s) => !s.byExtension), ctx);
    // What the base is for, from its doc comment: the reviewers asked what a protocol is for before who adopts it.
    const purpose = await purposeOf(base, ctx);
    // Said in the file names (the sources hold the paths): summaries stop at 300 characters.
    // A JVM ServiceLoader finds implementations only through a `META-INF/services/<base>` file in their module.
    const pkg = fam === 'kotlin' || fam === 'java' ? symbols.fileOf(base.path)?.packageName : undefined;
    const services = pkg ? ctx.listing.filter((f) => f.endsWith(`META-INF/services/${pkg}.${base.name}`)) : [];
    const basePath = sites.length || services.length
      ? base.path.slice(base.path.lastIndexOf('/') + 1)
      : shortPath(base.path, 40);
    const registered = services.length
      ? ` and is listed in its module's \`META-INF/services/${pkg}.${base.name}\``
      : sites.length
      ? ` and is added where the others are listed: ${
        nameList(sites.map((r) => `${r.path.slice(r.path.lastIndexOf('/') + 1)}:${r.line}`), 70)
      }`
      : '';
    // A name shared by several of them is said once, with how many (`KtorNetworkFetcherServiceLoaderTarget (×2)`).
    const times = (name: string) => sorted.filter((x) => x.name === name).length;
    const once = sorted.filter((s, i) => sorted.findIndex((x) => x.name === s.name) === i);
    const weights = once.map((s) => times(s.name));
    const names = once.map((s) =>
      `${s.via && s.via !== base.name ? `${s.name} (via ${s.via})` : s.name}${
        times(s.name) > 1 ? ` (×${times(s.name)})` : ''
      }`
    );
    // Every implementer named when they fit (the reviewers asked who "and 2 more" were), the purpose when it fits too.
    // What a new implementation provides: what the base declares without a body, else what the others override.
    // Anonymous implementations (`new TypeAdapter<…>() {` in a factory file) are implementations too.
    const anonymous = fam === 'java' || fam === 'kotlin'
      ? await anonymousImplementations(base.name, fam, ctx)
      : undefined;
    const contract = await contractOf(base, sorted, symbols, ctx);
    // What most subclasses declare in their `class Meta` (input types' `doc_category`): part of the contract too.
    const meta = fam === 'python' ? await metaAttributes(sorted.slice(0, 24), ctx) : [];
    if (meta.length) {
      const note = `setting \`class Meta\`'s ${nameList(meta, 60)} as most of the others do`;
      contract.full = contract.full ? `${contract.full}, ${note}` : note;
      contract.short = contract.short
        ? `${contract.short}, setting \`Meta.${meta[0]}\``
        : `setting \`Meta.${meta[0]}\``;
    }
    const summaryWith = (budget: number, withPurpose: boolean, terms = contract.full) =>
      `\`${base.name}\` (${basePath}:${base.line}${
        refines.length ? `; it refines ${refines.map((r) => `\`${r}\``).join(', ')}` : ''
      })${withPurpose && purpose ? ` — ${purpose} —` : ''} is the base of ${subs.length} production types: ${
        nameList(names, budget, false, weights)
      }${
        anonymous
          ? `, and of ${anonymous.count} anonymous ones (${
            anonymous.files.length === 1
              ? `in ${anonymous.files[0].slice(anonymous.files[0].lastIndexOf('/') + 1)}`
              : `in ${anonymous.files.length} files`
          })`
          : ''
      }. A new type in the same role ${verb}s it too${terms ? `, ${terms}${registered ? ',' : ''}` : ''}${registered}.${
        twin ? ` Its sync twin is \`${twin.name}\` (:${twin.line}).` : ''
      }`;
    const tries: [number, boolean][] = [
      [400, true],
      [200, true],
      [150, true],
      [100, true],
      [400, false],
      [200, false],
      [150, false],
      [70, true],
      [100, false],
      [70, false],
    ];
    // What a new type defines comes before the purpose and the other names when the summary must be cut.
    const options = [contract.full, contract.short, ''].flatMap((terms) =>
      tries.map(([budget, withPurpose]) => summaryWith(budget, withPurpose, terms))
    );
    const summary = options.find((o) => o.length <= MAX_SUMMARY) ?? summaryWith(60, false, '');
    out.push({
      title: fit(
        `${FAMILY_LABEL[fam]} ${nameList(once.map((s) => s.name), 50, true, weights)} ${verb} \`${base.name}\``,
        100,
      ),
      knowledgeType: 'inheritance',
      dimension: 'code-pattern',
      language: languageOf(fam, ctx),
      category: 'types',
      summary,
      // What a new type defines, shown as those signatures where the base declares them (not the base's `class Meta`).
      code: (contract.members.length ? outlineOf((await ctx.read(base.path)) ?? '', base, contract.members) : undefined)
        ?? (await ctx.excerpt(base.path, base.line, 14)),
      reasoning: {
        whyStandard:
          "Several production types extend a type the project defines itself: that type is the project's extension point.",
        sources: [
          `${base.path}:${base.line}`,
          ...services.slice(0, 2).map((f) => `${f}:1`),
          ...sites.map((r) => `${r.path}:${r.line}`),
          ...sorted.slice(0, 5).map((s) => `${s.path}:${s.line}`),
        ].slice(0, 8),
        confidence: confidence(0.85, subs.length * 2),
      },
      tags: ['inheritance', fam],
      trigger: `extend-${base.name}`,
    });
  }
  return out;
}

/** How many leading path segments two files share (the file name counts: the same file shares the most). */
function sharedFolders(a: string, b: string): number {
  const x = a.split('/');
  const y = b.split('/');
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n++;
  return n;
}

/**
 * What a new implementation defines, as the reviewers asked ("override run()", "implement
 * handle_request"; "the callbacks have defaults, so it overrides only what it needs"): the members the
 * base declares without a body; else the base's methods that most of the implementations define
 * (half of them at least, and two); and, for a protocol or interface, the members it gives defaults.
 */
async function contractOf(
  base: Definition,
  subs: readonly { name: string; path: string }[],
  symbols: SymbolIndex,
  ctx: AnalysisContext,
): Promise<{ full: string; short: string; members: string[] }> {
  const shown = (rs: readonly Requirement[]) =>
    nameList(rs.map((r) => r.selector ?? (r.method ? `${r.name}()` : r.name)), 80);
  const reqs = await requirementsOf(base, ctx);
  const defaults = reqs?.defaulted.length
    ? `${shown(reqs.defaulted)} ${reqs.defaulted.length > 1 ? 'have defaults' : 'has a default'}`
    : '';
  // Defaults that call each other: one of them is required (data() and data(handler:)).
  const oneOf = (reqs?.oneOf ?? []).map((g) => `one of ${g.map((x) => `\`${x}\``).join(' or ')}`);
  const oneOfNote = oneOf.length ? 'each defaults to the other' : '';
  const declared = [
    ...(reqs?.required ?? []).map((r) => r.name),
    ...(reqs?.oneOf ?? []).map((g) => g[0].replace(/\(.*$/, '')),
    ...(reqs?.defaulted ?? []).map((r) => r.name),
  ].slice(0, 6);
  if (reqs?.required.length || oneOf.length) {
    const required = `with ${
      [...(reqs!.required.length ? [shown(reqs!.required.slice(0, 4))] : []), ...oneOf].join(' and ')
    }`;
    const notes = [oneOfNote, defaults].filter(Boolean).join('; ');
    return { full: notes ? `${required} (${notes})` : required, short: required, members: declared };
  }
  const own = new Set([...(await methodsOf(base, ctx)), ...(reqs?.defaulted.map((r) => r.name) ?? [])]);
  const counts = new Map<string, number>();
  const defined = new Map<string, Set<string>>();
  let read = 0;
  for (const s of subs.slice(0, 12)) {
    const def = (symbols.definitions.get(s.name) ?? []).find((d) => d.family === base.family && d.path === s.path);
    if (!def) continue;
    read++;
    const methods = new Set(await methodsOf(def, ctx));
    defined.set(s.name, methods);
    for (const m of methods) if (own.has(m)) counts.set(m, (counts.get(m) ?? 0) + 1);
  }
  const least = Math.max(2, Math.ceil(read / 2));
  const overridden = [...counts].filter(([, n]) => n >= least).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 3);
  if (overridden.length) {
    const list = nameList(overridden.map(([m]) => `${m}()`), 80);
    // A protocol whose extension gives some requirements no-op bodies (an interceptor's adapt and retry).
    const members = overridden.map(([m]) => m);
    if (overridden.every(([m]) => reqs?.defaulted.some((r) => r.name === m))) {
      return {
        full: `overriding the defaults of ${list} as it needs`,
        short: `overriding ${list} as it needs`,
        members,
      };
    }
    const defining = `defining ${list}`;
    // The rule with its exception: the implementations read that lack the most common member are named.
    const [top, have] = overridden[0];
    const lacking = [...defined].filter(([, ms]) => !ms.has(top)).map(([name]) => name);
    const exception = lacking.length && lacking.length <= 2
      ? `as ${have} of ${read} do (${nameList(lacking, 50)} ${
        lacking.length > 1 ? 'are the exceptions' : 'is the exception'
      })`
      : 'as most of the others do';
    return {
      full: `${defining} ${overridden.every(([, n]) => n === read) ? 'as the others do' : exception}`,
      short: defining,
      members,
    };
  }
  const onlyDefaults = defaults ? `and ${defaults}, so it defines only what it needs` : '';
  return { full: onlyDefaults, short: onlyDefaults, members: declared };
}

/**
 * Where the implementations of an extension point are listed (a PlatformRegistry, its
 * socketAdapters lists): a production file, not one of theirs, that uses at least a third of them
 * (and two). A new implementation has to be added there too, or it is never used.
 */
async function registrationSites(
  symbols: SymbolIndex,
  fam: Family,
  subs: readonly { name: string; path: string }[],
  ctx: AnalysisContext,
): Promise<{ path: string; line: number; names: Set<string> }[]> {
  const own = new Set(subs.map((s) => s.path));
  const hits = new Map<string, { path: string; line: number; names: Set<string> }>();
  for (const s of subs) {
    const def = (symbols.definitions.get(s.name) ?? []).find((d) => d.family === fam && d.path === s.path);
    if (!def) continue;
    for (const u of symbols.usesOf(def, ctx)) {
      if (own.has(u.path)) continue;
      const h = hits.get(u.path) ?? { path: u.path, line: u.line, names: new Set<string>() };
      h.names.add(s.name);
      h.line = Math.min(h.line, u.line);
      hits.set(u.path, h);
    }
  }
  // Half of them at least: a helper that type-checks a few (a read filter's exceptions) is not where they are listed.
  const least = Math.max(2, Math.ceil(subs.length / 2));
  // Named in code, not only in doc comments (a setter naming 8 of 17 processors in code is no list of them).
  const candidates = [...hits.values()].filter((h) => h.names.size >= least);
  // And listed in one place: one function (a registry's `when`, a switch) or one body (a list, Hilt bindings) names three
  // of them at least. A method per type (KFOptionsSetter's `blur()`, `tint()`…: shorthands) lists nothing.
  const together = new Set<(typeof candidates)[number]>();
  for (const h of candidates) {
    const lines = ((await ctx.read(h.path)) ?? '').split('\n');
    const code = lines.filter((l) => !COMMENT_LINE.test(l)).join('\n');
    h.names = new Set([...h.names].filter((n) => wordPattern(n).test(code)));
    const scopes = new Map<string, Set<string>>();
    lines.forEach((l, i) => {
      // Imports sit together at the top of a file: they name types, they list nothing.
      if (COMMENT_LINE.test(l) || IMPORT_LINE.test(l)) return;
      for (const n of h.names) {
        if (!wordPattern(n).test(l)) continue;
        // A method's parameters are its own (`def decode(self, websocket: WebSocket)`), not its class's.
        const at = enclosingScope(lines, i + 1, true);
        const scope = at ? `${at.name}@${at.line}` : '';
        scopes.set(scope, (scopes.get(scope) ?? new Set<string>()).add(n));
      }
    });
    if (Math.max(0, ...[...scopes.values()].map((x) => x.size)) >= Math.min(3, h.names.size)) together.add(h);
  }
  const sites = candidates.filter((h) => h.names.size >= least && together.has(h)).sort((a, b) =>
    b.names.size - a.names.size || (a.path < b.path ? -1 : 1)
  ).slice(0, 2);
  // The line where they are listed together (a switch over them, a list literal), not the file's first use of one;
  // a file that only imports them lists nothing.
  const listed: typeof sites = [];
  for (const site of sites) {
    const lines = ((await ctx.read(site.path)) ?? '').split('\n');
    const names = [...site.names].map(wordPattern);
    // Else the first line that uses one: an import line names a type without listing it.
    const at = listedTogether(lines, [...site.names])
      ?? lines.findIndex((l) => !IMPORT_LINE.test(l) && !COMMENT_LINE.test(l) && names.some((re) => re.test(l))) + 1;
    // Type checks (`is Feed`, `as? Folder`, `instanceof`) ask what a value is; they do not list where new types are added
    // (a read filter's `is Feed` exceptions are no registry of fetchers).
    if (at && !onlyTypeChecks(lines.slice(at - 1, at + 11), [...site.names])) listed.push({ ...site, line: at });
  }
  return listed;
}

const COMMENT_LINE = /^\s*(\/\/|\/\*|\*|#(?![\[!]|import|include))/;

/** The first line of the 12-line window that names the most of `names` (at least two), if one does; import lines do not count. */
export function listedTogether(lines: readonly string[], names: readonly string[]): number | undefined {
  const res = names.map(wordPattern);
  // A doc comment that mentions them (a DocC link ``CroppingImageProcessor/init(size:anchor:)``) lists nothing either.
  const per = lines.map((
    l,
  ) => (IMPORT_LINE.test(l) || COMMENT_LINE.test(l)
    ? []
    : res.map((re, i) => (re.test(l) ? i : -1)).filter((i) => i >= 0))
  );
  let best: { line: number; count: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    if (!per[i].length) continue;
    const seen = new Set<number>();
    for (let j = i; j < Math.min(lines.length, i + 12); j++) for (const k of per[j]) seen.add(k);
    if (seen.size >= 2 && (!best || seen.size > best.count)) best = { line: i + 1, count: seen.size };
  }
  return best?.line;
}

/** Every mention of the names in these lines is a type check (`is X`, `as? X`, `instanceof X`, `isinstance(v, X)`) or a type annotation (`item: X`); a `case` of a switch over them is not one. */
export function onlyTypeChecks(lines: readonly string[], names: readonly string[]): boolean {
  let mentions = 0;
  for (const l of lines) {
    for (const n of names) {
      const all = l.match(new RegExp(`\\b${escapeName(n)}\\b`, 'g'))?.length ?? 0;
      // A type check, or a parameter's type annotation (`_ item: SidebarItem?`): neither lists anything.
      // A `switch` that dispatches on them (`case let r as UploadRequest:`, a `perform(_:)` that switches on the request) lists them.
      const checks = /^\s*case\b/.test(l)
        ? 0
        : l.match(
          new RegExp(
            `(?:\\bis\\s+|\\bas[?!]?\\s+|\\binstanceof\\s+|\\bisinstance\\s*\\([^,()]+,\\s*\\(?(?:[\\w.]+\\s*,\\s*)*|\\w\\s*:\\s*)${
              escapeName(n)
            }\\b`,
            'g',
          ),
        )?.length ?? 0;
      if (all > checks) return false;
      mentions += all;
    }
  }
  return mentions > 0;
}

/** A protocol or interface whose body declares a single property and no method. */
async function onePropertyProtocol(base: Definition, ctx: AnalysisContext): Promise<boolean> {
  const lines = ((await ctx.read(base.path)) ?? '').split('\n');
  if (!/\b(protocol|interface|trait)\b/.test(lines[base.line - 1] ?? '')) return false;
  const body: string[] = [];
  for (let i = base.line; i < lines.length && !/^\s*\}/.test(lines[i]); i++) {
    if (lines[i].trim() && !/^\s*(\/\/|\*|\/\*)/.test(lines[i])) body.push(lines[i]);
  }
  return body.length === 1
    && /^\s*(?:(?:public|internal|abstract|override|nonisolated|@\w+(?:\([^)]*\))?)\s+)*(?:var|val|let)\s+\w+/.test(
      body[0],
    );
}

/** The attributes most of these Python classes set in a nested `class Meta:` (half of them at least, and two). */
async function metaAttributes(
  subs: readonly { name: string; path: string; line: number }[],
  ctx: AnalysisContext,
): Promise<string[]> {
  const counts = new Map<string, number>();
  for (const s of subs) {
    const lines = ((await ctx.read(s.path)) ?? '').split('\n');
    const indent = (l: string) => /^\s*/.exec(l)![0].length;
    const own = indent(lines[s.line - 1] ?? '');
    const seen = new Set<string>();
    for (let i = s.line; i < lines.length; i++) {
      if (lines[i].trim() && indent(lines[i]) <= own) break;
      if (!/^\s*class\s+Meta\s*[:(]/.test(lines[i])) continue;
      const depth = indent(lines[i]);
      for (let j = i + 1; j < lines.length && (!lines[j].trim() || indent(lines[j]) > depth); j++) {
        const a = /^\s*(\w+)\s*=/.exec(lines[j])?.[1];
        if (a && indent(lines[j]) > depth) seen.add(a);
      }
    }
    for (const a of seen) counts.set(a, (counts.get(a) ?? 0) + 1);
  }
  const least = Math.max(2, Math.ceil(subs.length / 2));
  return [...counts].filter(([, n]) => n >= least).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([a]) => a)
    .slice(0, 3);
}

/** Anonymous implementations of a Java or Kotlin base in the production code (`new Base<T>() {`, `object : Base`), when there are two or more. */
async function anonymousImplementations(
  name: string,
  fam: Family,
  ctx: AnalysisContext,
): Promise<{ count: number; files: string[] } | undefined> {
  const ext = fam === 'java' ? /\.java$/ : /\.kts?$/;
  const re = fam === 'java'
    ? new RegExp(`\\bnew\\s+${escapeName(name)}\\s*(?:<[^;{}()]*>)?\\s*\\(\\s*\\)\\s*\\{`, 'g')
    : new RegExp(`\\bobject\\s*:\\s*${escapeName(name)}\\b`, 'g');
  const files = new Map<string, number>();
  for (const f of ctx.listing.filter((p) => ext.test(p) && pathKind(p) === 'production').slice(0, 3000)) {
    const text = (await ctx.read(f)) ?? '';
    if (!text.includes(name)) continue;
    const n = text.match(re)?.length ?? 0;
    if (n) files.set(f, n);
  }
  const count = [...files.values()].reduce((a, b) => a + b, 0);
  return count >= 2 ? { count, files: [...files.keys()].sort((a, b) => files.get(b)! - files.get(a)!) } : undefined;
}
