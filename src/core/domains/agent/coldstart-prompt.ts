/**
 * The cold start's model step as a prompt and an answer check: a model writes the cards from the
 * scan's evidence packs and checks each against them. The same prompt is what `@autosnippet /coldstart`
 * sends, what MCP sampling sends, and what diagnostic mode hands to an agent; a bench hashes it
 * (`coldstartRequests`) to tell when the prompts drift.
 */
import type { EvidencePack } from '../bootstrap/packs';
import { KNOWLEDGE_TYPES } from '../knowledge/types';
import { TITLE_MAX } from '../knowledge/validate';
import type { TaskPrompt } from './tasks';

/** Evidence tokens per request: a few packs, so one answer of cards stays within the output budget. */
export const REQUEST_EVIDENCE_TOKENS = 6000;
/** Output tokens asked for one request's cards (about 8–12 cards). */
export const CARDS_OUTPUT_TOKENS = 6000;

/** What the project is, in one line for the prompt. */
export interface ProjectLine {
  primaryLanguage?: string;
  files: number;
}

/** One card as the model writes it. */
export interface ModelCard {
  dimension: string;
  /** Ids of the findings it rests on (`code-pattern#2`). */
  evidence: string[];
  title: string;
  knowledgeType: string;
  summary: string;
  code: string;
  sources: string[];
  confidence: number;
}

export const CARD_RULES = [
  'Write a card only for what the evidence shows; several findings that say one thing make one card.',
  'State the rule the code follows, with its scope and its exception (from the counter-examples), never a count in place of a rule: "Server handlers return `Result<T, AppError>` and never throw; background jobs log and retry instead", not "12 files use Result".',
  'Every card cites `sources`: `path:line` copied from the evidence (the lines after "- ", or a line inside an excerpt), the lines that show the claim. A line that is not in the evidence is flagged for the person who reviews it; a file or line that does not exist refuses the card.',
  '`code` is copied from the quoted lines or excerpts as they are (mark omissions with a line `...`), or "" when the claim is not about code.',
  "Check each card before answering: does every cited line show what the card says? Drop the card, or narrow it, when it does not. Findings below the scan's bar are habits with exceptions: state the exception or leave them out.",
  'Confidence: 0.9 or more only when the rule holds everywhere and nothing contradicts it; 0.5–0.7 for a habit with exceptions; below 0.5, do not write the card.',
  `Titles say the rule specific to this project in at most ${TITLE_MAX} characters; summaries say when it applies and what to do, in at most 300 characters.`,
];

/**
 * The same rules for an agent that writes the cards itself and submits them (coldstart_evidence, then
 * submit_candidates): nothing there compares a source with the evidence, so rule 3 says what the
 * submission does check instead of promising a flag only write_coldstart_cards sets.
 */
export const AGENT_CARD_RULES = CARD_RULES.map((rule, i) =>
  i === 2
    ? 'Every card cites `sources`: `path:line` copied from the evidence (the lines after "- ", or a line inside an excerpt), or a line you opened and checked yourself: the lines that show the claim. Each cited file and line is opened when you submit: a file or line that does not exist, or `code` the cited files do not hold, refuses the card.'
    : rule
);

/** The prompt for one group of packs. */
export function coldstartPrompt(packs: readonly EvidencePack[], project: ProjectLine): TaskPrompt {
  const dims = packs.map((p) => p.dimension);
  return {
    system: [
      'You write the first knowledge cards of a software project from the evidence its scan found: what a maintainer would tell a new teammate so that the code they write is accepted. A person reviews every card.',
      'Use only the evidence given; do not invent names, files, counts or rules it does not show.',
      'Answer with one JSON value and nothing else.',
    ].join(' '),
    user: [
      `Project: ${project.primaryLanguage ?? 'mixed languages'}, ${project.files} source files scanned.`,
      'Rules for the cards:',
      ...CARD_RULES.map((r, i) => `${i + 1}. ${r}`),
      '',
      'The evidence, by dimension (finding ids in brackets):',
      '',
      packs.map((p) => p.text).join('\n\n'),
      '',
      `JSON: {"cards": [{"dimension": one of ${
        dims.map((d) => `"${d}"`).join('|')
      }, "evidence": ["finding id"], "title": "…", "knowledgeType": one of ${
        Object.keys(KNOWLEDGE_TYPES).join('|')
      }, "summary": "…", "code": "lines copied from the evidence, or empty", "sources": ["path:line"], "confidence": 0.5–1}]}`,
    ].join('\n'),
    answerFormat:
      '{"cards": [{"dimension", "evidence": string[], "title", "knowledgeType", "summary", "code", "sources": string[], "confidence"}]}',
  };
}

/** Packs grouped into requests of at most `tokens` of evidence each, in their order. */
export function groupPacks(packs: readonly EvidencePack[], tokens = REQUEST_EVIDENCE_TOKENS): EvidencePack[][] {
  const groups: EvidencePack[][] = [];
  let size = 0;
  for (const p of packs) {
    if (!groups.length || (size + p.tokens > tokens && groups[groups.length - 1].length)) {
      groups.push([]);
      size = 0;
    }
    groups[groups.length - 1].push(p);
    size += p.tokens;
  }
  return groups;
}

/** Every prompt the model path sends for these packs, in order: what a bench hashes. */
export function coldstartRequests(
  packs: readonly EvidencePack[],
  project: ProjectLine,
  tokens = REQUEST_EVIDENCE_TOKENS,
): TaskPrompt[] {
  return groupPacks(packs, tokens).map((g) => coldstartPrompt(g, project));
}

/** Only the answer's shape: a card with a problem is dropped on its own (`cardsOf`), not the whole answer. */
export function checkCardsAnswer(v: unknown): string[] {
  const cards = Array.isArray(v) ? v : isRecord(v) ? v.cards : undefined;
  return Array.isArray(cards) ? [] : ['the answer must be a JSON object {"cards": [...]}'];
}

/** The answer's cards, each checked for its fields; the rest are reported with why. */
export function cardsOf(
  v: unknown,
  dimensions: readonly string[],
): { cards: ModelCard[]; dropped: { index: number; title?: string; problem: string }[] } {
  const raw = (Array.isArray(v) ? v : isRecord(v) && Array.isArray(v.cards) ? v.cards : []) as unknown[];
  const cards: ModelCard[] = [];
  const dropped: { index: number; title?: string; problem: string }[] = [];
  raw.forEach((c, index) => {
    const problem = cardProblem(c, dimensions);
    const title = isRecord(c) && typeof c.title === 'string' ? c.title : undefined;
    if (problem) dropped.push({ index, ...(title ? { title } : {}), problem });
    else cards.push(normalise(c as Record<string, unknown>));
  });
  return { cards, dropped };
}

function cardProblem(c: unknown, dimensions: readonly string[]): string | undefined {
  if (!isRecord(c)) return 'a card must be an object';
  if (typeof c.title !== 'string' || !c.title.trim()) return '"title" must be a non-empty string';
  if (typeof c.summary !== 'string' || !c.summary.trim()) return '"summary" must be a non-empty string';
  if (typeof c.knowledgeType !== 'string' || !Object.hasOwn(KNOWLEDGE_TYPES, c.knowledgeType)) {
    return `"knowledgeType" must be one of ${Object.keys(KNOWLEDGE_TYPES).join(', ')}`;
  }
  if (typeof c.dimension !== 'string' || !dimensions.includes(c.dimension)) {
    return `"dimension" must be one of ${dimensions.join(', ')}`;
  }
  if (!Array.isArray(c.sources) || !c.sources.some((s) => typeof s === 'string' && /:\d+/.test(s))) {
    return '"sources" must list at least one `path:line` from the evidence';
  }
  if (typeof c.confidence !== 'number' || c.confidence < 0 || c.confidence > 1) {
    return '"confidence" must be a number from 0 to 1';
  }
  if (c.confidence < 0.5) return 'its confidence is below 0.5: not a card';
  return undefined;
}

function normalise(c: Record<string, unknown>): ModelCard {
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  return {
    dimension: c.dimension as string,
    evidence: strings(c.evidence),
    title: (c.title as string).trim(),
    knowledgeType: c.knowledgeType as string,
    summary: (c.summary as string).trim(),
    code: typeof c.code === 'string' ? c.code : '',
    sources: [...new Set(strings(c.sources).map((s) => s.trim().replace(/^`|`$/g, '')).filter((s) => /:\d+/.test(s)))],
    confidence: c.confidence as number,
  };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
