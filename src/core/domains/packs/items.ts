/**
 * What a pack holds, read from its files: the manifest, its recipes (id and a hash of each text), its
 * skills and its guard rule ids; and what changed between two versions, for `packs update`.
 */
import { parseJson } from '../../ground/files';
import { AutoSnippetError } from '../../ground/kernel/errors';
import { contentHash, parseRecipeFile, RECIPES_DIR } from '../knowledge/recipe-file';
import { PACK_MANIFEST, PACK_NAME } from './layout';
import type { PackItems } from './lock';

export interface PackManifest {
  name: string;
  version: string;
  description?: string;
}

type Files = { path: string; data: Buffer }[];

function notAPack(what: string, message: string): AutoSnippetError {
  return new AutoSnippetError(
    'PACK_FETCH_FAILED',
    `${what} is not a knowledge pack: ${message}`,
    `A pack has ${PACK_MANIFEST} ({"name", "version"}) at its root; autosnippet packs create makes one.`,
  );
}

function jsonOf(files: Files, name: string, what: string): Record<string, unknown> | undefined {
  const f = files.find((x) => x.path === name);
  if (!f) return undefined;
  const parsed = parseJson(f.data.toString('utf8'), { subject: name });
  if (!parsed.ok || typeof parsed.value !== 'object' || !parsed.value) {
    throw notAPack(what, `${name} is not a JSON object`);
  }
  return parsed.value as Record<string, unknown>;
}

/** The manifest (its name and version, else package.json's). */
export function readManifest(files: Files, what: string): PackManifest {
  const manifest = jsonOf(files, PACK_MANIFEST, what);
  if (!manifest) throw notAPack(what, `it has no ${PACK_MANIFEST}`);
  const pkg = jsonOf(files, 'package.json', what) ?? {};
  const name = manifest.name ?? pkg.name;
  const version = manifest.version ?? pkg.version;
  if (typeof name !== 'string' || !PACK_NAME.test(name)) {
    throw notAPack(
      what,
      `${PACK_MANIFEST} needs a "name" that is an npm package name (lower case), got ${JSON.stringify(name)}`,
    );
  }
  if (typeof version !== 'string' || !/^\d+\.\d+\.\d+([-+][\w.+-]+)?$/.test(version)) {
    throw notAPack(what, `${PACK_MANIFEST} needs a "version" like 1.0.0, got ${JSON.stringify(version)}`);
  }
  return {
    name,
    version,
    ...(typeof manifest.description === 'string' ? { description: manifest.description.slice(0, 500) } : {}),
  };
}

/** The recipes, skills and guard rules of a pack's files. A recipe that does not parse is reported. */
export function readItems(files: Files, what: string): { items: PackItems; problems: string[] } {
  const items: PackItems = { recipes: {}, skills: [], rules: [] };
  const problems: string[] = [];
  for (const f of files) {
    if (f.path.startsWith('recipes/') && /\.md$/i.test(f.path) && !/(^|\/)readme\.md$/i.test(f.path)) {
      const text = f.data.toString('utf8');
      // Parsed as if in the project's recipes folder: a recipe gets the same id and category in both.
      const parsed = parseRecipeFile(text, `${RECIPES_DIR}/${f.path.slice('recipes/'.length)}`);
      if (!parsed.ok) problems.push(`${what}: ${f.path}: ${parsed.problems.map((p) => p.message).join(' ')}`);
      else if (items.recipes[parsed.recipe.id]) problems.push(`${what}: ${f.path} repeats the id ${parsed.recipe.id}`);
      else items.recipes[parsed.recipe.id] = { file: f.path, hash: contentHash(text) };
    }
    const skill = /^skills\/([^/]+)\/SKILL\.md$/i.exec(f.path);
    if (skill) items.skills.push(skill[1]);
    if (/^guard\/[^/]+\.json$/.test(f.path) && f.path !== 'guard/baseline.json') {
      const rules = (jsonOf(files, f.path, what)?.rules ?? []) as { id?: unknown }[];
      for (const r of Array.isArray(rules) ? rules : []) if (typeof r?.id === 'string') items.rules.push(r.id);
    }
  }
  items.skills.sort();
  items.rules.sort();
  return { items, problems };
}

export interface ItemChanges {
  recipes: { added: string[]; removed: string[]; changed: string[] };
  skills: { added: string[]; removed: string[] };
  rules: { added: string[]; removed: string[] };
}

export function diffItems(before: PackItems, after: PackItems): ItemChanges {
  const ids = (r: PackItems['recipes']) => Object.keys(r).sort();
  const minus = (a: string[], b: string[]) => a.filter((x) => !b.includes(x));
  return {
    recipes: {
      added: minus(ids(after.recipes), ids(before.recipes)),
      removed: minus(ids(before.recipes), ids(after.recipes)),
      changed: ids(after.recipes).filter((id) =>
        before.recipes[id] && before.recipes[id].hash !== after.recipes[id].hash
      ),
    },
    skills: { added: minus(after.skills, before.skills), removed: minus(before.skills, after.skills) },
    rules: { added: minus(after.rules, before.rules), removed: minus(before.rules, after.rules) },
  };
}

/** What changed, in one line per kind, for a person ("recipes: +a, -b, ~c"). */
export function describeChanges(c: ItemChanges): string[] {
  const line = (kind: string, parts: [string, string[]][]) => {
    const shown = parts.filter(([, l]) => l.length).map(([sign, l]) => l.map((x) => sign + x).join(', '));
    return shown.length ? `${kind}: ${shown.join(', ')}` : undefined;
  };
  return [
    line('recipes', [['+', c.recipes.added], ['-', c.recipes.removed], ['~', c.recipes.changed]]),
    line('skills', [['+', c.skills.added], ['-', c.skills.removed]]),
    line('guard rules', [['+', c.rules.added], ['-', c.rules.removed]]),
  ].filter((l): l is string => !!l);
}
