import { existsSync, statSync } from 'node:fs';
import { readRepoFileSync, skillBoundary } from '../../ground/files';
import path from 'node:path';
import { AutoSnippetError } from '../../ground/kernel/errors';
import { scanSkillRoot, skillFileIn, type PassedOver } from './discover';
import { normalizeText, readFrontmatter } from './frontmatter';
import { nameProblems } from './names';
import { parseBody } from './parse';
import { WORKSPACE_SKILL_FOLDERS } from './registry';
import type { SkillProblem } from './types';

/** The top-level frontmatter fields of the Agent Skills specification. */
export const KNOWN_FIELDS = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'] as const;
export const DESCRIPTION_MAX = 1024;
export const COMPATIBILITY_MAX = 500;
export const BODY_LINES_ADVISED = 500;

export interface ValidateOptions {
  /** Names of the skills that exist, to check `metadata.related`. */
  knownNames?: ReadonlySet<string>;
}

/**
 * Checks a SKILL.md against the Agent Skills specification and our chunk syntax. Stricter than the
 * loader: what the loader forgives with a warning (a name that differs from its folder) is an error
 * here, because other clients will not load such a skill.
 */
export function validateSkillText(rawText: string, folderName: string, options: ValidateOptions = {}): SkillProblem[] {
  const text = normalizeText(rawText);
  const fm = readFrontmatter(text);
  if (!fm.ok) return fm.problems;
  const { data, body, bodyLine, fieldLines } = fm.value;
  const problems: SkillProblem[] = fm.value.problems.map((p) =>
    p.rule === 'frontmatter-unquoted-colon' ? { ...p, severity: 'error', message: `${p.message} Other clients reject this YAML.` } : p,
  );
  const at = (field: string) => fieldLines[field] ?? 1;
  const add = (severity: SkillProblem['severity'], rule: string, message: string, line?: number) => problems.push({ severity, rule, message, line });

  // name
  if (data.name === undefined || data.name === null || data.name === '') {
    add('error', 'name-required', 'The frontmatter needs a `name`: the folder name, in lowercase letters, digits and hyphens.', 1);
  } else if (typeof data.name !== 'string') {
    add('error', 'name-type', 'The `name` must be a string.', at('name'));
  } else {
    for (const p of nameProblems(data.name)) add('error', p.rule, p.message, at('name'));
    if (data.name !== folderName) add('error', 'name-matches-folder', `The name "${data.name}" must equal the folder name "${folderName}".`, at('name'));
  }

  // description
  const description = data.description;
  if (description === undefined || description === null || (typeof description === 'string' && description.trim() === '')) {
    add('error', 'description-required', 'The frontmatter needs a `description`: what the skill does and when to use it.', at('description'));
  } else if (typeof description !== 'string') {
    add('error', 'description-type', 'The `description` must be a string.', at('description'));
  } else {
    if (description.length > DESCRIPTION_MAX) add('error', 'description-length', `The description is ${description.length} characters; at most ${DESCRIPTION_MAX} are allowed.`, at('description'));
    if (!/\bwhen\b/i.test(description)) add('info', 'description-use-when', 'Say when to use the skill ("Use when …"): agents choose skills by their description.', at('description'));
  }

  // other fields
  for (const key of Object.keys(data)) {
    if (!(KNOWN_FIELDS as readonly string[]).includes(key)) {
      add('error', 'field-unknown', `Unknown frontmatter field "${key}". Known fields: ${KNOWN_FIELDS.join(', ')}; put anything else under \`metadata\`.`, at(key));
    }
  }
  if (data.license !== undefined && typeof data.license !== 'string') add('error', 'license-type', 'The `license` must be a string: a license name or the name of a bundled license file.', at('license'));
  if (data.compatibility !== undefined) {
    if (typeof data.compatibility !== 'string') add('error', 'compatibility-type', 'The `compatibility` must be a string.', at('compatibility'));
    else if (data.compatibility.length < 1 || data.compatibility.length > COMPATIBILITY_MAX) add('error', 'compatibility-length', `The compatibility must be 1–${COMPATIBILITY_MAX} characters; it is ${data.compatibility.length}.`, at('compatibility'));
  }
  if (data['allowed-tools'] !== undefined && typeof data['allowed-tools'] !== 'string' && !isStringList(data['allowed-tools'])) {
    add('error', 'allowed-tools-type', 'The `allowed-tools` must be a space-separated string of tool names.', at('allowed-tools'));
  }
  if (data.metadata !== undefined) {
    const metadata = data.metadata;
    if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) {
      add('error', 'metadata-type', 'The `metadata` must be a mapping of keys to values.', at('metadata'));
    } else {
      for (const [key, value] of Object.entries(metadata as Record<string, unknown>)) {
        if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean' && !isStringList(value)) {
          add('warning', 'metadata-value-type', `metadata.${key} should be a string (or a list of strings); other clients may ignore it.`, fieldLines[`metadata.${key}`] ?? at('metadata'));
        }
      }
      const related = (metadata as Record<string, unknown>).related;
      if (options.knownNames && related !== undefined) {
        const names = Array.isArray(related) ? related.map(String) : String(related).split(/[,\s]+/).filter(Boolean);
        for (const name of names) {
          if (!options.knownNames.has(name)) add('warning', 'related-unknown', `metadata.related names "${name}", which is not a skill here.`, fieldLines['metadata.related'] ?? at('metadata'));
        }
      }
    }
  }

  // body
  const lines = body.split('\n');
  if (body.trim() === '') add('warning', 'body-empty', 'The body is empty: write the steps the agent should follow.', bodyLine);
  else if (lines.length > BODY_LINES_ADVISED) {
    add('warning', 'body-length', `The body has ${lines.length} lines; keep it under ${BODY_LINES_ADVISED} and move details into chunks or references/.`, bodyLine + BODY_LINES_ADVISED);
  }
  problems.push(...parseBody(body, bodyLine).problems);
  return problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}

export interface SkillValidation {
  /** Absolute path of SKILL.md. */
  file: string;
  dir: string;
  problems: SkillProblem[];
}

export function validateSkillFolder(dir: string, options: ValidateOptions = {}, file = path.join(dir, 'SKILL.md'), warning?: string): SkillValidation {
  let text: string;
  try {
    text = readRepoFileSync(dir, path.basename(file), { kind: 'skill', boundary: skillBoundary(path.basename(dir)) }).text;
  } catch (e) {
    return { file, dir, problems: [{ severity: 'error', rule: 'skill-file', message: `SKILL.md could not be read: ${(e as Error).message}` }] };
  }
  const problems = validateSkillText(text, path.basename(dir), options);
  if (warning) problems.unshift({ severity: 'warning', rule: 'skill-file-name', message: warning, line: 1 });
  return { file, dir, problems };
}

/**
 * Validates what a folder holds: a skill (it has SKILL.md), a workspace (its `.autosnippet/skills`,
 * `.github/skills`, `.claude/skills`, `.agents/skills`), or a folder of skills, found by the same
 * bounded recursive scan as the registry (plain files such as a README are passed over).
 */
export function validateSkillsIn(dir: string, options: ValidateOptions = {}): SkillValidation[] {
  return validateSkillTarget(dir, options).results;
}

/**
 * Validates what a path names: a skill file (SKILL.md, or `skill.md` with a warning), or a folder as
 * `validateSkillsIn` reads it; with the folders passed over and why (a link out of the folder named).
 * A missing path (NOT_FOUND) and a file that is no skill file (INVALID_INPUT) are refused.
 */
export function validateSkillTarget(target: string, options: ValidateOptions = {}): { results: SkillValidation[]; skipped: PassedOver[] } {
  const st = statSync(target, { throwIfNoEntry: false });
  if (!st) throw new AutoSnippetError('NOT_FOUND', `${target} does not exist.`, 'Give a SKILL.md, a skill folder, a folder of skills or a workspace.', { path: target });
  let folders: { dir: string; file: string; warning?: string }[];
  let skipped: PassedOver[] = [];
  if (st.isDirectory()) ({ folders, skipped } = skillFoldersIn(target));
  else if (path.basename(target).toLowerCase() === 'skill.md') {
    const name = path.basename(target);
    folders = [{ dir: path.dirname(target), file: target, warning: name === 'SKILL.md' ? undefined : skillFileIn(path.dirname(target)).warning }];
  } else {
    throw new AutoSnippetError('INVALID_INPUT', `${target} is a file, not a skill: give a SKILL.md, a skill folder or a folder of skills.`, 'A skill is a folder with a SKILL.md; pass that file or its folder.', { path: target });
  }
  const knownNames = new Set([...folders.map((f) => path.basename(f.dir)), ...(options.knownNames ?? [])]);
  return { results: folders.map((f) => validateSkillFolder(f.dir, { knownNames }, f.file, f.warning)), skipped };
}

/** The skill folders a folder holds (itself, a workspace's skill folders, or a folder of skills), and what was passed over. */
export function skillFoldersIn(dir: string): { folders: { dir: string; file: string; warning?: string }[]; skipped: PassedOver[] } {
  const own = skillFileIn(dir);
  if (own.file) return { folders: [{ dir, file: own.file, warning: own.warning }], skipped: [] };
  const roots = WORKSPACE_SKILL_FOLDERS.map((f) => path.join(dir, ...f.dir.split('/'))).filter((r) => existsSync(r));
  const scans = (roots.length ? roots : [dir]).map((r) => scanSkillRoot(r, undefined, dir));
  return { folders: scans.flatMap((s) => s.found), skipped: scans.flatMap((s) => s.passedOver) };
}

export function errorCount(problems: readonly SkillProblem[]): number {
  return problems.filter((p) => p.severity === 'error').length;
}

function isStringList(v: unknown): boolean {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}
