// `autosnippet skills …`: validate, list, load and search skills from the command line. List, load and
// search are the catalog's list_skills, load_skill(_chunk) and search_skills, as a person.
import path from 'node:path';
import { createCatalog, type ToolResult } from '../core/catalog';
import {
  errorCount,
  renderRoutingXml,
  type SkillProblem,
  skillRegistry,
  validateSkillTarget,
} from '../core/catalog/adapters';
import { listSkills, loadSkill, loadSkillChunk, searchSkillsTool } from '../core/catalog/skills';
import { isAutoSnippetError } from '../core/ground/kernel/errors';
import type { Workspace } from '../core/ground/workspace';
import { parse, UsageError, wholeNumber } from './args';

export const SKILLS_USAGE = `Usage: autosnippet skills <command>

Commands:
  validate [path] [--json]    check SKILL.md files against the Agent Skills specification and the
                              <chunk> syntax. path: a SKILL.md, a skill folder, a folder of skills, or
                              a workspace (default: this workspace's .autosnippet, .github, .claude and
                              .agents skills). Links to folders outside it are skipped, with the reason.
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

const SkillsUsageError = UsageError;

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
    if (e instanceof ToolFailure) {
      const { code, message, hint } = e.result.error;
      out.stderr(`${code}: ${message}${hint ? `\n${hint}` : ''}\n`);
      return 1;
    }
    if (isAutoSnippetError(e)) {
      out.stderr(`${e.code}: ${e.message}${e.hint ? `\n${e.hint}` : ''}\n`);
      return 1;
    }
    throw e;
  }
}

/** Refusals of a tool become the CLI's error (exit 1). */
class ToolFailure extends Error {
  constructor(readonly result: Extract<ToolResult, { ok: false }>) {
    super(result.error.message);
  }
}

function dataOf<T>(result: ToolResult<T>): T {
  if (!result.ok) throw new ToolFailure(result);
  return result.data;
}

const person = { actor: 'human', channel: 'cli' } as const;

async function validate(args: string[], ws: () => Promise<Workspace>, out: CommandOutput): Promise<number> {
  const { positionals: positional, values: options } = parse(args, { json: { type: 'boolean' } });
  if (positional.length > 1) throw new SkillsUsageError('validate takes at most one path');
  let checked: ReturnType<typeof validateSkillTarget>;
  if (positional[0]) {
    checked = validateSkillTarget(path.resolve(positional[0]));
  } else {
    const w = await ws();
    const registry = skillRegistry(w);
    checked = validateSkillTarget(w.root, { knownNames: new Set(registry.list().map((s) => s.name)) });
  }
  const { results, skipped } = checked;
  const errors = results.reduce((n, r) => n + errorCount(r.problems), 0);
  if (options.json) {
    out.stdout(
      JSON.stringify(
        {
          skills: results.length,
          errors,
          results: results.map((r) => ({ file: r.file, problems: r.problems })),
          skipped,
        },
        null,
        2,
      ) + '\n',
    );
    return errors > 0 ? 1 : 0;
  }
  for (const x of skipped) out.stdout(`skipped: ${x.path}: ${x.reason}\n`);
  if (results.length === 0) {
    out.stderr(
      `No skills found${
        positional[0] ? ` in ${positional[0]}` : ' in this workspace'
      } (a skill is a folder with a SKILL.md).\n`,
    );
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
  out.stdout(
    `${results.length} skill${results.length === 1 ? '' : 's'} checked: ${errors} error${
      errors === 1 ? '' : 's'
    }, ${warnings} warning${warnings === 1 ? '' : 's'}.\n`,
  );
  return errors > 0 ? 1 : 0;
}

export function formatProblem(file: string, p: SkillProblem): string {
  return `${file}:${p.line ?? 1}: ${p.severity} [${p.rule}] ${p.message}`;
}

/** Source ids as people read them. */
const SOURCE_LABELS: Record<string, string> = {
  project: 'Project (.autosnippet/skills)',
  github: 'GitHub (.github/skills)',
  claude: 'Claude (.claude/skills)',
  agents: 'Agents (.agents/skills)',
  bundled: 'Bundled with AutoSnippet',
};

async function list(args: string[], ws: () => Promise<Workspace>, out: CommandOutput): Promise<number> {
  const { positionals, values } = parse(args, { json: { type: 'boolean' } });
  if (positionals.length) throw new SkillsUsageError('list takes no arguments');
  const w = await ws();
  const catalog = createCatalog();
  /** Every page of list_skills: the skills in effect, or with hidden the shadowed skills and skipped folders. */
  const all = async (hidden: boolean) => {
    const first = dataOf(await catalog.call(w, listSkills, hidden ? { hidden } : {}, person));
    const items = [...first.skills];
    for (let cursor = items.length; cursor < first.total; cursor = items.length) {
      const page = dataOf(
        await catalog.invoke(w, listSkills.name, { ...(hidden ? { hidden } : {}), cursor }, person),
      ) as typeof first;
      if (!page.skills.length) break;
      items.push(...page.skills);
    }
    return { first, items };
  };
  const { first, items } = await all(false);
  const skills = items.filter((s) => 'summary' in s);
  const hidden = first.hidden ? (await all(true)).items : [];
  const shadowed = hidden.filter((x) => 'shadowedBy' in x);
  const skipped = hidden.filter((x) => 'skipped' in x).map((x) => ({
    path: x.path,
    source: x.source,
    reason: x.skipped,
  }));
  if (values.json) {
    out.stdout(JSON.stringify({ skills, shadowed, skipped }, null, 2) + '\n');
    return 0;
  }
  const width = Math.min(40, Math.max(0, ...skills.map((s) => s.name.length)));
  for (const source of Object.keys(SOURCE_LABELS)) {
    const own = skills.filter((s) => s.source === source);
    if (own.length === 0) continue;
    out.stdout(`${SOURCE_LABELS[source]}\n`);
    for (const s of own) {
      out.stdout(`  ${s.name.padEnd(width)}  ${s.summary.length > 100 ? `${s.summary.slice(0, 99)}…` : s.summary}\n`);
    }
  }
  if (skills.length === 0) out.stdout('No skills found. Add a folder with a SKILL.md under .autosnippet/skills.\n');
  for (const x of shadowed) {
    out.stdout(`shadowed: ${x.name} in ${SOURCE_LABELS[x.source] ?? x.source} (hidden by ${x.shadowedBy})\n`);
  }
  for (const x of skipped) out.stdout(`skipped: ${x.path}: ${x.reason}\n`);
  return 0;
}

async function load(args: string[], ws: () => Promise<Workspace>, out: CommandOutput): Promise<number> {
  const { positionals, values } = parse(args, { section: { type: 'string' }, chunk: { type: 'string' } });
  if (positionals.length !== 1) {
    throw new SkillsUsageError('load takes one skill name: autosnippet skills load <name> [--section S] [--chunk C]');
  }
  if (values.section !== undefined && values.chunk !== undefined) {
    throw new SkillsUsageError('give --section or --chunk, not both');
  }
  const catalog = createCatalog();
  const w = await ws();
  if (typeof values.chunk === 'string') {
    out.stdout(
      dataOf(await catalog.call(w, loadSkillChunk, { skill: positionals[0], chunk: values.chunk }, person)).content
        + '\n',
    );
    return 0;
  }
  const result = await catalog.call(w, loadSkill, {
    name: positionals[0],
    ...(typeof values.section === 'string' ? { section: values.section } : {}),
  }, person);
  dataOf(result);
  // The same Markdown a model reads: the body as written, then the chunks, files and related skills.
  out.stdout(catalog.resultText(result) + '\n');
  return 0;
}

async function search(args: string[], ws: () => Promise<Workspace>, out: CommandOutput): Promise<number> {
  const { positionals, values } = parse(args, { limit: { type: 'string' }, xml: { type: 'boolean' } });
  const query = positionals.join(' ').trim();
  if (!query) {
    throw new SkillsUsageError('search needs a task in words: autosnippet skills search "set up guard rules"');
  }
  const limit = wholeNumber(values.limit as string | undefined, '--limit', 1) ?? 5;
  const w = await ws();
  const found = dataOf(await createCatalog().call(w, searchSkillsTool, { query, limit }, person));
  if (values.xml) {
    // The same ranking as the tool; the block is rendered from the skills it names, with their location.
    const registry = skillRegistry(w);
    const matches = found.matched_skills.map((m) => ({
      skill: registry.require(m.name),
      confidence: m.confidence ?? 0,
    }));
    const nearest = found.nearest
      ? { skill: registry.require(found.nearest.name), confidence: found.nearest.confidence }
      : undefined;
    out.stdout(renderRoutingXml({ matches, noMatch: found.no_match, nearest }) + '\n');
  } else {
    out.stdout(
      JSON.stringify(
        {
          no_match: found.no_match,
          matched_skills: found.matched_skills.map((m) => ({
            name: m.name,
            description: m.description,
            confidence: m.confidence,
          })),
        },
        null,
        2,
      ) + '\n',
    );
  }
  return 0;
}
