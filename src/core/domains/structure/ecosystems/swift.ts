import { blankComments } from '../../../ground/text/comments';
import { dirOf, DiscoveryContext, joinRel, lineAt } from '../context';
import type { Target, TargetDependency, TargetKind } from '../types';
import { compact } from './npm';

const TARGET_CALLS: Record<string, TargetKind> = {
  target: 'library',
  executableTarget: 'app',
  testTarget: 'test',
  macro: 'plugin',
  plugin: 'plugin',
  systemLibrary: 'library',
  binaryTarget: 'library',
};

interface SwiftTarget {
  target: Target;
  deps: { expr: string; line: number }[];
}

interface SwiftPackage {
  manifest: string;
  dir: string;
  name: string;
  products: Map<string, string[]>;
  targets: SwiftTarget[];
}

/** Swift packages: each `.target`, `.executableTarget`, `.testTarget`… of every Package.swift. */
export async function discoverSwift(ctx: DiscoveryContext): Promise<Target[]> {
  const packages: SwiftPackage[] = [];
  for (const manifest of ctx.named('Package.swift')) {
    const raw = await ctx.read(manifest);
    if (raw === undefined) continue;
    packages.push(readPackage(ctx, manifest, raw));
  }
  for (const pkg of packages) {
    for (const t of pkg.targets) {
      // A test target's dependencies are test dependencies, as Gradle's testImplementation and Cargo's dev-dependencies are.
      t.target.dependencies = t.deps.map((d) => resolve(pkg, packages, d.expr, `${pkg.manifest}:${d.line}`)).filter((
        d,
      ): d is TargetDependency => !!d).map((d) => (t.target.kind === 'test' ? { ...d, scope: 'test' as const } : d));
    }
  }
  const all = packages.flatMap((p) => p.targets.map((t) => ({ pkg: p, t: t.target })));
  const count = new Map<string, number>();
  for (const { t } of all) count.set(t.name, (count.get(t.name) ?? 0) + 1);
  const renamed = new Map<Target, string>();
  for (const { pkg, t } of all) renamed.set(t, (count.get(t.name) ?? 0) > 1 ? `${pkg.name}/${t.name}` : t.name);
  const byOld = new Map<string, Target>();
  for (const { pkg, t } of all) byOld.set(`${pkg.manifest}\u0000${t.name}`, t);
  for (const { t } of all) {
    for (const d of t.dependencies) {
      if (!d.target) continue;
      const [manifest, name] = d.target.split('\u0000');
      const target = byOld.get(`${manifest}\u0000${name}`);
      d.target = target ? renamed.get(target) : undefined;
    }
  }
  for (const { t } of all) t.name = renamed.get(t) ?? t.name;
  return all.map((a) => a.t);
}

function readPackage(ctx: DiscoveryContext, manifest: string, raw: string): SwiftPackage {
  const dir = dirOf(manifest);
  const text = blankComments(raw, 'swift');
  const toolsVersion = /swift-tools-version\s*:\s*([\d.]+)/.exec(raw)?.[1];
  const pkgCall = calls(text, ['Package']).find((c) => c.name === 'Package');
  const name = (pkgCall && stringValue(labelArg(pkgCall.args, 'name'))) ?? (dir.split('/').pop() || 'Package');
  const platforms = [
    ...(pkgCall ? labelArg(pkgCall.args, 'platforms') ?? '' : '').matchAll(
      /\.(iOS|macOS|tvOS|watchOS|visionOS|macCatalyst|driverKit|linux)\s*\(([^)]*)\)/g,
    ),
  ].map((m) => `${m[1]} ${m[2].replace(/^\s*"?\.?v?|"?\s*$/g, '').replace(/_/g, '.')}`);
  const products = new Map<string, string[]>();
  for (const c of calls(text, ['library', 'executable'])) {
    const pname = stringValue(labelArg(c.args, 'name'));
    const targets = strings(labelArg(c.args, 'targets') ?? '');
    if (pname) products.set(pname, targets);
  }
  const decls = calls(text, Object.keys(TARGET_CALLS)).filter((c, _i, list) =>
    !list.some((o) => o !== c && o.start < c.start && c.end <= o.end)
  );
  const targets: SwiftTarget[] = [];
  for (const c of decls) {
    const tname = stringValue(labelArg(c.args, 'name'));
    if (!tname) continue;
    const kind = TARGET_CALLS[c.name];
    const custom = stringValue(labelArg(c.args, 'path'));
    const tdir = custom !== undefined ? joinRel(dir, custom) : defaultDir(ctx, dir, tname, kind === 'test');
    const depsExpr = labelArg(c.args, 'dependencies');
    const depsAt = depsExpr === undefined ? -1 : text.indexOf(depsExpr, c.argsStart);
    const deps = depsExpr === undefined
      ? []
      : topLevel(inner(depsExpr, '[', ']')).map((e) => ({ expr: e.text, line: lineAt(text, depsAt + 1 + e.offset) }));
    targets.push({
      target: {
        name: tname,
        ecosystem: 'swift',
        kind,
        manifest,
        dir: tdir,
        language: sourceLanguage(ctx, tdir),
        dependencies: [],
        metadata: compact({
          package: name,
          type: c.name,
          declaredAt: `${manifest}:${lineAt(text, c.start)}`,
          path: custom,
          toolsVersion,
          platforms: platforms.length ? platforms : undefined,
          products: [...products].filter(([, ts]) => ts.includes(tname)).map(([p]) => p),
        }),
      },
      deps,
    });
  }
  return { manifest, dir, name, products, targets };
}

/**
 * A package target may be Swift, Objective-C or C: with no Xcode project to ask, the sources say
 * which (`.swift` files; else `.m`/`.mm` with their headers; else C or C++).
 */
function sourceLanguage(ctx: DiscoveryContext, dir: string): string {
  const count = (re: RegExp) => ctx.files.filter((f) => (dir === '' || f.startsWith(dir + '/')) && re.test(f)).length;
  if (count(/\.swift$/) > 0) return 'swift';
  const m = count(/\.m$/);
  const mm = count(/\.mm$/);
  if (m + mm > 0) return mm > m ? 'objective-cpp' : 'objective-c';
  if (count(/\.(cpp|cc|cxx|hpp)$/) > 0) return 'cpp';
  if (count(/\.[ch]$/) > 0) return 'c';
  return 'swift';
}

function defaultDir(ctx: DiscoveryContext, pkgDir: string, name: string, test: boolean): string {
  const roots = test ? ['Tests'] : ['Sources', 'Source', 'src', 'srcs'];
  for (const r of roots) {
    const d = joinRel(pkgDir, r, name);
    if (ctx.files.some((f) => f.startsWith(d + '/'))) return d;
  }
  return joinRel(pkgDir, roots[0], name);
}

function resolve(pkg: SwiftPackage, all: SwiftPackage[], expr: string, evidence: string): TargetDependency | undefined {
  const e = expr.trim();
  const ref = (p: SwiftPackage, name: string) => `${p.manifest}\u0000${name}`;
  if (e.startsWith('"') || /^\.(target|byName)\s*\(/.test(e)) {
    const name = e.startsWith('"') ? stringValue(e) : stringValue(labelArg(inner(e, '(', ')'), 'name'));
    if (!name) return undefined;
    if (pkg.targets.some((t) => t.target.name === name)) {
      return { name, target: ref(pkg, name), scope: 'prod', evidence };
    }
    const other = all.find((p) => p !== pkg && p.products.has(name));
    const first = other?.products.get(name)?.[0];
    return { name, ...(other && first ? { target: ref(other, first) } : {}), scope: 'prod', evidence };
  }
  if (/^\.product\s*\(/.test(e)) {
    const args = inner(e, '(', ')');
    const name = stringValue(labelArg(args, 'name'));
    const pkgName = stringValue(labelArg(args, 'package'));
    if (!name) return undefined;
    const other = all.find((p) =>
      p !== pkg
      && (p.name.toLowerCase() === pkgName?.toLowerCase()
        || p.dir.split('/').pop()?.toLowerCase() === pkgName?.toLowerCase())
    );
    const first = other?.products.get(name)?.[0]
      ?? (other?.targets.some((t) => t.target.name === name) ? name : undefined);
    return {
      name: pkgName ? `${pkgName}/${name}` : name,
      ...(other && first ? { target: ref(other, first) } : {}),
      scope: 'prod',
      evidence,
    };
  }
  return undefined;
}

interface Call {
  name: string;
  start: number;
  argsStart: number;
  end: number;
  args: string;
}

/** Every `.name(` / `name(` call among `names`, with its argument text (balanced, strings skipped). */
function calls(text: string, names: string[]): Call[] {
  const re = new RegExp(`(?:^|[^\\w])\\.?(${names.join('|')})\\s*\\(`, 'g');
  const out: Call[] = [];
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const open = m.index + m[0].length - 1;
    const close = matching(text, open);
    out.push({
      name: m[1],
      start: m.index + m[0].indexOf(m[1]),
      argsStart: open + 1,
      end: close,
      args: text.slice(open + 1, close),
    });
  }
  return out;
}

/** Index of the bracket closing the one at `open`, skipping string literals. */
function matching(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"') i = endOfString(text, i);
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return text.length;
}

function endOfString(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === '"' || text[j] === '\n') return j;
  }
  return text.length;
}

/** Elements of a comma-separated list at bracket depth 0, with their offsets. */
function topLevel(s: string): { text: string; offset: number }[] {
  const out: { text: string; offset: number }[] = [];
  let depth = 0;
  let startAt = 0;
  for (let i = 0; i <= s.length; i++) {
    const c = s[i];
    if (c === '"') i = endOfString(s, i);
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if ((c === ',' && depth === 0) || i === s.length) {
      const piece = s.slice(startAt, i);
      if (piece.trim()) out.push({ text: piece.trim(), offset: startAt + piece.search(/\S/) });
      startAt = i + 1;
    }
  }
  return out;
}

/** The value of `label:` among a call's arguments. */
function labelArg(args: string, label: string): string | undefined {
  for (const el of topLevel(args)) {
    const m = new RegExp(`^${label}\\s*:\\s*`).exec(el.text);
    if (m) return el.text.slice(m[0].length);
  }
  return undefined;
}

function inner(expr: string, open: string, close: string): string {
  const a = expr.indexOf(open);
  const b = expr.lastIndexOf(close);
  return a >= 0 && b > a ? expr.slice(a + 1, b) : '';
}

function stringValue(expr: string | undefined): string | undefined {
  const m = expr ? /^\s*"((?:[^"\\]|\\.)*)"/.exec(expr) : null;
  return m ? m[1] : undefined;
}

function strings(expr: string): string[] {
  return [...expr.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]);
}
