import { dirOf, DiscoveryContext, isSamplePath, isTestDataPath, joinRel } from '../context';
import type { Target, TargetDependency } from '../types';
import { compact } from './npm';

interface GoMod {
  manifest: string;
  dir: string;
  module: string;
  go?: string;
  toolchain?: string;
  requires: { path: string; version: string; line: number; indirect: boolean }[];
  replaces: { from: string; to: string; line: number }[];
}

/**
 * Go: every module (go.mod) outside test data; go.work says which are in the workspace. A module in an
 * examples or tutorials folder is a sample app (`examples/`, `tutorial/`), as the other
 * ecosystems' samples are.
 */
export async function discoverGo(ctx: DiscoveryContext): Promise<Target[]> {
  const workUses = new Map<string, string>();
  for (const w of ctx.named('go.work')) {
    const text = await ctx.read(w);
    if (text === undefined) continue;
    for (const u of directives(text, 'use')) workUses.set(joinRel(dirOf(w), u.args[0] ?? ''), w);
  }
  const mods: GoMod[] = [];
  for (const m of ctx.named('go.mod', true)) {
    const dir = dirOf(m);
    if ((TEST_DATA.test(dir) || isTestDataPath(dir)) && !workUses.has(dir)) continue;
    const text = await ctx.read(m);
    if (text === undefined) continue;
    const mod = parseGoMod(m, text);
    if (!mod.module) ctx.problem(m, 'no module directive');
    else mods.push(mod);
  }
  const byPath = new Map(mods.map((m) => [m.module, m]));
  const byDir = new Map(mods.map((m) => [m.dir, m]));
  const kinds = new Map<GoMod, 'app' | 'library' | 'test'>();
  for (const m of mods) kinds.set(m, await kindOf(ctx, m));
  return mods.map((m) => {
    const dependencies: TargetDependency[] = m.requires.map((r) => {
      const rep = m.replaces.find((x) => x.from === r.path);
      const local = byPath.get(r.path)
        ?? (rep && /^\.\.?\//.test(rep.to) ? byDir.get(joinRel(m.dir, rep.to)) : undefined);
      return {
        name: r.path,
        ...(local && local !== m ? { target: local.module } : {}),
        scope: r.indirect ? 'optional' as const : 'prod' as const,
        version: r.version,
        evidence: `${m.manifest}:${r.line}`,
      };
    });
    return {
      name: m.module,
      ecosystem: 'go' as const,
      kind: kinds.get(m)!,
      manifest: m.manifest,
      dir: m.dir,
      language: 'go',
      dependencies,
      metadata: compact({
        module: m.module,
        go: m.go,
        toolchain: m.toolchain,
        workspace: workUses.get(m.dir),
        replaces: m.replaces.length ? m.replaces.map((r) => `${r.from} => ${r.to}`) : undefined,
        commands: ctx.files.filter((f) => f.startsWith(joinRel(m.dir, 'cmd') + '/') && f.endsWith('/main.go')).map((
          f,
        ) => dirOf(f)).slice(0, 20),
      }),
    };
  });
}

/**
 * An app when the module's root package is `main`, or it has commands under cmd/ and most of its
 * other code is internal/ (nothing outside can import it); a test fixture when it sits in
 * a dummy, mock or testdata folder; else a library.
 */
/** Folders of test inputs: their modules are no targets. */
const TEST_DATA = /(^|\/)(fixtures?|__fixtures__|testdata|test-data)(\/|$)/i;

async function kindOf(ctx: DiscoveryContext, m: GoMod): Promise<'app' | 'library' | 'test'> {
  if (/(^|\/)(testdata|dummy|mocks?|fixtures?)(\/|$)/.test(m.dir)) return 'test';
  if (isSamplePath(m.dir)) return 'app';
  const rootFile = ctx.files.find((f) => dirOf(f) === m.dir && f.endsWith('.go') && !f.endsWith('_test.go'));
  if (rootFile) return /^\s*package\s+main\b/m.test((await ctx.read(rootFile)) ?? '') ? 'app' : 'library';
  // Files of a module nested inside this one (a `docker/dummy/<service>` module) are that module's.
  const nested = ctx.files.filter((f) =>
    f.endsWith('/go.mod') && dirOf(f) !== m.dir && (m.dir === '' || f.startsWith(m.dir + '/'))
  ).map((f) => dirOf(f) + '/');
  const packages = ctx.files.filter((f) =>
    f.startsWith(m.dir === '' ? '' : m.dir + '/') && f.endsWith('.go') && !f.endsWith('_test.go')
    && !nested.some((n) => f.startsWith(n))
  );
  const cmd = joinRel(m.dir, 'cmd') + '/';
  const commands = packages.filter((f) => f.startsWith(cmd));
  const internal = packages.filter((f) => f.startsWith(joinRel(m.dir, 'internal') + '/'));
  return packages.length
      && (commands.length === packages.length
        || (commands.length > 0 && internal.length > (packages.length - commands.length) / 2))
    ? 'app'
    : 'library';
}

export function parseGoMod(manifest: string, text: string): GoMod {
  const mod: GoMod = { manifest, dir: dirOf(manifest), module: '', requires: [], replaces: [] };
  for (const d of directives(text, 'module')) mod.module ||= unquote(d.args[0] ?? '');
  for (const d of directives(text, 'go')) mod.go = d.args[0];
  for (const d of directives(text, 'toolchain')) mod.toolchain = d.args[0];
  for (const d of directives(text, 'require')) {
    if (d.args.length >= 2) {
      mod.requires.push({
        path: unquote(d.args[0]),
        version: d.args[1],
        line: d.line,
        indirect: /\/\/\s*indirect/.test(d.comment),
      });
    }
  }
  for (const d of directives(text, 'replace')) {
    const arrow = d.args.indexOf('=>');
    if (arrow > 0) mod.replaces.push({ from: unquote(d.args[0]), to: unquote(d.args[arrow + 1] ?? ''), line: d.line });
  }
  return mod;
}

/** Each use of a directive, single-line (`require x v1`) or in a block (`require ( … )`), with its line. */
function directives(text: string, verb: string): { args: string[]; line: number; comment: string }[] {
  const out: { args: string[]; line: number; comment: string }[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const { code } = split(lines[i]);
    const m = new RegExp(`^\\s*${verb}(?=\\s|\\()\\s*(.*)$`).exec(code);
    if (!m) continue;
    if (m[1].trim() === '(') {
      for (i++; i < lines.length; i++) {
        const { code: c, comment } = split(lines[i]);
        if (c.trim() === ')') break;
        if (c.trim()) out.push({ args: c.trim().split(/\s+/), line: i + 1, comment });
      }
    } else out.push({ args: m[1].trim().split(/\s+/), line: i + 1, comment: split(lines[i]).comment });
  }
  return out;
}

function split(line: string): { code: string; comment: string } {
  const at = line.indexOf('//');
  return at < 0 ? { code: line, comment: '' } : { code: line.slice(0, at), comment: line.slice(at) };
}

function unquote(s: string): string {
  return s.replace(/^["`]|["`]$/g, '');
}
