import type { KnowledgeContent, QualityScores, UsageStats } from './types';
import { KNOWLEDGE_TYPES } from './types';

/**
 * `@` then letters, digits, `_`, `.` or `-`. ASCII first: the same answer for an ASCII trigger (the
 * only ASCII characters in \p{L} and \p{N} are A–Z, a–z and 0–9), where the Unicode classes cost a
 * few microseconds per test, once per recipe indexed.
 */
export function isTriggerShape(trigger: string): boolean {
  return /^@[A-Za-z0-9_.-]+$/.test(trigger) || /^@[\p{L}\p{N}_.-]+$/u.test(trigger);
}

export interface ContentQuality {
  completeness: number;
  clarity: number;
  evidence: number;
  /** What would raise the score, in words a person or an agent can act on. */
  gaps: string[];
}

/**
 * Scores what a recipe says, from its content alone: is everything a reader needs there
 * (completeness), is it easy to take in (clarity), is it backed by the code base (evidence).
 */
export function contentQuality(c: Partial<KnowledgeContent> & { title: string }): ContentQuality {
  const gaps: string[] = [];
  const kind = c.knowledgeType ? KNOWLEDGE_TYPES[c.knowledgeType] : 'pattern';
  const has = (ok: boolean, gap: string) => {
    if (!ok) gaps.push(gap);
    return ok ? 1 : 0;
  };
  const summaryLen = (c.summary ?? '').trim().length;
  const completenessParts = [
    has(summaryLen >= 20, 'a summary of at least one full sentence'),
    kind === 'fact' ? 1 : has(!!c.code?.trim(), 'the code, in a fenced block'),
    has(!!c.usageGuide?.trim(), 'a usage guide: when to use it and when not'),
    has(!!c.rationale?.trim(), 'the rationale: why the project does it this way'),
    has((c.tags?.length ?? 0) > 0, 'tags'),
    has(!!c.language && c.language !== 'text', 'the language'),
  ];
  const completeness = avg(completenessParts);

  const titleLen = c.title.trim().length;
  const clarityParts = [
    titleLen >= 8 && titleLen <= 80 ? 1 : (gaps.push('a title of 8–80 characters that names the thing'), 0.3),
    summaryLen === 0
      ? 0
      : summaryLen <= 400
      ? 1
      : (gaps.push('a shorter summary (at most ~400 characters; details go in the usage guide)'), 0.5),
    (c.code?.split('\n').length ?? 0) <= 80
      ? 1
      : (gaps.push('shorter code: the essential part, at most ~80 lines'), 0.5),
    c.trigger && isTriggerShape(c.trigger) ? 1 : 0.5,
  ];
  const clarity = avg(clarityParts);

  const sources = c.sourceFiles?.length ?? 0;
  if (sources === 0) gaps.push('source files (`path:line`) where the project does this');
  const evidence = Math.min(1, sources / 3) * 0.8 + (c.relations && Object.keys(c.relations).length ? 0.2 : 0);
  return { completeness: round(completeness), clarity: round(clarity), evidence: round(evidence), gaps };
}

export function contentScore(q: ContentQuality): number {
  return round(0.5 * q.completeness + 0.3 * q.clarity + 0.2 * q.evidence);
}

/** Adoption from usage: how much people and agents actually use it, 0..1, saturating. */
export function adoptionScore(u: UsageStats | undefined): number {
  if (!u) return 0;
  const positive = u.adoptions * 3 + u.applications * 2 + u.views * 0.25 + u.helpful * 2 - u.unhelpful * 3;
  return round(Math.max(0, 1 - Math.exp(-positive / 12)));
}

export function qualityScores(q: ContentQuality, u: UsageStats | undefined): QualityScores {
  const adoption = adoptionScore(u);
  return {
    overall: round(0.8 * contentScore(q) + 0.2 * adoption),
    completeness: q.completeness,
    clarity: q.clarity,
    evidence: q.evidence,
    adoption,
  };
}

function avg(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}
