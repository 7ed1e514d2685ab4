/**
 * Evidence packs: what one scan found, per dimension, in the form a model writes cards from. Each
 * finding carries its claim as the scan states it, its counts, the cited lines quoted as the files have
 * them, and its counter-examples; a pack stays within a token budget (findings that do not fit are
 * counted, not silently lost). The same packs are the model's prompt in VS Code, what MCP sampling
 * sends, and what an agent pages through, so every path writes from the same evidence.
 */
import type { Workspace } from '../../ground/workspace';
import type { TokenCounter } from '../skills/tokens';
import { type DigestFact, FactDigest, type QuotedLine } from './fact-digest';
import { dimensionGuides } from './guides';
import { importBoundaries } from './pack-layers';
import { type BootstrapOptions, type BootstrapRun, type ProjectScan, scanProject } from './run';
import type { CandidateDraft, Family } from './types';

/** A pack's budget when none is given: ten packs stay near 20K tokens, a page of a tool answer holds three or four. */
export const PACK_TOKENS = 1800;
/** Cited lines shown per finding: the spread across files, not every occurrence. */
const REFS_PER_FINDING = 5;
/** Lines of a draft's code excerpt kept in a pack. */
const EXCERPT_LINES = 12;

export interface EvidenceFinding {
  /** `<dimension>#<n>`, stable for the same scan: what a card names as its evidence. */
  id: string;
  /** Where the finding comes from: a scan card (`scan`), one below the scan's bar (`weak`), or a statistic (`fact`). */
  source: 'scan' | 'weak' | 'fact';
  claim: string;
  /** The numbers behind the claim and the scan's reasoning, in words. */
  detail: string;
  knowledgeType?: string;
  confidence?: number;
  refs: QuotedLine[];
  counterExamples: QuotedLine[];
  /** Lines copied from a file, with where they start. */
  excerpt?: { path: string; line: number; code: string };
  /** The scan's own draft behind a `scan` or `weak` finding (in memory only: it is not shown). */
  draft?: CandidateDraft;
}

export interface EvidencePack {
  dimension: string;
  /** What the dimension looks for (from the cold-start and reference skills). */
  lookFor: string;
  findings: EvidenceFinding[];
  /** Findings that did not fit the budget (the lowest ranked). */
  omitted: number;
  /** The pack as the prompt and the tool show it. */
  text: string;
  tokens: number;
}

export interface PackOptions {
  /** Tokens per pack (default PACK_TOKENS). */
  tokensPerPack?: number;
}

/** A scan and its packs: what the model path and the evidence tool both start from. */
export interface EvidenceScan {
  scan: ProjectScan;
  packs: EvidencePack[];
  /** Dimensions the scan looked at that have no evidence (no pack). */
  empty: string[];
}

/** Scans the project (recording nothing) and builds its evidence packs. */
export async function scanEvidence(
  ws: Workspace,
  options: BootstrapOptions & PackOptions,
  run: BootstrapRun,
  counter: TokenCounter,
): Promise<EvidenceScan> {
  const digest = new FactDigest();
  const scan = await scanProject(ws, options, {
    ...run,
    visit: (f) => {
      run.visit?.(f);
      digest.visit(f);
    },
  });
  const families = (Object.keys(scan.familyCounts) as Family[]).filter((f) => (scan.familyCounts[f] ?? 0) > 0);
  const lookFor = new Map(dimensionGuides(ws, families).map((g) => [g.id, g.lookFor]));
  const facts = digest.facts().filter((f) => !scan.wanted || scan.wanted.has(f.dimension));
  const packs = await buildPacks(scan, facts, lookFor, counter, options.tokensPerPack ?? PACK_TOKENS);
  const dims = [...lookFor.keys()].filter((d) => !scan.wanted || scan.wanted.has(d));
  return { scan, packs, empty: dims.filter((d) => !packs.some((p) => p.dimension === d)) };
}

/** Packs in the guides' order of dimensions, then any other dimension a draft named. */
export async function buildPacks(
  scan: Pick<ProjectScan, 'proposals' | 'weakDrafts' | 'ctx'> & Partial<Pick<ProjectScan, 'fileEdges'>>,
  facts: readonly DigestFact[],
  lookFor: ReadonlyMap<string, string>,
  counter: TokenCounter,
  budget: number,
): Promise<EvidencePack[]> {
  const byDimension = new Map<string, Omit<EvidenceFinding, 'id'>[]>();
  const push = (dim: string, f: Omit<EvidenceFinding, 'id'>) => {
    const list = byDimension.get(dim) ?? [];
    list.push(f);
    byDimension.set(dim, list);
  };
  const quote = quoter(scan.ctx.read);
  // A statistic about a definition a scan card already cites says nothing new.
  const cited = new Set(scan.proposals.flatMap((d) => d.reasoning.sources));
  const fresh = facts.filter((f) => !f.definition || !cited.has(`${f.definition.path}:${f.definition.line}`));
  // What a new teammate most often misses (the contract new code implements, the error types, the
  // import boundaries, the shared test setup) goes first, so the budget drops other findings before it.
  for (const f of fresh) if (f.essential) push(f.dimension, fromFact(f));
  const layers = importBoundaries(scan.fileEdges ?? []);
  if (layers) {
    const refs = (await Promise.all(layers.cited.map(quote))).filter(isQuoted);
    push('architecture', { source: 'fact', claim: layers.claim, detail: '', refs, counterExamples: [] });
  }
  for (const d of scan.proposals) push(d.dimension, await fromDraft(d, 'scan', quote));
  for (const f of fresh) if (!f.essential) push(f.dimension, fromFact(f));
  for (const d of scan.weakDrafts) if (d.reasoning.sources.length) push(d.dimension, await fromDraft(d, 'weak', quote));
  const order = [...lookFor.keys(), ...[...byDimension.keys()].filter((d) => !lookFor.has(d)).sort()];
  const packs: EvidencePack[] = [];
  for (const dim of order) {
    const findings = byDimension.get(dim);
    if (!findings?.length) continue;
    packs.push(fitPack(dim, lookFor.get(dim) ?? '', findings, counter, budget));
  }
  return packs;
}

/** The highest-ranked findings that fit: excerpts go first, then findings from the end. */
function fitPack(
  dimension: string,
  lookFor: string,
  all: Omit<EvidenceFinding, 'id'>[],
  counter: TokenCounter,
  budget: number,
): EvidencePack {
  let findings = all.map((f, i) => ({ ...f, id: `${dimension}#${i + 1}` }));
  const make = (): EvidencePack => {
    const pack = { dimension, lookFor, findings, omitted: all.length - findings.length, text: '', tokens: 0 };
    pack.text = renderPack(pack);
    pack.tokens = counter.count(pack.text);
    return pack;
  };
  let pack = make();
  for (let i = findings.length - 1; i >= 0 && pack.tokens > budget; i--) {
    if (!findings[i].excerpt) continue;
    findings = findings.map((f, j) => (j === i ? { ...f, excerpt: undefined } : f));
    pack = make();
  }
  // The first finding always stays: a pack of none would hide that the dimension has evidence.
  while (pack.tokens > budget && findings.length > 1) {
    findings = findings.slice(0, -1);
    pack = make();
  }
  return pack;
}

/** The pack as text: compact, every cited line quoted after its `path:line`. */
export function renderPack(p: Pick<EvidencePack, 'dimension' | 'lookFor' | 'findings' | 'omitted'>): string {
  const out = [`## ${p.dimension}${p.lookFor ? ` (look for: ${p.lookFor})` : ''}`];
  for (const f of p.findings) {
    const meta = [
      f.source === 'weak' ? "below the scan's bar" : f.source,
      f.knowledgeType,
      f.confidence !== undefined
        ? `confidence ${f.confidence}`
        : undefined,
    ].filter(Boolean).join(', ');
    out.push('', `[${f.id}] ${f.claim} (${meta})`);
    if (f.detail) out.push(f.detail);
    for (const r of f.refs) out.push(`- ${r.path}:${r.line} \`${r.text}\``);
    if (f.counterExamples.length) {
      out.push('Counter-examples:');
      for (const r of f.counterExamples) out.push(`- ${r.path}:${r.line} \`${r.text}\``);
    }
    if (f.excerpt) out.push(`Excerpt from ${f.excerpt.path}:${f.excerpt.line}:`, '```', f.excerpt.code, '```');
  }
  if (p.omitted) out.push('', `(${p.omitted} lower-ranked findings left out to stay within the budget.)`);
  return out.join('\n');
}

type Quote = (cited: string) => Promise<QuotedLine | undefined>;

/** Reads cited lines through the scan's reader (cached per file): `path:line` → the line as the file has it. */
function quoter(read: (rel: string) => Promise<string | undefined>): Quote {
  return async (cited) => {
    const m = /^(.+?):(\d+)(?:-\d+)?$/.exec(cited.trim());
    if (!m) return undefined;
    const text = await read(m[1]);
    const line = Number(m[2]);
    const lines = text?.split('\n');
    if (!lines || line < 1 || line > lines.length) return undefined;
    return { path: m[1], line, text: lines[line - 1].trim().slice(0, 160) };
  };
}

async function fromDraft(
  d: CandidateDraft,
  source: 'scan' | 'weak',
  quote: Quote,
): Promise<Omit<EvidenceFinding, 'id'>> {
  const refs = (await Promise.all(d.reasoning.sources.slice(0, REFS_PER_FINDING).map(quote))).filter(isQuoted);
  const counter = (await Promise.all((d.evidence?.counterExamples ?? []).slice(0, REFS_PER_FINDING).map(quote)))
    .filter(isQuoted);
  const counts = d.evidence?.counts
    ? Object.entries(d.evidence.counts).map(([k, v]) => `${k}: ${v}`).join(', ')
    : '';
  const excerptAt = refs.find((r) => d.code && r.text && d.code.includes(r.text)) ?? refs[0];
  return {
    source,
    draft: d,
    claim: d.title,
    detail: [d.summary, counts && `Counts: ${counts}.`, d.reasoning.whyStandard].filter(Boolean).join(' '),
    knowledgeType: d.knowledgeType,
    confidence: d.reasoning.confidence,
    refs,
    counterExamples: counter,
    ...(d.code && excerptAt
      ? {
        excerpt: {
          path: excerptAt.path,
          line: excerptAt.line,
          code: d.code.split('\n').slice(0, EXCERPT_LINES).join('\n'),
        },
      }
      : {}),
  };
}

function fromFact(f: DigestFact): Omit<EvidenceFinding, 'id'> {
  return {
    source: 'fact',
    claim: f.claim,
    detail: '',
    refs: [...(f.definition ? [f.definition] : []), ...f.places].slice(0, REFS_PER_FINDING + 1),
    counterExamples: [],
  };
}

function isQuoted(q: QuotedLine | undefined): q is QuotedLine {
  return q !== undefined;
}

/** Every `path:line` a pack shows, and the lines its excerpts span: what a card may cite. */
export function citableLines(packs: readonly EvidencePack[]): Set<string> {
  const out = new Set<string>();
  for (const p of packs) {
    for (const f of p.findings) {
      for (const r of [...f.refs, ...f.counterExamples]) out.add(`${r.path}:${r.line}`);
      if (f.excerpt) {
        // An excerpt's first block is the lines from its start; what follows a blank line may be from elsewhere.
        const n = f.excerpt.code.split('\n\n')[0].split('\n').length;
        for (let i = 0; i < n; i++) out.add(`${f.excerpt.path}:${f.excerpt.line + i}`);
      }
    }
  }
  return out;
}
