import { COMPLEXITIES, KNOWLEDGE_TYPES, RELATION_TYPES, SCOPES, USAGE_EVENTS } from '../knowledge/types';
import type { JsonSchema } from './types';

const stringList = (description: string): JsonSchema => ({ type: 'array', items: { type: 'string' }, description });

/** The fields of a proposal. Only `title` is required; validate_candidate says what else is missing. */
export const candidateProperties: Record<string, JsonSchema> = {
  title: { type: 'string', minLength: 1, maxLength: 200, description: 'What the practice is, in 8–80 characters: "Wrap HTTP calls in withRetry".' },
  summary: { type: 'string', maxLength: 2000, description: 'One or two sentences: what to do and when.' },
  code: { type: 'string', maxLength: 20000, description: 'The essential code from the project (not a placeholder).' },
  language: { type: 'string', description: 'VS Code language id: typescript, swift, python…' },
  category: { type: 'string', description: 'The folder it is filed under, e.g. networking, ui, errors.' },
  knowledgeType: { type: 'string', enum: Object.keys(KNOWLEDGE_TYPES), description: 'What kind of knowledge; it implies the kind (rule, pattern or fact).' },
  trigger: { type: 'string', description: '`@name` a person types to insert the code; derived from the title when omitted.' },
  tags: stringList('3–6 words people would search for.'),
  usageGuide: { type: 'string', maxLength: 8000, description: 'When to use it, when not, what to watch out for.' },
  rationale: { type: 'string', maxLength: 4000, description: 'Why the project does it this way.' },
  steps: {
    type: 'array',
    items: { type: 'object', properties: { title: { type: 'string' }, description: { type: 'string' }, code: { type: 'string' } }, required: ['title'], additionalProperties: false },
    description: 'Ordered steps, for a how-to.',
  },
  scope: { type: 'string', enum: [...SCOPES], description: 'universal (any project), project (default) or target (one package/module: name it in `target`).' },
  target: { type: 'string', description: 'The package or module a target-scoped recipe applies to.' },
  complexity: { type: 'string', enum: [...COMPLEXITIES] },
  relations: {
    type: 'object',
    properties: Object.fromEntries(RELATION_TYPES.map((r) => [r, stringList(`Recipe ids this one ${r === 'dependsOn' ? 'depends on' : r}.`)])),
    additionalProperties: false,
  },
  constraints: {
    type: 'object',
    properties: {
      guards: {
        type: 'array',
        items: {
          type: 'object',
          properties: { pattern: { type: 'string' }, message: { type: 'string' }, severity: { enum: ['error', 'warning', 'info'] }, mode: { enum: ['forbid', 'require'] } },
          required: ['pattern', 'message'],
          additionalProperties: false,
        },
        description: 'Guard patterns (regular expressions) that enforce it.',
      },
      preconditions: stringList('What must hold before it applies.'),
      boundaries: stringList('Where it does not apply.'),
      sideEffects: stringList('What it changes besides its result.'),
    },
    additionalProperties: false,
  },
  sourceFiles: stringList('Where the project does this, as `path:line`.'),
  reasoning: {
    type: 'object',
    properties: {
      whyStandard: { type: 'string', description: 'Why it is a standard here, not a one-off: how often, who relies on it.' },
      sources: stringList('Evidence as `path:line`.'),
      confidence: { type: 'number', minimum: 0, maximum: 1 },
    },
    additionalProperties: false,
  },
};

export const candidateSchema: JsonSchema = { type: 'object', properties: candidateProperties, required: ['title'], additionalProperties: false };

/** Names agents use for our fields. */
export const candidateAliases: Record<string, string> = {
  description: 'summary',
  content: 'code',
  snippet: 'code',
  type: 'knowledgeType',
  knowledge_type: 'knowledgeType',
  usage_guide: 'usageGuide',
  source_files: 'sourceFiles',
};

export const searchFilterProperties: Record<string, JsonSchema> = {
  kind: { type: 'string', enum: ['rule', 'pattern', 'fact'], description: 'Only rules, patterns or facts.' },
  language: { type: 'string', description: 'Only recipes of this language (VS Code language id).' },
  limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
  includeDeprecated: { type: 'boolean', default: false, description: 'Also deprecated recipes.' },
};

export const recipeRef: JsonSchema = { type: 'string', minLength: 1, description: 'Recipe id (e.g. "networking/fetch-with-retry"), its trigger ("@fetchWithRetry") or its file path.' };
export const candidateRef: JsonSchema = { type: 'string', minLength: 1, description: 'Candidate id, e.g. "cand-0e4590491305".' };
export const usageEvents = [...USAGE_EVENTS];
