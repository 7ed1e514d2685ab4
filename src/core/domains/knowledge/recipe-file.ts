import { createHash } from 'node:crypto';
import { frontMatterText, parseFrontMatter } from '../../ground/files';
import { AutoSnippetError } from '../../ground/kernel/errors';
import { normalizeLanguage } from '../../ground/kernel/languages';
import { packRecipeRelPath } from '../packs/layout';
import { scopeGlobProblem } from './folder-scope';
import { readRecipeGuard } from './guard-format';
import { personalRecipeRelPath } from './personal';
import { isTriggerShape } from './quality';
import { bodyOf, splitBody } from './recipe-body';
import { readFrontMatter } from './recipe-frontmatter';
import {
  COMPLEXITIES,
  type Complexity,
  type Constraints,
  type Fingerprints,
  type GuardPattern,
  KNOWLEDGE_TYPES,
  type KnowledgeType,
  type Recipe,
  type RecipeFileProblem,
  type RecipeStatus,
  RELATION_TYPES,
  type Relations,
  type Scope,
  SCOPES,
} from './types';

/** Where recipe files live, relative to the workspace root. */
export const RECIPES_DIR = '.autosnippet/recipes';

const STATUSES: readonly RecipeStatus[] = ['draft', 'published', 'deprecated'];

/** Frontmatter keys in the order they are written. */
const FIELD_ORDER = [
  'id',
  'title',
  'trigger',
  'language',
  'category',
  'knowledgeType',
  'status',
  'summary',
  'tags',
  'scope',
  'target',
  'paths',
  'complexity',
  'relations',
  'constraints',
  'sources',
  'fingerprints',
  'candidateId',
  'createdBy',
  'createdAt',
  'approvedBy',
  'approvedAt',
  'publishedBy',
  'publishedAt',
  'deprecatedBy',
  'deprecatedAt',
  'deprecationReason',
] as const;
const KNOWN_FIELDS = new Set<string>(FIELD_ORDER);

export type ParseResult =
  | { ok: true; recipe: Recipe; warnings: RecipeFileProblem[] }
  | { ok: false; problems: RecipeFileProblem[] };

/** A short content hash of a recipe file, used to notice changes and renames. */
export function contentHash(text: string): string {
  return createHash('sha256').update(normalizeText(text)).digest('hex').slice(0, 24);
}

export function normalizeText(text: string): string {
  const t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return t.includes('\r') ? t.replace(/\r\n?/g, '\n') : t;
}

const MAX_SLUG = 60;

/**
 * `Fetch with retry!` → `fetch-with-retry`, at most 60 characters. Ids of existing files go through
 * it, so its cut stays as it is; new file names use `fileSlug`.
 */
export function slugify(text: string): string {
  // Most names are slugs already (ids from file paths): kebab would give them back unchanged.
  if (text.length <= MAX_SLUG && SLUG.test(text)) return text;
  return kebab(text).slice(0, MAX_SLUG).replace(/-+$/, '') || 'recipe';
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A new file's name: `slugify`, but cut after the last whole word that fits (`…-extend`, never `…-extend-asyn`). */
export function fileSlug(text: string): string {
  const full = kebab(text);
  if (full.length <= MAX_SLUG) return full || 'recipe';
  const cut = full.slice(0, MAX_SLUG + 1).lastIndexOf('-');
  // A first word longer than the limit has no boundary to cut at: it is cut at the limit.
  return (cut > 0 ? full.slice(0, cut) : full.slice(0, MAX_SLUG)).replace(/-+$/, '');
}

function kebab(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}

/** Words a trigger leaves out: they make it longer to type and say nothing. */
const TRIGGER_STOPWORDS = new Set([
  'a',
  'an',
  'the',
  'in',
  'of',
  'to',
  'for',
  'and',
  'or',
  'on',
  'at',
  'is',
  'are',
  'be',
  'by',
  'from',
  'with',
  'as',
  'its',
  'it',
  'this',
  'that',
  'into',
  'not',
]);

/**
 * A short kebab-case trigger from a title or a name: `Fetch with retry` → `@fetch-retry`,
 * `Wrap HTTP calls in withRetry` → `@wrap-http-calls-retry`. At most four words and 32 characters,
 * never cut inside a word.
 */
export function triggerFor(text: string): string {
  const words = slugify(text).split('-').filter(Boolean);
  const content = words.filter((w) => !TRIGGER_STOPWORDS.has(w));
  const kept: string[] = [];
  for (const w of content.length ? content : words) {
    if (kept.length === 4 || [...kept, w].join('-').length > 32) break;
    kept.push(w);
  }
  return '@' + (kept.join('-') || words[0]?.slice(0, 32) || 'recipe');
}

/** Workspace-relative path of a recipe file for a category and a title. */
export function recipeFilePath(category: string, titleOrSlug: string): string {
  return `${RECIPES_DIR}/${slugify(category)}/${fileSlug(titleOrSlug)}.md`;
}

/** A recipe file's path below its recipes folder, the project's, the person's or a pack's (`category/slug.md`). */
function recipeRelPath(file: string): string | undefined {
  return file.startsWith(RECIPES_DIR + '/')
    ? file.slice(RECIPES_DIR.length + 1)
    : personalRecipeRelPath(file) ?? packRecipeRelPath(file);
}

/** The id a file has when its frontmatter names none: its path under the recipes folder, without `.md`. */
export function idFromPath(file: string): string {
  const rel = recipeRelPath(file) ?? file;
  return rel.replace(/\.md$/i, '').split('/').map(slugify).join('/');
}

/**
 * Reads a recipe file. Only `title` (or a `# Heading`) and something to say (a `summary`, a first
 * paragraph or a code block) are required; everything else has a default. Problems name the file and
 * the field so a person can fix them.
 */
export function parseRecipeFile(rawText: string, file: string): ParseResult {
  const text = normalizeText(rawText);
  const problems: RecipeFileProblem[] = [];
  const warnings: RecipeFileProblem[] = [];
  const fail = (message: string, field?: string) => problems.push({ file, ...(field ? { field } : {}), message });
  const warn = (message: string, field?: string) => warnings.push({ file, ...(field ? { field } : {}), message });

  const fm = readFrontMatter(text);
  if (!fm.ok) return { ok: false, problems: [{ file, message: fm.problem.message }] };
  const data = fm.value.data;
  const body = fm.value.body;

  for (const key of Object.keys(data)) {
    if (KNOWN_FIELDS.has(key)) continue;
    const camel = key.replace(/[-_]([a-z])/g, (_, c: string) => c.toUpperCase());
    if (KNOWN_FIELDS.has(camel) && !(camel in data)) {
      data[camel] = data[key];
      warn(`Field \`${key}\` should be written \`${camel}\` (camelCase); it was read as \`${camel}\`.`, key);
    } else {
      warn(`Unknown field \`${key}\` is ignored. Known fields: ${FIELD_ORDER.join(', ')}.`, key);
    }
  }

  const sections = splitBody(body);
  const str = (key: string): string | undefined => {
    const v = data[key];
    if (v === undefined || v === null || v === '') return undefined;
    if (typeof v === 'string') return v.trim();
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    fail(`\`${key}\` must be text, not ${Array.isArray(v) ? 'a list' : 'a mapping'}.`, key);
    return undefined;
  };
  const oneOf = <T extends string>(key: string, allowed: readonly T[], fallback: T): T => {
    const v = str(key);
    if (v === undefined) return fallback;
    if ((allowed as readonly string[]).includes(v)) return v as T;
    fail(`\`${key}: ${v}\` is not one of ${allowed.join(', ')}.`, key);
    return fallback;
  };

  const title = str('title') ?? sections.heading;
  if (!title) {
    fail('Missing `title`: add `title: …` to the frontmatter (or a `# Heading` at the top of the body).', 'title');
  }

  const code = sections.code;
  const summary = str('summary') ?? sections.firstParagraph;
  // Prose before the first section that is not the summary belongs to the usage guide.
  const intro = (str('summary') !== undefined ? sections.preamble : sections.preamble?.slice(1))?.join('\n\n');
  const usageGuide = [intro, sections.usageGuide].filter(Boolean).join('\n\n') || undefined;
  if (!summary && !code?.text) {
    fail(
      'The recipe says nothing: add a `summary` to the frontmatter, or a paragraph and a fenced code block to the body.',
      'summary',
    );
  }

  const knowledgeType = oneOf<KnowledgeType>(
    'knowledgeType',
    Object.keys(KNOWLEDGE_TYPES) as KnowledgeType[],
    'code-pattern',
  );
  const status = oneOf<RecipeStatus>('status', STATUSES, 'published');
  const scope = oneOf<Scope>('scope', SCOPES, 'project');
  const complexity = oneOf<Complexity>('complexity', COMPLEXITIES, 'intermediate');

  let trigger = str('trigger');
  if (trigger !== undefined) {
    if (!trigger.startsWith('@')) trigger = '@' + trigger;
    if (!isTriggerShape(trigger)) {
      fail(
        `\`trigger: ${trigger}\` must be \`@\` followed by letters, digits, \`_\`, \`.\` or \`-\` (no spaces), e.g. \`@fetchWithRetry\`.`,
        'trigger',
      );
    }
  }

  const folder = recipeRelPath(file)?.split('/') ?? [];
  const category = str('category') ?? (folder.length > 1 ? folder[0] : 'general');
  const rawLanguage = (str('language') ?? code?.language ?? 'text').toLowerCase();
  const language = normalizeLanguage(rawLanguage) ?? rawLanguage;

  let id = str('id');
  if (id !== undefined && !/^[\p{L}\p{N}][\p{L}\p{N}_./-]*$/u.test(id)) {
    fail(`\`id: ${id}\` may hold only letters, digits, \`_\`, \`.\`, \`/\` and \`-\`.`, 'id');
    id = undefined;
  }

  const tags = stringList(data.tags, 'tags', fail);
  const paths = stringList(data.paths, 'paths', fail);
  for (const g of paths) {
    const problem = scopeGlobProblem(g);
    if (problem) fail(`\`paths\`: ${problem}.`, 'paths');
  }
  const sourceFiles = [...new Set([...stringList(data.sources, 'sources', fail), ...sections.sources])];
  const relations = readRelations(data.relations, fail);
  const constraints = readConstraints(data.constraints, fail);
  const fingerprints = readFingerprints(data.fingerprints, warn);

  if (KNOWLEDGE_TYPES[knowledgeType] === 'pattern' && !code?.text) {
    warn('A pattern usually shows its code: add a fenced code block to the body.', 'code');
  }
  if (problems.length) return { ok: false, problems };

  const recipe: Recipe = {
    id: id ?? idFromPath(file),
    title: title!,
    trigger: trigger ?? triggerFor(title!),
    language,
    category,
    knowledgeType,
    kind: KNOWLEDGE_TYPES[knowledgeType],
    status,
    summary: summary ?? '',
    tags,
    scope,
    complexity,
    file,
  };
  assignDefined(recipe, {
    usageGuide,
    code: code?.text,
    rationale: sections.rationale,
    steps: sections.steps.length ? sections.steps : undefined,
    target: str('target'),
    paths: paths.length ? paths : undefined,
    relations,
    constraints,
    sourceFiles: sourceFiles.length ? sourceFiles : undefined,
    fingerprints,
    candidateId: str('candidateId'),
    createdBy: str('createdBy'),
    createdAt: str('createdAt'),
    approvedBy: str('approvedBy'),
    approvedAt: str('approvedAt'),
    publishedBy: str('publishedBy'),
    publishedAt: str('publishedAt'),
    deprecatedBy: str('deprecatedBy'),
    deprecatedAt: str('deprecatedAt'),
    deprecationReason: str('deprecationReason'),
  });
  return { ok: true, recipe, warnings };
}

/**
 * Writes a recipe as Markdown: a short camelCase frontmatter, then the usage, code, why, steps and
 * sources sections (sources as links that open the file at the line).
 */
export function serializeRecipe(recipe: Recipe): string {
  return frontMatterText(frontmatterOf(recipe)) + '\n' + bodyOf(recipe);
}

/**
 * Changes frontmatter fields of a recipe file and leaves its body exactly as the person wrote it.
 * `undefined` removes a field.
 */
export function patchFrontmatter(rawText: string, patch: Record<string, unknown>): string {
  const text = normalizeText(rawText);
  const fm = parseFrontMatter(text);
  if (!fm.ok) throw new AutoSnippetError('INVALID_RECIPE_FILE', fm.problem.message, 'Fix the frontmatter first.');
  const data = { ...fm.value.data };
  const body = fm.value.body;
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) delete data[k];
    else data[k] = v;
  }
  return frontMatterText(orderFields(data)) + (body.startsWith('\n') ? body : '\n' + body);
}

function frontmatterOf(r: Recipe): Record<string, unknown> {
  const data: Record<string, unknown> = {
    id: r.id,
    title: r.title,
    trigger: r.trigger,
    language: r.language,
    category: r.category,
    knowledgeType: r.knowledgeType,
    status: r.status,
    summary: r.summary || undefined,
    tags: r.tags.length ? r.tags : undefined,
    scope: r.scope,
    target: r.target,
    paths: r.paths?.length ? r.paths : undefined,
    complexity: r.complexity,
    relations: r.relations && Object.keys(r.relations).length ? r.relations : undefined,
    constraints: r.constraints && Object.keys(r.constraints).length ? r.constraints : undefined,
    fingerprints: r.fingerprints,
    candidateId: r.candidateId,
    ...lifecycleOf(r),
  };
  return orderFields(data);
}

/** Who moved a recipe through its states and when: the fields the file and the index row both keep. */
export function lifecycleOf(r: Recipe) {
  return {
    createdBy: r.createdBy,
    createdAt: r.createdAt,
    approvedBy: r.approvedBy,
    approvedAt: r.approvedAt,
    publishedBy: r.publishedBy,
    publishedAt: r.publishedAt,
    deprecatedBy: r.deprecatedBy,
    deprecatedAt: r.deprecatedAt,
    deprecationReason: r.deprecationReason,
  };
}

function orderFields(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of FIELD_ORDER) if (data[k] !== undefined) out[k] = data[k];
  for (const [k, v] of Object.entries(data)) if (!(k in out) && v !== undefined) out[k] = v;
  return out;
}

function stringList(v: unknown, field: string, fail: (m: string, f?: string) => void): string[] {
  if (v === undefined || v === null || v === '') return [];
  if (typeof v === 'string') return v.split(',').map((s) => s.trim()).filter(Boolean);
  if (Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number')) {
    return v.map((x) => String(x).trim()).filter(Boolean);
  }
  fail(`\`${field}\` must be a list of text, e.g. \`${field}: [a, b]\`.`, field);
  return [];
}

function readRelations(v: unknown, fail: (m: string, f?: string) => void): Relations | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) {
    fail(
      `\`relations\` must be a mapping such as \`relations: { dependsOn: [other-id] }\` with keys ${
        RELATION_TYPES.join(', ')
      }.`,
      'relations',
    );
    return undefined;
  }
  const out: Relations = {};
  for (const [k, list] of Object.entries(v)) {
    if (!(RELATION_TYPES as readonly string[]).includes(k)) {
      fail(`\`relations.${k}\` is not a relation; use ${RELATION_TYPES.join(', ')}.`, `relations.${k}`);
      continue;
    }
    const ids = stringList(list, `relations.${k}`, fail);
    if (ids.length) out[k as keyof Relations] = ids;
  }
  return Object.keys(out).length ? out : undefined;
}

function readConstraints(v: unknown, fail: (m: string, f?: string) => void): Constraints | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) {
    fail(
      '`constraints` must be a mapping with `guards`, `preconditions`, `boundaries` or `sideEffects`.',
      'constraints',
    );
    return undefined;
  }
  const c = v as Record<string, unknown>;
  const out: Constraints = {};
  for (const key of ['preconditions', 'boundaries', 'sideEffects'] as const) {
    const list = stringList(c[key], `constraints.${key}`, fail);
    if (list.length) out[key] = list;
  }
  if (c.guards !== undefined) {
    if (!Array.isArray(c.guards)) {
      fail(
        '`constraints.guards` must be a list of `{ pattern, message }` (the fields of a guard rule: see schemas/guard-rules.schema.json).',
        'constraints.guards',
      );
    } else {
      const guards: GuardPattern[] = [];
      c.guards.forEach((g: unknown, i: number) => {
        const read = readRecipeGuard(g);
        for (const p of read.problems) {
          fail(
            `\`constraints.guards[${i}]\`: ${p.message} ${p.hint}`,
            `constraints.guards[${i}]${p.field ? `.${p.field}` : ''}`,
          );
        }
        if (read.guard) guards.push(read.guard);
      });
      if (guards.length) out.guards = guards;
    }
  }
  for (const key of Object.keys(c)) {
    if (!['guards', 'preconditions', 'boundaries', 'sideEffects'].includes(key)) {
      fail(
        `\`constraints.${key}\` is not known; use guards, preconditions, boundaries or sideEffects.`,
        `constraints.${key}`,
      );
    }
  }
  return Object.keys(out).length ? out : undefined;
}

/**
 * `fingerprints: { code: <hash>, sources: { "path:line": <hash> } }`. A damaged value only loses
 * staleness tracking (with a warning), never the recipe.
 */
function readFingerprints(v: unknown, warn: (m: string, f?: string) => void): Fingerprints | undefined {
  if (v === undefined || v === null) return undefined;
  const hash = (x: unknown) => typeof x === 'string' && /^[0-9a-f]{6,64}$/.test(x);
  if (typeof v !== 'object' || Array.isArray(v)) {
    warn(
      '`fingerprints` must be a mapping `{ code, sources }`; it is ignored, so staleness is not tracked until an update is accepted.',
      'fingerprints',
    );
    return undefined;
  }
  const o = v as Record<string, unknown>;
  const out: Fingerprints = {};
  if (hash(o.code)) out.code = o.code as string;
  if (o.sources && typeof o.sources === 'object' && !Array.isArray(o.sources)) {
    const sources = Object.fromEntries(
      Object.entries(o.sources as Record<string, unknown>).filter(([, h]) => hash(h)),
    ) as Record<string, string>;
    if (Object.keys(sources).length) out.sources = sources;
  }
  return out.code || out.sources ? out : undefined;
}

function assignDefined<T extends object>(target: T, values: Partial<T>): void {
  for (const [k, v] of Object.entries(values)) if (v !== undefined) (target as Record<string, unknown>)[k] = v;
}
