// `autosnippet skills …`: validate, list, load and search skills from the command line.
import path from 'node:path';
import { isAutoSnippetError } from '../core/errors';
import { skillRegistry } from '../core/skills/registry';
import { renderLevel2, renderRoutingXml, summaryOf } from '../core/skills/render';
import { listSkillResources } from '../core/skills/resources';
import { skillSearchIndex } from '../core/skills/search';
import type { SkillProblem } from '../core/skills/types';
import { errorCount, validateSkillsIn, type SkillValidation } from '../core/skills/validate';
import type { Workspace } from '../core/workspace';

export const SKILLS_USAGE = `Usage: autosnippet skills <command>

Commands:
  validate [dir] [--json]     check SKILL.md files against the Agent Skills specification and the
                              <chunk> syntax. dir: a skill folder, a folder of skills, or a workspace
                              (default: this workspace's .autosnippet, .github, .claude and .agents skills).
                              Exit 1 when there is an error; warnings do not fail.
  list [--json]               the skills this workspace sees, by source, with shadowed and skipped ones
  load <name> [--section S] [--chunk C]
                              print a skill's instructions (level 2) with its chunks listed,
                              one ## section of it, or one chunk (level 3)
  search "<task>" [--xml] [--limit N]
                              the skills that fit a task, best first, as {"no_match",
                              "matched_skills": [{"name", "description", "confidence"}]}, or with
                              --xml an <available-skills> block to paste into an agent's prompt
                              (it says so when no skill fits)
  -h, --help                  this help

Exit codes: 0 success, 1 validation errors or a failed command, 2 usage error.
`;

export interface CommandOutput {
  stdout(s: string): void;
  stderr(s: string): void;
}

class SkillsUsageError extends Error {}

export async function skillsCommand(args: string[], ws: () => Promise<Workspace>, out: CommandOutput): Promise<number> {
  const [command, ...rest] = args;
  try {
    switch (command) {
      case undefined:
        out.stderr(SKILLS_USAGE);
        return 2;
      case '-h':
      case '--help':
      case 'help':
        out.stdout(SKILLS_USAGE);
        return 0;
      case 'validate':
        return await validate(rest, ws, out);
      case 'list':
        return await list(rest, ws, out);
      case 'load':
        return await load(rest, ws, out);
      case 'search':
        return await search(rest, ws, out);
      default:
        throw new SkillsUsageError(`unknown skills command "${command}"`);
    }
  } catch (e) {
    if (e instanceof SkillsUsageError) {
      out.stderr(`autosnippet skills: ${e.message}\n\n${SKILLS_USAGE}`);
      return 2;
    }
    if (isAutoSnippetError(e)) {
      out.stderr(`${e.code}: ${e.message}${e.hint ? `\n${e.hint}` : ''}\n`);
      return 1;
    }
    throw e;
  }
}

/** Splits `--flag value` options from positional arguments; `flags` lists the boolean ones. */
function parseArgs(args: string[], valued: string[], flags: string[]): { positional: string[]; options: Record<string, string | true> } {
  const positional: string[] = [];
  const options: Record<string, string | true> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.startsWith('--')) {
      const [key, inline] = a.slice(2).split('=', 2);
      if (valued.includes(key)) {
        const v = inline ?? args[++i];
        if (v === undefined) throw new SkillsUsageError(`--${key} needs a value`);
        options[key] = v;
      } else if (flags.includes(key)) options[key] = true;
      else throw new SkillsUsageError(`unknown option --${key}`);
    } else positional.push(a);
  }
  return { positional, options };
}

async function validate(args: string[], ws: () => Promise<Workspace>, out: CommandOutput): Promise<number> {
  const { positional, options } = parseArgs(args, [], ['json']);
  if (positional.length > 1) throw new SkillsUsageError('validate takes at most one folder');
  let results: SkillValidation[];
  if (positional[0]) {
    results = validateSkillsIn(path.resolve(positional[0]));
  } else {
    const w = await ws();
    const registry = skillRegistry(w);
    results = validateSkillsIn(w.root, { knownNames: new Set(registry.list().map((s) => s.name)) });
  }
  const errors = results.reduce((n, r) => n + errorCount(r.problems), 0);
  if (options.json) {
    out.stdout(JSON.stringify({ skills: results.length, errors, results: results.map((r) => ({ file: r.file, problems: r.problems })) }, null, 2) + '\n');
    return errors > 0 ? 1 : 0;
  }
  if (results.length === 0) {
    out.stderr(`No skills found${positional[0] ? ` in ${positional[0]}` : ' in this workspace'} (a skill is a folder with a SKILL.md).\n`);
    return 0;
  }
  let warnings = 0;
  for (const r of results) {
    const file = path.relative(process.cwd(), r.file) || r.file;
    for (const p of r.problems) {
      if (p.severity === 'warning') warnings++;
      out.stdout(formatProblem(file, p) + '\n');
    }
  }
  out.stdout(`${results.length} skill${results.length === 1 ? '' : 's'} checked: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}.\n`);
  return errors > 0 ? 1 : 0;
}

export function formatProblem(file: string, p: SkillProblem): string {
  return `${file}:${p.line ?? 1}: ${p.severity} [${p.rule}] ${p.message}`;
}

async function list(args: string[], ws: () => Promise<Workspace>, out: CommandOutput): Promise<number> {
  const { positional, options } = parseArgs(args, [], ['json']);
  if (positional.length) throw new SkillsUsageError('list takes no arguments');
  const registry = skillRegistry(await ws());
  const skills = registry.list();
  if (options.json) {
    out.stdout(JSON.stringify({
      skills: skills.map((s) => ({ name: s.name, description: s.description, source: s.source.id, path: s.file })),
      shadowed: registry.shadowed().map((x) => ({ name: x.skill.name, source: x.skill.source.id, path: x.skill.file, shadowedBy: x.shadowedBy.source })),
      skipped: registry.skipped().map((x) => ({ path: x.file, source: x.source.id, reason: x.reason })),
    }, null, 2) + '\n');
    return 0;
  }
  const width = Math.min(40, Math.max(0, ...skills.map((s) => s.name.length)));
  for (const source of registry.sources) {
    const own = skills.filter((s) => s.source === source);
    if (own.length === 0) continue;
    out.stdout(`${source.label}\n`);
    for (const s of own) out.stdout(`  ${s.name.padEnd(width)}  ${summaryOf(s, 100)}\n`);
  }
  if (skills.length === 0) out.stdout('No skills found. Add a folder with a SKILL.md under .autosnippet/skills.\n');
  for (const x of registry.shadowed()) out.stdout(`shadowed: ${x.skill.name} in ${x.skill.source.label} (hidden by ${x.shadowedBy.source})\n`);
  for (const x of registry.skipped()) out.stdout(`skipped: ${x.file}: ${x.reason}\n`);
  return 0;
}

async function load(args: string[], ws: () => Promise<Workspace>, out: CommandOutput): Promise<number> {
  const { positional, options } = parseArgs(args, ['section', 'chunk'], []);
  if (positional.length !== 1) throw new SkillsUsageError('load takes one skill name: autosnippet skills load <name> [--section S] [--chunk C]');
  if (options.section && options.chunk) throw new SkillsUsageError('give --section or --chunk, not both');
  const skill = skillRegistry(await ws()).require(positional[0]);
  if (typeof options.chunk === 'string') {
    const id = options.chunk;
    const chunk = skill.chunks.find((c) => c.id === id);
    if (!chunk) {
      out.stderr(`CHUNK_NOT_FOUND: Skill "${skill.name}" has no chunk "${id}". Its chunks: ${skill.chunks.map((c) => c.id).join(', ') || '(none)'}.\n`);
      return 1;
    }
    out.stdout(chunk.content + '\n');
    return 0;
  }
  out.stdout(renderLevel2(skill, { section: typeof options.section === 'string' ? options.section : undefined, resources: listSkillResources(skill.dir) }) + '\n');
  return 0;
}

async function search(args: string[], ws: () => Promise<Workspace>, out: CommandOutput): Promise<number> {
  const { positional, options } = parseArgs(args, ['limit'], ['xml']);
  const query = positional.join(' ').trim();
  if (!query) throw new SkillsUsageError('search needs a task in words: autosnippet skills search "set up guard rules"');
  const limit = options.limit === undefined ? 5 : Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1) throw new SkillsUsageError('--limit must be a positive whole number');
  const routing = skillSearchIndex(skillRegistry(await ws()).list()).route(query, limit);
  if (options.xml) {
    out.stdout(renderRoutingXml(routing) + '\n');
  } else {
    out.stdout(JSON.stringify({ no_match: routing.noMatch, matched_skills: routing.matches.map((m) => ({ name: m.skill.name, description: m.skill.description, confidence: m.confidence })) }, null, 2) + '\n');
  }
  return 0;
}
