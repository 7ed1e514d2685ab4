/**
 * The AI-assisted tools and the pipeline runner. Handlers never call a model on their own: they use
 * `ctx.model` when the channel lends one (VS Code chat, MCP sampling) and otherwise answer in
 * diagnostic mode with the prompt the calling agent can run itself.
 */
import { runCatalogPipeline } from '../agent/catalog-pipeline';
import { discoverRelations, enrichCandidate, generateGuardRule, refineCandidates, summarizeCode, type EnrichFields, type GuardRuleInput, type RefineInput } from '../agent/assist';
import { PIPELINES, getPipeline } from '../agent/pipelines';
import { ENRICH_FIELDS } from '../agent/tasks';
import { COMPLEXITIES, KNOWLEDGE_TYPES, RELATION_TYPES, SCOPES } from '../knowledge/types';
import type { ToolCatalog } from './catalog';
import { defineTool, type JsonSchema, type ToolDefinition } from './types';

const NO_MODEL_NOTE = 'Without a model on this channel it answers in diagnostic mode: what is missing and the prompt to run yourself.';

const enrichFieldSchema: Record<string, JsonSchema> = {
  title: { type: 'string', minLength: 1 },
  trigger: { type: 'string', description: '@kebab-name' },
  category: { type: 'string' },
  knowledgeType: { type: 'string', enum: Object.keys(KNOWLEDGE_TYPES) },
  summary: { type: 'string' },
  usageGuide: { type: 'string' },
  rationale: { type: 'string' },
  tags: { type: 'array', items: { type: 'string' } },
  scope: { type: 'string', enum: [...SCOPES] },
  complexity: { type: 'string', enum: [...COMPLEXITIES] },
};

const idList = (max: number, description: string): JsonSchema => ({ type: 'array', items: { type: 'string', minLength: 1 }, maxItems: max, description });

const refinementSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'string', minLength: 1 },
    summary: { type: 'string' },
    insight: { type: 'string', description: 'Why it matters in this project (stored as the rationale).' },
    usageGuide: { type: 'string', description: 'Set only when the candidate lacks one.' },
    relations: { type: 'object', properties: Object.fromEntries(RELATION_TYPES.map((r) => [r, { type: 'array', items: { type: 'string' } }])), additionalProperties: false },
    confidence: { type: 'number', minimum: 0, maximum: 1 },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['id'],
  additionalProperties: false,
};

export const summarizeCodeTool = defineTool<{ code: string; language: string; maxWords?: number }, unknown>({
  name: 'summarize_code',
  title: 'Summarize code',
  domain: 'agent',
  summary: 'What a piece of code does, why it exists, its key points and main APIs (uses the model).',
  description: `Summarizes a piece of code for the knowledge base: a one- or two-sentence summary, its purpose, at most five key points and the main functions, types or calls, plus an outline (lines, declarations) computed without a model. ${NO_MODEL_NOTE}`,
  inputSchema: {
    type: 'object',
    properties: {
      code: { type: 'string', minLength: 1, maxLength: 60_000, description: 'The code to summarize.' },
      language: { type: 'string', minLength: 1, description: 'Its language, e.g. swift, typescript.' },
      maxWords: { type: 'integer', minimum: 10, maximum: 300, default: 80, description: 'Longest summary, in words.' },
    },
    required: ['code', 'language'],
    additionalProperties: false,
  },
  aliases: { lang: 'language', source: 'code' },
  access: 'read',
  maxOutputChars: 8000,
  handler: (_ws, input, ctx) => summarizeCode(input, ctx),
});

export const enrichCandidateTool = defineTool<{ id: string; fields?: EnrichFields; overwrite?: boolean }, unknown>({
  name: 'enrich_candidate',
  title: 'Enrich a candidate',
  domain: 'agent',
  summary: "Fills a pending candidate's missing fields (category, trigger, summary, usage guide…) with the model, or with fields you supply.",
  description:
    "Completes one pending candidate: category, trigger, summary, usage guide, rationale, tags, knowledge type, scope, complexity. With a model it fills only what validate_candidate finds missing or weak (overwrite: true to replace the rest too); " +
    `pass \`fields\` to supply them yourself. The answer lists the changed fields and the validation after the change. ${NO_MODEL_NOTE} Then call it again with \`fields\` set to your answer.`,
  inputSchema: {
    type: 'object',
    properties: {
      id: { type: 'string', minLength: 1, description: 'The candidate id.' },
      fields: { type: 'object', properties: enrichFieldSchema, additionalProperties: false, description: `Fields to set (${ENRICH_FIELDS.join(', ')}).` },
      overwrite: { type: 'boolean', default: false, description: 'Let the model replace fields that are already good.' },
    },
    required: ['id'],
    additionalProperties: false,
  },
  aliases: { candidateId: 'id', candidate_id: 'id' },
  access: 'propose',
  maxOutputChars: 12_000,
  confirmation: (input) => ({ title: 'Enrich a candidate', message: `Fill in the missing fields of candidate ${input.id}? It stays pending until a person reviews it.` }),
  handler: (ws, input, ctx) => enrichCandidate(ws, input, ctx),
});

export const refineBootstrapCandidatesTool = defineTool<RefineInput, unknown>({
  name: 'refine_bootstrap_candidates',
  title: 'Refine cold-start candidates',
  domain: 'agent',
  summary: 'Sharper summaries, insight, relations, calibrated confidence and tags for the pending candidates of a cold start (uses the model).',
  description:
    'Improves pending candidates the cold-start scan created (or the ones named in candidateIds), five per model request: a summary specific to the project, the insight (why it matters here, stored as the rationale), a usage guide where one is missing, ' +
    'relations to other pending candidates, a calibrated confidence and tags. languageGuide (the chunk "look-for" of the language\'s reference skill) sharpens the result. ' +
    `Pass \`refinements\` to apply results you produced yourself. ${NO_MODEL_NOTE}`,
  inputSchema: {
    type: 'object',
    properties: {
      candidateIds: idList(50, 'The candidates to refine; default: pending candidates from the cold-start scan.'),
      limit: { type: 'integer', minimum: 1, maximum: 50, default: 20, description: 'Refine at most this many.' },
      languageGuide: { type: 'string', maxLength: 20_000, description: 'Guidance for the language, e.g. a reference skill section.' },
      refinements: { type: 'array', items: refinementSchema, maxItems: 50, description: 'Refinements to apply as they are (no model needed).' },
      batchSize: { type: 'integer', minimum: 1, maximum: 10, default: 5, description: 'Candidates per model request.' },
    },
    additionalProperties: false,
  },
  aliases: { ids: 'candidateIds', candidate_ids: 'candidateIds' },
  access: 'propose',
  batch: { field: 'candidateIds', max: 50 },
  maxOutputChars: 16_000,
  confirmation: () => ({ title: 'Refine candidates', message: 'Improve the summaries, relations, confidence and tags of pending candidates? They stay pending until a person reviews them.' }),
  handler: (ws, input, ctx) => refineCandidates(ws, input, ctx),
});

export const discoverRelationsTool = defineTool<{ candidateIds?: string[]; limit?: number }, unknown>({
  name: 'discover_relations',
  title: 'Discover relations',
  domain: 'agent',
  summary: 'Relations between pending candidates (dependsOn, extends, conflicts, related, replaces), with a reason each (uses the model).',
  description:
    'Finds relations among pending candidates (the ones named, or the most recent): dependsOn, extends, conflicts, related, replaces, each with a one-line reason. Only relations between the given candidates are kept. ' +
    `It records nothing: pass the relations to refine_bootstrap_candidates to store them. ${NO_MODEL_NOTE}`,
  inputSchema: {
    type: 'object',
    properties: {
      candidateIds: idList(40, 'The candidates to relate; default: the most recent pending ones.'),
      limit: { type: 'integer', minimum: 2, maximum: 40, default: 25, description: 'At most this many candidates.' },
    },
    additionalProperties: false,
  },
  aliases: { ids: 'candidateIds' },
  access: 'read',
  maxOutputChars: 12_000,
  handler: (ws, input, ctx) => discoverRelations(ws, input, ctx),
});

export const generateGuardRuleTool = defineTool<GuardRuleInput, unknown>({
  name: 'generate_guard_rule',
  title: 'Generate a guard rule',
  domain: 'agent',
  summary: 'A regex guard rule from a description and examples, checked against the examples before it is proposed (uses the model).',
  description:
    'Writes a guard rule (a regular expression over code, comments and strings masked) from a description, code it must report (badExamples) and code it must not (goodExamples). ' +
    'The rule is run by the guard engine on every example before it is returned; a rule that fails is sent back to the model with the failures (up to maxAttempts). ' +
    'Pass `rule` to check a rule you wrote yourself. It records nothing: propose a passing rule with submit_candidate. ' + NO_MODEL_NOTE,
  inputSchema: {
    type: 'object',
    properties: {
      description: { type: 'string', minLength: 3, description: 'What the rule should catch, in words.' },
      language: { type: 'string', minLength: 1, description: 'Language id, e.g. typescript, swift.' },
      badExamples: { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1, maxItems: 10, description: 'Code the rule must report.' },
      goodExamples: { type: 'array', items: { type: 'string', minLength: 1 }, maxItems: 10, description: 'Code the rule must not report.' },
      rule: {
        type: 'object',
        properties: {
          id: { type: 'string', minLength: 1 },
          message: { type: 'string', minLength: 1 },
          regex: { type: 'string', minLength: 1 },
          flags: { type: 'string' },
          scope: { type: 'string', enum: ['code', 'comments', 'strings', 'any'] },
          severity: { type: 'string', enum: ['error', 'warning', 'info', 'hint'] },
          why: { type: 'string' },
          suggestion: { type: 'string' },
        },
        required: ['id', 'message', 'regex', 'why', 'suggestion'],
        additionalProperties: false,
        description: 'A rule to check against the examples instead of generating one.',
      },
      maxAttempts: { type: 'integer', minimum: 1, maximum: 3, default: 3 },
    },
    required: ['description', 'language', 'badExamples'],
    additionalProperties: false,
  },
  aliases: { bad: 'badExamples', good: 'goodExamples', examples: 'badExamples' },
  access: 'read',
  maxOutputChars: 12_000,
  handler: (_ws, input, ctx) => generateGuardRule(input, ctx),
});

/** The pipeline runner needs the catalog it belongs to, hence the getter. */
export function runPipelineTool(catalog: () => ToolCatalog): ToolDefinition {
  return defineTool<{ name: string; input?: Record<string, unknown> }, unknown>({
    name: 'run_pipeline',
    title: 'Run a task pipeline',
    domain: 'agent',
    summary: `Runs a built-in pipeline of tool steps (${PIPELINES.map((p) => p.name).join(', ')}); steps of one layer run in parallel.`,
    description:
      'Runs a built-in task pipeline: a DAG of tool calls whose independent steps run in parallel, each step through the catalog and the Gateway as you. ' +
      'The answer gives each step\'s status, attempts, time, error and shortened data. Pipelines:\n' +
      PIPELINES.map((p) => `- ${p.name}: ${p.description ?? p.summary} Input: ${JSON.stringify(p.inputSchema?.properties ?? {})}`).join('\n'),
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', enum: PIPELINES.map((p) => p.name), description: 'The pipeline.' },
        input: { type: 'object', description: "The pipeline's input (see the description)." },
      },
      required: ['name'],
      additionalProperties: false,
    },
    aliases: { pipeline: 'name', params: 'input' },
    access: 'propose',
    maxOutputChars: 16_000,
    confirmation: (input) => ({ title: 'Run a pipeline', message: `Run ${input.name}? It may create and update candidates; they stay pending until a person reviews them.` }),
    handler: (ws, input, ctx) => runCatalogPipeline(catalog(), ws, getPipeline(input.name), input.input ?? {}, ctx),
  });
}

/** Every tool of the agent domain. */
export function agentTools(catalog: () => ToolCatalog): ToolDefinition[] {
  return [summarizeCodeTool, enrichCandidateTool, refineBootstrapCandidatesTool, discoverRelationsTool, generateGuardRuleTool, runPipelineTool(catalog)] as ToolDefinition[];
}
