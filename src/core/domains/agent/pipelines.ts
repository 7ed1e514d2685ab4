/**
 * The built-in pipelines. A new one is a PipelineDefinition added to PIPELINES in one line.
 */
import { AutoSnippetError } from '../../ground/kernel/errors';
import { lookup } from '../../ground/kernel/tables';
import type { PipelineContext, PipelineDefinition } from './pipeline';

/** Language → the reference skill whose chunk `look-for` ("What to look for") guides the scan's candidates. */
const REFERENCE_SKILLS: Record<string, string> = {
  swift: 'autosnippet-reference-swift',
  'objective-c': 'autosnippet-reference-objc',
  objc: 'autosnippet-reference-objc',
  typescript: 'autosnippet-reference-jsts',
  typescriptreact: 'autosnippet-reference-jsts',
  javascript: 'autosnippet-reference-jsts',
  javascriptreact: 'autosnippet-reference-jsts',
  ts: 'autosnippet-reference-jsts',
  js: 'autosnippet-reference-jsts',
};

export function referenceSkillFor(language: string | undefined): string | undefined {
  return language ? lookup(REFERENCE_SKILLS, language.trim().toLowerCase()) : undefined;
}

/**
 * Cold start end to end: the heuristic scan creates candidates; then, in parallel, the list of what
 * they lack and the language's reference skill; then the model refines them with both.
 */
export const bootstrapFullPipeline: PipelineDefinition = {
  name: 'bootstrap_full_pipeline',
  summary:
    "Cold start: scan the workspace into candidates, list their gaps and load the language's reference skill in parallel, then refine them.",
  description:
    'Runs bootstrap_knowledge (heuristic scan → pending candidates), then enrich_candidates (what each new candidate lacks) in parallel with load_skill of the '
    + 'primary language\'s reference skill (its chunk "look-for"), then refine_bootstrap_candidates (sharper summaries, insight, relations, confidence, tags; '
    + 'needs a model, otherwise answers with the prompt). Idempotent like the scan: a second run creates no duplicates.',
  inputSchema: {
    type: 'object',
    properties: {
      language: {
        type: 'string',
        description:
          "Use this language's reference skill instead of the primary language the scan detects (e.g. swift, typescript).",
      },
      maxFiles: {
        type: 'integer',
        minimum: 1,
        description: 'Passed to bootstrap_knowledge when it takes it: the most files to scan.',
      },
      bootstrap: { type: 'object', description: 'Further arguments for bootstrap_knowledge, passed as they are.' },
      refineLimit: {
        type: 'integer',
        minimum: 1,
        maximum: 50,
        description: 'Refine at most this many of the new candidates (default 20).',
      },
    },
    additionalProperties: false,
  },
  steps: [
    {
      id: 'bootstrap',
      tool: 'bootstrap_knowledge',
      description: 'Heuristic scan: pending candidates with reasoning and file:line sources.',
      params: (ctx) => ({
        ...(isRecord(ctx.input.bootstrap) ? ctx.input.bootstrap : {}),
        ...(ctx.input.maxFiles !== undefined && ctx.accepts('bootstrap_knowledge', 'maxFiles')
          ? { maxFiles: ctx.input.maxFiles }
          : {}),
      }),
    },
    {
      id: 'gaps',
      tool: 'enrich_candidates',
      description: 'What each new candidate lacks.',
      dependsOn: ['bootstrap'],
      when: (ctx) => createdCandidateIds(ctx.results.bootstrap).length > 0,
      params: (ctx) => idsArgument(ctx, 'enrich_candidates', createdCandidateIds(ctx.results.bootstrap)),
      errorStrategy: 'continue',
    },
    {
      id: 'language_skill',
      tool: 'load_skill_chunk',
      description: 'The primary language\'s reference skill, its chunk "look-for" (what to look for).',
      dependsOn: ['bootstrap'],
      when: (ctx) => Boolean(referenceSkillFor(languageOf(ctx))),
      params: (ctx) => ({ skill: referenceSkillFor(languageOf(ctx)), chunk: 'look-for' }),
      errorStrategy: 'continue',
    },
    {
      id: 'refine',
      tool: 'refine_bootstrap_candidates',
      description: 'Sharper summaries, insight, relations, calibrated confidence and tags.',
      dependsOn: ['gaps', 'language_skill'],
      when: (ctx) => createdCandidateIds(ctx.results.bootstrap).length > 0,
      params: (ctx) => {
        const skill = ctx.results.language_skill as { content?: unknown } | undefined;
        return {
          candidateIds: createdCandidateIds(ctx.results.bootstrap).slice(
            0,
            typeof ctx.input.refineLimit === 'number' ? ctx.input.refineLimit : 20,
          ),
          ...(typeof skill?.content === 'string' ? { languageGuide: skill.content } : {}),
        };
      },
      retries: 1,
      retryDelay: 500,
    },
  ],
};

/** Every built-in pipeline. */
export const PIPELINES: readonly PipelineDefinition[] = [bootstrapFullPipeline];

export function getPipeline(name: string): PipelineDefinition {
  const found = PIPELINES.find((p) => p.name === name);
  if (!found) {
    throw new AutoSnippetError(
      'PIPELINE_NOT_FOUND',
      `There is no pipeline named "${name}".`,
      `Pipelines: ${PIPELINES.map((p) => p.name).join(', ')}.`,
    );
  }
  return found;
}

/**
 * The ids of the candidates a scan created, whatever the shape of its summary: `created` or
 * `candidateIds` lists of ids, or lists of objects with an `id` (top level or one level down).
 */
export function createdCandidateIds(data: unknown): string[] {
  if (!isRecord(data)) return [];
  const ids = new Set<string>();
  const take = (v: unknown) => {
    if (!Array.isArray(v)) return;
    for (const x of v) {
      if (typeof x === 'string') ids.add(x);
      else if (isRecord(x) && typeof x.id === 'string') ids.add(x.id);
    }
  };
  for (const key of ['created', 'createdIds', 'candidateIds', 'ids', 'candidates']) {
    take(data[key]);
    if (isRecord(data[key])) {
      for (const inner of ['ids', 'created', 'candidateIds']) take((data[key] as Record<string, unknown>)[inner]);
    }
  }
  // The scan's summary lists them per dimension: dimensions[].created.
  if (Array.isArray(data.dimensions)) { for (const d of data.dimensions) if (isRecord(d)) take(d.created); }
  return [...ids];
}

function languageOf(ctx: PipelineContext): string | undefined {
  if (typeof ctx.input.language === 'string') return ctx.input.language;
  const result = ctx.results.bootstrap;
  if (!isRecord(result)) return undefined;
  for (const key of ['primaryLanguage', 'language']) if (typeof result[key] === 'string') return result[key] as string;
  // The scan's summary counts files per language under scanned.languages.
  const data = isRecord(result.scanned) && result.languages === undefined ? result.scanned : result;
  const languages = data.languages;
  if (Array.isArray(languages) && languages.length) {
    const first = languages[0];
    return typeof first === 'string'
      ? first
      : isRecord(first) && typeof first.language === 'string'
      ? first.language
      : isRecord(first) && typeof first.id === 'string'
      ? first.id
      : undefined;
  }
  if (isRecord(languages)) {
    const top =
      Object.entries(languages).filter(([, n]) => typeof n === 'number').sort((a, b) =>
        (b[1] as number) - (a[1] as number)
      )[0];
    return top?.[0];
  }
  return undefined;
}

/** The candidate ids under the argument name the tool declares (`candidateIds` or `ids`). */
function idsArgument(ctx: PipelineContext, tool: string, ids: string[]): Record<string, unknown> {
  const name = !ctx.accepts(tool, 'candidateIds') && ctx.accepts(tool, 'ids') ? 'ids' : 'candidateIds';
  return { [name]: ids };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
