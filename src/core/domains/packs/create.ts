/**
 * `packs create`: a pack folder from chosen published recipes of the workspace, and on request its
 * guard rule files and skills, ready for `npm pack` or a git repository. Every file is copied as it
 * is, at the place a project's `.autosnippet/` has it, so each recipe keeps its id, each rule its id
 * and each skill its name.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseJson, readRepoFile } from '../../ground/files';
import { AutoSnippetError } from '../../ground/kernel/errors';
import type { Workspace } from '../../ground/workspace';
import { RECIPES_DIR } from '../knowledge/recipe-file';
import { findRecipeRow, listRecipes } from '../knowledge/recipes';
import { checkTree, isLinkOrVcs } from '../skills/install';
import { isValidSkillName } from '../skills/names';
import { PACK_FOLDERS, PACK_MANIFEST, PACK_NAME, PACKS_STATE_DIR } from './layout';

/** The project's guard rule files and skills, workspace-relative: what a pack's guard/ and skills/ mirror. */
const GUARD_DIR = '.autosnippet/guard';
const SKILLS_DIR = '.autosnippet/skills';
/** Accepted findings of this project, never another's. */
const BASELINE_FILE = 'baseline.json';

export interface CreateOptions {
  /** The folder to write (absolute). It must be empty, missing, or an earlier pack folder. */
  out: string;
  /** Recipe ids; none means every published recipe of the project. */
  ids: string[];
  /** Also copy the project's guard rule files (`.autosnippet/guard/*.json`, not its baseline). */
  rules?: boolean;
  /** Skill names from `.autosnippet/skills/` to copy, each folder whole (links and `.git` left out). */
  skills?: string[];
  name: string;
  version: string;
  description?: string;
}

export interface CreatedPack {
  out: string;
  files: string[];
  recipes: string[];
  rules: string[];
  skills: string[];
}

export async function createPack(ws: Workspace, opts: CreateOptions): Promise<CreatedPack> {
  if (!PACK_NAME.test(opts.name)) {
    throw new AutoSnippetError(
      'INVALID_INPUT',
      `"${opts.name}" is not a pack name.`,
      'Use an npm package name: lower case, e.g. @team/api-rules or team-rules.',
    );
  }
  if (!/^\d+\.\d+\.\d+([-+][\w.+-]+)?$/.test(opts.version)) {
    throw new AutoSnippetError(
      'INVALID_INPUT',
      `"${opts.version}" is not a version.`,
      'Use a semantic version such as 1.0.0.',
    );
  }
  const st = statSync(opts.out, { throwIfNoEntry: false });
  if (
    st && (!st.isDirectory() || (readdirSync(opts.out).length > 0 && !existsSync(path.join(opts.out, PACK_MANIFEST))))
  ) {
    throw new AutoSnippetError(
      'INVALID_INPUT',
      `${opts.out} is ${st.isDirectory() ? 'a folder with other files in it' : 'a file'}; nothing was written.`,
      'Give a new or empty folder (or a pack folder made earlier, which is written again).',
    );
  }
  const rows = opts.ids.length
    ? opts.ids.map((id) => findRecipeRow(ws, id))
    : listRecipes(ws, { status: 'published' }).map((r) => findRecipeRow(ws, r.id));
  const own = rows.filter((r) => r.file.startsWith(RECIPES_DIR + '/'));
  const notOwn = rows.filter((r) => r.file.startsWith(PACKS_STATE_DIR + '/')).map((r) => r.id);
  if (notOwn.length) {
    throw new AutoSnippetError(
      'INVALID_INPUT',
      `${notOwn.join(', ')} come${notOwn.length === 1 ? 's' : ''} from a pack, not from this project.`,
      "A pack is made from the project's own recipes.",
    );
  }
  const drafts = own.filter((r) => r.status !== 'published').map((r) => `${r.id} (${r.status})`);
  if (drafts.length) {
    throw new AutoSnippetError(
      'INVALID_INPUT',
      `Only published recipes go into a pack: ${drafts.join(', ')}.`,
      'Publish them first, or leave them out.',
    );
  }
  const ruleFiles = opts.rules ? await projectRuleFiles(ws) : [];
  const skills = (opts.skills ?? []).map((name) => projectSkillFolder(ws, name));
  if (own.length === 0 && ruleFiles.length === 0 && skills.length === 0) {
    throw new AutoSnippetError(
      'INVALID_INPUT',
      opts.rules
        ? 'There are no published recipes and no guard rule files to put in the pack.'
        : 'There are no published recipes to put in the pack.',
      'Publish recipes first, or name them; add the guard rules or name skills.',
    );
  }
  // A pack folder written again holds what was chosen this time only, not what the last run chose as well.
  for (const folder of PACK_FOLDERS) rmSync(path.join(opts.out, folder), { recursive: true, force: true });
  const files: string[] = [];
  const write = (rel: string, text: string) => {
    const abs = path.join(opts.out, ...rel.split('/'));
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, text);
    files.push(rel);
  };
  for (const r of own) {
    const text = (await readRepoFile(ws.root, r.file, { kind: 'recipe' })).text;
    write(`recipes/${r.file.slice(RECIPES_DIR.length + 1)}`, text);
  }
  for (const f of ruleFiles) write(`guard/${f.name}`, f.text);
  for (const skill of skills) {
    cpSync(skill.abs, path.join(opts.out, 'skills', skill.name), {
      recursive: true,
      filter: (src) => !isLinkOrVcs(src),
    });
    files.push(...skill.files.map((f) => `skills/${skill.name}/${f}`));
  }
  const description = opts.description
    ?? `AutoSnippet knowledge pack: ${holding(own.length, ruleFiles.length, skills.length)}.`;
  write(PACK_MANIFEST, JSON.stringify({ name: opts.name, version: opts.version, description }, null, 2) + '\n');
  write(
    'package.json',
    JSON.stringify(
      {
        name: opts.name,
        version: opts.version,
        description,
        keywords: ['autosnippet-pack'],
        files: [PACK_MANIFEST, 'recipes/', 'guard/', 'skills/', 'README.md'],
      },
      null,
      2,
    ) + '\n',
  );
  write(
    'README.md',
    `# ${opts.name}\n\n${description}\n\nAdd it to a project with \`autosnippet packs add ${opts.name}\` (see AutoSnippet's docs/packs.md).\n\n`
      + [
        ...own.map((r) => `- \`${r.id}\`: ${r.title}`),
        ...ruleFiles.map((f) => `- guard/${f.name}: ${f.ids.map((id) => `\`${id}\``).join(', ')}`),
        ...skills.map((sk) => `- skill \`${sk.name}\``),
      ].join('\n') + '\n',
  );
  return {
    out: opts.out,
    files: files.sort(),
    recipes: own.map((r) => r.id),
    rules: ruleFiles.flatMap((f) => f.ids),
    skills: skills.map((s) => s.name),
  };
}

function holding(recipes: number, ruleFiles: number, skills: number): string {
  const n = (k: number, one: string) => `${k} ${one}${k === 1 ? '' : 's'}`;
  return [
    recipes ? n(recipes, 'recipe') : '',
    ruleFiles ? n(ruleFiles, 'guard rule file') : '',
    skills ? n(skills, 'skill') : '',
  ].filter(Boolean).join(', ');
}

/** The project's guard rule files, each a JSON object with a `rules` list; one that is not is refused by name. */
async function projectRuleFiles(ws: Workspace): Promise<{ name: string; text: string; ids: string[] }[]> {
  const dir = path.join(ws.root, ...GUARD_DIR.split('/'));
  const names = existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.json') && e.name !== BASELINE_FILE)
      .map((e) => e.name)
      .sort()
    : [];
  const out: { name: string; text: string; ids: string[] }[] = [];
  for (const name of names) {
    const text = (await readRepoFile(ws.root, `${GUARD_DIR}/${name}`, { kind: 'guard-rules' })).text;
    const parsed = parseJson(text, { subject: name });
    const rules = parsed.ok ? (parsed.value as { rules?: unknown } | null)?.rules : undefined;
    if (!Array.isArray(rules)) {
      throw new AutoSnippetError(
        'INVALID_INPUT',
        `${GUARD_DIR}/${name} is not a guard rule file (a JSON object with a "rules" list); nothing was written.`,
        'Fix the file (autosnippet guard --rules shows its problems), or move it out of the guard folder.',
      );
    }
    const ids = rules.flatMap((
      r,
    ) => (typeof (r as { id?: unknown })?.id === 'string' ? [(r as { id: string }).id] : []));
    out.push({ name, text, ids });
  }
  return out;
}

/** A project skill's folder by name, with the files a copy takes; a missing or oversized one is refused. */
function projectSkillFolder(ws: Workspace, name: string): { name: string; abs: string; files: string[] } {
  const abs = path.join(ws.root, ...SKILLS_DIR.split('/'), name);
  if (!isValidSkillName(name) || !existsSync(path.join(abs, 'SKILL.md'))) {
    throw new AutoSnippetError(
      'INVALID_INPUT',
      `There is no skill "${name}" in ${SKILLS_DIR}; nothing was written.`,
      'Name a skill folder of the project (autosnippet skills list shows them).',
    );
  }
  const links = new Set(checkTree(abs));
  const files: string[] = [];
  const walk = (d: string, rel: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.name === '.git' || links.has(r)) continue;
      if (e.isDirectory()) walk(path.join(d, e.name), r);
      else if (e.isFile()) files.push(r);
    }
  };
  walk(abs, '');
  return { name, abs, files };
}
