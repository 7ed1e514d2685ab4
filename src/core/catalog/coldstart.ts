/**
 * The cold start's evidence, for whoever writes the cards: `coldstart_evidence` pages the scan's
 * evidence packs to an agent that writes the cards itself (then submit_candidates); `write_coldstart_cards`
 * has the channel's model write them (VS Code chat, MCP sampling). Both start from the same packs.
 */
import { writeColdstartCards } from '../domains/agent/coldstart';
import { AGENT_CARD_RULES } from '../domains/agent/coldstart-prompt';
import { NO_MODEL_CHANNEL } from '../domains/agent/diagnostic';
import { CORE_DIMENSIONS, LANGUAGE_DIMENSIONS } from '../domains/bootstrap';
import { type EvidenceScan, PACK_TOKENS, scanEvidence } from '../domains/bootstrap/packs';
import { loadTokenCounter } from '../domains/skills/tokens';
import type { Workspace } from '../ground/workspace';
import { BATCH_MAX } from './candidates';
import { Domain, Input, List, Opt, Out, StringEnum, Type } from './schema';
import { type AnyTool, defineTool, type HandlerContext, type ToolContext } from './types';

/** Characters of packs per page: two or three pages for a repository the scan finds much in. */
export const EVIDENCE_PAGE_CHARS = 30_000;
/** A scan's packs are reused this long, so paging through them does not scan again. */
const REUSE_MS = 5 * 60_000;

const dimensionList = () =>
  Opt(
    List(StringEnum([...CORE_DIMENSIONS, ...Object.values(LANGUAGE_DIMENSIONS).flat()]), 50, {
      description: 'Only these dimensions.',
    }),
  );
const maxFiles = () =>
  Opt(
    Type.Integer({ minimum: 1, maximum: 20_000, description: 'Read at most this many source files (default 2000).' }),
  );

interface Cached {
  key: string;
  at: number;
  scan: Promise<EvidenceScan>;
}

/** The packs of the last scan with these options, while fresh; else a new scan. */
function evidenceOf(
  ws: Workspace,
  options: { dimensions?: string[]; maxFiles?: number; tokensPerPack?: number },
  ctx: HandlerContext,
): Promise<EvidenceScan> {
  const cache = ws.service('coldstart.evidence', () => ({ last: undefined as Cached | undefined }));
  const key = JSON.stringify([options.dimensions ?? [], options.maxFiles ?? 0, options.tokensPerPack ?? 0]);
  const last = cache.last;
  if (last && last.key === key && Date.now() - last.at < REUSE_MS) return last.scan;
  const scan = loadTokenCounter().then((counter) =>
    scanEvidence(ws, options, { actor: ctx.actor, signal: ctx.signal, progress: ctx.progress }, counter)
  );
  cache.last = { key, at: Date.now(), scan };
  // A failed or cancelled scan is not kept: the next call scans again.
  scan.catch(() => {
    if (cache.last?.scan === scan) cache.last = undefined;
  });
  return scan;
}

const coldstartEvidence = defineTool({
  name: 'coldstart_evidence',
  title: 'Cold-start evidence',
  domain: 'knowledge',
  summary:
    "The scan's evidence per dimension (file:line with the line quoted, counts, counter-examples), paged; records nothing.",
  description:
    'Scans the project as bootstrap_knowledge does but records nothing: the answer is one evidence pack per dimension, each a text of findings with their counts, `path:line` references '
    + `with the line quoted, counter-examples and short excerpts, within tokensPerPack tokens (default ${PACK_TOKENS}). Pages hold about ${EVIDENCE_PAGE_CHARS} characters: `
    + 'while `hasMore` is true, call again with `cursor: nextCursor` (the scan is reused for five minutes). Write the cards from the packs, citing only `path:line` they show, '
    + `and send them with submit_candidates (at most ${BATCH_MAX} per call), which opens every cited line. `
    + 'Where the channel lends a model, write_coldstart_cards does all of this in one call.',
  inputSchema: Input({
    dimensions: dimensionList(),
    maxFiles: maxFiles(),
    tokensPerPack: Opt(
      Type.Integer({ minimum: 300, maximum: 6000, description: `Token budget of each pack (default ${PACK_TOKENS}).` }),
    ),
  }),
  outputSchema: Out({
    files: Type.Integer({ description: 'Source files scanned.' }),
    primaryLanguage: Opt(Type.String()),
    packs: Type.Array(
      Out({
        dimension: Type.String(),
        tokens: Type.Integer(),
        findings: Type.Integer(),
        omitted: Type.Integer({ description: 'Findings left out to stay within the budget.' }),
        text: Type.String(),
      }),
    ),
    empty: Type.Array(Type.String(), { description: 'Dimensions with no evidence: write no card for them.' }),
    rules: Type.Array(Type.String(), { description: 'How to write the cards from the packs.' }),
  }),
  aliases: { max_files: 'maxFiles', budget: 'tokensPerPack' },
  access: 'read',
  paginate: 'packs',
  maxOutputChars: EVIDENCE_PAGE_CHARS + 4000,
  async handler(ws, input, ctx) {
    const e = await evidenceOf(ws, input, ctx);
    return {
      files: e.scan.scanned.files,
      ...(e.scan.primaryLanguage ? { primaryLanguage: e.scan.primaryLanguage } : {}),
      packs: e.packs.map((p) => ({
        dimension: p.dimension,
        tokens: p.tokens,
        findings: p.findings.length,
        omitted: p.omitted,
        text: p.text,
      })),
      empty: e.empty,
      rules: AGENT_CARD_RULES,
    };
  },
});

const writeCards = defineTool({
  name: 'write_coldstart_cards',
  title: 'Write the cold-start cards (model)',
  domain: 'agent',
  summary:
    "Has the channel's model write the cold-start cards from the scan's evidence, checks every source, records them.",
  description:
    "Cold start with a model: scans the project, gives the model the evidence packs (coldstart_evidence's), parses its cards and checks each one: a card citing a file or line that does not exist, "
    + 'or quoting code the cited files do not hold, is sent back once and then refused; one citing a real line the scan did not show is kept, tagged `unverified-source`, with the line '
    + "in its rationale for the person who reviews it. Dimensions the model could not answer keep the scan's own cards. The answer: cards written, flagged and refused, and bootstrap_knowledge's summary. "
    + 'Without a model on this channel it answers in diagnostic mode: call coldstart_evidence and write the cards yourself with the rules it gives.',
  inputSchema: Input({ dimensions: dimensionList(), maxFiles: maxFiles() }),
  outputSchema: Domain<Awaited<ReturnType<typeof writeColdstartCards>> | Record<string, unknown>>(
    'The cards written, flagged and refused, and the summary per dimension; or the diagnostic answer.',
  ),
  access: 'propose',
  writes: channelLendsModel,
  maxOutputChars: 12_000,
  confirmation: () => ({
    title: 'Write the cold-start cards?',
    message: 'Scan the project and have the model write pending candidates from what it finds, for a person to review.',
  }),
  async handler(ws, input, ctx) {
    if (!channelLendsModel(ctx)) {
      return {
        mode: 'diagnostic' as const,
        reason: `${NO_MODEL_CHANNEL} Write the cards yourself from the scan's evidence, as \`next\` says.`,
        missing: ['model'],
        rules: AGENT_CARD_RULES,
        next:
          `Call coldstart_evidence (pages: follow nextCursor), write the cards from its packs with these rules, and submit them with submit_candidates in batches of at most ${BATCH_MAX}.`,
      };
    }
    return writeColdstartCards(ws, input, { ...ctx, counter: await loadTokenCounter() });
  },
});

/** Without a model the tool only explains what to do instead, so the call writes nothing. */
function channelLendsModel(ctx: ToolContext): boolean {
  return ctx.model !== undefined;
}

export const coldstartTools: AnyTool[] = [coldstartEvidence, writeCards];
export { coldstartEvidence as coldstartEvidenceTool, writeCards as writeColdstartCardsTool };
