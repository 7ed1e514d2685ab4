/**
 * The AI-assisted tools and the pipeline runner. Handlers never call a model on their own: they use
 * `ctx.model` when the channel lends one (VS Code chat, MCP sampling) and otherwise answer in
 * diagnostic mode with the prompt the calling agent can run itself.
 */
import {
  discoverRelations,
  enrichCandidate,
  generateGuardRule,
  refineCandidates,
  summarizeCode,
} from '../domains/agent/assist';
import { getPipeline, PIPELINES } from '../domains/agent/pipelines';
import { ENRICH_FIELDS } from '../domains/agent/tasks';
import { COMPLEXITIES, RELATION_TYPES, type RelationType, SCOPES } from '../domains/knowledge/types';
import { candidateProperties, KNOWLEDGE_TYPE_NAMES } from './knowledge-schemas';
import { runCatalogPipeline } from './pipeline-runner';
import { Code, Domain, Id, Input, List, Name, Opt, StringEnum, Text, Type } from './schema';
import { type AnyTool, defineTool } from './types';

const NO_MODEL_NOTE =
  'Without a model on this channel it answers in diagnostic mode: what is missing and the prompt to run yourself.';

const tags = () => List(Name(undefined, { maxLength: 64 }), 20);

const enrichFieldSchema = Input(
  {
    title: Opt(Text(undefined, { minLength: 1, maxLength: 200 })),
    trigger: Opt(Name('@kebab-name')),
    category: Opt(Name()),
    knowledgeType: Opt(StringEnum(KNOWLEDGE_TYPE_NAMES)),
    summary: Opt(Text(undefined, { maxLength: 2000 })),
    usageGuide: Opt(Text()),
    rationale: Opt(Text(undefined, { maxLength: 4000 })),
    tags: Opt(tags()),
    scope: Opt(StringEnum(SCOPES)),
    complexity: Opt(StringEnum(COMPLEXITIES)),
    // Validation may name any of these as missing, so `fields` can set them all.
    code: candidateProperties.code,
    language: candidateProperties.language,
    reasoning: candidateProperties.reasoning,
  },
  {
    description: `Fields to set (${
      [...ENRICH_FIELDS, 'code', 'language', 'reasoning'].join(', ')
    }); the same as update_candidate takes.`,
  },
);

const idList = (max: number, description: string) => List(Id(), max, { description });

const relationList = () => Opt(List(Id(), 50));
const refinementSchema = Input({
  id: Id(),
  summary: Opt(Text(undefined, { maxLength: 2000 })),
  insight: Opt(Text('Why it matters in this project (stored as the rationale).', { maxLength: 4000 })),
  usageGuide: Opt(Text('Set only when the candidate lacks one.')),
  relations: Opt(
    Input(
      Object.fromEntries(RELATION_TYPES.map((r) => [r, relationList()])) as Record<
        RelationType,
        ReturnType<typeof relationList>
      >,
    ),
  ),
  confidence: Opt(Type.Number({ minimum: 0, maximum: 1 })),
  tags: Opt(tags()),
});

/** The AI-assisted answers: their types are the agent domain's (a result with a model, or the diagnostic answer without). */
const assistOut = <T>(description: string) => Domain<T>(description);

export const summarizeCodeTool = defineTool({
  name: 'summarize_code',
  title: 'Summarize code',
  domain: 'agent',
  summary: 'What a piece of code does, why it exists, its key points and main APIs (uses the model).',
  description:
    `Summarizes a piece of code for the knowledge base: a one- or two-sentence summary, its purpose, at most five key points and the main functions, types or calls, plus an outline (lines, declarations) computed without a model. ${NO_MODEL_NOTE}`,
  inputSchema: Input({
    code: Code('The code to summarize.', { minLength: 1, maxLength: 60_000 }),
    language: Name('Its language, e.g. swift, typescript.', { minLength: 1, maxLength: 64 }),
    maxWords: Opt(Type.Integer({ minimum: 10, maximum: 300, default: 80, description: 'Longest summary, in words.' })),
  }),
  outputSchema: assistOut<Awaited<ReturnType<typeof summarizeCode>>>(
    'The summary, purpose, key points, main APIs and outline; or, without a model, the diagnostic answer with the prompt.',
  ),
  aliases: { lang: 'language', source: 'code' },
  access: 'read',
  maxOutputChars: 8000,
  handler: (_ws, input, ctx) => summarizeCode(input, ctx),
});

export const enrichCandidateTool = defineTool({
  name: 'enrich_candidate',
  title: 'Enrich a candidate',
  domain: 'agent',
  summary:
    "Fills a pending candidate's missing fields (category, trigger, summary, usage guide…) with the model, or with fields you supply.",
  description:
    'Completes one pending candidate with the model: category, trigger, summary, usage guide, rationale, tags, knowledge type, scope, complexity. It fills only what validate_candidate finds missing or weak (overwrite: true to replace the rest too). '
    + 'The answer is the id, the changed fields and the validation after the change (`missing`, `weak`, as validate_candidate says). '
    + 'Without a model on this channel it answers in diagnostic mode: the validation and a short prompt; fill the fields yourself with update_candidate (which takes every field, code and sources included).',
  inputSchema: Input({
    id: Id('The candidate id.'),
    fields: Opt(enrichFieldSchema),
    overwrite: Opt(
      Type.Boolean({ default: false, description: 'Let the model replace fields that are already good.' }),
    ),
  }),
  outputSchema: assistOut<Awaited<ReturnType<typeof enrichCandidate>>>(
    'The changed fields and the validation after the change; or the diagnostic answer.',
  ),
  aliases: { candidateId: 'id', candidate_id: 'id' },
  access: 'propose',
  maxOutputChars: 12_000,
  confirmation: (input) => ({
    title: 'Enrich a candidate',
    message: `Fill in the missing fields of candidate ${input.id}? It stays pending until a person reviews it.`,
  }),
  handler: (ws, input, ctx) => enrichCandidate(ws, input, ctx),
});

export const refineBootstrapCandidatesTool = defineTool({
  name: 'refine_bootstrap_candidates',
  title: 'Refine cold-start candidates',
  domain: 'agent',
  summary:
    'Sharper summaries, insight, relations, calibrated confidence and tags for the pending candidates of a cold start (uses the model).',
  description:
    'Improves pending candidates the cold-start scan created (or the ones named in candidateIds), five per model request: a summary specific to the project, the insight (why it matters here, stored as the rationale), a usage guide where one is missing, '
    + 'relations to other pending candidates, a calibrated confidence and tags. languageGuide (the chunk "look-for" of the language\'s reference skill) sharpens the result. '
    + `Pass \`refinements\` to apply results you produced yourself. ${NO_MODEL_NOTE}`,
  inputSchema: Input({
    candidateIds: Opt(idList(50, 'The candidates to refine; default: pending candidates from the cold-start scan.')),
    limit: Opt(Type.Integer({ minimum: 1, maximum: 50, default: 20, description: 'Refine at most this many.' })),
    languageGuide: Opt(Text('Guidance for the language, e.g. a reference skill section.', { maxLength: 20_000 })),
    refinements: Opt(
      List(refinementSchema, 50, { description: 'Refinements to apply as they are (no model needed).' }),
    ),
    batchSize: Opt(Type.Integer({ minimum: 1, maximum: 10, default: 5, description: 'Candidates per model request.' })),
  }),
  outputSchema: assistOut<Awaited<ReturnType<typeof refineCandidates>>>(
    'What changed per candidate; or the diagnostic answer.',
  ),
  aliases: { ids: 'candidateIds', candidate_ids: 'candidateIds' },
  access: 'propose',
  batch: { field: 'candidateIds', max: 50 },
  maxOutputChars: 16_000,
  confirmation: () => ({
    title: 'Refine candidates',
    message:
      'Improve the summaries, relations, confidence and tags of pending candidates? They stay pending until a person reviews them.',
  }),
  handler: (ws, input, ctx) => refineCandidates(ws, input, ctx),
});

export const discoverRelationsTool = defineTool({
  name: 'discover_relations',
  title: 'Discover relations',
  domain: 'agent',
  summary:
    'Relations between pending candidates (dependsOn, extends, conflicts, related, replaces), with a reason each (uses the model).',
  description:
    'Finds relations among pending candidates (the ones named, or the most recent): dependsOn, extends, conflicts, related, replaces, each with a one-line reason. Only relations between the given candidates are kept. '
    + `It records nothing: pass the relations to refine_bootstrap_candidates to store them. ${NO_MODEL_NOTE}`,
  inputSchema: Input({
    candidateIds: Opt(idList(40, 'The candidates to relate; default: the most recent pending ones.')),
    limit: Opt(Type.Integer({ minimum: 2, maximum: 40, default: 25, description: 'At most this many candidates.' })),
  }),
  outputSchema: assistOut<Awaited<ReturnType<typeof discoverRelations>>>(
    'The relations found with a reason each; or the diagnostic answer.',
  ),
  aliases: { ids: 'candidateIds' },
  access: 'read',
  maxOutputChars: 12_000,
  handler: (ws, input, ctx) => discoverRelations(ws, input, ctx),
});

export const generateGuardRuleTool = defineTool({
  name: 'generate_guard_rule',
  title: 'Generate a guard rule',
  domain: 'agent',
  summary:
    'A regex guard rule from a description and examples, checked against the examples before it is proposed (uses the model).',
  description:
    'Writes a guard rule (a regular expression over code, comments and strings masked) from a description, code it must report (badExamples) and code it must not (goodExamples). '
    + 'The rule is run by the guard engine on every example before it is returned; a rule that fails is sent back to the model with the failures (up to maxAttempts). '
    + 'Pass `rule` to check a rule you wrote yourself. It records nothing: propose a passing rule with submit_candidate. '
    + NO_MODEL_NOTE,
  inputSchema: Input({
    description: Text('What the rule should catch, in words.', { minLength: 3, maxLength: 2000 }),
    language: Name('Language id, e.g. typescript, swift.', { minLength: 1, maxLength: 64 }),
    badExamples: List(Code(undefined, { minLength: 1, maxLength: 10_000 }), 10, {
      minItems: 1,
      description: 'Code the rule must report.',
    }),
    goodExamples: Opt(
      List(Code(undefined, { minLength: 1, maxLength: 10_000 }), 10, { description: 'Code the rule must not report.' }),
    ),
    rule: Opt(
      Input(
        {
          id: Id(),
          message: Text(undefined, { minLength: 1, maxLength: 500 }),
          regex: Text(undefined, { minLength: 1, maxLength: 2000 }),
          flags: Opt(Name(undefined, { maxLength: 10 })),
          scope: Opt(StringEnum(['code', 'comments', 'strings', 'any'])),
          severity: Opt(StringEnum(['error', 'warning', 'info', 'hint'])),
          why: Text(undefined, { maxLength: 2000 }),
          suggestion: Text(undefined, { maxLength: 2000 }),
        },
        { description: 'A rule to check against the examples instead of generating one.' },
      ),
    ),
    maxAttempts: Opt(Type.Integer({ minimum: 1, maximum: 3, default: 3 })),
  }),
  outputSchema: assistOut<Awaited<ReturnType<typeof generateGuardRule>>>(
    'The rule and how it did on every example; or the diagnostic answer.',
  ),
  aliases: { bad: 'badExamples', good: 'goodExamples', examples: 'badExamples' },
  access: 'read',
  maxOutputChars: 12_000,
  handler: (_ws, input, ctx) => generateGuardRule(input, ctx),
});

export const runPipelineTool = defineTool({
  name: 'run_pipeline',
  title: 'Run a task pipeline',
  domain: 'agent',
  summary: `Runs a built-in pipeline of tool steps (${
    PIPELINES.map((p) => p.name).join(', ')
  }); steps of one layer run in parallel.`,
  description:
    'Runs a built-in task pipeline: a DAG of tool calls whose independent steps run in parallel, each step through the catalog and the Gateway as you. '
    + "The answer gives each step's status, attempts, time, error and shortened data. Pipelines:\n"
    + PIPELINES.map((p) =>
      `- ${p.name}: ${p.description ?? p.summary} Input: ${JSON.stringify(p.inputSchema?.properties ?? {})}`
    ).join('\n'),
  inputSchema: Input({
    name: StringEnum(PIPELINES.map((p) => p.name), { description: 'The pipeline.' }),
    input: Opt(
      Type.Record(Type.String(), Type.Unknown(), { description: "The pipeline's input (see the description)." }),
    ),
  }),
  outputSchema: Domain<Awaited<ReturnType<typeof runCatalogPipeline>>>(
    "Each step's status, attempts, time, error and shortened data.",
  ),
  aliases: { pipeline: 'name', params: 'input' },
  access: 'propose',
  maxOutputChars: 16_000,
  confirmation: (input) => ({
    title: 'Run a pipeline',
    message: `Run ${input.name}? It may create and update candidates; they stay pending until a person reviews them.`,
  }),
  handler: (ws, input, ctx) => runCatalogPipeline(ctx.catalog, ws, getPipeline(input.name), input.input ?? {}, ctx),
});

/** Every tool of the agent domain. */
export const agentTools: AnyTool[] = [
  summarizeCodeTool,
  enrichCandidateTool,
  refineBootstrapCandidatesTool,
  discoverRelationsTool,
  generateGuardRuleTool,
  runPipelineTool,
];
