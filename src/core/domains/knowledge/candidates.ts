import { createHash } from 'node:crypto';
import { AutoSnippetError, ErrorCode } from '../../ground/kernel/errors';
import { languageForPath, normalizeLanguage } from '../../ground/kernel/languages';
import { closestNames } from '../../ground/kernel/names';
import type { Tx } from '../../ground/store/types';
import type { Workspace } from '../../ground/workspace';
import { backUpCandidates, restoreLostCandidates } from './candidate-backup';
import { scopeGlobProblem } from './folder-scope';
import { triggerFor } from './recipe-file';
import { recordTransition } from './transitions';
import {
  type Actor,
  type Author,
  type Candidate,
  type CandidateInput,
  type CandidateReasoning,
  type CandidateStatus,
  KNOWLEDGE_TYPES,
  type KnowledgeContent,
} from './types';

export type { CandidateInput };

export interface SubmitResult {
  /** Ids of the candidates created, in input order. */
  created: string[];
  /** Inputs (by index) that match an existing candidate or recipe, with that one's id. */
  duplicates: { input: number; existing: string }[];
}

/**
 * Records proposals as pending candidates. Idempotent: an input whose content matches an existing
 * candidate (pending, approved or rejected; or the content an edited candidate started from) or a
 * recipe of the same title and language is reported as a duplicate, not created again. One
 * transaction for the whole batch.
 */
export async function submitCandidates(ws: Workspace, inputs: CandidateInput[], actor: Author): Promise<SubmitResult> {
  const at = new Date().toISOString();
  const prepared = inputs.map((input) => normalizeCandidate(input, actor, at));
  const result = await ws.store.transaction((tx) => {
    restoreLostCandidates(ws, tx);
    const result: SubmitResult = { created: [], duplicates: [] };
    const seen = new Map<string, string>();
    prepared.forEach((c, i) => {
      const existing = seen.get(c.fingerprint)
        ?? tx.get<{ id: string }>('SELECT id FROM candidates WHERE fingerprint = ?', [c.fingerprint])?.id
        // An edited candidate keeps the id its original content gave it: that content again is a duplicate of it.
        ?? tx.get<{ id: string }>('SELECT id FROM candidates WHERE id = ?', [c.id])?.id
        ?? tx.get<{ id: string }>('SELECT id FROM recipes WHERE lower(title) = ? AND language = ?', [
          normalizeTitle(c.title),
          c.language,
        ])?.id;
      if (existing) {
        result.duplicates.push({ input: i, existing });
        return;
      }
      insertCandidate(tx, c);
      recordTransition(tx, { entity: 'candidate', id: c.id, from: null, to: 'pending', actor, at });
      seen.set(c.fingerprint, c.id);
      result.created.push(c.id);
    });
    return result;
  });
  if (result.created.length) await backUpCandidates(ws);
  return result;
}

/** A proposal's `paths`, trimmed; a glob that cannot scope a recipe is refused with the reason. */
function scopePaths(paths: readonly string[] | undefined): string[] | undefined {
  const out = uniq((paths ?? []).map((p) => p.trim().replace(/^\.\//, '')).filter(Boolean));
  for (const g of out) {
    const problem = scopeGlobProblem(g);
    if (problem) {
      throw new AutoSnippetError(
        ErrorCode.InvalidInput,
        `paths: ${problem}.`,
        'Give workspace-relative globs such as packages/api/**.',
      );
    }
  }
  return out.length ? out : undefined;
}

/** Fills defaults, derives the kind and the fingerprint. Pure: the same input gives the same candidate. */
export function normalizeCandidate(input: CandidateInput, actor: Actor | string, at: string): Candidate {
  const knowledgeType = input.knowledgeType && Object.hasOwn(KNOWLEDGE_TYPES, input.knowledgeType)
    ? input.knowledgeType
    : 'code-pattern';
  const sources = uniq(
    [...(input.reasoning?.sources ?? []), ...(input.sourceFiles ?? [])].map((s) => s.trim()).filter(Boolean),
  );
  const language = input.language?.trim()
    ? normalizeLanguage(input.language.trim()) ?? input.language.trim().toLowerCase()
    : languageFromSources(sources) ?? 'text';
  const title = input.title.trim();
  const content: KnowledgeContent = {
    title,
    trigger: input.trigger?.trim()
      ? (input.trigger.trim().startsWith('@') ? input.trigger.trim() : '@' + input.trigger.trim())
      : triggerFor(title),
    language,
    category: input.category?.trim() || 'general',
    knowledgeType,
    summary: input.summary?.trim() ?? '',
    tags: uniq((input.tags ?? []).map((t) => t.trim()).filter(Boolean)),
    scope: input.scope ?? 'project',
    complexity: input.complexity ?? 'intermediate',
  };
  assignDefined(content, {
    usageGuide: input.usageGuide?.trim() || undefined,
    code: input.code?.replace(/\s+$/, '') || undefined,
    rationale: input.rationale?.trim() || undefined,
    steps: input.steps?.length ? input.steps : undefined,
    target: input.target?.trim() || undefined,
    paths: scopePaths(input.paths),
    relations: input.relations && Object.keys(input.relations).length ? input.relations : undefined,
    constraints: input.constraints && Object.keys(input.constraints).length ? input.constraints : undefined,
    sourceFiles: sources.length ? sources : undefined,
  });
  const reasoning: CandidateReasoning = {
    whyStandard: input.reasoning?.whyStandard?.trim() ?? '',
    sources,
    confidence: clamp01(input.reasoning?.confidence ?? 0.5),
  };
  const fingerprint = fingerprintOf(content);
  return {
    ...content,
    id: 'cand-' + fingerprint.slice(0, 12),
    kind: KNOWLEDGE_TYPES[knowledgeType],
    status: 'pending',
    reasoning,
    origin: input.origin ?? (actor === 'human' ? 'human' : 'agent'),
    createdBy: actor,
    createdAt: at,
    fingerprint,
    ...(input.ruleSeed ? { ruleSeed: input.ruleSeed } : {}),
    ...(input.guardReport && input.constraints?.guards?.length ? { guardReport: input.guardReport } : {}),
  };
}

/** Same title and same code (whitespace and case aside) is the same proposal. */
export function fingerprintOf(c: { title: string; code?: string; summary?: string }): string {
  const norm = (s: string | undefined) => (s ?? '').toLowerCase().replace(/\s+/g, ' ').trim();
  return createHash('sha256').update(`${norm(c.title)}\n${c.code ? norm(c.code) : norm(c.summary)}`).digest('hex');
}

export interface CandidateFilter {
  status?: CandidateStatus | 'any';
  origin?: string;
  limit?: number;
}

/** Candidates, pending first, newest first within a status. */
function candidateWhere(filter: CandidateFilter): { where: string; params: (string | number)[] } {
  const where: string[] = [];
  const params: (string | number)[] = [];
  if (filter.status && filter.status !== 'any') {
    where.push('status = ?');
    params.push(filter.status);
  }
  if (filter.origin) {
    where.push('origin LIKE ?');
    params.push(filter.origin + '%');
  }
  return { where: where.length ? 'WHERE ' + where.join(' AND ') : '', params };
}

/** How many candidates match, whatever the limit of a listing. */
export function countCandidates(ws: Workspace, filter: CandidateFilter = {}): number {
  const { where, params } = candidateWhere(filter);
  return ws.store.get<{ n: number }>(`SELECT COUNT(*) AS n FROM candidates ${where}`, params)?.n ?? 0;
}

export function listCandidates(ws: Workspace, filter: CandidateFilter = {}): Candidate[] {
  const { where, params } = candidateWhere(filter);
  const rows = ws.store.all<CandidateRow>(
    `SELECT ${CANDIDATE_COLUMNS} FROM candidates ${where}
     ORDER BY CASE status WHEN 'pending' THEN 0 WHEN 'approved' THEN 1 ELSE 2 END, created_at DESC, id LIMIT ?`,
    [...params, filter.limit ?? 1000],
  );
  return rows.map(fromRow);
}

export function getCandidate(ws: Workspace, id: string): Candidate {
  const row = ws.store.get<CandidateRow>(`SELECT ${CANDIDATE_COLUMNS} FROM candidates WHERE id = ?`, [id.trim()]);
  if (row) return fromRow(row);
  const ids = ws.store.all<{ id: string }>(
    "SELECT id FROM candidates WHERE status = 'pending' ORDER BY created_at DESC LIMIT 200",
  ).map((r) => r.id);
  throw new AutoSnippetError(
    'CANDIDATE_NOT_FOUND',
    `There is no candidate "${id}".`,
    ids.length
      ? `Pending candidates include: ${
        closestNames(id, ids, 5).join(', ')
      }. list_candidates… or the Candidates view lists them.`
      : 'There are no pending candidates.',
  );
}

/**
 * Changes a pending candidate's content (an agent filling in what `enrich_candidates` asked for, or
 * a person editing it before approval). Approved and rejected candidates are decided: refused.
 */
export async function updateCandidate(
  ws: Workspace,
  id: string,
  patch: Partial<CandidateInput>,
  actor: Actor,
): Promise<Candidate> {
  const current = getCandidate(ws, id);
  if (current.status !== 'pending') {
    throw new AutoSnippetError(
      'INVALID_TRANSITION',
      `Candidate ${id} is ${current.status}; only pending candidates can be changed.`,
      current.status === 'approved'
        ? 'Edit the recipe file it was promoted to instead.'
        : 'Submit a new candidate instead.',
    );
  }
  const merged: CandidateInput = {
    ...stripCandidate(current),
    ...definedOnly(patch),
    reasoning: { ...current.reasoning, ...definedOnly(patch.reasoning ?? {}) },
    origin: current.origin,
  };
  const next = {
    ...normalizeCandidate(merged, current.createdBy, current.createdAt),
    id: current.id,
    status: current.status,
  };
  await ws.store.transaction((tx) => {
    const clash = tx.get<{ id: string }>('SELECT id FROM candidates WHERE fingerprint = ? AND id <> ?', [
      next.fingerprint,
      current.id,
    ]);
    if (clash) {
      throw new AutoSnippetError(
        'DUPLICATE',
        `With these changes candidate ${id} would be the same as candidate ${clash.id}.`,
        `Reject one of them, or change the title or code.`,
        { existing: clash.id },
      );
    }
    tx.run('DELETE FROM candidates WHERE id = ?', [current.id]);
    insertCandidate(tx, next);
    recordTransition(tx, {
      entity: 'candidate',
      id: current.id,
      from: 'pending',
      to: 'pending',
      actor,
      at: new Date().toISOString(),
      reason: `edited: ${Object.keys(definedOnly(patch)).join(', ')}`,
    });
  });
  await backUpCandidates(ws);
  return next;
}

// ---- rows ----

export const CANDIDATE_COLUMNS =
  'id, fingerprint, status, title, kind, language, category, origin, confidence, created_by, created_at, decided_by, decided_at, recipe_id, data';

export interface CandidateRow {
  id: string;
  fingerprint: string;
  status: string;
  title: string;
  kind: string;
  language: string;
  category: string;
  origin: string;
  confidence: number;
  created_by: string;
  created_at: string;
  decided_by: string | null;
  decided_at: string | null;
  recipe_id: string | null;
  data: string;
}

function insertCandidate(tx: Tx, c: Candidate): void {
  const data = JSON.stringify({ ...stripCandidate(c), reasoning: c.reasoning, rejectionReason: c.rejectionReason });
  tx.run(
    `INSERT INTO candidates (id, fingerprint, status, title, kind, language, category, origin, confidence, created_by, created_at, decided_by, decided_at, recipe_id, data)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      c.id,
      c.fingerprint,
      c.status,
      c.title,
      c.kind,
      c.language,
      c.category,
      c.origin,
      c.reasoning.confidence,
      c.createdBy,
      c.createdAt,
      c.decidedBy ?? null,
      c.decidedAt ?? null,
      c.recipeId ?? null,
      data,
    ],
  );
}

export function fromRow(r: CandidateRow): Candidate {
  const data = JSON.parse(r.data) as KnowledgeContent & { reasoning: CandidateReasoning; rejectionReason?: string };
  const c: Candidate = {
    ...data,
    id: r.id,
    kind: r.kind as Candidate['kind'],
    status: r.status as CandidateStatus,
    origin: r.origin,
    createdBy: r.created_by,
    createdAt: r.created_at,
    fingerprint: r.fingerprint,
  };
  if (r.decided_by) c.decidedBy = r.decided_by;
  if (r.decided_at) c.decidedAt = r.decided_at;
  if (r.recipe_id) c.recipeId = r.recipe_id;
  if (!data.rejectionReason) delete c.rejectionReason;
  return c;
}

/** The content fields of a candidate, as a CandidateInput. */
export function stripCandidate(c: Candidate): CandidateInput & KnowledgeContent {
  const {
    id: _id,
    kind: _kind,
    status: _s,
    reasoning: _r,
    origin: _o,
    createdBy: _cb,
    createdAt: _ca,
    decidedBy: _db,
    decidedAt: _da,
    rejectionReason: _rr,
    recipeId: _ri,
    fingerprint: _f,
    ...content
  } = c;
  return content;
}

function languageFromSources(sources: string[]): string | undefined {
  for (const s of sources) {
    const lang = languageForPath(s.replace(/:\d+(?:-\d+)?$/, ''));
    if (lang) return lang;
  }
  return undefined;
}

export function normalizeTitle(t: string): string {
  return t.trim().toLowerCase();
}

function uniq<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.max(0, Math.min(1, x)) : 0.5;
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function assignDefined<T extends object>(target: T, values: Partial<T>): void {
  for (const [k, v] of Object.entries(values)) if (v !== undefined) (target as Record<string, unknown>)[k] = v;
}
