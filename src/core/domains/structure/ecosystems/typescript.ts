import { parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { dirOf, DiscoveryContext, isSamplePath, joinRel, lineOf } from '../context';
import type { Target } from '../types';
import { compact, isRecord } from './npm';

interface Project {
  file: string;
  json: Record<string, unknown>;
  text: string;
  refs: { file: string; line: number }[];
}

/**
 * TypeScript project references: every project a `references` list names is a target, and so is a
 * project that has references and files of its own (a "solution" config with `files: []` is not).
 */
export async function discoverTypeScript(ctx: DiscoveryContext): Promise<Target[]> {
  const configs = ctx.files.filter((f) => /(^|\/)tsconfig[\w.-]*\.json$/.test(f) && !isSamplePath(dirOf(f)));
  const projects = new Map<string, Project>();
  const load = async (file: string): Promise<Project | undefined> => {
    if (projects.has(file)) return projects.get(file);
    const text = await ctx.read(file);
    if (text === undefined) return undefined;
    const errors: ParseError[] = [];
    const json = parseJsonc(text, errors, { allowTrailingComma: true }) as unknown;
    if (!isRecord(json)) {
      ctx.problem(file, 'not a JSON object');
      return undefined;
    }
    const refs: Project['refs'] = [];
    const list = Array.isArray(json.references) ? json.references : [];
    let from = text.indexOf('"references"');
    for (const r of list) {
      if (!isRecord(r) || typeof r.path !== 'string') continue;
      const target = joinRel(dirOf(file), r.path);
      const resolved = target.endsWith('.json') ? target : joinRel(target, 'tsconfig.json');
      const line = lineOf(text, r.path, Math.max(0, from));
      from = Math.max(from, text.indexOf(r.path, Math.max(0, from)) + 1);
      refs.push({ file: resolved, line });
    }
    const p: Project = { file, json, text, refs };
    projects.set(file, p);
    return p;
  };

  const members = new Set<string>();
  for (const c of configs) {
    const p = await load(c);
    if (!p || p.refs.length === 0) continue;
    if (!isSolution(p.json)) members.add(p.file);
    for (const r of p.refs) {
      if (!ctx.has(r.file)) {
        ctx.problem(p.file, `the reference at line ${r.line} points to ${r.file}, which does not exist`);
        continue;
      }
      members.add(r.file);
    }
  }
  const targets: Target[] = [];
  for (const file of [...members].sort()) {
    const p = await load(file);
    if (!p) continue;
    const opts = isRecord(p.json.compilerOptions) ? p.json.compilerOptions : {};
    targets.push({
      name: projectName(file),
      ecosystem: 'typescript',
      kind: /(^|\/)(tests?|e2e)(\/|$)/.test(dirOf(file)) ? 'test' : 'library',
      manifest: file,
      dir: dirOf(file),
      language: 'typescript',
      dependencies: p.refs
        .filter((r) => members.has(r.file))
        .map((r) => ({
          name: projectName(r.file),
          target: projectName(r.file),
          scope: 'build' as const,
          evidence: `${file}:${r.line}`,
        })),
      metadata: compact({
        tsconfig: file,
        composite: opts.composite,
        rootDir: opts.rootDir,
        outDir: opts.outDir,
        strict: opts.strict,
        module: opts.module,
        target: opts.target,
        extends: p.json.extends,
      }),
    });
  }
  return targets;
}

function isSolution(json: Record<string, unknown>): boolean {
  return Array.isArray(json.files) && json.files.length === 0 && !Array.isArray(json.include);
}

/** `packages/core` for `packages/core/tsconfig.json`; the file path without `.json` for other names. */
export function projectName(file: string): string {
  if (file.endsWith('/tsconfig.json') || file === 'tsconfig.json') return dirOf(file) || '.';
  return file.replace(/\.json$/, '');
}
